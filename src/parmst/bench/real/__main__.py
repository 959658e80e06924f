"""``python -m parmst.bench.real {fetch,list}``: fill the cache with the real graphs, or
say which are there (see :mod:`parmst.bench.real`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from parmst.bench import real
from parmst.bench.cache_dir import default_cache_dir


def _listing(cache_dir: Path) -> str:
    lines = []
    for graph in real.manifest().values():
        here = "cached" if real.cache_path(graph.name, cache_dir).exists() else "not fetched"
        lines.append(f"{graph.name:22} {graph.format:6} {here:12} {graph.kind}\n"
                     f"{'':22} {graph.repository}@{graph.commit[:12]}:{graph.path}\n")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m parmst.bench.real {fetch,list}``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m parmst.bench.real",
                                     description="Fetch and convert the real graphs of the "
                                                 "'real' benchmark suites.")
    parser.add_argument("command", choices=("fetch", "list"))
    parser.add_argument("names", nargs="*", help="graphs to fetch (default: all)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="the benchmark's graph cache (default: $PARMST_CACHE or "
                             "~/.cache/parmst/graphs)")
    parser.add_argument("--source", type=Path, default=None,
                        help="read the files from DIR/<owner>/<repository>/<path> instead "
                             "of downloading them")
    args = parser.parse_args(argv)
    cache_dir = args.cache_dir if args.cache_dir is not None else default_cache_dir()
    if args.command == "list":
        sys.stdout.write(_listing(cache_dir))
        return 0
    failed = 0
    for name in args.names or list(real.manifest()):
        try:
            sys.stdout.write(f"{name}: {real.fetch(name, cache_dir, args.source)}\n")
        except (OSError, ValueError, real.RealGraphMissing) as exc:
            sys.stderr.write(f"{name}: not fetched: {exc}\n")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
