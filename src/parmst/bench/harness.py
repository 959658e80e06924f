"""The benchmark driver: every graph of a run through solvers, peers and file formats.

Point sets (suites ``emst``, ``emst-mreach``) take the same path with the point
solvers and point peers (:mod:`parmst.bench.point_timing`): the graph solvers and
peers run on graphs, the point ones on point sets.

For each graph the harness computes the reference forest with
``kruskal/serial`` and proves it with :func:`parmst.verify` once. Then it
times the chosen solver variants (:mod:`parmst.bench.solver_timing`), the
peers (:mod:`parmst.bench.peer_timing`) and the file formats
(:mod:`parmst.bench.format_timing`) on it, each result checked against the
reference. A graph runs once per weight transform
(:mod:`parmst.bench.transforms`), and its solvers once per input placement
(:mod:`parmst.bench.placement`). Scan sizes run Sun and Skadron's prefix-scan
experiment after the graphs (:mod:`parmst.bench.scan`); graphs generated on the GPUs
run at several GPU counts (:mod:`parmst.bench.multigpu_scale`).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parmst.api import minimum_spanning_forest
from parmst.bench import solver_timing
from parmst.bench.config import RunConfig
from parmst.bench.format_timing import time_format
from parmst.bench.inputs import default_cache_dir, load_graph, load_points
from parmst.bench.machine import load_average, machine_info
from parmst.bench.multigpu_scale import SCALE_GRAPHS, ScaleGraph, scale_records
from parmst.bench.peer_runner import PeerRunner
from parmst.bench.peer_timing import time_peer, time_point_peer
from parmst.bench.peers import PEERS, resolve_peers
from parmst.bench.placement import place
from parmst.bench.point_timing import (
    place_points,
    point_info,
    point_reference,
    time_point_solvers,
)
from parmst.bench.progress import progress_bar
from parmst.bench.real import RealGraphMissing
from parmst.bench.result import REFERENCE, BenchResult, GraphInfo, Record
from parmst.bench.specs import Variant, variants
from parmst.bench.suite_types import BenchGraph, Suite
from parmst.bench.timing import Scheme, finish
from parmst.bench.transforms import transform
from parmst.bench.weak import (
    EDGES_PER_RANK,
    WEAK_GRAPHS,
    WeakGraph,
    launches_per_series,
    weak_graph_info,
    weak_name,
    weak_records,
)
from parmst.graph import Graph

__all__ = ["run"]

log = logging.getLogger(__name__)


def _reference(graph: Graph, info: GraphInfo) -> np.ndarray:
    """The reference forest's edge ids, verified; its figures go into ``info``."""
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
        names = [g.name for g in suite.graphs] + [weak_name(WEAK_GRAPHS[name])
                                                  for name in suite.weak] + list(suite.gpu_scale)
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
                         "scan sizes, weak-scaling series or a suite")
    return items


def _peer_records(peer_names: list[str], explicit: bool) -> dict[str, str]:
    """Why each peer that would have run is missing: named ones, and default ones with an extra."""
    if explicit:
        return {name: PEERS[name].missing() for name in peer_names if not PEERS[name].installed()}
    return {name: peer.missing() for name, peer in PEERS.items()
            if peer.extra is not None and not peer.installed()}


def _checkpoint(config: RunConfig, result: BenchResult
                ) -> Callable[[list[Record]], None] | None:
    """What hands ``after_graph`` the result so far with a graph's records as they come."""
    if config.after_graph is None:
        return None
    before = list(result.records)
    return lambda records: config.after_graph(dataclasses.replace(result,
                                                                  records=before + records))


