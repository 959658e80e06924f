"""``parmst emst``: read or generate points, build their minimum spanning tree, write it.

The tree is the Euclidean one, or with ``--min-samples K`` HDBSCAN's
mutual-reachability tree. ``-o`` writes SciPy's single-linkage matrix for
``.npy``, the tree's pair ids for ``.ids``, and the tree's edges (point ids
and distances) in any graph format otherwise (``.npz``, ``.txt``, ...).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from parmst._text import plural
from parmst.cli.files import check_input, check_output, check_writable, say_wrote, write_ids
from parmst.cli.report import print_report
from parmst.errors import ParmstError

LINKAGE_SUFFIX = ".npy"
IDS_SUFFIX = ".ids"


def _points(args: argparse.Namespace) -> np.ndarray:
    """The points of ``FILE`` or ``--generate SPEC``."""
    check_input(args, "a point FILE (.npy, .csv, .parquet)")
    if args.generate:
        if args.columns is not None:
            raise ParmstError("--columns picks columns of a point FILE, not of --generate")
        from parmst.generators.points import generate_points

        return generate_points(args.generate)
    from parmst.io.points import read_points

    return read_points(args.file, columns=args.columns)


def _check_output(out: Path) -> None:
    """Fail before any work if ``-o`` cannot be written in the format its name says."""
    check_writable(out, "--output")
    if out.suffix not in (LINKAGE_SUFFIX, IDS_SUFFIX):
        check_output(out, None, None)


def _write(forest, out: Path) -> None:
    if out.suffix == LINKAGE_SUFFIX:
        np.save(out, forest.to_linkage())
        what = f"single-linkage matrix, {plural(forest.num_edges, 'row')}"
    elif out.suffix == IDS_SUFFIX:
        write_ids(out, forest.edge_ids)
        what = plural(forest.num_edges, "tree edge id")
    else:
        forest.write(out)
        what = plural(forest.num_edges, "tree edge")
    say_wrote(out, what)


def cmd_emst(args: argparse.Namespace) -> int:
    import parmst
    from parmst._jit import compile_seconds

    compiled_before = compile_seconds()
    out = Path(args.output) if args.output else None
    if out is not None:
        _check_output(out)
    points = _points(args)
    try:
        forest = parmst.euclidean_mst(points, solver=args.solver, min_samples=args.min_samples,
                                      threads=args.threads)
    except ParmstError:
        raise
    except ValueError as exc:  # option values the solvers check (threads=0)
        raise ParmstError(f"{args.solver}: {exc}") from exc
    s = forest.stats
    report = {
        "solver": forest.solver,
        "points": points.shape[0],
        "dimension": points.shape[1],
        "min_samples": args.min_samples,
        "tree_edges": forest.num_edges,
        "total_weight": forest.total_weight,
        "init_time_s": s.init_time,
        "compute_time_s": s.compute_time,
        "compile_time_s": compile_seconds() - compiled_before,
    }
    if args.min_samples is None:
        del report["min_samples"]
    if args.stats:
        report.update({k: v for k, v in s.as_dict().items()
                       if k not in ("init_time", "compute_time", "compile_time")})
    if args.verify:
        verdict = parmst.verify_points(points, forest, min_samples=args.min_samples)
        if not verdict:
            print(f"parmst: {verdict}", file=sys.stderr)
            return 1
        report["verified"] = True
    print_report(report, args.json)
    if out is not None:
        _write(forest, out)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``emst`` command's arguments."""
    parser.add_argument("file", nargs="?", help="point file: .npy, .csv (header optional) or "
                                                ".parquet, one point a row")
    parser.add_argument("--generate", metavar="SPEC",
                        help='generate the points, e.g. "uniform-points:n=100000,d=3,seed=1"')
    parser.add_argument("--columns", metavar="A,B,...",
                        help="coordinate columns of the file, by name or 0-based position "
                             "(all by default)")
    parser.add_argument("--min-samples", type=int, metavar="K",
                        help="HDBSCAN's mutual-reachability tree with core distances to the "
                             "K-th nearest point, the point itself counted (as scikit-learn)")
    parser.add_argument("--solver", default="auto", help="point solver id or auto")
    parser.add_argument("--threads", type=int, help="threads for multi-core solvers")
    parser.add_argument("--output", "-o",
                        help=".npy: SciPy's single-linkage matrix; .ids: the tree's pair ids; "
                             "any graph format (.npz, .txt, ...): the tree's edges")
    parser.add_argument("--verify", action="store_true", help="check the tree independently")
    parser.add_argument("--stats", action="store_true", help="print phases, rounds, threads")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=cmd_emst)
