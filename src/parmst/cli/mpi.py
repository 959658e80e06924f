"""``parmst solve`` with an mpi solver: collective reading, one report, one output file.

Run on every rank (``mpiexec -n 4 parmst solve g.gr --solver filter-boruvka/mpi``)
or plainly as one rank. Rank 0 prints the report. ``--output`` in ``.npy``,
``.ids`` or an edge list is written by every rank in parallel from its share
of the forest, which is never gathered (:mod:`parmst.distributed.output`);
other formats are written by rank 0 from the gathered forest, with a note.
``--stats`` adds one row per rank (local and communication time,
collectives, messages and bytes sent, edges held, peak resident memory and
its growth since the command started). ``--verify`` runs the distributed
verifier (every rank checks its own edges, no rank reads the whole graph); a
wrong forest is reported once by rank 0 and every rank exits with status 1,
as ``parmst solve`` does. Errors:
an error every rank agrees on (bad file, bad option) is printed once by rank
0 and every rank exits with status 2; any other failure on a rank aborts the
whole job with ``MPI_Abort``, naming the rank, so no rank is left waiting.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from parmst._mpi.channel import Channel, DistributedError, abort, peak_memory_bytes
from parmst._text import plural
from parmst.cli.files import say_wrote, write_output
from parmst.cli.report import print_report
from parmst.errors import ParmstError

RANK_COLUMNS = ("rank", "local_time_s", "comm_time_s", "collectives", "messages", "bytes_sent",
                "held_edges", "peak_memory_bytes", "memory_growth_bytes")


def _load(args: argparse.Namespace, channel: Channel):
    from parmst.distributed import DistributedGraph

    ownership = "block"
    if args.generate:  # every rank generates only its share
        return DistributedGraph.generate(args.generate, channel, ownership=ownership)
    if not args.file:
        raise ParmstError("give a graph FILE or --generate SPEC")
    return DistributedGraph.read(args.file, channel, format=args.format, ownership=ownership,
                                 allow_nan=args.ignore_nan)


def _check(args: argparse.Namespace, options: dict[str, Any]) -> None:
    """Fail, alike on every rank, on what the registry and the mpi solvers refuse."""
    from parmst import registry

    registry.resolve(args.solver, options=options)
    if args.maximum:
        raise ParmstError("--maximum is not offered by the mpi solvers yet")


def _gathers(args: argparse.Namespace, channel: Channel) -> bool:
    """Whether rank 0 gathers the forest: not when the ranks write ``--output`` in parallel
    (``--verify`` checks the shares on the ranks as well as a whole forest)."""
    from parmst.distributed.output import writes_in_parallel

    if not args.output:
        return True
    error, parallel = None, False
    try:
        parallel = writes_in_parallel(args.output, args.output_format)
    except ParmstError as exc:
        error = exc
    channel.agree(error)
    if not parallel and channel.size > 1 and channel.rank == 0:
        print(f"parmst: note: {args.output} is written by rank 0 from the gathered forest; "
              "the ranks write .npy, .ids and edge lists (.txt, .el, .wel, .edges) in "
              "parallel", file=sys.stderr, flush=True)
    return not parallel


def _write_shares(args: argparse.Namespace, forest, channel: Channel) -> None:
    """``--output`` written by every rank from its share of the forest (collective)."""
    from parmst.distributed.output import write_forest

    write_forest(channel, forest, args.output, args.output_format)
    if channel.rank == 0:  # the counts are global on every rank; the edges are shares
        say_wrote(args.output, plural(forest.num_vertices - forest.num_components, "forest edge"))


def _memory_rows(rows: list[dict[str, Any]] | None, start_peak: int,
                 channel: Channel) -> None:
    """Every rank's peak resident memory now, and its growth since ``start_peak`` (the peak
    when the command began), into rank 0's per-rank ``rows`` (collective)."""
    peak = peak_memory_bytes()
    figures = channel.gather_object((peak, peak - start_peak))
    if rows is not None:
        for row, (peak, growth) in zip(rows, figures, strict=True):
            row["peak_memory_bytes"], row["memory_growth_bytes"] = peak, growth


def _run(args: argparse.Namespace, options: dict[str, Any], channel: Channel) -> int:
    import parmst

    start_peak = peak_memory_bytes()
    error = None
    try:
        _check(args, options)
    except ParmstError as exc:
        error = exc
    channel.agree(error)
    gather = _gathers(args, channel)
    dg = _load(args, channel)
    forest = parmst.minimum_spanning_forest(dg, solver=args.solver, ignore_nan=args.ignore_nan,
                                            gather=gather, **options)
    if args.verify:  # collective: each rank checks its own edges; every rank gets one result
        result = parmst.verify(dg, forest)
        if not result.ok:  # alike on every rank, so all stop here
            if channel.rank == 0:
                print(f"parmst: {result}", file=sys.stderr, flush=True)
            return 1
    error = None
    if channel.rank == 0:
        try:
            if gather:
                write_output(forest, args)
        except (ParmstError, OSError, AssertionError) as exc:
            error = exc
    channel.agree(error)
    if not gather:
        _write_shares(args, forest, channel)
    if args.stats:
        _memory_rows(forest.stats.extra.get("ranks"), start_peak, channel)
    if channel.rank != 0:
        return 0
    s = forest.stats
    report = {"solver": forest.solver, "ranks": channel.size, "num_vertices": dg.num_vertices,
              "num_edges": dg.num_edges,
              "forest_edges": forest.num_vertices - forest.num_components,
              "components": forest.num_components, "total_weight": forest.total_weight,
              "init_time_s": s.init_time, "compute_time_s": s.compute_time}
    if args.stats:
        report.update({"rounds": s.rounds, "phases": s.phases,
                       "worklist_sizes": s.worklist_sizes,
                       **{k: v for k, v in s.extra.items() if k not in ("ranks", "rank")}})
        if args.json:
            report["per_rank"] = s.extra["ranks"]
    if args.verify:
        report["verified"] = True
    print_report(report, args.json)
    if args.stats and not args.json:
        print("\nper rank:")
        print("  ".join(f"{c:>14}" for c in RANK_COLUMNS))
        for row in s.extra["ranks"]:
            print("  ".join(f"{row[c]:>14.4f}" if isinstance(row[c], float) else f"{row[c]:>14}"
                            for c in RANK_COLUMNS))
    sys.stdout.flush()
    return 0


def solve_command(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``parmst solve`` for an mpi solver, on every rank; returns the exit status."""
    channel = Channel()
    try:
        return _run(args, options, channel)
    except DistributedError as exc:  # raised on every rank alike
        if channel.rank == 0:
            print(f"parmst: error: {exc}", file=sys.stderr, flush=True)
        return 2
    except BaseException as exc:  # seen by this rank only: the others may be waiting
        if channel.size == 1:
            raise
        abort(channel.comm, f"{type(exc).__name__}: {exc}")
        raise