def run(config: RunConfig) -> BenchResult:
    """Benchmark solvers, peers and file formats as ``config`` says, verifying every result.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> result = run(RunConfig([g], ["kruskal/serial"], peers=["none"], repeat=2,
    ...                        weights=["given", "ranked"], progress=False))
    >>> [(r.graph, r.status, len(r.times)) for r in result.records]
    [('graph0', 'ok', 2), ('graph0~ranked', 'ok', 2)]
    """
    config.check()
    suite_info = config.suite_info
    scheme = config.scheme
    formats = list(config.setting("formats", ()))
    scans = [int(mb) for mb in config.setting("scans", ())]
    weights = list(config.setting("weights", ("given",)))
    placements = list(config.setting("placements", ("host",)))
    end_to_end = bool(config.setting("end_to_end", False))
    weak = _weak_graphs(config)
    scale = _scale_graphs(config)
    items = _inputs(config.graphs, suite_info, config.only,
                    scans=bool(scans) or bool(weak) or bool(scale))
    cache_dir = None
    if config.cache:
        cache_dir = config.cache_dir if config.cache_dir is not None else default_cache_dir()
    threads, ranks = config.setting("threads"), config.setting("ranks")
    sweeps = {"threads": threads or (),
              "device": () if config.opencl_device is None else (config.opencl_device,)}
    timed, chosen, unavailable = variants(config.setting("solvers"), sweeps,
                                          explicit=config.solvers is not None,
                                          ranks=ranks or ())
    peers = config.setting("peers")
    peer_names, peers_explicit = resolve_peers(list(peers) if peers is not None else None)
    reference_figures = suite_info.reference if suite_info else None
    result = BenchResult(machine=machine_info(config.label), config={
        "name": config.name or (suite_info.name if suite_info else "custom"),
        "suite": config.suite, "paper": suite_info.paper if suite_info else "",
        "size_series": bool(suite_info and suite_info.size_series),
        "scheme": asdict(scheme), "scheme_text": scheme.describe(),
        "warmup_text": scheme.describe_warmup(solver_timing.WARMUP_PREFIX_EDGES),
        "threads": list(threads) if threads else None, "budget": config.budget,
        "ranks": list(ranks) if ranks else None,
        "weak": [g.name for g in weak],
        "edges_per_rank": config.setting("edges_per_rank", EDGES_PER_RANK) if weak else None,
        "measure": config.setting("measure", "time"),
        "baseline": config.setting("baseline", REFERENCE),
        "reference": asdict(reference_figures) if reference_figures else None,
        "solvers": [s.name for s in chosen], "peers": peer_names, "formats": formats,
        "scans": scans, "opencl_device": config.opencl_device,
        "weights": weights, "placements": placements, "end_to_end": end_to_end,
        "unavailable": unavailable, "skipped_peers": _peer_records(peer_names, peers_explicit),
        "skipped_graphs": {}, "command": config.command,
        "point_sets": any(isinstance(item, BenchGraph) and item.is_points for item in items)})
    per_graph = len(placements) * len(timed) + len(peer_names) + len(formats)
    launches = [v for v in timed if v.ranks is not None]
    total = (len(items) * len(weights) * per_graph + len(scans)
             + len(weak) * launches_per_series(launches)) * (scheme.runs + 1)
    started = time.perf_counter()
    with (PeerRunner(config.budget) as runner,
          tempfile.TemporaryDirectory(prefix="parmst-bench-io-") as folder,
          progress_bar(total, config.progress) as bar):
        plan = _Plan(config, scheme, timed, peer_names, peers_explicit, formats, placements,
                     end_to_end, runner, Path(folder), bar)
        for item in items:
            name = item.name if isinstance(item, BenchGraph) else item[0]
            if (config.time_limit is not None
                    and time.perf_counter() - started > config.time_limit):
                result.config["skipped_graphs"][name] = (
                    f"not started: the time limit of {config.time_limit:g} s was spent")
                continue
            if isinstance(item, BenchGraph) and item.is_points:
                bar.set_postfix_str(f"loading {item.name}")
                _time_points(plan, item, load_points(item.spec), result)
                if config.after_graph is not None:
                    config.after_graph(result)
                continue
            if isinstance(item, BenchGraph):
                bar.set_postfix_str(f"loading {item.name}")
                try:
                    loaded = load_graph(item.spec, cache_dir)
                except (ImportError, RealGraphMissing) as exc:  # a missing dependency or file
                    result.config["skipped_graphs"][name] = str(exc)
                    log.info("graph %s skipped: %s", name, exc)
                    continue
                source, stands_for = item.spec, item.stands_for
            else:
                loaded, source, stands_for = item[1], "in-memory graph", ""
            for weight in weights:
                graph = transform(loaded, weight)
                named = name if weight == "given" else f"{name}~{weight}"
                info = GraphInfo(named, source, graph.num_vertices, graph.num_edges,
                                 graph.weight.dtype.name, stands_for)
                _time_graph(plan, graph, info, result)
                del graph
            del loaded
            if config.after_graph is not None:
                config.after_graph(result)
        for graph in weak:
            _time_weak(plan, graph, launches, result)
            if config.after_graph is not None:
                config.after_graph(result)
        for graph in scale:
            info, records = scale_records(graph, suite_info.gpus, scheme,
                                          lambda label: bar.set_postfix_str(label))
            result.graphs.append(info)
            result.records.extend(records)
            if config.after_graph is not None:
                config.after_graph(result)
        if scans:
            from parmst.bench.scan import time_scans

            result.records.extend(time_scans(scans, scheme, config.opencl_device, bar))
    result.machine["load_average_end"] = load_average()
    return result


def _weak_graphs(config: RunConfig) -> list[WeakGraph]:
    """The weak-scaling series to run (:mod:`parmst.bench.weak`), ``only`` applied."""
    names = list(config.setting("weak", ()))
    if config.only is not None:
        names = [name for name in names if weak_name(WEAK_GRAPHS[name]) in config.only]
    return [WEAK_GRAPHS[name] for name in names]


