"""Prim on a dense adjacency matrix (Pugliese, section 2.1): the key matrix and its limits.

Shared by ``prim-dense`` on every backend: the ``n x n`` matrix of the
lightest unique key per vertex pair (:func:`build_key_matrix`), the serial
step that relaxes the distances and finds the closest vertex
(:func:`relax_and_find_closest`), and the size limit (:func:`dense_fits`).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["DENSE_MAX_EDGES", "DENSE_MAX_VERTICES", "NO_EDGE", "build_key_matrix",
           "dense_fits", "relax_and_find_closest"]

DENSE_MAX_VERTICES = 46_340  # n*n fits int32 and the n-by-n key matrix stays under ~16 GiB
DENSE_MAX_EDGES = 2**32 - 1  # below this no unique (weight, edge_id) key equals NO_EDGE


def dense_fits(graph) -> bool | str:
    """True where an ``n``-by-``n`` key matrix of the graph fits, else why not (a solver limit).

    Examples
    --------
    >>> import parmst
    >>> dense_fits(parmst.Graph.from_edges([0], [1], [1.0]))
    True
    """
    if graph.num_vertices > DENSE_MAX_VERTICES:
        return (f"dense adjacency matrix of {graph.num_vertices} vertices is too large "
                f"(limit {DENSE_MAX_VERTICES})")
    if graph.num_edges > DENSE_MAX_EDGES:
        return (f"{graph.num_edges} edges: packed (weight, edge_id) keys need at most "
                f"{DENSE_MAX_EDGES}")
    return True


# No unique key (packed, below 2**63, or a rank) equals NO_EDGE while there are fewer than
# 2**32 edges; :func:`dense_fits` enforces that.
NO_EDGE = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


@numba.njit(cache=True)
def build_key_matrix(src, dst, keys, num_vertices):
    """Pugliese section 3 (adjacency matrix): the lightest key per vertex pair."""
    matrix = np.full((num_vertices, num_vertices), NO_EDGE, dtype=np.uint64)
    for e in range(len(src)):
        u = src[e]
        v = dst[e]
        if u != v and keys[e] < matrix[u, v]:
            matrix[u, v] = keys[e]
            matrix[v, u] = keys[e]
    return matrix


@numba.njit(cache=True)
def relax_and_find_closest(row, dist, outside, num_outside):
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
