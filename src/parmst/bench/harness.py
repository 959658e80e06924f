"""The benchmark driver: time solvers and peers on graphs, verifying every result.

For each graph the harness computes the reference forest with
``kruskal/serial`` and proves it with :func:`parmst.verify` once. Then each
chosen solver runs once as a warm-up (JIT compilation, device start-up) and
``scheme.runs`` times timed, the solvers' runs interleaved round-robin so that
load changes on a shared machine hit all of them alike; every run's edge ids
must equal the reference's exactly, or the solver's record becomes
``"MISMATCH"``, loses its times and makes the run fail. Peers (SciPy, NetworkX, igraph, cuGraph) run the same
number of times in a worker process, within a time budget per run, and their
total weight must equal the reference's.
"""

from __future__ import annotations

import fnmatch
import gc
import logging
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from parmst import registry
from parmst.api import minimum_spanning_forest
from parmst.bench.machine import load_average, machine_info
from parmst.bench.peers import PEERS, PeerRunner, resolve_peers
from parmst.bench.report import REFERENCE, BenchResult, GraphInfo, Record
from parmst.bench.suites import BenchGraph, default_cache_dir, get_suite, load_graph
from parmst.bench.timing import KBEST, MEDIAN, Scheme, pick, select
from parmst.errors import UnknownSolverError
from parmst.graph import Graph
from parmst.stats import Stats

__all__ = ["choose_solvers", "run"]

log = logging.getLogger(__name__)

# A dense-matrix solver is left out by default when its n-by-n matrix would
# hold this many times more entries than the graph has edges (and n is not tiny):
# it would measure the allocation, not the algorithm. Naming it runs it anyway.
_DENSE_BLOWUP = 64
_DENSE_ALWAYS_OK = 4096


@dataclass(frozen=True)
class _Variant:
    solver: registry.Solver
    threads: int | None
    explicit: bool

    @property
    def options(self) -> dict[str, Any]:
        return {} if self.threads is None else {"threads": self.threads}


def choose_solvers(patterns: Sequence[str] | None = None
                   ) -> tuple[list[registry.Solver], dict[str, str]]:
    """The solvers to time, and why each registered one left out cannot run here.

    ``patterns`` are solver names or shell-style patterns (``"*/cpu"``);
    ``None`` means every solver that can run on this machine.

    Examples
    --------
    >>> chosen, _ = choose_solvers(["kruskal/*"])
    >>> [s.name for s in chosen]
    ['kruskal/serial']
    """
    table = registry.solvers()
    unavailable = {}
    if patterns is None:
        chosen = []
        for solver in table.values():
            ok = solver.can_run()
            if ok is True:
                chosen.append(solver)
            else:
                unavailable[solver.name] = ok
        return chosen, unavailable
    names: list[str] = []
    for pattern in patterns:
        matches = fnmatch.filter(table, pattern)
        if not matches:
            raise UnknownSolverError(f"no registered solver matches {pattern!r}; "
                                     f"registered solvers: {', '.join(table)}")
        names.extend(m for m in matches if m not in names)
    return [table[name] for name in names], unavailable


def _variants(solvers: list[registry.Solver], threads: Sequence[int] | None,
              explicit: bool) -> list[_Variant]:
    out = []
    for solver in solvers:
        counts = threads if threads and "threads" in solver.options else [None]
        out.extend(_Variant(solver, t, explicit) for t in counts)
    return out


def _skip_reason(variant: _Variant, graph: Graph) -> str | None:
    ok = variant.solver.can_run(graph)
    if ok is not True:
        return ok
    n, m = graph.num_vertices, graph.num_edges
    if (not variant.explicit and variant.solver.algorithm.startswith("prim-dense")
            and n > _DENSE_ALWAYS_OK and n * n > _DENSE_BLOWUP * max(m, 1)):
        return (f"dense-matrix solver on a sparse graph (n^2 = {n * n:,} entries for {m:,} "
                "edges); name it with --solver to run it anyway")
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


