"""Sequential union-find as struct-of-arrays with free functions.

Shared by the serial solvers (Kruskal, Filter-Kruskal, Borůvka) and by
:meth:`Forest.component_labels`. Union by size keeps trees shallow; finds
halve paths as they go.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def find(parent, v):
    """Root of ``v``, halving the path on the way (path compression, Shou and He section 2.7)."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@numba.njit(cache=True, inline="always")
def union_roots(parent, size, ru, rv):
    """Link two distinct roots, the smaller tree under the larger."""
    if size[ru] < size[rv]:
        ru, rv = rv, ru
    parent[rv] = ru
    size[ru] += size[rv]


@numba.njit(cache=True)
def _label_by_smallest_vertex(src, dst, num_vertices):
    """Component label of each vertex: the smallest vertex id in its component."""
    parent = np.arange(num_vertices)
    size = np.ones(num_vertices, dtype=np.int64)
    for e in range(len(src)):
        ru = find(parent, src[e])
        rv = find(parent, dst[e])
        if ru != rv:
            union_roots(parent, size, ru, rv)
    smallest = np.full(num_vertices, num_vertices, dtype=np.int64)
    labels = np.empty(num_vertices, dtype=np.int64)
    for v in range(num_vertices):
        r = find(parent, v)
        smallest[r] = min(smallest[r], v)
    for v in range(num_vertices):
        labels[v] = smallest[find(parent, v)]
    return labels


def forest_labels(src: np.ndarray, dst: np.ndarray, num_vertices: int) -> np.ndarray:
    """Component label of each vertex given a forest's edges (smallest vertex id)."""
    return _label_by_smallest_vertex(np.asarray(src), np.asarray(dst), int(num_vertices))
