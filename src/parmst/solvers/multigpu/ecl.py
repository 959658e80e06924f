"""ECL-MST over several GPUs of one host: the local-forest filter across devices.

The local-forest filter (:mod:`parmst.kernels.local_forest`, which gives the
cycle-property argument) with ``ecl/gpu`` (Fallin et al., Algorithms 1-2) as
the per-part solve: the edges are split into parts there
(:func:`~parmst.kernels.local_forest.split_edges` or
:func:`~parmst.kernels.local_forest.split_vertices`), each part's local
forest is computed on its own device, one host thread per device so the
devices work at once, and the survivors (the local forests, plus the
crossing edges of a vertex split) are finished by ``ecl/gpu`` on the first
device. The survivors are gathered on the devices, not on the host, so this
solver does not call :func:`~parmst.kernels.local_forest.local_forest_filter`
itself.

Every part keeps its edges in global id order and the vertex ids of the
whole graph, so ties break as in the whole graph and the answer is the
exact minimum spanning forest, the same edge ids as every other solver.

A graph already split over the GPUs (:class:`~parmst.graph_parts.SplitGraph`)
is solved where its parts lie, several parts of one device one after
another; a part's own ids stay 32-bit positions and its survivors get int64
global ids (its first id added) on its device. Each device's memory is
checked before anything is allocated, the merge device's again before the
exchange, with the survivors counted.

Transfers: each part of a host graph goes from the host to its device once
and is solved there as a device graph, so its local forest stays on the device; the
survivors' endpoints, weights and global ids are gathered there and moved to
the merge device by a peer copy (host staging where the devices have no
peer access, a plain device copy on the same device); the merge's forest ids
come back to the host once (docs/multigpu.md).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

from parmst._cuda import arrays, runtime
from parmst.errors import SolverUnavailable
from parmst.graph import DeviceEdges, Graph
from parmst.graph_parts import SplitGraph
from parmst.kernels.local_forest import Share, split_edges, split_vertices
from parmst.partition import METHODS, partition
from parmst.solvers.gpu import ecl
from parmst.solvers.multigpu._devices import (
    Plan,
    copy_into,
    load_kernels_per_device,
    memory_info,
    on_device,
    plan,
    transfer_path,
    visible_devices,
)
from parmst.stats import Stats

SPLITS = ("edges", *METHODS)


@dataclass
class _Part:
    """One part: its edges, how its ids map back, and what solving it gave.

    ``source`` is a host share (a :class:`~parmst.graph.Graph`, copied to the
    part's device when it is solved) or a part's edges already on that device
    (:class:`~parmst.graph.DeviceEdges` of a
    :class:`~parmst.graph_parts.SplitGraph`). ``ids`` is the global id of the
    first edge (an int, possibly past 2**31) or each edge's global id.
    """

    source: Graph | DeviceEdges
    ids: np.ndarray | int
    num_vertices: int
    forest: Any = None
    stats: Stats | None = None
    survivors: tuple[Any, ...] = ()

    @property
    def num_edges(self) -> int:
        return (self.source.num_edges if isinstance(self.source, Graph)
                else self.source.src.shape[0])

    def _edges_here(self) -> DeviceEdges:
        if isinstance(self.source, DeviceEdges):
            return self.source
        return DeviceEdges(*(runtime.to_device(a) for a in
                             (self.source.src, self.source.dst, self.source.weight)), kind="numba")

    def solve_here(self, options: dict) -> None:
        """The part's local forest by ``ecl/gpu`` on the current device, left there, and its
        survivors' columns (src, dst, weight, int64 global id) gathered there."""
        edges = self._edges_here()
        self.stats = Stats()
        # The part's own ids are positions 0..count-1 (32-bit while the part is small);
        # global ids, int64, only for the survivors.
        self.forest = ecl.solve(Graph._on_device(edges, self.num_vertices), self.stats,
                                **options)
        ids = (arrays.shift(self.forest, self.ids) if isinstance(self.ids, int)
               else arrays.gather(runtime.to_device(self.ids), self.forest))
        self.survivors = (*(arrays.gather(a, self.forest)
                            for a in (edges.src, edges.dst, edges.weight)), ids)
        runtime.synchronize()


def _parts(shares: list[Share]) -> list[_Part]:
    """A part per share of a host graph, to be solved on a device."""
    return [_Part(share.graph, share.ids, share.graph.num_vertices) for share in shares]


def _device_parts(graph: SplitGraph) -> list[_Part]:
    """A part per :class:`~parmst._graph_device.DevicePart`, solved where it lies."""
    return [_Part(part.edges, part.first_id, part.num_vertices) for part in graph.parts]


def _used_bytes(device: int) -> float:
    """Bytes in use on ``device`` (total less free; 0 under the simulator, which has no
    memory figures)."""
    free, total = memory_info(device)
    return total - free if math.isfinite(total) else 0.0


def _solve_on(device: int, parts: list[_Part], options: dict) -> tuple[float, float, float]:
    """Solve ``parts`` one after another on ``device``: wall and kernel seconds, and the peak
    bytes in use there (each part's starting use plus ``ecl/gpu``'s working memory, or the use
    measured after it, whichever is larger: the pool keeps the working buffers only up to
    its idle limit)."""
    start = time.perf_counter()
    peak = 0.0
    with on_device(device):
        for part in parts:
            before = _used_bytes(device)
            part.solve_here(options)
            # ecl/gpu counts the endpoints among its bytes: a part on its device had them.
            held = (0 if isinstance(part.source, Graph)
                    else part.source.src.nbytes + part.source.dst.nbytes)
            peak = max(peak, before + part.stats.extra.get("device_memory_bytes", 0) - held,
                       _used_bytes(device))
    return time.perf_counter() - start, sum(p.stats.compute_time for p in parts), peak


def _local_forests(chosen: Plan, parts: list[_Part], options: dict
                   ) -> dict[int, tuple[float, float, float]]:
    """Every part's local forest, one host thread per device: per device, wall and kernel
    seconds and peak bytes. The threads release the GIL while their device works, so devices
    overlap."""
    by_device: dict[int, list[_Part]] = {}
    for p, part in enumerate(parts):
        by_device.setdefault(chosen.device_of(p), []).append(part)
    if len(by_device) == 1:
        (device, mine), = by_device.items()
        return {device: _solve_on(device, mine, options)}
    results: dict[int, tuple[float, float, float] | BaseException] = {}

    def work(device: int, mine: list[_Part]) -> None:
        try:
            results[device] = _solve_on(device, mine, options)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread below
            results[device] = exc

    load_kernels_per_device()
    threads = [threading.Thread(target=work, args=item, name=f"ecl-multigpu-gpu{item[0]}")
               for item in by_device.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for outcome in results.values():
        if isinstance(outcome, BaseException):
            raise outcome
    return results


def _gather_on(chosen: Plan, parts: list[_Part], graph: Graph | SplitGraph, crossing: np.ndarray
               ) -> tuple[DeviceEdges, Any, set[str], dict[int, float]]:
    """Every part's survivors, then the crossing edges (from the host), concatenated on the
    merge device in that order: the merged edge list, its int64 global ids, the transfer paths
    taken (:func:`parmst.solvers.multigpu._devices.transfer_path`) and, per source device,
    the seconds its survivors took to arrive. Each part's survivors are dropped once copied,
    so the merge has their room."""
    target = chosen.devices[0]
    sources = [chosen.device_of(p) for p in range(len(parts))]
    paths = {transfer_path(source, target) for source in sources}
    total = sum(len(part.forest) for part in parts) + len(crossing)
    _check_merge_memory(target, total, total * (_edge_bytes(graph) + 8), graph.num_vertices)
    with on_device(target):
        dtypes = (graph.index_dtype, graph.index_dtype, graph.weight_dtype, np.int64)
        merged = [cuda.device_array(total, dtype=dtype) for dtype in dtypes]
    start = 0
    seconds: dict[int, float] = {}
    for source, part in zip(sources, parts):
        began = time.perf_counter()
        columns, part.survivors = part.survivors, ()
        start = _copy_piece(merged, start, columns, source, target,
                            transfer_path(source, target))
        seconds[source] = seconds.get(source, 0.0) + time.perf_counter() - began
    if len(crossing):
        with on_device(target):
            columns = tuple(runtime.to_device(a) for a in (
                graph.src[crossing], graph.dst[crossing], graph.weight[crossing], crossing))
        _copy_piece(merged, start, columns, target, target, "device")
    return DeviceEdges(*merged[:3], kind="numba"), merged[3], paths, seconds


def _copy_piece(merged: list[Any], start: int, columns: tuple[Any, ...], source: int,
                target: int, path: str) -> int:
    """Copy one piece's columns into ``merged`` from ``start`` on; where the next piece starts."""
    end = start + columns[0].shape[0]
    for out, values in zip(merged, columns):
        copy_into(out[start:end], values, source, target, path)
    with on_device(target):
        runtime.synchronize()
    return end


def _solve_bytes(num_vertices: int, num_edges: int, weight_dtype: np.dtype) -> int:
    """An upper bound of ``ecl/gpu``'s working memory for a part held as an edge list: a key
    per edge, two worklists of two-word records (three words where float64 weights may need
    two-pass keys), a forest flag per edge, each vertex's set and minimum (and tie-breaking
    id), and the forest's ids."""
    two_pass = np.dtype(weight_dtype) == np.float64
    words = 3 if two_pass else 2
    per_vertex = 4 + 8 + (8 if two_pass else 0)
    return (num_edges * (8 + 2 * 8 * words + 1) + num_vertices * per_vertex
            + 8 * min(num_edges, num_vertices))


def _free_for(device: int, need: int) -> tuple[float, float]:
    """``device``'s free and total bytes, reclaiming idle and deferred memory first where
    ``need`` does not fit what is free."""
    free, total = memory_info(device)
    return (free, total) if need <= free else memory_info(device, reclaim=True)


def _edge_bytes(graph: Graph | SplitGraph) -> int:
    """Bytes of one edge on a device: two vertex ids and a weight."""
    return 2 * graph.index_dtype.itemsize + graph.weight_dtype.itemsize


def _check_memory(chosen: Plan, parts: list[_Part], graph: Graph | SplitGraph) -> None:
    """Refuse before any allocation where a device cannot solve its parts one after another:
    each part's solve (and upload, for a host graph) beside the survivors of the parts solved
    before it there (at most n - 1 edges a part). SolverUnavailable names the device, the part
    and the bytes. The parts' own edges on their devices are already counted as used."""
    n = graph.num_vertices
    survivor_bytes = _edge_bytes(graph) + 8  # and its int64 global id
    held: dict[int, int] = {}  # device: survivors' bytes so far
    peaks: dict[int, tuple[int, int]] = {}  # device: (peak bytes, the part reaching it)
    for p, part in enumerate(parts):
        device = chosen.device_of(p)
        upload = part.num_edges * _edge_bytes(graph) if isinstance(part.source, Graph) else 0
        need = held.get(device, 0) + upload + _solve_bytes(n, part.num_edges,
                                                           graph.weight_dtype)
        held[device] = held.get(device, 0) + min(part.num_edges, max(n - 1, 0)) * survivor_bytes
        peak, which = peaks.get(device, (0, p))
        peaks[device] = max((peak, which), (need, p), (held[device], p))
    names = visible_devices()
    for device, (need, which) in peaks.items():
        free, total = _free_for(device, need)
        if need > free:
            raise SolverUnavailable(
                f"ecl/multigpu: part {which} ({parts[which].num_edges} edges) on device "
                f"{names[device]} needs about {need / 2**30:.2f} GiB of device memory but "
                f"{free / 2**30:.2f} GiB of {total / 2**30:.2f} GiB is free; split the graph "
                f"into more parts (parts=, or more parts per device) so that each part is "
                f"smaller")


def _check_merge_memory(device: int, merged: int, need: int, num_vertices: int) -> None:
    """Refuse where the merge device cannot take ``need`` more bytes for the merge of ``merged``
    surviving edges (their merged copy, then the merge's solve)."""
    free, total = _free_for(device, need)
    if need > free:
        raise SolverUnavailable(
            f"ecl/multigpu: the merge of {merged} surviving edges on device "
            f"{visible_devices()[device]} needs about {need / 2**30:.2f} GiB of device memory "
            f"but {free / 2**30:.2f} GiB of {total / 2**30:.2f} GiB is free; each part keeps "
            f"at most n - 1 = {max(num_vertices - 1, 0)} edges, so fewer, larger parts (or "
            f"parts spread over more devices) make the merge smaller")


def _record(stats: Stats, chosen: Plan, split: str, parts: list[_Part], crossing: int,
            per_device: dict[int, tuple[float, float, float]], exchange: dict[int, float],
            merge: Stats, merge_edges: int) -> None:
    """Per-device local times, peak memory and exchange time, per-part sizes, the merge's size
    and share of the time."""
    names = visible_devices()
    used = [d for d in chosen.devices if d in per_device]  # parts < devices leaves some idle
    extra = stats.extra
    extra.update(devices=", ".join(names[d] for d in used), parts=chosen.parts,
                 split=split, merge_device=names[chosen.devices[0]], crossing_edges=crossing,
                 merge_edges=merge_edges, merge_compute_time=merge.compute_time,
                 key_method=merge.extra.get("key_method"))
    for d, (wall, kernels, peak) in per_device.items():
        extra[f"local_time_gpu{d}"] = wall
        extra[f"local_compute_time_gpu{d}"] = kernels
        extra[f"peak_memory_bytes_gpu{d}"] = int(peak)
        extra[f"exchange_time_gpu{d}"] = exchange.get(d, 0.0)
    merge_device = chosen.devices[0]
    extra[f"merge_time_gpu{merge_device}"] = stats.phases["merge"]
    for p, part in enumerate(parts):
        extra[f"part{p}_edges"] = part.num_edges
        extra[f"part{p}_survivors"] = len(part.forest)
        extra[f"part{p}_rounds"] = part.stats.rounds or 0
    memory = [p.stats.extra.get("device_memory_bytes", 0) for p in parts]
    extra["device_memory_bytes"] = max(memory + [merge.extra.get("device_memory_bytes", 0)])
    stats.device = extra["devices"]
    stats.threads = None
    stats.rounds, stats.worklist_sizes = merge.rounds, list(merge.worklist_sizes)
    extra["copy_back_time"] = merge.extra.get("copy_back_time", 0.0)
    extra["end_to_end_time"] = stats.total_time + extra["copy_back_time"]
    merged = stats.phases["exchange"] + stats.phases["merge"]
    extra["merge_share"] = merged / extra["end_to_end_time"] if extra["end_to_end_time"] else 0.0
    extra["merge_compute_share"] = (merge.compute_time / stats.compute_time
                                    if stats.compute_time else 0.0)


def _exchange_and_merge(chosen: Plan, shares: list[_Part], graph: Graph | SplitGraph,
                        crossing: np.ndarray, split: str, stats: Stats, merge: Stats,
                        options: dict) -> tuple[np.ndarray, Any, set[str], dict[int, float]]:
    """The survivors to the merge device (phase ``exchange``) and ``ecl/gpu`` on them there
    (phase ``merge``): the forest's global ids on the host, the merged list's ids, the
    transfer paths and each device's exchange seconds."""
    target = chosen.devices[0]
    with stats.phase("exchange"):
        merged, global_ids, paths, exchange = _gather_on(chosen, shares, graph, crossing)
        if split != "edges":  # vertex parts interleave ids: back to ascending global ids
            with on_device(target):
                bits = max(1, graph.num_edges - 1).bit_length()
                order = arrays.radix_order(global_ids, bits)
                merged = DeviceEdges(*(arrays.gather(a, order) for a in
                                       (merged.src, merged.dst, merged.weight)), kind="numba")
                global_ids = arrays.gather(global_ids, order)
    with stats.phase("merge"), on_device(target):
        count = len(global_ids)
        _check_merge_memory(target, count, _solve_bytes(graph.num_vertices, count,
                                                        graph.weight_dtype), graph.num_vertices)
        picked = ecl.solve(Graph._on_device(merged, graph.num_vertices), merge, **options)
        with runtime.timed_transfer(merge, "copy_back_time"):
            forest = arrays.gather(global_ids, picked).copy_to_host()
    return forest, global_ids, paths, exchange


def _split_plan(graph: SplitGraph, devices: Any, parts: Any, split: str) -> Plan:
    """The plan of a graph whose parts already lie on devices: no other placement is taken."""
    if devices is not None or parts is not None or split != "edges":
        raise ValueError("ecl/multigpu: a graph split over GPUs is solved where its parts lie; "
                         "devices, parts and split are not taken (make the parts with "
                         "Graph.to_device_parts or a generator instead)")
    placement = graph.devices
    seen = len(visible_devices())
    missing = [d for d in placement if d >= seen]
    if missing:
        raise SolverUnavailable(f"ecl/multigpu cannot run here: a part lies on device "
                                f"{missing[0]} but this process sees {seen} CUDA device"
                                f"{'s' if seen != 1 else ''}")
    return Plan.where_parts_lie(placement)


def solve(graph: Graph | SplitGraph, stats: Stats, *, devices: Sequence[int] | None = None,
          parts: int | None = None, split: str = "edges", keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by ECL-MST on several GPUs.

    Parameters
    ----------
    graph : Graph or SplitGraph
        A host graph is split here; a :class:`~parmst.graph_parts.SplitGraph`
        is solved where its parts lie (each part's local forest on its
        device, several parts of one device one after another), without
        copying its edges to the host; ``devices``, ``parts`` and ``split``
        are then not taken.
    stats : Stats
        ``compute_time``: the slowest device's local-forest kernels plus the
        merge's kernels (``ecl/gpu``'s own timer, data on the device);
        ``init_time``: the rest of the wall-clock time (splitting, transfers,
        the exchange of the survivors) except the final copy-back
        (``extra["copy_back_time"]``), which ``extra["end_to_end_time"]``
        adds. Phases: ``split`` (with the memory check), ``local``,
        ``exchange``, ``merge``. ``extra`` holds, per device ``d``,
        ``local_time_gpu<d>``, ``local_compute_time_gpu<d>``,
        ``peak_memory_bytes_gpu<d>`` and ``exchange_time_gpu<d>`` (its
        survivors' trip to the merge device), ``merge_time_gpu<d>`` for the
        merge device, sizes per part, ``merge_edges``, ``merge_share``
        (exchange and merge over the end-to-end time), ``merge_compute_share`` (merge
        kernels over ``compute_time``) and ``transfer``: how the survivors
        reached the merge device, ``"device"``, ``"peer"`` or ``"host"``
        (staged), joined by ``+`` where parts took different paths.
    devices : list of int, optional
        CUDA device ids to use; all visible ones by default. The merge runs
        on the first.
    parts : int, optional
        How many parts (at least 2); one per device by default. Part ``p``
        runs on ``devices[p % len(devices)]``, so ``parts=2`` on one device
        runs both parts there, one after the other.
    split : {"edges", "blocks", "bfs", "metis"}
        ``"edges"``: contiguous ranges of edge ids of equal size (no copy,
        no partitioner). A vertex partition method of
        :func:`parmst.partition`: each part gets the edges inside one vertex
        part, and the crossing edges go straight to the merge.
    keys : {"auto", "packed", "two-pass"}
        ``ecl/gpu``'s key method, for the parts and the merge.

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "ecl/multigpu", parts=2).edge_ids.tolist()
    ... # doctest: +SKIP
    [1, 2, 3]
    """
    if split not in SPLITS:
        raise ValueError(f"ecl/multigpu: split must be one of {SPLITS}, got {split!r}")
    on_parts = isinstance(graph, SplitGraph)
    chosen = _split_plan(graph, devices, parts, split) if on_parts else plan(devices, parts)
    if isinstance(chosen, str):
        raise SolverUnavailable(f"ecl/multigpu cannot run here: {chosen}")
    options = {"keys": keys}
    with stats.init():
        with stats.phase("split"):
            crossing = np.zeros(0, np.int64)
            if on_parts:
                shares = _device_parts(graph)
            elif split == "edges":
                shares = _parts(split_edges(graph, chosen.parts))
            else:
                vertex_shares, crossing = split_vertices(graph, partition(graph, chosen.parts,
                                                                          split))
                shares = _parts(vertex_shares)
            _check_memory(chosen, shares, graph)
        with stats.phase("local"):
            per_device = _local_forests(chosen, shares, options)
        merge = Stats()
        if len(shares) == 1 and not len(crossing):
            # One part is the whole graph: its local forest is the answer, no merge.
            with stats.phase("exchange"):
                global_ids = shares[0].survivors[3]
            with (stats.phase("merge"), on_device(chosen.devices[0]),
                  runtime.timed_transfer(merge, "copy_back_time")):
                forest = global_ids.copy_to_host()
            paths, exchange = {"device"}, {}
        else:
            forest, global_ids, paths, exchange = _exchange_and_merge(
                chosen, shares, graph, crossing, split, stats, merge, options)
    stats.extra["transfer"] = "+".join(sorted(paths))
    # The devices ran their kernels at once: the local stage's computation is its slowest
    # device's; the rest of the stage's wall time (splits, transfers) stays initialization.
    kernels = max(k for _, k, _ in per_device.values()) + merge.compute_time
    stats.init_time -= kernels + merge.extra.get("copy_back_time", 0.0)
    stats.compute_time += kernels
    _record(stats, chosen, split, shares, len(crossing), per_device, exchange, merge,
            len(global_ids))
    return forest
