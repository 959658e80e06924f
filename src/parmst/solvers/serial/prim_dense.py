"""Prim on a dense adjacency matrix in O(V^2) (Pugliese, section 2.1 PRIM_MST).

Initialization builds an ``n x n`` matrix holding, per vertex pair, the
packed ``(weight, edge_id)`` key of the lightest edge between them (the
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

from parmst.order import edge_keys
from parmst.stats import Stats

# No packed key equals NO_EDGE while there are fewer than 2**32 edges; the
# registry's limit for this solver (serial/__init__.py) enforces that.
NO_EDGE = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


@numba.njit(cache=True)
def _build_key_matrix(src, dst, keys, num_vertices):
    """Pugliese section 3 (adjacency matrix): the lightest packed key per vertex pair."""
    matrix = np.full((num_vertices, num_vertices), NO_EDGE, dtype=np.uint64)
    for e in range(len(src)):
        u = src[e]
        v = dst[e]
        if u != v and keys[e] < matrix[u, v]:
            matrix[u, v] = keys[e]
            matrix[v, u] = keys[e]
    return matrix


@numba.njit(cache=True)
def _relax_and_find_closest(row, dist, outside, num_outside):
    """Pugliese PRIM_MST lines 12-13 then 10, fused in one pass over the vertices outside.

    Lowers ``dist[v]`` to the new tree vertex's ``row[v]`` and returns the
    index in ``outside`` of the vertex with the smallest ``dist`` (0 if all
    are ``NO_EDGE``).
    """
    closest = 0
    closest_key = NO_EDGE
    for i in range(num_outside):
        v = outside[i]
        dist[v] = min(dist[v], row[v])
        if dist[v] < closest_key:
            closest_key = dist[v]
            closest = i
    return closest


@numba.njit(cache=True)
def _dense_prim(matrix, id_mask):
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
            chosen[count] = np.int64(dist[u] & id_mask)
            count += 1
        outside[next_index] = outside[num_outside - 1]
        next_index = _relax_and_find_closest(matrix[u], dist, outside, num_outside - 1)
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
        matrix = _build_key_matrix(graph.src, graph.dst, keys.keys, graph.num_vertices)
    stats.extra["matrix_bytes"] = matrix.nbytes
    with stats.compute(), stats.phase("loop"):
        slots, trees = _dense_prim(matrix, keys.slot_mask)
    stats.rounds = trees
    return keys.edge_ids(slots)
