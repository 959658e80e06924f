"""``parmst solve``: read or generate a graph, solve it, print the report, write the forest."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parmst.cli.files import check_input, check_output, check_writable, load_graph, write_output
from parmst.cli.report import print_report
from parmst.errors import ParmstError, VerificationError
from parmst.keyvalue import parse_pairs


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """The solver options of the repeated ``--option KEY=VALUE``."""
    try:
        return parse_pairs(pairs, "--option")
    except ValueError as exc:
        raise ParmstError(str(exc)) from None


def _generation_device(solver: str, options: dict) -> int | None:
    """Where ``--generate`` builds the graph: on the GPU of a GPU solver (its ``device``
    option, else device 0), else on the host (None)."""
    from parmst import registry

    if solver == "auto" or registry.get(solver).backend not in ("gpu", "multigpu"):
        return None
    device = options.get("device", 0)
    return device if isinstance(device, int) and not isinstance(device, bool) else 0


def cmd_solve(args: argparse.Namespace) -> int:
    import parmst
    from parmst import registry
    from parmst._jit import compile_seconds

    options = parse_options(args.option)
    check_input(args)  # the arguments alone: every mpi rank decides the same
    if args.threads is not None:
        options["threads"] = args.threads
    if args.solver != "auto" and registry.get(args.solver).distributed_entry is not None:
        from parmst.cli.mpi import solve_command

        if args.relabel is not None:
            raise ParmstError("--relabel is not available with the mpi solvers (each rank reads "
                              "only its share of the file); renumber it once with "
                              "'parmst convert --relabel' instead")

        return solve_command(args, options)
    if args.output:  # the mpi ranks may see different folders: they agree on it in their path
        check_writable(Path(args.output), "--output")
    graph, labels = load_graph(args, _generation_device(args.solver, options))
    if args.output:
        check_output(Path(args.output), args.output_format, labels)
    solve = parmst.maximum_spanning_forest if args.maximum else parmst.minimum_spanning_forest
    if args.solver == "auto":
        _, why = registry.explain(graph, options)
        if why == _cold_start_why():
            print(f"parmst: solver kruskal/serial: {why}", file=sys.stderr)
    approximate = args.solver != "auto" and not registry.get(args.solver).exact
    try:
        forest = solve(graph, solver=args.solver, ignore_nan=args.ignore_nan,
                       verify=args.verify and not approximate, **options)
    except VerificationError as failure:
        print(f"parmst: {failure}", file=sys.stderr)
        return 1
    except ParmstError:
        raise
    except ValueError as exc:  # solvers check their option values (threads=0) with ValueError
        raise ParmstError(f"{args.solver}: {exc}") from exc
    s = forest.stats
    report = {
        "solver": forest.solver,
        "num_vertices": graph.num_vertices,
        "num_edges": graph.num_edges,
        "forest_edges": forest.num_edges,
        "components": forest.num_components,
        "total_weight": forest.total_weight,
        "init_time_s": s.init_time,
        "compute_time_s": s.compute_time,
        # The process's, not only the solver's: importing Numba, its one-off setup, and
        # every kernel compiled or loaded from the cache (the reader's too) since it started.
        "compile_time_s": compile_seconds(),
    }
    if args.stats:
        report.update({k: v for k, v in s.as_dict().items()
                       if k not in ("init_time", "compute_time", "compile_time")})
    if args.verify and approximate:
        verdict = approximate_verdict(graph, forest, args.maximum, args.ignore_nan)
        if verdict is None:
            return 1
        report["verified"] = verdict
    elif args.verify:
        report["verified"] = True
    print_report(report, args.json)
    write_output(forest, args)
    return 0


def approximate_verdict(graph: Any, forest: Any, maximum: bool, ignore_nan: bool) -> str | None:
    """``--verify`` for an approximate solver: "a spanning forest, X % heavier than the minimum"
    (lighter than the maximum with ``--maximum``), or None after printing why it is not a
    spanning forest.

    Only minimality may fail: an approximate solver promises a spanning forest, and
    how far it is from the optimum (kruskal/serial's) is its quality, not an error.
    """
    import parmst
    from parmst.verify.approximate import excess_percent, spanning_failures

    failed = spanning_failures(graph, forest)
    if failed:
        print(f"parmst: verification failed: the {forest.solver} result is not a spanning "
              f"forest (failed checks: {', '.join(failed)})", file=sys.stderr)
        return None
    solve = parmst.maximum_spanning_forest if maximum else parmst.minimum_spanning_forest
    best = solve(graph, solver="kruskal/serial", ignore_nan=ignore_nan)
    percent = excess_percent(graph, forest.edge_ids, best.edge_ids)
    if maximum:
        return f"a spanning forest, {abs(percent):.4g} % lighter than the maximum"
    return f"a spanning forest, {percent:.4g} % heavier than the minimum"


def _cold_start_why() -> str | None:
    """The "auto" reason given when a parallel solver is passed over for its cold kernels."""
    try:
        from parmst.solvers.cpu import COLD_START_WHY
    except ImportError:  # numba missing: the cpu backend does not load
        return None
    return COLD_START_WHY
