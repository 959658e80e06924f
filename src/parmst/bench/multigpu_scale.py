"""Several GPUs at scale: graphs of 10^9 edges and more, generated on the GPUs, solved on 1, 2, 4.

The graphs that need several GPUs cannot be generated and checked on the host
within a device call, so a scale suite (``multigpu-scale``) takes another path
through the harness, like the weak-scaling series: for each graph and GPU
count ``k`` its parts are generated on GPUs ``0..k-1``
(:func:`generate_parts`, timed as ``generate``), held as one
:class:`~parmst.graph_parts.SplitGraph`, and solved by ``ecl/multigpu`` where
they lie, the whole public call timed beside its computation. On one GPU with
one part, ``ecl/gpu`` on the same device arrays is the baseline. Every forest
of a graph must have the edge ids of the first one, and that one is checked
once on the host: the same edge ids as ``ecl/cpu`` on all cores, or
:func:`parmst.verify` (:attr:`ScaleGraph.check`).

Each record carries the per-GPU figures of ``ecl/multigpu`` (peak memory,
local, exchange and merge times) in ``extra``; :func:`gpu_table` shows them.

Examples
--------
>>> SCALE_GRAPHS["rmat-2e26"].spec
'rmat:scale=26,edge_factor=16,seed=1'
>>> SCALE_GRAPHS["rmat-2e28"].placement(4)  # two parts a GPU
[0, 1, 2, 3, 0, 1, 2, 3]
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from parmst.bench.cells import fmt_time, table
from parmst.bench.result import BenchResult, GraphInfo, Record
from parmst.bench.timing import Scheme, finish
from parmst.stats import Stats

__all__ = ["SCALE_GRAPHS", "ScaleGraph", "generate_parts", "gpu_table", "scale_records"]

log = logging.getLogger(__name__)

CHECKS = ("ecl/cpu", "verify")


@dataclass(frozen=True)
class ScaleGraph:
    """A graph of the scale suites, how it is split over the GPUs, and how it is checked.

    Attributes
    ----------
    name, spec, stands_for : str
        The record's name, the generator spec, what it stands for.
    parts_per_gpu : int
        Parts each GPU holds (solved one after another there): more where one
        part would not fit a GPU's memory beside its solve.
    min_gpus : int
        Fewer GPUs cannot hold it (the count is skipped, naming why).
    check : {"ecl/cpu", "verify"}
        How the first forest is checked on the host: the same edge ids as
        ``ecl/cpu`` on all cores, or :func:`parmst.verify`.
    """

    name: str
    spec: str
    stands_for: str
    parts_per_gpu: int = 1
    min_gpus: int = 1
    check: str = "ecl/cpu"

    def placement(self, gpus: int) -> list[int]:
        """Each part's device on ``gpus`` GPUs: part ``p`` on GPU ``p % gpus``."""
        return [p % gpus for p in range(gpus * self.parts_per_gpu)]


SCALE_GRAPHS: dict[str, ScaleGraph] = {g.name: g for g in (
    ScaleGraph("rmat-2e26", "rmat:scale=26,edge_factor=16,seed=1",
               "R-MAT scale 26, 16 edges a vertex (1.07e9 drawn)"),
    ScaleGraph("uniform-1e9", "seed000-sparse:n=670000000,m=1000000000,seed=1",
               "uniform random connected multigraph, 1.5 edges a vertex (seed000-sparse)"),
    ScaleGraph("random-degree-2e26", "random-degree:n=67108864,degree=16,seed=1",
               "random degrees, 16 on average (1.07e9 edges)"),
    ScaleGraph("road-1e9", "road:side=27200,seed=1",
               "road-like jittered grid, 68 % of links kept (1.01e9 edges)"),
    ScaleGraph("rmat-2e28", "rmat:scale=28,edge_factor=16,seed=1",
               "R-MAT scale 28, 16 edges a vertex (4.3e9 drawn): no single H100 holds it",
               min_gpus=4, parts_per_gpu=2),
    ScaleGraph("rmat-2e28-verify", "rmat:scale=28,edge_factor=16,seed=1",
               "the same, checked by parmst.verify where ecl/cpu does not fit the call",
               min_gpus=4, parts_per_gpu=2, check="verify"),
    # Small stand-ins of the same path: CI (the simulator's one device holds every part).
    ScaleGraph("rmat-2e6", "rmat:scale=6,seed=1", "R-MAT scale 6", parts_per_gpu=3),
    ScaleGraph("road-small", "road:side=12,seed=1", "road-like grid of 12 x 12",
               check="verify"),
)}


