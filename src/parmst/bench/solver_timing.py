"""Solvers in the harness: every variant on one graph, warmed up, timed, checked.

Each variant runs once as a warm-up (JIT compilation, device start-up; on the
graph, or with ``warmup="prefix"`` on its first :data:`WARMUP_PREFIX_EDGES`
edges) and ``scheme.runs`` times timed, the variants' runs interleaved
round-robin so that load changes on a shared machine hit all of them alike.
Every run's edge ids must equal the reference's exactly, or the record
becomes ``"MISMATCH"``, loses its times and makes the run fail. Variants of
the ``ranks`` sweep run after the interleaved runs, one ``mpiexec`` launch
each (:mod:`parmst.bench.mpi`).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from parmst import registry
from parmst.api import minimum_spanning_forest
from parmst.bench.placement import Placed, place
from parmst.bench.result import REFERENCE, Record
from parmst.bench.solver_calls import timed_call, timed_solve, wrong_answer
from parmst.bench.specs import Variant
from parmst.bench.timing import Scheme, finish
from parmst.graph import Graph

__all__ = ["WARMUP_PREFIX_EDGES", "skip_reason", "time_solvers"]

log = logging.getLogger(__name__)

# A dense-matrix solver is left out by default when its n-by-n matrix would
# hold this many times more entries than the graph has edges (and n is not tiny):
# it would measure the allocation, not the algorithm. Naming it runs it anyway.
_DENSE_BLOWUP = 64
_DENSE_ALWAYS_OK = 4096

WARMUP_PREFIX_EDGES = 1 << 16
"""Edges of a ``warmup="prefix"`` warm-up: enough for every kernel to run, few enough that
a slow baseline's warm-up costs nothing next to its timed runs on a 128 M-edge graph."""


def skip_reason(variant: Variant, graph: Graph) -> str | None:
    """Why ``variant`` cannot be timed on ``graph`` here, or None."""
    ok = variant.solver.can_run(graph, variant.options)
    if ok is not True:
        return ok
    if variant.ranks is not None:
        from parmst.bench.mpi import mpi_skip_reason

        return mpi_skip_reason()
    n, m = graph.num_vertices, graph.num_edges
    if (not variant.explicit and variant.solver.algorithm.startswith("prim-dense")
            and n > _DENSE_ALWAYS_OK and n * n > _DENSE_BLOWUP * max(m, 1)):
        return (f"dense-matrix solver on a sparse graph (n^2 = {n * n:,} entries for {m:,} "
                "edges); name it with --solver to run it anyway")
    return loading_skip_reason(variant)


def loading_skip_reason(variant: Variant) -> str | None:
    """Why ``variant`` cannot run in this process whatever its input: more threads than
    Numba allows, or an import that fails; None if it can."""
    if variant.threads is not None:
        import numba

        if variant.threads > numba.config.NUMBA_NUM_THREADS:
            return (f"numba allows at most {numba.config.NUMBA_NUM_THREADS} threads here "
                    "(set NUMBA_NUM_THREADS before starting Python)")
    try:
        variant.solver.load()
    except ImportError as exc:
        return f"cannot be imported: {exc}"
    return None


@dataclass
class _Timing:
    """A solver being timed on one graph: its record, one timed call, and phases so far."""

    record: Record
    call: Callable[[Any], tuple[np.ndarray, Any, float, float]]
    exact: bool = True
    phases: list[dict[str, float]] = field(default_factory=list)
    reference_name: str = REFERENCE


def _timing(record: Record, variant: Variant, end_to_end: bool) -> _Timing:
    """The timed call of ``variant``: its solve function, or the whole public call."""
    solver = variant.solver
    if end_to_end:
        def call(placed: Placed) -> tuple[np.ndarray, Any, float, float]:
            return timed_call(placed, solver.name, variant.options)
    else:
        _, solve = registry.prepare(solver.name, None, variant.options)

        def call(placed: Placed) -> tuple[np.ndarray, Any, float, float]:
            return timed_solve(placed, solve)
    return _Timing(record, call, exact=solver.exact)


