"""Prim on a dense adjacency matrix in O(V^2) (Pugliese, section 2.1 PRIM_MST).

Initialization builds an ``n x n`` matrix holding, per vertex pair, the
unique ``(weight, edge_id)`` key of the lightest edge between them (the
lightest of parallel edges; self-loops left out) and ``NO_EDGE`` where there
is none. The loop keeps ``d[v]``, the best key from the tree to each vertex
outside it: pick the smallest, add it, relax ``d`` from its matrix row. A
smallest ``d`` of ``NO_EDGE`` means the tree is complete, and the vertex
starts the next tree of the forest. Unique keys (packed, or ranks where the
weights do not pack, :func:`parmst.order.edge_keys`) make every comparison one
unsigned compare, and their slot bits name the edge.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.dense import NO_EDGE, build_key_matrix, relax_and_find_closest
from parmst.order import edge_keys
from parmst.stats import Stats


@numba.njit(cache=True)
def _dense_prim(matrix, slot_mask):
    """Pugliese PRIM_MST lines 8-14, starting a new tree whenever no edge reaches out."""
    n = matrix.shape[0]
    dist = np.full(n, NO_EDGE, dtype=np.uint64)
    outside = np.arange(n)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    trees = 0
    next_index = 0
    for num_outside in range(n, 0, -1):
        u = outside[next_index]
        if dist[u] == NO_EDGE:
            trees += 1
        else:
            chosen[count] = np.int64(dist[u] & slot_mask)
            count += 1
        outside[next_index] = outside[num_outside - 1]
        next_index = relax_and_find_closest(matrix[u], dist, outside, num_outside - 1)
    return chosen[:count], trees


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by O(V^2) Prim on a key matrix.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 0], [1, 2, 2, 1], [1, 2, 3, 1])
    >>> sorted(solve(g, parmst.Stats()).tolist())
    [0, 1]
    """
    with stats.init(), stats.phase("build-matrix"):
        keys = edge_keys(graph.weight, unpacked="rank")
        matrix = build_key_matrix(graph.src, graph.dst, keys.keys, graph.num_vertices)
    stats.extra["matrix_bytes"] = matrix.nbytes
    with stats.compute(), stats.phase("loop"):
        slots, trees = _dense_prim(matrix, keys.slot_mask)
    stats.rounds = trees
    return keys.edge_ids(slots)
