"""Prim on a dense adjacency matrix (Pugliese, section 2.1): the key matrix and its limits.

Shared by ``prim-dense`` on every backend: the ``n x n`` matrix of the
lightest unique key per vertex pair (:func:`build_key_matrix`), the serial
step that relaxes the distances and finds the closest vertex
(:func:`relax_and_find_closest`), and the size limit (:func:`dense_fits`).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.dense_limits import DENSE_MAX_EDGES, DENSE_MAX_VERTICES, dense_fits

__all__ = ["DENSE_MAX_EDGES", "DENSE_MAX_VERTICES", "NO_EDGE", "build_key_matrix",
           "dense_fits", "relax_and_find_closest"]

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