def _id_difference(got: np.ndarray, want: np.ndarray) -> str:
    missing = np.setdiff1d(want, got)
    extra = np.setdiff1d(got, want)
    where = f"first missing id {missing[0]}" if len(missing) else f"first extra id {extra[0]}"
    return (f"edge ids differ from {REFERENCE}: {len(missing)} missing, {len(extra)} extra "
            f"({where}; {len(got)} edges vs {len(want)})")


def _timed_solve(graph: Graph, solve: Callable[..., Any], options: dict[str, Any]
                 ) -> tuple[np.ndarray, Stats, float]:
    """One call of a solver's solve function on a cold graph; sorted edge ids, stats, seconds.

    The graph's cached views are dropped first, so initialization is measured
    every time. The clock covers the solve function alone (the API's option
    checks and the Forest assembly stay outside), with the garbage collector
    off, as in :mod:`timeit`.
    """
    graph.clear_cache()
    stats = Stats()
    gc.disable()
    try:
        start = time.perf_counter()
        edge_ids = solve(graph, stats, **options)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return np.sort(np.asarray(edge_ids, dtype=np.int64)), stats, elapsed


def _finish(record: Record, scheme: Scheme, phases: list[dict[str, float]]) -> None:
    selection = select(record.times, scheme)
    record.time = selection.value
    record.converged = selection.converged
    if record.init_times:
        record.init_time = pick(record.init_times, selection, scheme)
        record.compute_time = pick(record.compute_times, selection, scheme)
    names = sorted({name for run in phases for name in run})
    record.phases = {name: pick([run.get(name, 0.0) for run in phases], selection, scheme)
                     for name in names}


@dataclass
class _Timing:
    """A solver being timed on one graph: its record, callable, options and phases so far."""

    record: Record
    solve: Callable[..., Any]
    options: dict[str, Any]
    phases: list[dict[str, float]] = field(default_factory=list)


def _one_run(graph: Graph, timing: _Timing, reference: np.ndarray, run: int, runs: int,
             bar) -> None:
    """Run 0 is the warm-up; a failure or a wrong answer ends this solver's runs."""
    record = timing.record
    bar.set_postfix_str(f"{record.graph} {record.label}", refresh=False)
    try:
        edge_ids, stats, elapsed = _timed_solve(graph, timing.solve, timing.options)
    except Exception as exc:
        log.exception("%s failed on %s", record.label, record.graph)
        record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
    else:
        if not np.array_equal(edge_ids, reference):
            record.status = "MISMATCH"
            record.note = _id_difference(edge_ids, reference) + f" (run {run})"
            log.error("MISMATCH: %s on %s: %s", record.label, record.graph, record.note)
    if record.status != "ok":
        record.times, record.init_times, record.compute_times = [], [], []
        bar.update(runs + 1 - run)
        return
    bar.update(1)
    record.rounds, record.worklist_sizes = stats.rounds, list(stats.worklist_sizes)
    record.device, record.threads_used = stats.device, stats.threads
    if run == 0:
        record.warmup_time = elapsed  # JIT compilation or loading, device start-up
        return
    record.times.append(elapsed)
    record.init_times.append(stats.init_time)
    record.compute_times.append(stats.compute_time)
    timing.phases.append(dict(stats.phases))


def _time_solvers(graph: Graph, name: str, variants: list[_Variant], reference: np.ndarray,
                  scheme: Scheme, bar) -> list[Record]:
    """Time every variant on ``graph``, interleaving their runs round-robin.

    Interleaving (all warm-ups, then run 1 of every solver, then run 2, ...)
    spreads a change in machine load over all solvers alike, so their ratios
    stay fair on a shared machine.
    """
    records, timings = [], []
    for variant in variants:
        record = Record(graph=name, solver=variant.solver.name, threads=variant.threads,
                        options=variant.options)
        records.append(record)
        reason = _skip_reason(variant, graph)
        if reason is not None:
            record.status, record.note = "skipped", reason
            bar.update(scheme.runs + 1)
            continue
        timings.append(_Timing(record, variant.solver.load(),
                               {**variant.solver.options, **variant.options}))
    gc.collect()  # once per graph: a full collection costs ~0.1 s here
    for run in range(scheme.runs + 1):
        for timing in timings:
            if timing.record.status == "ok":
                _one_run(graph, timing, reference, run, scheme.runs, bar)
    for timing in timings:
        if timing.record.status == "ok":
            _finish(timing.record, scheme, timing.phases)
    return records


