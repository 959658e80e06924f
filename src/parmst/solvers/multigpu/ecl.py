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

Transfers: each part goes from the host to its device once and is solved
there as a device graph, so its local forest stays on the device; the
survivors' endpoints, weights and global ids are gathered there and moved to
the merge device by a peer copy (host staging where the devices have no
peer access, a plain device copy on the same device); the merge's forest ids
come back to the host once (docs/multigpu.md).
"""

from __future__ import annotations

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
from parmst.kernels.local_forest import Share, split_edges, split_vertices
from parmst.partition import METHODS, partition
from parmst.solvers.gpu import ecl
from parmst.solvers.multigpu._devices import (
    Plan,
    copy_into,
    load_kernels_per_device,
    on_device,
    plan,
    transfer_path,
    visible_devices,
)
from parmst.stats import Stats

SPLITS = ("edges", *METHODS)


@dataclass
class _Part:
    """One part: its subgraph, how its ids map back, and what solving it gave."""

    graph: Graph
    ids: np.ndarray | int
    forest: Any = None
    stats: Stats | None = None
    survivors: tuple[Any, ...] = ()

    def solve_here(self, options: dict) -> None:
        """The part's local forest by ``ecl/gpu`` on the current device, left there, and its
        survivors' columns (src, dst, weight, global id) gathered there."""
        edges = DeviceEdges(*(runtime.to_device(a) for a in
                              (self.graph.src, self.graph.dst, self.graph.weight)), kind="numba")
        self.stats = Stats()
        self.forest = ecl.solve(Graph._on_device(edges, self.graph.num_vertices), self.stats,
                                **options)
        ids = (arrays.shift(self.forest, self.ids) if isinstance(self.ids, int)
               else arrays.gather(runtime.to_device(self.ids), self.forest))
        self.survivors = (*(arrays.gather(a, self.forest)
                            for a in (edges.src, edges.dst, edges.weight)), ids)
        runtime.synchronize()


def _parts(shares: list[Share]) -> list[_Part]:
    """A part per share, to be solved on a device."""
    return [_Part(share.graph, share.ids) for share in shares]


def _solve_on(device: int, parts: list[_Part], options: dict) -> tuple[float, float]:
    """Solve ``parts`` one after another on ``device``: wall and kernel seconds."""
    start = time.perf_counter()
    with on_device(device):
        for part in parts:
            part.solve_here(options)
    return time.perf_counter() - start, sum(p.stats.compute_time for p in parts)


def _local_forests(chosen: Plan, parts: list[_Part], options: dict
                   ) -> dict[int, tuple[float, float]]:
    """Every part's local forest, one host thread per device: per device, wall and kernel
    seconds. The threads release the GIL while their device works, so devices overlap."""
    by_device: dict[int, list[_Part]] = {}
    for p, part in enumerate(parts):
        by_device.setdefault(chosen.device_of(p), []).append(part)
    if len(by_device) == 1:
        (device, mine), = by_device.items()
        return {device: _solve_on(device, mine, options)}
    results: dict[int, tuple[float, float] | BaseException] = {}

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


def _gather_on(chosen: Plan, parts: list[_Part], graph: Graph, crossing: np.ndarray
               ) -> tuple[DeviceEdges, Any, set[str]]:
    """Every part's survivors, then the crossing edges (from the host), concatenated on the
    merge device in that order: the merged edge list, its global ids, and the transfer paths
    taken (:func:`parmst.solvers.multigpu._devices.transfer_path`)."""
    target = chosen.devices[0]
    pieces = [(chosen.device_of(p), transfer_path(chosen.device_of(p), target), part.survivors)
              for p, part in enumerate(parts)]
    paths = {path for _, path, _ in pieces}
    with on_device(target):
        if len(crossing):
            pieces.append((target, "device", tuple(runtime.to_device(a) for a in (
                graph.src[crossing], graph.dst[crossing], graph.weight[crossing], crossing))))
        total = sum(columns[0].shape[0] for _, _, columns in pieces)
        dtypes = (graph.index_dtype, graph.index_dtype, graph.weight_dtype, np.int64)
        merged = [cuda.device_array(total, dtype=dtype) for dtype in dtypes]
    start = 0
    for source, path, columns in pieces:
        end = start + columns[0].shape[0]
        for out, values in zip(merged, columns):
            copy_into(out[start:end], values, source, target, path)
        start = end
    with on_device(target):
        runtime.synchronize()
    return DeviceEdges(*merged[:3], kind="numba"), merged[3], paths


