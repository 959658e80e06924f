"""The ``parmst`` command line: argument mapping only; the work lives in the library.

One module per command (``solve``, ``emst``, ``generate``, ``convert``, ``verify``,
``warmup``, ``info``; ``bench`` in :mod:`parmst.bench.cli`), the arguments in
:mod:`~parmst.cli.arguments`, the files a command reads and writes in
:mod:`~parmst.cli.files`, report printing in :mod:`~parmst.cli.report`, and
``solve`` with an mpi solver, on every rank, in :mod:`~parmst.cli.mpi`.
:func:`main` maps errors to exit statuses: 2 for a bad input or option, 1 for
a failed check, 130 when interrupted.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from parmst.cli.arguments import build_parser
from parmst.cli.report import cli_words
from parmst.cli.warmup import cmd_warmup
from parmst.errors import ParmstError

__all__ = ["build_parser", "main"]


def _announce_compilation() -> None:
    print("parmst: compiling kernels (first run only; 'parmst warmup' does it ahead of time)",
          file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # bench's options load the benchmark suites: only a command line naming bench needs them.
    parser = build_parser(bench_options="bench" in argv)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="parmst: %(message)s")
    if args.handler is not cmd_warmup and sys.stderr.isatty():
        from parmst._jit import on_slow_compilation

        on_slow_compilation(_announce_compilation)
    try:
        return int(args.handler(args) or 0)
    except (ParmstError, OSError) as exc:
        print(f"parmst: error: {cli_words(str(exc))}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # the size checks before allocations make this a last resort
        print(f"parmst: error: out of memory ({exc or 'no details'}); the input is too large "
              "for this machine", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("parmst: interrupted", file=sys.stderr)
        return 130
