"""Shou and He's final CUDA Borůvka: edge-centric bridges, wait-free union-find, worklist.

Shou and He section 3.2: every round, one thread per worklist edge finds the
sets of its endpoints and records the edge in both with ``atomicMin``
(vertex bridges); every edge that is a bridge of one of its sets joins them
through the wait-free disjoint-set union of Anderson and Woll (Listing 4:
rank and parent in one 64-bit record changed by ``atomicCAS``); the
minima are reset. The filtering of internal edges is woven into the
bridge kernel, which writes the surviving edges to a second worklist
(Listing 6, optimization 2). ``find`` does no path compression
(optimization 3), and the block size is a parameter (optimization 1).

Shou and He compare weights alone; we compare the packed ``(weight, id)`` keys
of :mod:`parmst.solvers.gpu._keys`, so ties cannot create cycles and the
forest is the unique one.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst._cuda import arrays, pool, runtime
from parmst.solvers.gpu import _device
from parmst.solvers.gpu._kernels import (
    LOW32,
    SHIFT32,
    pack_pair,
    reserve,
    reset_items,
    warp_round,
    worklist_round,
)
from parmst.solvers.gpu._keys import MAX_KEY, graph_keys
from parmst.stats import Stats


@cuda.jit(device=True, inline=True)
def _record(rank, parent):
    """Shou and He Listing 4 ``CREATE_RECORD``: rank in the high word, parent in the low word."""
    return (np.uint64(rank) << SHIFT32) | np.uint64(parent)


@cuda.jit(device=True, inline=True)
def _find(dsu, v):
    """Shou and He Listing 4 ``find`` without path compression (optimization 3)."""
    up = np.int64(dsu[v] & LOW32)
    while up != v:
        v = up
        up = np.int64(dsu[v] & LOW32)
    return v


@cuda.jit(device=True, inline=True)
def _update_root(dsu, u, old_rank, v, new_rank):
    """Shou and He Listing 4 ``update_root``: one atomicCAS on u's whole record."""
    expected = _record(old_rank, u)
    return cuda.atomic.cas(dsu, u, expected, _record(new_rank, v)) == expected


@cuda.jit(device=True)
def _join(dsu, u, v):
    """Shou and He Listing 4 ``join``: the lower-ranked root links under the other; retry on races.
    Returns whether it linked two trees (False: they were one already)."""
    while True:
        u = _find(dsu, u)
        v = _find(dsu, v)
        if u == v:
            return False
        u_rank = dsu[u] >> SHIFT32
        v_rank = dsu[v] >> SHIFT32
        if u_rank > v_rank or (u_rank == v_rank and u > v):
            u, v = v, u
            u_rank, v_rank = v_rank, u_rank
        if not _update_root(dsu, u, u_rank, v, v_rank):
            continue
        if u_rank == v_rank:
            _update_root(dsu, v, v_rank, v, v_rank + np.uint64(1))
        return True


@cuda.jit(cache=True)
def _load_edges(src, dst, keys, wl, counts):
    """Shou and He Listing 6 lines 16-17: the first worklist holds every non-loop edge."""
    m = src.shape[0]
    for e in range(cuda.grid(1), warp_round(m), cuda.gridsize(1)):
        keep = e < m and src[e] != dst[e]
        pos = reserve(counts, 0, keep)
        if keep:
            wl[0, pos, 0] = pack_pair(src[e], dst[e])
            wl[0, pos, 1] = keys[e]


_bridge_items, _merge_items = worklist_round(_find, _join)


@cuda.jit(cache=True)
def _bridges(wl, counts, cur, dsu, min_key):
    """Shou and He Listing 6 lines 22-27: remap to sets, keep crossing edges, atomicMin bridges."""
    _bridge_items(wl, counts, cur, dsu, min_key, False)


@cuda.jit(cache=True)
def _merge(wl, counts, cur, dsu, min_key, no_ties, in_forest, slot_mask):
    """Shou and He Listing 6 lines 35-40: a bridge of either endpoint joins and enters the MST.

    Keys are unique here (packed or ranks), so ``no_ties`` is empty: no second pass.
    """
    _merge_items(wl, counts, cur, dsu, min_key, no_ties, in_forest, slot_mask)


@cuda.jit(cache=True)
def _clear(wl, counts, cur, min_key, no_ties):
    """Shou and He Listing 6 lines 43-45: reset the minima; empty the drained worklist."""
    reset_items(wl, counts, cur, min_key, no_ties)


def solve(graph, stats: Stats, *, block_size: int = runtime.DEFAULT_BLOCK_SIZE,
          keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by Shou and He's CUDA Borůvka.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        Timings as for ``ecl/gpu``: ``compute_time`` with the graph on the
        device, ``extra["end_to_end_time"]`` with transfers.
    block_size : int
        Threads per block (Shou and He optimization 1 settled on 512).
    keys : {"auto", "packed", "rank"}
        Key method of :func:`parmst.solvers.gpu._keys.device_keys`: packed
        ``(weight, edge_id)`` keys where they fit (``"auto"``), or the edges'
        ranks in that order from a sort on the device (``"rank"``, the route
        for weights that do not pack).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "boruvka-edge/gpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    if block_size % 32 or not 32 <= block_size <= 1024:
        raise ValueError(f"boruvka-edge/gpu: block_size must be a multiple of 32 in 32..1024, "
                         f"got {block_size}")
    n, m = graph.num_vertices, graph.num_edges
    threads, max_blocks = runtime.launch_limits(block_size)

    def grid(count):
        return min(max_blocks, runtime.blocks_for(count, threads)), threads

    with stats.init():
        needed = (2 * graph.index_dtype.itemsize + 8) * m + 2 * max(m, 1) * 16 + 16 * n + m + 16
        pool.ensure_memory("boruvka-edge/gpu", needed)
        edges = _device.device_graph(graph, stats)
        keys = graph_keys(graph, keys, stats)
        src, dst, d_keys = edges.src, edges.dst, keys.keys
        dsu = arrays.iota(n, np.uint64)  # rank 0, parent itself
        min_key = arrays.fill(n, MAX_KEY, np.uint64)
        in_forest = arrays.fill(m, 0, np.uint8)
        wl = cuda.device_array((2, max(m, 1), 2), dtype=np.uint64)
        counts = arrays.fill(2, 0, np.int64)
        no_ties = cuda.device_array(0, dtype=np.uint64)
    stats.extra["key_method"] = keys.mode
    with stats.compute():
        _load_edges[grid(m)](src, dst, d_keys, wl, counts)
        size, cur = int(counts.copy_to_host()[0]), 0
        stats.rounds = 0
        while size:
            stats.worklist_sizes.append(size)
            stats.rounds += 1
            _bridges[grid(size)](wl, counts, cur, dsu, min_key)
            size, cur = int(counts.copy_to_host()[1 - cur]), 1 - cur
            if size:
                _merge[grid(size)](wl, counts, cur, dsu, min_key, no_ties, in_forest,
                                   keys.slot_mask)
                _clear[grid(size)](wl, counts, cur, min_key, no_ties)
        runtime.synchronize()
    edge_ids = _device.result_ids(graph, keys, in_forest, stats)
    _device.record_device(stats, needed)
    return edge_ids
