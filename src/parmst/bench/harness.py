"""The benchmark driver: time solvers, peers and file formats on graphs, verifying every result.

For each graph the harness computes the reference forest with
``kruskal/serial`` and proves it with :func:`parmst.verify` once. Then each
chosen solver variant (a solver with its options, once per value of a sweep
such as ``threads``) runs once as a warm-up (JIT compilation, device
start-up; on the graph, or with ``warmup="prefix"`` on its first
:data:`WARMUP_PREFIX_EDGES` edges) and ``scheme.runs`` times timed, the variants' runs interleaved
round-robin so that load changes on a shared machine hit all of them alike;
every run's edge ids must equal the reference's exactly, or the record
becomes ``"MISMATCH"``, loses its times and makes the run fail. Peers (SciPy,
NetworkX, igraph, cuGraph, ECL-MST's binary) run the same number of times in a
worker process, within a time budget per run, and their total weight must
equal the reference's (ECL-MST, which prints no weight, must pass its own
edge-for-edge check against its serial Kruskal instead). File formats are
written and read back the same number of times; the file read back must hold
exactly the graph's edges. Scan sizes run Sun and Skadron's prefix-scan
experiment after the graphs (:mod:`parmst.bench.scan`).

A sweep is a solver option run once per value (``threads=1,2,4``) for every
solver that takes it. The ``ranks`` sweep runs each mpi solver under
``mpiexec`` once per rank count (:mod:`parmst.bench.mpi`), after the
interleaved runs.
"""

from __future__ import annotations

import fnmatch
import gc
import itertools
import logging
import math
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from parmst import registry
from parmst.api import minimum_spanning_forest
from parmst.bench.machine import load_average, machine_info
from parmst.bench.peers import PEERS, PeerRunner, resolve_peers
from parmst.bench.report import MEASURES, REFERENCE, BenchResult, GraphInfo, Record
from parmst.bench.suites import BenchGraph, Suite, default_cache_dir, get_suite, load_graph
from parmst.bench.timing import KBEST, MEDIAN, Scheme, pick, select
from parmst.errors import GraphFormatError, UnknownOptionError, UnknownSolverError
from parmst.graph import Graph
from parmst.keyvalue import parse_pairs
from parmst.stats import Stats

__all__ = ["choose_solvers", "parse_solver_spec", "run", "split_specs"]

log = logging.getLogger(__name__)

# A dense-matrix solver is left out by default when its n-by-n matrix would
# hold this many times more entries than the graph has edges (and n is not tiny):
# it would measure the allocation, not the algorithm. Naming it runs it anyway.
_DENSE_BLOWUP = 64
_DENSE_ALWAYS_OK = 4096

WARMUP_PREFIX_EDGES = 1 << 16
"""Edges of a ``warmup="prefix"`` warm-up: enough for every kernel to run, few enough that
a slow baseline's warm-up costs nothing next to its timed runs on a 128 M-edge graph."""


@dataclass(frozen=True)
class _Variant:
    """A solver with fixed options (``variant`` is their text) and this run's sweep values."""

    solver: registry.Solver
    options: dict[str, Any]
    variant: str
    explicit: bool
    ranks: int | None = None  # an mpi solver under mpiexec with this many ranks

    @property
    def threads(self) -> int | None:
        return self.options.get("threads")


def split_specs(values: Iterable[str]) -> list[str]:
    """Split comma-separated solver specs, keeping commas inside ``[...]`` options.

    Examples
    --------
    >>> split_specs(["kruskal/serial,ecl/gpu[init=hybrid,filter=false]", "*/cpu"])
    ['kruskal/serial', 'ecl/gpu[init=hybrid,filter=false]', '*/cpu']
    """
    specs = []
    for value in values:
        depth, start = 0, 0
        for i, char in enumerate(value + ","):
            depth += {"[": 1, "]": -1}.get(char, 0)
            if char == "," and depth == 0:
                if value[start:i].strip():
                    specs.append(value[start:i].strip())
                start = i + 1
    return specs


