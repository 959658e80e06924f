"""SciPy's single-linkage matrix from a spanning tree: the clusters its edges merge, in order.

Single linkage is Kruskal's algorithm on the complete graph (Gower and Ross,
"Minimum spanning trees and single linkage cluster analysis", 1969): the
merges it makes are the minimum spanning tree's edges taken by increasing
weight. So the tree alone gives the whole dendrogram. Taking its edges in
the ``(weight, edge_id)`` order, each edge joins the two clusters holding its
ends into a new cluster, numbered ``n, n + 1, ...`` as SciPy numbers them
(``scipy.cluster.hierarchy`` format: rows ``[a, b, height, size]`` with
``a < b``).

The union-find here is SciPy's own ``LinkageUnionFind`` layout rather than
:mod:`parmst.kernels.unionfind`'s: a merge makes a new node, the parent of
both roots, so a root *is* its cluster's id and no label table is kept.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._text import plural
from parmst.errors import GraphValueError

__all__ = ["single_linkage"]


@numba.njit(cache=True)
def _cluster_of(parent, v):
    """The cluster (root) holding ``v``, halving the path on the way."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@numba.njit(cache=True)
def _merge_rows(src, dst, height, n):
    """Gower and Ross's single linkage from tree edges in merge order: one row per edge.

    Edge ``k`` merges the clusters of ``src[k]`` and ``dst[k]`` into cluster
    ``n + k`` of size the sum of theirs. Returns the ``(n - 1, 4)`` rows and
    the position of the first edge whose ends already share a cluster (a
    cycle: not a tree), or -1.
    """
    parent = np.arange(2 * n - 1)
    size = np.ones(2 * n - 1, dtype=np.int64)
    rows = np.empty((n - 1, 4), dtype=np.float64)
    for k in range(n - 1):
        a = _cluster_of(parent, src[k])
        b = _cluster_of(parent, dst[k])
        if a == b:
            return rows, k
        merged = n + k
        parent[a] = merged
        parent[b] = merged
        size[merged] = size[a] + size[b]
        rows[k, 0] = min(a, b)
        rows[k, 1] = max(a, b)
        rows[k, 2] = height[k]
        rows[k, 3] = size[merged]
    return rows, -1


def single_linkage(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, edge_ids: np.ndarray,
                   num_vertices: int) -> np.ndarray:
    """SciPy's single-linkage matrix of the spanning tree with these edges.

    Parameters
    ----------
    src, dst, weight, edge_ids : ndarray
        The tree's edges; merged in the ``(weight, edge_id)`` order.
    num_vertices : int
        The points (leaves); the edges must form one tree spanning them.

    Returns
    -------
    ndarray of float64, shape (num_vertices - 1, 4)

    Raises
    ------
    GraphValueError
        No vertices, several trees (SciPy's format has one root), a cycle,
        or a negative or NaN weight (SciPy's heights are distances).

    Examples
    --------
    >>> single_linkage(np.array([0, 1]), np.array([1, 2]), np.array([2.0, 1.0]),
    ...                np.array([0, 1]), 3).tolist()
    [[1.0, 2.0, 1.0, 2.0], [0.0, 3.0, 2.0, 3.0]]
    """
    n = int(num_vertices)
    if n == 0:
        raise GraphValueError("a linkage matrix needs at least one point; the forest has none")
    if len(src) != n - 1:
        trees = n - len(src)
        raise GraphValueError(
            f"a linkage matrix needs one tree over all {plural(n, 'point')}, and this forest "
            f"has {plural(trees, 'tree')}: single linkage of disconnected parts has no "
            "common root (solve a connected graph, or take each tree apart)")
    height = np.asarray(weight, dtype=np.float64)
    bad = np.flatnonzero(~(height >= 0))
    if len(bad):
        raise GraphValueError(f"linkage heights are distances: edge {int(edge_ids[bad[0]])} has "
                              f"weight {float(height[bad[0]])!r}")
    order = np.lexsort((edge_ids, height))
    rows, cycle_at = _merge_rows(np.asarray(src, dtype=np.int64)[order],
                                 np.asarray(dst, dtype=np.int64)[order], height[order], n)
    if cycle_at >= 0:
        raise GraphValueError(f"not a tree: edge {int(edge_ids[order[cycle_at]])} closes a cycle")
    return rows