def _record(stats: Stats, chosen: Plan, split: str, parts: list[_Part], crossing: int,
            per_device: dict[int, tuple[float, float]], merge: Stats, merge_edges: int) -> None:
    """Per-device local times, per-part sizes, the merge's size and share of the time."""
    names = visible_devices()
    used = [d for d in chosen.devices if d in per_device]  # parts < devices leaves some idle
    extra = stats.extra
    extra.update(devices=", ".join(names[d] for d in used), parts=chosen.parts,
                 split=split, merge_device=names[chosen.devices[0]], crossing_edges=crossing,
                 merge_edges=merge_edges, merge_compute_time=merge.compute_time,
                 key_method=merge.extra.get("key_method"))
    for d, (wall, kernels) in per_device.items():
        extra[f"local_time_gpu{d}"] = wall
        extra[f"local_compute_time_gpu{d}"] = kernels
    for p, part in enumerate(parts):
        extra[f"part{p}_edges"] = part.graph.num_edges
        extra[f"part{p}_survivors"] = len(part.forest)
        extra[f"part{p}_rounds"] = part.stats.rounds or 0
    memory = [p.stats.extra.get("device_memory_bytes", 0) for p in parts]
    extra["device_memory_bytes"] = max(memory + [merge.extra.get("device_memory_bytes", 0)])
    stats.device = extra["devices"]
    stats.threads = None
    stats.rounds, stats.worklist_sizes = merge.rounds, list(merge.worklist_sizes)
    extra["copy_back_time"] = merge.extra.get("copy_back_time", 0.0)
    extra["end_to_end_time"] = stats.total_time + extra["copy_back_time"]
    merged = stats.phases["gather"] + stats.phases["merge"]
    extra["merge_share"] = merged / extra["end_to_end_time"] if extra["end_to_end_time"] else 0.0
    extra["merge_compute_share"] = (merge.compute_time / stats.compute_time
                                    if stats.compute_time else 0.0)


def solve(graph: Graph, stats: Stats, *, devices: Sequence[int] | None = None,
          parts: int | None = None, split: str = "edges", keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by ECL-MST on several GPUs.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        ``compute_time``: the slowest device's local-forest kernels plus the
        merge's kernels (``ecl/gpu``'s own timer, data on the device);
        ``init_time``: the rest of the wall-clock time (splitting, transfers,
        gathering the survivors) except the final copy-back
        (``extra["copy_back_time"]``), which ``extra["end_to_end_time"]``
        adds. Phases: ``split``, ``local``, ``gather``, ``merge``. ``extra``
        holds ``local_time_gpu<d>`` and ``local_compute_time_gpu<d>`` per
        device, sizes per part, ``merge_edges``, ``merge_share`` (gather and
        merge over the end-to-end time), ``merge_compute_share`` (merge
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
    chosen = plan(devices, parts)
    if isinstance(chosen, str):
        raise SolverUnavailable(f"ecl/multigpu cannot run here: {chosen}")
    options = {"keys": keys}
    with stats.init():
        with stats.phase("split"):
            if split == "edges":
                shares, crossing = _parts(split_edges(graph, chosen.parts)), np.zeros(0, np.int64)
            else:
                vertex_shares, crossing = split_vertices(graph, partition(graph, chosen.parts,
                                                                          split))
                shares = _parts(vertex_shares)
        with stats.phase("local"):
            per_device = _local_forests(chosen, shares, options)
        with stats.phase("gather"):
            merged, global_ids, paths = _gather_on(chosen, shares, graph, crossing)
            if split != "edges":  # vertex parts interleave ids: back to ascending global ids
                with on_device(chosen.devices[0]):
                    bits = max(1, graph.num_edges - 1).bit_length()
                    order = arrays.radix_order(global_ids, bits)
                    merged = DeviceEdges(*(arrays.gather(a, order) for a in
                                           (merged.src, merged.dst, merged.weight)), kind="numba")
                    global_ids = arrays.gather(global_ids, order)
        with stats.phase("merge"), on_device(chosen.devices[0]):
            merge = Stats()
            picked = ecl.solve(Graph._on_device(merged, graph.num_vertices), merge, **options)
            with runtime.timed_transfer(merge, "copy_back_time"):
                forest = arrays.gather(global_ids, picked).copy_to_host()
    stats.extra["transfer"] = "+".join(sorted(paths))
    # The devices ran their kernels at once: the local stage's computation is its slowest
    # device's; the rest of the stage's wall time (splits, transfers) stays initialization.
    kernels = max(k for _, k in per_device.values()) + merge.compute_time
    stats.init_time -= kernels + merge.extra.get("copy_back_time", 0.0)
    stats.compute_time += kernels
    _record(stats, chosen, split, shares, len(crossing), per_device, merge, len(global_ids))
    return forest