def _scale_graphs(config: RunConfig) -> list[ScaleGraph]:
    """The suite's graphs generated on the GPUs (:mod:`parmst.bench.multigpu_scale`), ``only``
    applied."""
    names = list(config.suite_info.gpu_scale) if config.suite_info else []
    return [SCALE_GRAPHS[name] for name in names if config.only is None or name in config.only]


def _time_weak(plan: _Plan, graph: WeakGraph, launches: list[Variant],
               result: BenchResult) -> None:
    """One weak series: each mpi variant's launch on the graph sized for its rank count."""
    config, scheme, bar = plan.config, plan.scheme, plan.bar
    edges_per_rank = config.setting("edges_per_rank", EDGES_PER_RANK)
    result.graphs.append(weak_graph_info(graph, edges_per_rank))

    def launch(record: Record, variant: Variant, source: tuple[str, str]) -> None:
        from parmst.bench.mpi import time_ranks

        bar.set_postfix_str(f"{record.graph} {record.label}", refresh=False)
        phases = time_ranks(record, variant.solver.name, variant.solver.options,
                            variant.options, source, scheme.runs,
                            timeout=60 + config.budget * (scheme.runs + 1))
        if record.status == "ok":
            finish(record, scheme, phases)
        else:
            record.clear_times()
        bar.update(scheme.runs + 1)

    result.records.extend(weak_records(graph, launches, edges_per_rank, launch))


@dataclass(frozen=True)
class _Plan:
    """What runs on every graph, and the run's shared tools (peer worker, scratch folder,
    progress bar)."""

    config: RunConfig
    scheme: Scheme
    variants: list[Variant]
    peers: list[str]
    peers_explicit: bool
    formats: list[str]
    placements: list[str]
    end_to_end: bool
    runner: PeerRunner
    folder: Path
    bar: Any


def _time_points(plan: _Plan, item: BenchGraph, points: np.ndarray, result: BenchResult) -> None:
    """One point set: the point solvers, then the peers that build the same tree."""
    info = point_info(item.name, item.spec, points, item.min_samples, item.stands_for)
    variants = [v for v in plan.variants if v.solver.kind == "points"]
    tree = "points" if item.min_samples is None else "mutual-reachability"
    peers = [name for name in plan.peers if PEERS[name].inputs == tree]
    reference = point_reference(points, item.min_samples, info) if variants or peers else None
    for placement in plan.placements:
        named = info.name if placement == "host" else f"{info.name}@{placement}"
        try:
            placed = None if placement == "host" else place_points(points, placement)
        except Exception as exc:  # noqa: BLE001 - no device here: the entry is skipped
            result.config["skipped_graphs"][named] = (
                f"input on the {placement}: {type(exc).__name__}: {exc}")
            plan.bar.update(len(variants) * (plan.scheme.runs + 1))
            continue
        result.graphs.append(info if placement == "host" else dataclasses.replace(info, name=named))
        result.records.extend(time_point_solvers(points, item.min_samples, named, variants,
                                                 reference, plan.scheme, plan.bar, placed))
        del placed
    for peer_name in peers:
        result.records.append(time_point_peer(points, item.min_samples, info, peer_name,
                                              reference, plan.runner, plan.scheme, plan.bar))


def _time_graph(plan: _Plan, graph: Graph, info: GraphInfo, result: BenchResult) -> None:
    """One graph (after its weight transform): solvers at each placement, peers, formats.

    A placement that cannot be had here (device arrays without numba-cuda or
    a device) skips that entry with the reason; peers and formats run once,
    beside the first placement.
    """
    scheme, bar = plan.scheme, plan.bar
    variants = [v for v in plan.variants if v.solver.kind == "graph"]
    peers = [name for name in plan.peers if PEERS[name].inputs == "graph"]
    reference = _reference(graph, info) if variants or peers else None
    for k, placement in enumerate(plan.placements):
        named = info.name if placement == "host" else f"{info.name}@{placement}"
        try:
            placed = place(graph, placement)
        except Exception as exc:  # noqa: BLE001 - no device here: the entry is skipped
            result.config["skipped_graphs"][named] = (
                f"input on the {placement}: {type(exc).__name__}: {exc}")
            bar.update((len(variants) + (0 if k else len(peers) + len(plan.formats)))
                       * (scheme.runs + 1))
            continue
        result.graphs.append(dataclasses.replace(info, name=named))
        if variants:
            result.records.extend(solver_timing.time_solvers(
                graph, placed, named, variants, reference, scheme, bar, plan.folder,
                plan.config.budget, plan.end_to_end, _checkpoint(plan.config, result)))
        del placed
        if k:
            continue
        for peer_name in peers:
            result.records.append(time_peer(graph, result.graphs[-1], peer_name,
                                            plan.peers_explicit, plan.runner, scheme, bar))
        for fmt in plan.formats:
            result.records.extend(time_format(graph, named, fmt, plan.folder, scheme, bar))