def parse_solver_spec(spec: str) -> tuple[str, dict[str, Any], str]:
    """``"ecl/gpu[launch=persistent,filter=false]"`` -> pattern, options, options' text.

    Values read as booleans (``true``/``false``), ``none``, integers or
    floats where they can, otherwise as strings.

    Examples
    --------
    >>> parse_solver_spec("ecl/gpu[launch=per-round,filter=false]")
    ('ecl/gpu', {'launch': 'per-round', 'filter': False}, 'launch=per-round,filter=false')
    >>> parse_solver_spec("*/cpu")
    ('*/cpu', {}, '')
    """
    pattern, bracket, rest = spec.partition("[")
    if not bracket:
        return spec, {}, ""
    if not rest.endswith("]"):
        raise ValueError(f"solver spec {spec!r}: options go in brackets, e.g. "
                         "'ecl/gpu[launch=persistent,filter=false]'")
    text = rest[:-1]
    options = parse_pairs(text.split(","), f"solver spec {spec!r}")
    return pattern.strip(), options, text


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
        matches = [name for name in table if fnmatch.fnmatchcase(name, pattern)]
        if not matches:
            raise UnknownSolverError(f"no registered solver matches {pattern!r}; "
                                     f"registered solvers: {', '.join(table)}")
        names.extend(m for m in matches if m not in names)
    return [table[name] for name in names], unavailable


def _variants(specs: Sequence[str] | None, sweeps: Mapping[str, Sequence[Any]],
              explicit: bool, ranks: Sequence[int] = ()
              ) -> tuple[list[_Variant], list[registry.Solver], dict[str, str]]:
    """Solver variants to time: each spec's solvers with its options, times each sweep value.

    A sweep (``{"threads": [1, 2, 4]}``) applies to the solvers that take
    that option and whose spec does not fix it; the ``ranks`` sweep applies
    to the mpi solvers, instead of the sweeps (their threads per rank follow
    from the rank count, :mod:`parmst.bench.mpi`).
    """
    parsed = [parse_solver_spec(spec) for spec in specs] if specs is not None else None
    solvers, unavailable = choose_solvers(None if parsed is None else [p for p, _, _ in parsed])
    out = []
    for pattern, options, text in parsed if parsed is not None else [("*", {}, "")]:
        matches = [s for s in solvers if fnmatch.fnmatchcase(s.name, pattern)]
        for solver in matches:
            unknown = sorted(set(options) - set(solver.options))
            if unknown:
                raise UnknownOptionError(
                    f"solver {solver.name} has no option {', '.join(map(repr, unknown))}; "
                    f"its options: {', '.join(solver.options) or 'none'}")
            if ranks and solver.backend == "mpi":
                out.extend(_Variant(solver, options, text, explicit, r) for r in ranks)
                continue
            swept = [(name, values) for name, values in sweeps.items()
                     if values and name in solver.options and name not in options]
            for combination in itertools.product(*(values for _, values in swept)):
                out.append(_Variant(solver, {**options, **dict(zip((n for n, _ in swept),
                                                                  combination))},
                                    text, explicit))
    return out, solvers, unavailable


def _skip_reason(variant: _Variant, graph: Graph) -> str | None:
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


def _clocked(action: Callable[[], Any]) -> tuple[Any, float, float]:
    """``action()``, its wall-clock seconds and this process's CPU seconds (all threads).

    The garbage collector is off meanwhile, as in :mod:`timeit`.
    """
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        value = action()
        return value, time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.enable()


def _timed_solve(graph: Graph, solve: Callable[..., Any], options: dict[str, Any]
                 ) -> tuple[np.ndarray, Stats, float, float]:
    """One call of a solver's solve function on a cold graph.

    Returns the sorted edge ids, the stats, wall-clock and CPU seconds. The
    graph's cached views are dropped first, so initialization is measured
    every time. The clock covers the solve function alone (the API's option
    checks and the Forest assembly stay outside).
    """
    graph.clear_cache()
    stats = Stats()
    edge_ids, elapsed, cpu = _clocked(lambda: solve(graph, stats, **options))
    return np.sort(np.asarray(edge_ids, dtype=np.int64)), stats, elapsed, cpu


