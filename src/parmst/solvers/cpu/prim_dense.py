"""Dense Prim with a parallel min-reduction (Pugliese, section 3: PRIM_MST on a GPU).

Pugliese keeps Prim's O(V^2) loop and spreads each step's two scans over
many threads: the update of ``d`` from the new tree vertex's matrix row and
the min-reduction that picks the next vertex. Here one ``prange`` pass per
step does both over fixed blocks of the vertices still outside the tree
(relax, then the block's local minimum); the driver kernel combines the
block minima. Steps with fewer than ``parallel_from`` vertices outside
(default :data:`PARALLEL_FROM`) run the serial solver's fused pass instead:
below that, waking the threads and joining them costs more than the scan
(and far more on a loaded machine, where a step waits for a descheduled
thread). Both are options so that tests can force either branch, and several
blocks, on tiny graphs. The key matrix and its packed ``(weight, edge_id)``
keys are those of :mod:`parmst.solvers.serial.prim_dense`, so ties break by
edge id.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.kernels.dense import NO_EDGE, build_key_matrix, relax_and_find_closest
from parmst.order import edge_keys
from parmst.stats import Stats

PARALLEL_FROM = 1 << 14
"""Default ``parallel_from``: vertices outside the tree from which a step's scan is split
over threads."""
MIN_BLOCK = 1024
"""Default ``min_block``: the fewest vertices a thread's block of a parallel step holds."""


@numba.njit(parallel=True, cache=True)
def _relax_and_reduce(row, dist, outside, num_outside, block, best_key, best_index):
    """Pugliese PRIM_MST lines 12-13 then 10 per block: relax ``dist`` from the new tree
    vertex's row, record the block's closest outside vertex (index into ``outside``)."""
    for b in numba.prange(len(best_key)):
        closest_key = NO_EDGE
        closest = -1
        for i in range(b * block, min((b + 1) * block, num_outside)):
            v = outside[i]
            d = min(dist[v], row[v])
            dist[v] = d
            if d < closest_key:
                closest_key = d
                closest = i
        best_key[b] = closest_key
        best_index[b] = closest


@numba.njit(cache=True)
def _dense_prim(matrix, id_mask, blocks, parallel_from, min_block):
    """Pugliese PRIM_MST lines 8-14; a new tree starts when no edge reaches out.

    Steps with at least ``parallel_from`` vertices outside the tree scan them in
    ``blocks`` blocks of at least ``min_block`` vertices, in parallel. Returns the
    forest's edge ids, the number of trees and the number of parallel steps.
    """
    n = matrix.shape[0]
    dist = np.full(n, NO_EDGE, dtype=np.uint64)
    outside = np.arange(n)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    best_key = np.empty(blocks, dtype=np.uint64)
    best_index = np.empty(blocks, dtype=np.int64)
    count = trees = next_index = parallel_steps = 0
    for num_outside in range(n, 0, -1):
        u = outside[next_index]
        if dist[u] == NO_EDGE:
            trees += 1
        else:
            chosen[count] = np.int64(dist[u] & id_mask)
            count += 1
        outside[next_index] = outside[num_outside - 1]
        if num_outside - 1 < parallel_from:
            next_index = relax_and_find_closest(matrix[u], dist, outside, num_outside - 1)
            continue
        block = max(min_block, (num_outside - 1 + blocks - 1) // blocks)
        _relax_and_reduce(matrix[u], dist, outside, num_outside - 1, block, best_key, best_index)
        next_index = max(best_index[np.argmin(best_key)], 0)
        parallel_steps += 1
    return chosen[:count], trees, parallel_steps


def solve(graph, stats: Stats, threads: int | None = None,
          parallel_from: int = PARALLEL_FROM, min_block: int = MIN_BLOCK) -> np.ndarray:
    """Edge ids of the minimum spanning forest by dense Prim with a parallel min-reduction.

    Parameters
    ----------
    graph : Graph
        Its n-by-n key matrix must fit in memory (the registry's limit checks that).
    stats : Stats
        Also gets ``extra["parallel_steps"]``, the number of steps that ran in parallel.
    threads : int, optional
        Numba threads; all cores when None.
    parallel_from : int
        Steps with at least this many vertices outside the tree run the
        parallel relax-and-reduce; smaller ones the serial fused pass (0:
        every step parallel).
    min_block : int
        The fewest vertices in one thread's block of a parallel step (at least 1).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="prim-dense/cpu").edge_ids.tolist()
    [1, 2, 3]
    >>> parmst.minimum_spanning_forest(g, solver="prim-dense/cpu", parallel_from=0,
    ...                                min_block=1).edge_ids.tolist()
    [1, 2, 3]
    """
    for name, value, least in (("parallel_from", parallel_from, 0), ("min_block", min_block, 1)):
        if int(value) != value or value < least:
            raise ValueError(f"prim-dense/cpu: {name} must be an integer of at least {least}, "
                             f"got {value!r}")
    with using_threads(threads, stats) as count:
        with stats.init(), stats.phase("build-matrix"):
            keys = edge_keys(graph.weight, unpacked="rank")
            matrix = build_key_matrix(graph.src, graph.dst, keys.keys, graph.num_vertices)
        stats.extra["matrix_bytes"] = matrix.nbytes
        with stats.compute(), stats.phase("loop"):
            slots, trees, parallel_steps = _dense_prim(matrix, keys.slot_mask, count,
                                                       int(parallel_from), int(min_block))
    stats.rounds = trees
    stats.extra["parallel_steps"] = parallel_steps
    return keys.edge_ids(slots)