def _same_weight(theirs: float, ours: float, integer: bool) -> bool:
    if integer and abs(ours) < 2**53:
        return theirs == ours
    return math.isclose(theirs, ours, rel_tol=1e-9, abs_tol=1e-12)


def _time_peer(graph: Graph, info: GraphInfo, peer_name: str, explicit: bool,
               runner: PeerRunner, scheme: Scheme, bar) -> Record:
    peer = PEERS[peer_name]
    record = Record(graph=info.name, solver=peer_name, kind="peer")
    bar.set_postfix_str(f"{info.name} {peer_name}", refresh=False)
    if not peer.installed():
        record.status, record.note = "skipped", f"{peer.module} is not installed"
    elif (not explicit and peer.default_max_edges is not None
          and graph.num_edges > peer.default_max_edges):
        record.status, record.note = "skipped", (
            f"{graph.num_edges:,} edges is over its default limit of "
            f"{peer.default_max_edges:,} (ask for it with --peers to try within the budget)")
    elif peer.needs_nonzero_weights and graph.num_edges and not graph.weight.all():
        record.status, record.note = "skipped", "the graph has weight-0 edges, which it drops"
    if record.status == "skipped":
        bar.update(scheme.runs + 1)
        return record
    outcome = runner.run(peer_name, graph.src, graph.dst, graph.weight, graph.num_vertices,
                         scheme.runs)
    bar.update(scheme.runs + 1)
    if outcome.skipped or outcome.error:
        record.status = "skipped" if outcome.skipped else "error"
        record.note = outcome.skipped or outcome.error
        return record
    record.times = outcome.times
    record.total_weight = outcome.total_weight
    record.weight_ok = _same_weight(outcome.total_weight, info.total_weight,
                                    graph.weight.dtype.kind in "iu")
    if not record.weight_ok:
        record.status, record.times = "MISMATCH", []
        record.note = f"total weight {outcome.total_weight!r}, ours {info.total_weight!r}"
        log.error("MISMATCH: peer %s on %s: %s", peer_name, info.name, record.note)
        return record
    _finish(record, scheme, [])
    record.init_time = outcome.prepare_time  # building its graph object, not in `time`
    return record


def _reference(graph: Graph, info: GraphInfo) -> np.ndarray:
    from parmst.verify import verify

    forest = minimum_spanning_forest(graph, REFERENCE)
    verdict = verify(graph, forest)
    info.verified = bool(verdict)
    if not verdict:
        info.verify_message = str(verdict)
        log.error("reference forest of %s failed verification: %s", info.name, verdict)
    info.num_components = forest.num_components
    info.total_weight = forest.total_weight
    return forest.edge_ids


def _inputs(graphs: Iterable[str | Graph | BenchGraph] | None,
            suite: str | None) -> list[BenchGraph | tuple[str, Graph]]:
    items: list[BenchGraph | tuple[str, Graph]] = []
    if suite is not None:
        items.extend(get_suite(suite).graphs)
    for i, item in enumerate(graphs or ()):
        if isinstance(item, Graph):
            items.append((f"graph{i}", item))
        elif isinstance(item, BenchGraph):
            items.append(item)
        else:
            name = os.path.basename(item) if os.path.exists(item) else item
            items.append(BenchGraph(name, item))
    if not items:
        raise ValueError("nothing to benchmark: give graphs (files or generator specs) "
                         "or a suite")
    return items