def _finish(record: Record, scheme: Scheme, phases: list[dict[str, float]]) -> None:
    selection = select(record.times, scheme)
    record.time = selection.value
    record.converged = selection.converged
    if record.init_times:
        record.init_time = pick(record.init_times, selection, scheme)
        record.compute_time = pick(record.compute_times, selection, scheme)
    if record.cpu_times:
        record.cpu_time = pick(record.cpu_times, selection, scheme)
    names = sorted({name for run in phases for name in run})
    record.phases = {name: pick([run.get(name, 0.0) for run in phases], selection, scheme)
                     for name in names}


@dataclass
class _Timing:
    """A solver being timed on one graph: its record, callable, options and phases so far."""

    record: Record
    solve: Callable[..., Any]
    options: dict[str, Any]
    exact: bool = True
    phases: list[dict[str, float]] = field(default_factory=list)


def _wrong_answer(graph: Graph, edge_ids: np.ndarray, reference: np.ndarray, exact: bool,
                  record: Record) -> str | None:
    """What is wrong with a result, or None.

    An exact solver must return the reference ids. An approximate one (the
    registry's ``exact=False``) must return a spanning forest, proven by
    :func:`parmst.verify` with only minimality allowed to fail; how much
    heavier than the minimum it is goes into the record as
    ``excess_weight_percent``.
    """
    if exact:
        return None if np.array_equal(edge_ids, reference) else _id_difference(edge_ids,
                                                                                reference)
    from parmst.forest import exact_sum
    from parmst.verify import verify

    failed = set(verify(graph, edge_ids, max_listed=1).failed_checks) - {"minimal"}
    if failed:
        return f"not a spanning forest (failed: {', '.join(sorted(failed))})"
    optimum = exact_sum(graph.weight[reference])
    excess = exact_sum(graph.weight[edge_ids]) - optimum
    record.extra["excess_weight_percent"] = float(100 * excess / abs(optimum)) if optimum \
        else float(excess)
    return None


def _one_run(graph: Graph, timing: _Timing, reference: np.ndarray, run: int, runs: int,
             bar) -> None:
    """Run 0 is the warm-up; a failure or a wrong answer ends this solver's runs."""
    record = timing.record
    bar.set_postfix_str(f"{record.graph} {record.label}", refresh=False)
    try:
        edge_ids, stats, elapsed, cpu = _timed_solve(graph, timing.solve, timing.options)
    except Exception as exc:
        log.exception("%s failed on %s", record.label, record.graph)
        record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
    else:
        problem = _wrong_answer(graph, edge_ids, reference, timing.exact, record)
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


def _time_solvers(graph: Graph, name: str, variants: list[_Variant], reference: np.ndarray,
                  scheme: Scheme, bar, folder: Path, budget: float,
                  after_launch: Callable[[list[Record]], None] | None = None) -> list[Record]:
    """Time every variant on ``graph``, interleaving their runs round-robin.

    Interleaving (all warm-ups, then run 1 of every solver, then run 2, ...)
    spreads a change in machine load over all solvers alike, so their ratios
    stay fair on a shared machine. Variants of the ranks sweep run last, one
    mpiexec launch each, within ``budget`` seconds per run; ``after_launch``
    gets this graph's records after each launch (to save them as they come).
    """
    records, timings, launches = [], [], []
    for variant in variants:
        record = Record(graph=name, solver=variant.solver.name,
                        threads=None if variant.ranks else variant.threads,
                        options=variant.options, variant=variant.variant, ranks=variant.ranks)
        records.append(record)
        reason = _skip_reason(variant, graph)
        if reason is not None:
            record.status, record.note = "skipped", reason
            bar.update(scheme.runs + 1)
            continue
        if variant.ranks is not None:
            launches.append((record, variant))
            continue
        timings.append(_Timing(record, variant.solver.load(),
                               {**variant.solver.options, **variant.options},
                               exact=variant.solver.exact))
    gc.collect()  # once per graph: a full collection costs ~0.1 s here
    warm_graph, warm_reference = _warmup_graph(graph, reference, scheme) if timings else (
        graph, reference)
    for run in range(scheme.runs + 1):
        for timing in timings:
            if timing.record.status == "ok":
                _one_run(warm_graph if run == 0 else graph, timing,
                         warm_reference if run == 0 else reference, run, scheme.runs, bar)
    for timing in timings:
        if timing.record.status == "ok":
            _finish(timing.record, scheme, timing.phases)
    if launches:
        from parmst.bench.mpi import graph_file, time_ranks

        files = graph_file(graph, name, reference, folder)
        for record, variant in launches:
            bar.set_postfix_str(f"{name} {record.label}", refresh=False)
            phases = time_ranks(record, variant.solver.name, variant.solver.options,
                                variant.options, files, scheme.runs,
                                timeout=60 + budget * (scheme.runs + 1))
            if record.status == "ok":
                _finish(record, scheme, phases)
            else:
                record.clear_times()
            bar.update(scheme.runs + 1)
            if after_launch is not None:
                after_launch(records)
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
        record.status, record.note = "skipped", peer.missing()
    elif (not explicit and peer.default_max_edges is not None
          and graph.num_edges > peer.default_max_edges):
        record.status, record.note = "skipped", (
            f"{graph.num_edges:,} edges is over its default limit of "
            f"{peer.default_max_edges:,} (ask for it with --peers to try within the budget)")
    elif peer.needs_nonzero_weights and graph.num_edges and not graph.weight.all():
        record.status, record.note = "skipped", "the graph has weight-0 edges, which it drops"
    elif peer.weights_as is not None and not np.array_equal(
            graph.weight.astype(peer.weights_as).astype(graph.weight.dtype), graph.weight):
        record.status, record.note = "skipped", (
            f"it reads weights as {peer.weights_as}, which would round some of this graph's "
            f"{graph.weight.dtype.name} weights")
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
    if peer.times_compute_only:
        record.extra["own_timer"] = True  # its computation alone: compared with our compute
    if peer.finds_tree:  # a reference timing without a tree (reading the input) is not compared
        record.total_weight = outcome.total_weight
        if peer.checks_itself and outcome.total_weight is None:
            record.weight_ok = True  # its forest equals its own serial one, so its weight is ours
            record.note = "exact by its own check against its serial Kruskal"
        else:
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


