"""Per-edge uint64 keys for the GPU kernels, prepared on the device where the weights are.

The GPU kernels need one unique key per edge whose low bits name a slot in
a per-edge flag array, so that one ``atomicMin`` settles weight and tie
(Fallin et al. section 3.2). The keys are :mod:`parmst.order.keys`' record
(:class:`~parmst.order.EdgeKeys`, its modes and its choice rule,
:func:`~parmst.order.choose_mode`), made in kernels on the device copy of
the weights, so a graph's weights never come back to the host:

1. the smallest and largest order-preserving weight key (:func:`parmst.order.weight_key`,
   the same device function), of float64 weights narrowed to float32 where every value is
   an exact float32: found by the pass that checked a graph built from device arrays
   (:attr:`parmst._graph_device.DeviceEdges.key_range`), else one reduction launch and one
   small copy back (:func:`parmst._cuda.edge_scan.weight_key_range`);
2. and 3., one launch: each key less the minimum, so a narrow range needs few bits, and,
   when weight key and edge id fit in 63 bits, the packed key
   ``weight_key << id_bits | edge_id`` (slot = edge id);
4. otherwise, one of the two exact routes, as the solver asks:

   - ``"two-pass"`` (``ecl/gpu``): the weight keys of step 2 as they are, not
     unique; the kernels carry each record's edge id and settle a set's
     minimum by a second atomicMin on the ids among the edges that hold the
     lightest weight key (as the CPU ECL-MST does), so no sort at all;
   - ``"rank"`` (the solvers whose records hold one key word): a stable
     radix sort of the weight keys on the device gives the
     ``(weight, edge_id)`` order (ties in id order), and each edge's key is
     its rank in it (slot = rank, mapped back to edge ids when the forest is
     read).

   Never a silent truncation, never a host sort.

Every GPU solver takes a ``keys`` option (``"auto"``, ``"packed"``, and its
exact route) so tests can run either route. Unlike the host
(:func:`parmst.order.edge_keys`), the device shifts 32-bit keys down by their
minimum too: it has the minimum from the same pass. Keys are cached on the graph
(they depend on its weights alone), so a second solve prepares none.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from numba import cuda

from parmst._cuda import arrays as _arrays
from parmst._cuda import edge_scan as _edge_scan
from parmst._cuda import pool as _pool
from parmst._cuda import runtime as _runtime
from parmst._cuda.arrays import launch_grid
from parmst.order import MAX_KEY, EdgeKeys, choose_mode, id_bits
from parmst.solvers import ecl_host
from parmst.stats import Stats

__all__ = ["MAX_KEY", "DeviceEdgeKeys", "device_keys", "graph_keys", "threshold_plan"]


class DeviceEdgeKeys(EdgeKeys):
    """:class:`parmst.order.EdgeKeys` whose ``keys`` and ``order`` are device arrays."""

    def forest_ids(self, in_forest: Any, size: int | None = None, out: Any = None) -> Any:
        """Ascending edge ids (int64 device array) of the slots flagged in ``in_forest``
        (``size`` of them, where the caller knows it: no count comes back then), into
        ``out`` where given (:func:`parmst._cuda.arrays.compact`)."""
        # A solver's flags may be longer than the keys (slots past them never set); slice
        # only then, as a slice costs numba-cuda tens of microseconds.
        flags = in_forest if len(in_forest) == len(self.keys) else in_forest[:len(self.keys)]
        if self.order is None:
            return _arrays.compact(flags, size=size, out=out)
        by_edge = _arrays.fill(len(self.keys), 0, np.uint8)
        _runtime.launch(_slots_to_edges, _arrays.launch_grid(len(flags)), flags, self.order,
                        by_edge)
        return _arrays.compact(by_edge, size=size, out=out)

    def edge_ids(self, slots: np.ndarray) -> np.ndarray:
        """Edge ids (host) of the given slots (host); the slot order comes back to the host."""
        slots = np.asarray(slots, dtype=np.int64)
        return slots if self.order is None else _runtime.read(self.order)[slots]


@cuda.jit(cache=True)
def _write_keys(bits, is_float, sign, narrow, offset, shift, with_ids, keys):
    """Fallin et al. section 3.2, first bullet, steps 1 and 2 in one pass: each weight's
    order-preserving key (of its float32 where ``narrow``) less ``offset``, then
    ``<< shift | edge_id`` where ``with_ids``."""
    for e in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        k = _edge_scan.weight_key_of(np.uint64(bits[e]), is_float, sign, narrow) - offset
        keys[e] = (k << shift) | np.uint64(e) if with_ids else k


@cuda.jit(cache=True)
def _ranks(order, keys):
    """Rank keys: the edge at position ``i`` of the sorted order gets key ``i``."""
    for i in range(cuda.grid(1), order.shape[0], cuda.gridsize(1)):
        keys[order[i]] = np.uint64(i)


@cuda.jit(cache=True)
def _slots_to_edges(flags, order, by_edge):
    """Forest flags by rank slot -> flags by edge id."""
    for i in range(cuda.grid(1), flags.shape[0], cuda.gridsize(1)):
        if flags[i]:
            by_edge[order[i]] = 1


def device_keys(weight: Any, method: str = "auto", unpacked: str = "rank",
                out: Any = None, key_range: _edge_scan.KeyRange | None = None) -> DeviceEdgeKeys:
    """Packed keys where weight key and id fit in 63 bits, the ``unpacked`` route otherwise.

    ``weight`` is a device array (int32, int64, float32 or float64, no NaN);
    ``method`` and ``unpacked`` are those of :func:`parmst.order.choose_mode`:
    ``"rank"`` (unique keys from a device sort) or ``"two-pass"`` (the weight
    keys, for kernels that break ties by edge id); see the module's step 4.
    The keys order edges exactly as :func:`parmst.order.canonical_order`
    (two-pass keys with the ids). ``out``: a uint64 device array of one key per edge to
    write them into (default: a new one). ``key_range``: the weights'
    :class:`~parmst._cuda.edge_scan.KeyRange` where known (a device graph's checks found it),
    so that the keys are one launch and nothing comes back; otherwise one launch ranges
    them first and one small copy brings the range back.
    """
    choose_mode(0, 1, method, unpacked)  # rejects bad options before any kernel runs
    m = weight.shape[0]
    keys = _runtime.device_array(m, np.uint64) if out is None else out
    if not m:
        return DeviceEdgeKeys(keys, "packed", id_bits(0))
    low, high, narrow = _edge_scan.weight_key_range(weight) if key_range is None else key_range
    mode = choose_mode((high - low).bit_length(), m, method, unpacked)
    bits = id_bits(m) if mode == "packed" else 0
    width = weight.dtype.itemsize
    # A streaming grid: RMAT 22's keys in 0.25 ms on an H200, 0.42 with a thread per edge.
    _runtime.launch(_write_keys, _runtime.streaming_grid(m), weight.view(f"u{width}"),
                    weight.dtype.kind == "f", np.uint64(1 << (8 * width - 1)), bool(narrow),
                    np.uint64(low), np.uint64(bits), mode == "packed", keys)
    if mode != "rank":
        return DeviceEdgeKeys(keys, mode, bits)
    order = _arrays.radix_order(keys, (high - low).bit_length())
    _runtime.launch(_ranks, launch_grid(m), order, keys)
    return DeviceEdgeKeys(keys, "rank", 0, order)


def graph_keys(graph: Any, method: str, stats: Stats, unpacked: str = "rank",
               phases: _runtime.DevicePhases | None = None) -> DeviceEdgeKeys:
    """:func:`device_keys` of the graph's device weights, cached on the graph per method and
    timed as the ``keys`` phase of initialization: by a wait for the kernels, or, given
    ``phases``, by events that the caller books after a wait of its own (no wait here).

    The key array comes from the device pool and goes back to it when the graph drops its
    cache (the graph is freed, or :meth:`~parmst.Graph.clear_cache`): a solve of a fresh
    graph of the same edge count, as a caller rebuilding graphs from device arrays makes
    every call, allocates no keys. A graph built from device arrays knows its weights' key
    range from its checks (:attr:`parmst._graph_device.DeviceEdges.key_range`): its keys
    are then one launch and no wait.
    """
    cache_key = ("gpu-keys", method, unpacked)
    cached = graph._cache.get(cache_key)
    if cached is None:
        from parmst.solvers.gpu import _device

        edges = _device.device_graph(graph, stats)
        owner = _pool.device_pool()
        out = owner.take(edges.weight.shape[0], np.uint64)
        try:
            if phases is None:
                with stats.phase("keys"):
                    cached = device_keys(edges.weight, method, unpacked, out, edges.key_range)
                    _runtime.synchronize()
            else:
                with phases.phase("keys"):
                    cached = device_keys(edges.weight, method, unpacked, out, edges.key_range)
        except BaseException:
            owner.give([out])
            raise
        weakref.finalize(cached, owner.give, [out])
        graph._cache[cache_key] = cached
    return cached


#: Threshold plans already made, by device and by what they depend on: a solve of a graph
#: with the same sizes, seed, target and sample count draws no sample and copies nothing (a
#: 160-byte copy to the device costs ~170 µs of host time, a seeded generator tens of µs).
_PLANS: dict[tuple, tuple[Any, int] | None] = {}
_MAX_PLANS = 64


def threshold_plan(num_edges: int, num_vertices: int, seed: int,
                   target: float = ecl_host.FILTER_TARGET,
                   samples: int = ecl_host.FILTER_SAMPLES) -> tuple[Any, int] | None:
    """Fallin et al.'s sampled filter threshold as a plan for the device, or ``None`` below
    average degree 4.

    :func:`parmst.solvers.ecl_host.sample_plan`'s positions (a device array)
    and the rank of the threshold among the sampled keys, cached: a kernel
    then picks the threshold from the keys where they are, and nothing comes
    back to the host. Fallin et al. count degree over CSR entries (both
    directions), so "average degree >= 4" is ``|E| >= 2 |V|`` for our
    undirected edge count; ``target`` light edges per vertex, estimated from ``samples``
    sampled keys.
    """
    where = (id(_pool.device_pool()), int(num_edges), int(num_vertices), seed, target, samples)
    if where in _PLANS:
        return _PLANS[where]
    plan = ecl_host.sample_plan(num_edges, num_vertices, seed, samples,
                                degree=ecl_host.FILTER_DEGREE, target=target)
    if plan is not None:
        positions, pick = plan
        plan = cuda.to_device(np.ascontiguousarray(positions, dtype=np.int64)), pick
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[where] = plan
    return plan