def run(graphs: Iterable[str | Graph | BenchGraph] | None = None,
        solvers: Sequence[str] | None = None, *, suite: str | None = None,
        peers: Sequence[str] | None = None, repeat: int | None = None, kbest: bool = False,
        threads: Sequence[int] | None = None,
        cache_dir: str | os.PathLike | None = None, cache: bool = True,
        budget: float = 30.0, progress: bool = True, label: str | None = None,
        name: str | None = None, command: str | None = None) -> BenchResult:
    """Benchmark solvers and peers on graphs, verifying every result.

    Parameters
    ----------
    graphs : iterable of str, Graph or BenchGraph
        Graph files, generator specs (``"rmat:scale=14,seed=1"``) or graphs.
    solvers : sequence of str, optional
        Solver names or patterns (``"*/cpu"``); default every solver that can
        run here (dense-matrix solvers only where the matrix is not much
        larger than the graph).
    suite : str, optional
        A named suite from :data:`parmst.bench.suites.SUITES`, run before ``graphs``.
    peers : sequence of str, optional
        ``scipy``, ``networkx`` (or ``networkx-kruskal`` etc.), ``igraph``,
        ``cugraph``; ``["none"]`` for none. Default: those installed, NetworkX
        only on graphs up to 20,000 edges.
    repeat : int, optional
        Timed runs after the warm-up; default 9 (5 with ``kbest``).
    kbest : bool
        Report seed 003's k-best (best of the 3 fastest of 5, within 5 %)
        instead of the median.
    threads : sequence of int, optional
        Run solvers that take ``threads`` once per count (a scaling sweep).
    cache_dir : path, optional
        Where generated graphs are cached (default ``$PARMST_CACHE`` or
        ``~/.cache/parmst/graphs``).
    cache : bool
        False to generate graphs afresh and cache nothing.
    budget : float
        Seconds a peer may take per run (and to build its graph) before it is
        stopped and skipped with a note.
    progress : bool
        Show a progress bar over graphs x solvers x runs.
    label : str, optional
        A name for the machine in the report.
    name : str, optional
        The report's name (file stem ``bench_<name>``); the suite's by default.
    command : str, optional
        The command line, recorded in the report.

    Returns
    -------
    BenchResult

    Examples
    --------
    >>> import parmst, parmst.bench
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> result = parmst.bench.run([g], ["kruskal/serial"], peers=["none"], repeat=2,
    ...                           progress=False)
    >>> result.records[0].status, len(result.records[0].times)
    ('ok', 2)
    """
    from tqdm.auto import tqdm

    if repeat is not None and repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    base = KBEST if kbest else MEDIAN
    scheme = Scheme(base.kind, repeat or base.runs, min(base.k, repeat or base.runs),
                    base.tolerance)
    items = _inputs(graphs, suite)
    if cache:
        cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    else:
        cache_dir = None
    chosen, unavailable = choose_solvers(solvers)
    variants = _variants(chosen, threads, explicit=solvers is not None)
    peer_names, peers_explicit = resolve_peers(list(peers) if peers is not None else None)
    suite_info = get_suite(suite) if suite is not None else None
    result = BenchResult(machine=machine_info(label), config={
        "name": name or (suite_info.name if suite_info else "custom"),
        "suite": suite, "paper": suite_info.paper if suite_info else "",
        "size_series": bool(suite_info and suite_info.size_series),
        "scheme": asdict(scheme), "scheme_text": scheme.describe(),
        "threads": list(threads) if threads else None, "budget": budget,
        "solvers": [s.name for s in chosen], "peers": peer_names,
        "unavailable": unavailable, "command": command})
    total = len(items) * (len(variants) + len(peer_names)) * (scheme.runs + 1)
    with PeerRunner(budget) as runner, tqdm(total=total, desc="bench", unit="run",
                                            disable=not progress) as bar:
        for item in items:
            if isinstance(item, BenchGraph):
                bar.set_postfix_str(f"loading {item.name}")
                graph = load_graph(item.spec, cache_dir)
                name_, source, stands_for = item.name, item.spec, item.stands_for
            else:
                (name_, graph), source, stands_for = item, "in-memory graph", ""
            info = GraphInfo(name_, source, graph.num_vertices, graph.num_edges,
                             graph.weight.dtype.name, stands_for)
            result.graphs.append(info)
            reference = _reference(graph, info)
            result.records.extend(_time_solvers(graph, name_, variants, reference, scheme,
                                                bar))
            for peer_name in peer_names:
                result.records.append(_time_peer(graph, info, peer_name, peers_explicit,
                                                 runner, scheme, bar))
            del graph
    result.machine["load_average_end"] = load_average()
    return result