def _canonical_edges(graph: Graph) -> tuple[np.ndarray, ...]:
    """The graph's edges as a sorted multiset of (smaller end, larger end, weight)."""
    low, high = np.minimum(graph.src, graph.dst), np.maximum(graph.src, graph.dst)
    order = np.lexsort((graph.weight, high, low))
    return low[order], high[order], graph.weight[order]


def _same_edges(back: Graph, graph: Graph) -> str | None:
    """Why the graph read back differs from the one written, or None.

    Formats may reorder edges (``egr`` is a CSR), swap endpoints or widen
    dtypes, and PBBS files do not store trailing isolated vertices; the edges
    themselves, with their weights, must come back unchanged.
    """
    if back.num_edges != graph.num_edges:
        return f"read back {back.num_edges:,} edges, wrote {graph.num_edges:,}"
    if back.num_vertices > graph.num_vertices:
        return f"read back {back.num_vertices:,} vertices, wrote {graph.num_vertices:,}"
    for what, got, want in zip(("endpoints", "endpoints", "weights"), _canonical_edges(back),
                               _canonical_edges(graph)):
        if not np.array_equal(got, want):
            return f"the {what} read back differ from those written"
    return None


def _time_format(graph: Graph, name: str, fmt: str, folder: Path, scheme: Scheme,
                 bar) -> list[Record]:
    """Write ``graph`` in format ``fmt`` and read it back: a warm-up, then timed runs.

    The warm-up's file is read back and compared with the graph; the read
    runs come right after a write, so they measure parsing from the page
    cache, not the disk.
    """
    from parmst import io

    write = Record(graph=name, solver=f"{fmt} write", kind="io")
    read = Record(graph=name, solver=f"{fmt} read", kind="io")
    path = folder / f"graph{io.FORMATS[fmt].extensions[0]}"
    bar.set_postfix_str(f"{name} {fmt}", refresh=False)
    try:
        for run in range(scheme.runs + 1):
            _, write_wall, write_cpu = _clocked(
                lambda: io.write(graph, path, format=fmt, progress=False))
            back, read_wall, read_cpu = _clocked(
                lambda: io.read(path, format=fmt, progress=False))
            bar.update(1)
            if run == 0:
                write.warmup_time, read.warmup_time = write_wall, read_wall
                size = path.stat().st_size
                write.extra["file_bytes"] = read.extra["file_bytes"] = size
                problem = _same_edges(back, graph)
                if problem is not None:
                    for record in (write, read):
                        record.status, record.note = "MISMATCH", problem
                    log.error("MISMATCH: format %s on %s: %s", fmt, name, problem)
                    bar.update(scheme.runs)
                    return [write, read]
                continue
            for record, wall, cpu in ((write, write_wall, write_cpu), (read, read_wall, read_cpu)):
                record.times.append(wall)
                record.cpu_times.append(cpu)
            del back
    except GraphFormatError as exc:  # the format cannot hold this graph (egr: int32 only)
        for record in (write, read):
            record.status, record.note = "skipped", exc.detail
        bar.update(scheme.runs + 1 - len(write.times))
        return [write, read]
    except Exception as exc:
        log.exception("format %s failed on %s", fmt, name)
        for record in (write, read):
            record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
            record.clear_times()
        return [write, read]
    finally:
        path.unlink(missing_ok=True)
    for record in (write, read):
        _finish(record, scheme, [])
    return [write, read]