def generate_parts(spec: str, devices: Sequence[int]) -> list:
    """The graph of ``spec`` as :class:`~parmst._graph_device.DevicePart`\\ s, part ``k`` made on
    GPU ``devices[k]`` by :func:`parmst.generators.device.generate_parts` (no host copy): the
    one place the scale suites get their graphs from."""
    from parmst.generators.device import generate_parts as on_devices

    return on_devices(spec, devices)


def _visible_gpus() -> int | str:
    """How many GPUs this process sees, or why none."""
    from parmst._cuda import runtime

    ok = runtime.probe()
    if ok is not True:
        return str(ok)
    from parmst.solvers.multigpu._devices import visible_devices

    return len(visible_devices())


def _release(gpus: int) -> None:
    """Give GPUs ``0..gpus-1`` back the memory of dropped arrays: idle pooled buffers and
    numba-cuda's deferred frees."""
    from parmst.solvers.multigpu._devices import memory_info

    for device in range(gpus):
        memory_info(device, reclaim=True)


def _reference(split, forest, check: str) -> tuple[bool, str, float]:
    """Whether ``forest`` passes ``check`` on the host copy of ``split``: verdict, message,
    seconds."""
    from parmst.api import minimum_spanning_forest
    from parmst.verify import verify

    start = time.perf_counter()
    graph = split.to_host()
    if check == "ecl/cpu":
        expected = minimum_spanning_forest(graph, "ecl/cpu").edge_ids
        ok = np.array_equal(expected, forest.edge_ids)
        message = "" if ok else (f"{len(forest.edge_ids)} edge ids against ecl/cpu's "
                                 f"{len(expected)}, not the same set")
    else:
        verdict = verify(graph, forest)
        ok, message = bool(verdict), "" if verdict else str(verdict)
    return ok, message, time.perf_counter() - start


def _timed_runs(record: Record, solve: Callable[[], object], scheme: Scheme,
                generate_time: float, expected: np.ndarray | None) -> object:
    """A warm-up and ``scheme.runs`` timed calls of ``solve`` into ``record``; the last forest.
    A forest whose ids differ from ``expected`` marks the record ``MISMATCH``."""
    forest = solve()
    phases = []
    for _ in range(scheme.runs):
        start = time.perf_counter()
        forest = solve()
        ids = forest.edge_ids  # the whole call hands the ids to the host
        record.times.append(time.perf_counter() - start)
        stats: Stats = forest.stats
        record.init_times.append(record.times[-1] - stats.compute_time)
        record.compute_times.append(stats.compute_time)
        phases.append({"generate": generate_time, **stats.phases})
        if expected is not None and not np.array_equal(ids, expected):
            record.status, record.note = "MISMATCH", "edge ids differ from the checked forest"
    finish(record, scheme, phases)
    record.device = forest.stats.device
    record.extra.update(forest.stats.extra)
    return forest


def _baseline(split) -> Callable[[], object]:
    """``ecl/gpu`` on the one part's device arrays, as a user holding them calls it (the
    arrays as they are: the part's 32-bit vertex ids are not widened for the whole graph's
    edge count)."""
    from parmst.api import minimum_spanning_forest

    graph = split.as_device_graph()
    return functools.partial(minimum_spanning_forest, graph, "ecl/gpu")