def _one_run(graph: Graph, placed: Placed, timing: _Timing, reference: np.ndarray, run: int,
             runs: int, bar) -> None:
    """Run 0 is the warm-up; a failure or a wrong answer ends this solver's runs."""
    record = timing.record
    bar.set_postfix_str(f"{record.graph} {record.label}", refresh=False)
    try:
        edge_ids, stats, elapsed, cpu = timing.call(placed)
    except Exception as exc:
        log.exception("%s failed on %s", record.label, record.graph)
        record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
    else:
        problem = wrong_answer(graph, edge_ids, reference, timing.exact, record,
                               timing.reference_name)
        if problem is not None:
            record.status = "MISMATCH"
            record.note = problem + f" (run {run})"
            log.error("MISMATCH: %s on %s: %s", record.label, record.graph, record.note)
    if record.status != "ok":
        record.clear_times()
        bar.update(runs + 1 - run)
        return
    bar.update(1)
    record.rounds, record.worklist_sizes = stats.rounds, list(stats.worklist_sizes)
    record.device, record.threads_used = stats.device, stats.threads
    # Solver-specific figures of the latest run (device memory, end-to-end time, ...).
    record.extra.update({key: value for key, value in stats.extra.items()
                         if isinstance(value, (bool, int, float, str))})
    if run == 0:
        record.warmup_time = elapsed  # JIT compilation or loading, device start-up
        return
    record.times.append(elapsed)
    record.cpu_times.append(cpu)
    record.init_times.append(stats.init_time)
    record.compute_times.append(stats.compute_time)
    timing.phases.append(dict(stats.phases))


def _warmup_graph(graph: Graph, reference: np.ndarray,
                  scheme: Scheme) -> tuple[Graph, np.ndarray]:
    """The graph the warm-up run solves and its reference forest (``scheme.warmup``)."""
    if scheme.warmup == "graph" or graph.num_edges <= WARMUP_PREFIX_EDGES:
        return graph, reference
    keep = slice(0, WARMUP_PREFIX_EDGES)
    prefix = Graph(graph.src[keep], graph.dst[keep], graph.weight[keep], graph.num_vertices)
    return prefix, minimum_spanning_forest(prefix, REFERENCE).edge_ids


def run_interleaved(timings: list[_Timing], scheme: Scheme,
                    one_run: Callable[[_Timing, int], None]) -> None:
    """Run 0 (the warm-up) of every solver still ok, then run 1 of each, and so on; then
    fill the records of those that stayed ok from their timed runs."""
    for run in range(scheme.runs + 1):
        for timing in timings:
            if timing.record.status == "ok":
                one_run(timing, run)
    for timing in timings:
        if timing.record.status == "ok":
            finish(timing.record, scheme, timing.phases)


def time_solvers(graph: Graph, placed: Placed, name: str, variants: list[Variant],
                 reference: np.ndarray, scheme: Scheme, bar, folder: Path, budget: float,
                 end_to_end: bool = False,
                 after_launch: Callable[[list[Record]], None] | None = None) -> list[Record]:
    """Time every variant on ``graph`` (taken from ``placed``), interleaving their runs.

    Interleaving (all warm-ups, then run 1 of every solver, then run 2, ...)
    spreads a change in machine load over all solvers alike, so their ratios
    stay fair on a shared machine. With ``end_to_end`` each run is the whole
    public call (:func:`~parmst.bench.solver_calls.timed_call`). Variants of
    the ranks sweep run last, one mpiexec launch each, within ``budget``
    seconds per run; ``after_launch`` gets this graph's records after each
    launch (to save them as they come).
    """
    records, timings, launches = [], [], []
    for variant in variants:
        record = Record(graph=name, solver=variant.solver.name,
                        threads=None if variant.ranks else variant.threads,
                        options=variant.options, variant=variant.variant, ranks=variant.ranks)
        records.append(record)
        reason = skip_reason(variant, placed.graph)
        if reason is not None:
            record.status, record.note = "skipped", reason
            bar.update(scheme.runs + 1)
            continue
        if variant.ranks is not None:
            launches.append((record, variant))
            continue
        timings.append(_timing(record, variant, end_to_end))
    gc.collect()  # once per graph: a full collection costs ~0.1 s here
    warm_graph, warm_reference = _warmup_graph(graph, reference, scheme) if timings else (
        graph, reference)
    warm_placed = placed if warm_graph is graph else place(warm_graph,
                                                          "device" if placed.on_device
                                                          else "host")

    def one_run(timing: _Timing, run: int) -> None:
        if run == 0:
            _one_run(warm_graph, warm_placed, timing, warm_reference, run, scheme.runs, bar)
        else:
            _one_run(graph, placed, timing, reference, run, scheme.runs, bar)

    run_interleaved(timings, scheme, one_run)
    if launches:
        from parmst.bench.mpi import graph_file, time_ranks

        files = graph_file(graph, name, reference, folder)
        for record, variant in launches:
            bar.set_postfix_str(f"{name} {record.label}", refresh=False)
            phases = time_ranks(record, variant.solver.name, variant.solver.options,
                                variant.options, files, scheme.runs,
                                timeout=60 + budget * (scheme.runs + 1))
            if record.status == "ok":
                finish(record, scheme, phases)
            else:
                record.clear_times()
            bar.update(scheme.runs + 1)
            if after_launch is not None:
                after_launch(records)
    return records
