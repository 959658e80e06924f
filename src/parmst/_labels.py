"""Component labels of a graph from its CSR view: each vertex gets its component's smallest id.

Used by :meth:`parmst.Forest.component_labels` and the NetworkX backend's
Borůvka (components of the forest so far). One depth-first sweep over
the vertices in ascending order: the first vertex reached in a component is
its smallest, and every vertex it reaches takes that label. Each vertex is
pushed once, so the stack never holds more than ``n`` entries and the sweep
is O(n + m) with no union-find.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._csr import build_csr

__all__ = ["smallest_vertex_labels"]


@numba.njit(cache=True)
def _sweep(indptr, indices, num_vertices):
    """Label every vertex with the root it was reached from, roots taken in ascending order."""
    labels = np.full(num_vertices, -1, dtype=np.int64)
    stack = np.empty(num_vertices, dtype=np.int64)
    for root in range(num_vertices):
        if labels[root] >= 0:
            continue
        labels[root] = root
        stack[0] = root
        top = 1
        while top:
            top -= 1
            v = stack[top]
            for k in range(indptr[v], indptr[v + 1]):
                u = indices[k]
                if labels[u] < 0:
                    labels[u] = root
                    stack[top] = u
                    top += 1
    return labels


def smallest_vertex_labels(src: np.ndarray, dst: np.ndarray, num_vertices: int) -> np.ndarray:
    """Component label of each vertex of the edge list: the smallest vertex id in its component.

    Examples
    --------
    >>> ends = np.array([1, 4]), np.array([2, 3])
    >>> smallest_vertex_labels(*ends, 5).tolist()
    [0, 1, 1, 3, 3]
    """
    src = np.asarray(src)
    no_weights = np.zeros(len(src), dtype=np.int8)  # the sweep reads only the adjacency
    csr = build_csr(src, np.asarray(dst), no_weights, int(num_vertices))
    return _sweep(csr.indptr, csr.indices, int(num_vertices))
