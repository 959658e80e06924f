"""``parmst warmup``: compile the solvers' kernels ahead of the first solve."""

from __future__ import annotations

import argparse


def cmd_warmup(args: argparse.Namespace) -> int:
    from parmst.warmup import warmup

    backends = args.backend.split(",") if args.backend else None
    report = warmup(backends, progress=not args.quiet)
    width = max(len(name) for name in report)
    for name, outcome in report.items():
        shown = f"{outcome:.2f} s" if isinstance(outcome, float) else outcome
        print(f"{name:<{width}}  {shown}")
    return 0