def _warmup_graph(graph: Graph, reference: np.ndarray,
                  scheme: Scheme) -> tuple[Graph, np.ndarray]:
    """The graph the warm-up run solves and its reference forest (``scheme.warmup``)."""
    if scheme.warmup == "graph" or graph.num_edges <= WARMUP_PREFIX_EDGES:
        return graph, reference
    keep = slice(0, WARMUP_PREFIX_EDGES)
    prefix = Graph(graph.src[keep], graph.dst[keep], graph.weight[keep], graph.num_vertices)
    return prefix, minimum_spanning_forest(prefix, REFERENCE).edge_ids


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


def _inputs(graphs: Iterable[str | Graph | BenchGraph] | None, suite: Suite | None,
            only: Sequence[str] | None = None,
            scans: bool = False) -> list[BenchGraph | tuple[str, Graph]]:
    items: list[BenchGraph | tuple[str, Graph]] = []
    if suite is not None:
        names = [g.name for g in suite.graphs]
        unknown = [name for name in only or () if name not in names]
        if unknown:
            raise ValueError(f"suite {suite.name} has no graph {unknown[0]!r}; its graphs: "
                             f"{', '.join(names)}")
        items.extend(g for g in suite.graphs if only is None or g.name in only)
    elif only is not None:
        raise ValueError("only= picks graphs of a suite: give a suite too")
    for i, item in enumerate(graphs or ()):
        if isinstance(item, Graph):
            items.append((f"graph{i}", item))
        elif isinstance(item, BenchGraph):
            items.append(item)
        else:
            name = os.path.basename(item) if os.path.exists(item) else item
            items.append(BenchGraph(name, item))
    if not items and not scans:
        raise ValueError("nothing to benchmark: give graphs (files or generator specs), "
                         "scan sizes or a suite")
    return items


def _pick(given: Any, suite: Suite | None, setting: str, default: Any = None) -> Any:
    """A setting given by the caller, else the suite's, else ``default``."""
    if given is not None:
        return given
    value = getattr(suite, setting) if suite is not None else None
    return default if value is None else value


def _peer_records(peer_names: list[str], explicit: bool) -> dict[str, str]:
    """Why each peer that would have run is missing: named ones, and default ones with an extra."""
    if explicit:
        return {name: PEERS[name].missing() for name in peer_names if not PEERS[name].installed()}
    return {name: peer.missing() for name, peer in PEERS.items()
            if peer.extra is not None and not peer.installed()}


