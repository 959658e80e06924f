"""The ``parmst`` command's arguments: one subparser per command, each bound to its handler."""

from __future__ import annotations

import argparse
import importlib
import importlib.util

from parmst.cli import emst
from parmst.cli.convert import cmd_convert
from parmst.cli.files import add_column_flags
from parmst.cli.generate import cmd_generate
from parmst.cli.info import cmd_info
from parmst.cli.solve import cmd_solve
from parmst.cli.verify import cmd_verify
from parmst.cli.warmup import cmd_warmup


def _add_relabel(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--relabel", nargs="?", const="sorted", choices=("sorted", "first"),
        help="number sparse vertex ids or names (edge-list, SNAP, CSV and Parquet files) "
             "0..n-1, in increasing order or ('first') by first appearance; output files keep "
             "the file's own ids")


def _version() -> str:
    from parmst import __version__

    return __version__


def build_parser(bench_options: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; ``bench_options=False`` leaves ``bench``'s own options out
    (they import the benchmark suites), for a command line that does not run ``bench``."""
    parser = argparse.ArgumentParser(
        prog="parmst",
        description="Minimum spanning forests of large weighted graphs, fast and verified.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    parser.add_argument("--version", action="version", version=f"parmst {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="compute a minimum spanning forest")
    solve.add_argument("file", nargs="?", help="graph file (format from the extension)")
    solve.add_argument("--generate", metavar="SPEC",
                       help='generate a graph, e.g. "rmat:scale=16"; with a GPU solver '
                            '(ecl/gpu, ...) rmat, kronecker, random-degree, seed000-sparse, '
                            'grid2d and road are generated on the GPU')
    solve.add_argument("--format", help="input format if the extension does not tell")
    _add_relabel(solve)
    add_column_flags(solve)
    solve.add_argument("--solver", default="auto", help="solver id (see 'parmst info') or auto")
    solve.add_argument("--threads", type=int,
                       help="threads for multi-core solvers; with --solver auto, the pick is "
                            "made among the solvers that take threads")
    solve.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="solver option (repeatable)")
    solve.add_argument("--maximum", action="store_true", help="maximum spanning forest instead")
    solve.add_argument("--ignore-nan", action="store_true",
                       help="read NaN weights in the file and leave those edges out")
    solve.add_argument("--output", "-o", help="write the forest: .ids/.npy for edge ids, "
                                              "any graph format for its edges")
    solve.add_argument("--output-format", help="format of --output if the extension does not tell")
    solve.add_argument("--verify", action="store_true", help="check the forest independently")
    solve.add_argument("--stats", action="store_true", help="print phases, rounds, threads")
    solve.add_argument("--json", action="store_true", help="print the report as JSON")
    solve.set_defaults(handler=cmd_solve)

    emst.add_arguments(sub.add_parser(
        "emst", help="minimum spanning tree of points (Euclidean or mutual reachability)"))

    gen = sub.add_parser("generate", help="generate a graph file")
    gen.add_argument("spec", nargs="?", help='family and parameters, e.g. "grid2d:side=512,seed=1"')
    gen.add_argument("--output", "-o", help="file to write (format from the extension)")
    gen.add_argument("--format", help="output format if the extension does not tell")
    gen.add_argument("--list", action="store_true", help="list the generator families")
    gen.set_defaults(handler=cmd_generate)

    conv = sub.add_parser("convert", help="convert a graph file between formats")
    conv.add_argument("input")
    conv.add_argument("output")
    conv.add_argument("--from", dest="from_format", help="input format")
    conv.add_argument("--to", dest="to_format", help="output format")
    _add_relabel(conv)
    add_column_flags(conv)
    conv.add_argument("--labels", metavar="FILE",
                      help="with --relabel: write each new vertex's id in the input, one per line")
    conv.set_defaults(handler=cmd_convert)

    ver = sub.add_parser("verify", help="verify a forest (edge-id file) against a graph")
    ver.add_argument("graph")
    ver.add_argument("forest", help="edge ids, one per line (.ids) or .npy")
    ver.add_argument("--format", help="graph format if the extension does not tell")
    _add_relabel(ver)
    add_column_flags(ver)
    ver.add_argument("--max-listed", type=int, default=10, metavar="K",
                     help="failures listed per check (the rest are counted)")
    ver.set_defaults(handler=cmd_verify)

    warm = sub.add_parser("warmup", help="compile the solvers' kernels ahead of the first solve")
    warm.add_argument("--backend", metavar="B[,B...]",
                      help="only these backends (serial, cpu, gpu, multigpu, opencl, mpi); all by default")
    warm.add_argument("--quiet", action="store_true", help="no progress bar")
    warm.set_defaults(handler=cmd_warmup)

    info = sub.add_parser("info", help="solvers, backends, devices, and why any is unavailable")
    info.add_argument("--explain", metavar="FILE", help="also say what 'auto' picks for FILE")
    info.add_argument("--format", help="format of --explain FILE")
    # SUPPRESS keeps 'parmst -v info' working: a default here would overwrite the main -v.
    info.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                      help="also say what each solver does and log progress details")
    _add_relabel(info)
    info.set_defaults(handler=cmd_info)

    if importlib.util.find_spec("parmst.bench.cli") is not None:
        bench_cli = importlib.import_module("parmst.bench.cli")
        bench = sub.add_parser("bench", help="benchmark solvers and peers on graphs or suites")
        if bench_options:
            bench_cli.add_arguments(bench)
        bench.set_defaults(handler=bench_cli.run)
    return parser