def scale_records(graph: ScaleGraph, gpus: Sequence[int], scheme: Scheme,
                  progress: Callable[[str], None] = lambda label: None
                  ) -> tuple[GraphInfo, list[Record]]:
    """``graph`` on each of ``gpus`` GPU counts: its GraphInfo and records (``ecl/gpu`` on one
    GPU where the graph is one part, ``ecl/multigpu`` at every count)."""
    from parmst.generators import describe
    from parmst.graph import Graph

    counts = describe(graph.spec)
    info = GraphInfo(graph.name, f"{graph.spec}, generated on the GPUs, checked by "
                     f"{graph.check}", counts["n"], counts["m"], "", graph.stands_for)
    seen = _visible_gpus()
    records: list[Record] = []
    expected = None
    for k in gpus:
        placement = graph.placement(k)
        solvers = ["ecl/gpu", "ecl/multigpu"] if len(placement) == 1 else ["ecl/multigpu"]
        made = [Record(graph.name, solver, variant=f"gpus={k}", options={"gpus": k,
                       "parts": len(placement)}) for solver in solvers]
        records.extend(made)
        why = (seen if isinstance(seen, str) else
               f"needs {k} GPUs, this machine shows {seen}" if k > seen else
               f"needs at least {graph.min_gpus} GPUs" if k < graph.min_gpus else "")
        if why:
            for record in made:
                record.status, record.note = "skipped", why
            continue
        progress(f"{graph.name} generate on {k} GPU(s)")
        start = time.perf_counter()
        parts = generate_parts(graph.spec, placement)
        split = Graph.from_device_parts(parts)
        generate_time = time.perf_counter() - start
        info.num_edges, info.weight_dtype = split.num_edges, split.weight_dtype.name
        for record in made:
            progress(f"{graph.name} {record.solver} on {k} GPU(s)")
            record.extra.update(generate_time=generate_time, num_edges=split.num_edges)
            expected = _time_and_check(record, split, graph, scheme, expected, info, progress)
            _release(k)  # the solve's pooled buffers and cached keys, before the next one
        split = parts = None
        _release(k)  # the parts, before the next count generates its own
    return info, records


def _time_and_check(record: Record, split, graph: ScaleGraph, scheme: Scheme,
                    expected: np.ndarray | None, info: GraphInfo,
                    progress: Callable[[str], None]) -> np.ndarray | None:
    """Time ``record``'s solver on ``split``; the first forest of a graph is checked on the host
    (its verdict into ``info``) and its ids returned as what every later forest must match.
    The forest and the solver's device graph are dropped on return."""
    from parmst.api import minimum_spanning_forest

    solve = (_baseline(split) if record.solver == "ecl/gpu"
             else functools.partial(minimum_spanning_forest, split, "ecl/multigpu"))
    try:
        forest = _timed_runs(record, solve, scheme, record.extra["generate_time"], expected)
    except Exception as exc:  # noqa: BLE001 - one solver or count failing leaves the others
        record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
        record.clear_times()
        log.error("%s %s: %s", graph.name, record.label, exc)
        return expected
    if expected is not None:
        return expected
    progress(f"{graph.name} check by {graph.check}")
    ok, message, seconds = _reference(split, forest, graph.check)
    info.verified, info.verify_message = ok, message
    info.num_components, info.total_weight = forest.num_components, forest.total_weight
    record.extra.update(check=graph.check, check_time=seconds)
    if not ok:
        record.status, record.note = "MISMATCH", message
    return forest.edge_ids


def _gib(extra: dict, key: str) -> str:
    value = extra.get(key)
    return "" if value is None else f"{value / 2**30:.1f}"


def gpu_table(result: BenchResult) -> list[str]:
    """Per ``ecl/multigpu`` record and GPU: peak memory, local forests (wall and kernels),
    exchange (that GPU's survivors to the merge device) and merge times."""
    rows = []
    for r in result.records:
        if not r.ok or r.solver != "ecl/multigpu":
            continue
        x = r.extra
        devices = sorted(int(key[len("local_time_gpu"):]) for key in x
                         if key.startswith("local_time_gpu"))
        for d in devices:
            rows.append([r.graph, r.label, f"{x.get('parts', '')}", f"gpu{d}",
                         _gib(x, f"peak_memory_bytes_gpu{d}"),
                         fmt_time(r.phases.get("generate")) if d == devices[0] else "",
                         fmt_time(x.get(f"local_time_gpu{d}")),
                         fmt_time(x.get(f"local_compute_time_gpu{d}")),
                         fmt_time(x.get(f"exchange_time_gpu{d}")),
                         fmt_time(x.get(f"merge_time_gpu{d}"))])
    if not rows:
        return []
    return table(["graph", "solver", "parts", "GPU", "peak GiB", "generate (s)", "local (s)",
                  "local kernels (s)", "exchange (s)", "merge (s)"], rows, "llrl" + "r" * 6)