def run(graphs: Iterable[str | Graph | BenchGraph] | None = None,
        solvers: Sequence[str] | None = None, *, suite: str | None = None,
        peers: Sequence[str] | None = None, repeat: int | None = None, kbest: bool = False,
        only: Sequence[str] | None = None, threads: Sequence[int] | None = None,
        ranks: Sequence[int] | None = None, measure: str | None = None,
        baseline: str | None = None, formats: Sequence[str] | None = None,
        scans: Sequence[int] | None = None, opencl_device: Any = None,
        cache_dir: str | os.PathLike | None = None, cache: bool = True,
        budget: float = 30.0, time_limit: float | None = None, progress: bool = True,
        label: str | None = None, name: str | None = None, command: str | None = None,
        after_graph: Callable[[BenchResult], None] | None = None,
        warmup: str | None = None) -> BenchResult:
    """Benchmark solvers, peers and file formats on graphs, verifying every result.

    Parameters
    ----------
    graphs : iterable of str, Graph or BenchGraph
        Graph files, generator specs (``"rmat:scale=14,seed=1"``) or graphs.
    solvers : sequence of str, optional
        Solver names or patterns (``"*/cpu"``), each optionally with solver
        options in brackets (``"ecl/gpu[launch=persistent,filter=false]"``);
        default the suite's, else every solver that can run here
        (dense-matrix solvers only where the matrix is not much larger than
        the graph).
    suite : str, optional
        A named suite from :data:`parmst.bench.suites.SUITES`, run before
        ``graphs``; its settings apply where the arguments are None.
    only : sequence of str, optional
        Run only these of the suite's graphs (by name).
    peers : sequence of str, optional
        ``scipy``, ``networkx`` (or ``networkx-kruskal`` etc.), ``igraph``,
        ``networkit``, ``cugraph``, ``pbbs``; ``["none"]`` for none. Default:
        the suite's, else those installed, NetworkX only on graphs up to 20,000 edges.
    repeat : int, optional
        Timed runs after the warm-up; default 9 (5 with ``kbest``).
    kbest : bool
        Report Sousa's k-best (best of the 3 fastest of 5, within 5 %)
        instead of the median.
    threads : sequence of int, optional
        Run solvers that take ``threads`` once per count (a scaling sweep).
    ranks : sequence of int, optional
        Run the mpi solvers under ``mpiexec`` once per rank count, one launch
        each (:mod:`parmst.bench.mpi`); ``budget`` seconds per run bound a
        launch.
    measure : {"time", "compute"}, optional
        What throughput and speedups divide by: the whole solve
        (initialization and computation; the default) or the computation
        alone (for GPU solvers: graph already on the device, as ECL-MST's timer).
    baseline : str, optional
        The solver whose time speedups are taken against (default ``kruskal/serial``).
    formats : sequence of str, optional
        File formats (:data:`parmst.io.FORMATS`) whose write and read-back
        speed is timed on every graph.
    scans : sequence of int, optional
        Sizes in MiB of uint32 for Sun and Skadron's prefix-scan experiment
        (:mod:`parmst.bench.scan`), run after the graphs.
    opencl_device : int or str, optional
        The OpenCL device of the scan experiment and of every solver that
        takes ``device`` without fixing it in brackets (index or name, as
        :func:`parmst.opencl.prefix_scan`'s ``device``).
    cache_dir : path, optional
        Where generated graphs are cached (default ``$PARMST_CACHE`` or
        ``~/.cache/parmst/graphs``).
    cache : bool
        False to generate graphs afresh and cache nothing.
    budget : float
        Seconds a peer (or an mpi launch) may take per run (and to build its
        graph) before it is stopped and skipped with a note.
    time_limit : float, optional
        Seconds after which no further graph is started (the rest are listed
        as not run), so a run under a wall-clock limit keeps what it measured.
    progress : bool
        Show a progress bar over graphs x solvers x runs.
    label : str, optional
        A name for the machine in the report.
    name : str, optional
        The report's name (file stem ``bench_<name>``); the suite's by default.
    command : str, optional
        The command line, recorded in the report.
    after_graph : callable, optional
        Called with the result so far after each graph, and after each mpiexec
        launch of the ranks sweep (to save it as it grows).
    warmup : {"graph", "prefix"}, optional
        What each solver's untimed warm-up run solves: the graph (default,
        or the suite's) or its first :data:`WARMUP_PREFIX_EDGES` edges.

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

    from parmst import io

    if repeat is not None and repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    suite_info = get_suite(suite) if suite is not None else None
    measure = _pick(measure, suite_info, "measure", "time")
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    formats = list(_pick(formats, suite_info, "formats", ()))
    unknown = [f for f in formats if f not in io.FORMATS]
    if unknown:
        raise ValueError(f"unknown format {unknown[0]!r}; formats: {', '.join(io.FORMATS)}")
    base = KBEST if kbest else MEDIAN
    scheme = Scheme(base.kind, repeat or base.runs, min(base.k, repeat or base.runs),
                    base.tolerance, _pick(warmup, suite_info, "warmup", "graph"))
    scans = [int(mb) for mb in _pick(scans, suite_info, "scans", ())]
    if any(mb < 1 for mb in scans):
        raise ValueError(f"scan sizes are whole MiB of at least 1, got {scans}")
    items = _inputs(graphs, suite_info, only, scans=bool(scans))
    if cache:
        cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
    else:
        cache_dir = None
    specs = _pick(solvers, suite_info, "solvers")
    threads = _pick(threads, suite_info, "threads")
    ranks = _pick(ranks, suite_info, "ranks")
    sweeps = {"threads": threads or (),
              "device": () if opencl_device is None else (opencl_device,)}
    variants, chosen, unavailable = _variants(specs, sweeps, explicit=solvers is not None,
                                              ranks=ranks or ())
    peers = _pick(peers, suite_info, "peers")
    peer_names, peers_explicit = resolve_peers(list(peers) if peers is not None else None)
    reference_figures = suite_info.reference if suite_info else None
    result = BenchResult(machine=machine_info(label), config={
        "name": name or (suite_info.name if suite_info else "custom"),
        "suite": suite, "paper": suite_info.paper if suite_info else "",
        "size_series": bool(suite_info and suite_info.size_series),
        "scheme": asdict(scheme), "scheme_text": scheme.describe(),
        "warmup_text": scheme.describe_warmup(WARMUP_PREFIX_EDGES),
        "threads": list(threads) if threads else None, "budget": budget,
        "ranks": list(ranks) if ranks else None,
        "measure": measure, "baseline": _pick(baseline, suite_info, "baseline", REFERENCE),
        "reference": asdict(reference_figures) if reference_figures else None,
        "solvers": [s.name for s in chosen], "peers": peer_names, "formats": formats,
        "scans": scans, "opencl_device": opencl_device,
        "unavailable": unavailable, "skipped_peers": _peer_records(peer_names, peers_explicit),
        "skipped_graphs": {}, "command": command})
    total = ((len(items) * (len(variants) + len(peer_names) + len(formats)) + len(scans))
             * (scheme.runs + 1))
    started = time.perf_counter()
    with (PeerRunner(budget) as runner,
          tempfile.TemporaryDirectory(prefix="parmst-bench-io-") as folder,
          tqdm(total=total, desc="bench", unit="run", disable=not progress) as bar):
        for item in items:
            name_ = item.name if isinstance(item, BenchGraph) else item[0]
            if time_limit is not None and time.perf_counter() - started > time_limit:
                result.config["skipped_graphs"][name_] = (
                    f"not started: the time limit of {time_limit:g} s was spent")
                continue
            if isinstance(item, BenchGraph):
                bar.set_postfix_str(f"loading {item.name}")
                try:
                    graph = load_graph(item.spec, cache_dir)
                except ImportError as exc:  # a generator's optional dependency
                    result.config["skipped_graphs"][name_] = str(exc)
                    log.info("graph %s skipped: %s", name_, exc)
                    continue
                source, stands_for = item.spec, item.stands_for
            else:
                graph, source, stands_for = item[1], "in-memory graph", ""
            info = GraphInfo(name_, source, graph.num_vertices, graph.num_edges,
                             graph.weight.dtype.name, stands_for)
            result.graphs.append(info)
            if variants or peer_names:
                reference = _reference(graph, info)
                partial = None if after_graph is None else (
                    lambda records: after_graph(replace(result, records=result.records
                                                        + records)))
                result.records.extend(_time_solvers(graph, name_, variants, reference, scheme,
                                                    bar, Path(folder), budget, partial))
            for peer_name in peer_names:
                result.records.append(_time_peer(graph, info, peer_name, peers_explicit,
                                                 runner, scheme, bar))
            for fmt in formats:
                result.records.extend(_time_format(graph, name_, fmt, Path(folder), scheme,
                                                   bar))
            del graph
            if after_graph is not None:
                after_graph(result)
        if scans:
            from parmst.bench.scan import time_scans

            result.records.extend(time_scans(scans, scheme, opencl_device, bar))
    result.machine["load_average_end"] = load_average()
    return result
