"""Prim's algorithm with an indexed binary heap (Sousa, Algorithm 4).

The heap (:mod:`parmst.kernels.heap`) holds the vertices outside the tree,
each with the lightest known edge to the tree, compared by
``(key, edge_id)``. Growing a tree from every vertex not yet reached turns
Prim's tree into a forest.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.heap import offer, pop_min
from parmst.order import edge_keys
from parmst.stats import Stats


@numba.njit(cache=True)
def _relax_neighbours(v, indptr, indices, edge_ids, keys, in_tree, heap_key, heap_edge,
                      heap_vertex, position, size):
    """Sousa Alg. 4 lines 23-29: offer each edge of ``v`` to its endpoint outside the tree.

    Returns the new heap size.
    """
    for k in range(indptr[v], indptr[v + 1]):
        t = indices[k]
        if not in_tree[t]:
            e = edge_ids[k]
            size = offer(heap_key, heap_edge, heap_vertex, position, size, keys[e], e, t)
    return size


@numba.njit(cache=True)
def _prim_forest(indptr, indices, edge_ids, keys):
    """Sousa Alg. 4, restarted from every unreached vertex; returns edge ids and tree count."""
    n = len(indptr) - 1
    in_tree = np.zeros(n, dtype=np.bool_)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_edge = np.empty(n, dtype=np.int64)
    heap_vertex = np.empty(n, dtype=np.int64)
    position = np.full(n, -1, dtype=np.int64)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    trees = 0
    for root in range(n):
        if in_tree[root]:
            continue
        trees += 1
        v = root
        size = 0
        while True:
            in_tree[v] = True
            size = _relax_neighbours(v, indptr, indices, edge_ids, keys, in_tree, heap_key,
                                     heap_edge, heap_vertex, position, size)
            if size == 0:
                break
            v = heap_vertex[0]
            chosen[count] = heap_edge[0]
            count += 1
            size = pop_min(heap_key, heap_edge, heap_vertex, position, size)
    return chosen[:count], trees


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by heap-based Prim on the CSR view.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], [1.0, 1.0, 1.0, 0.5])
    >>> sorted(solve(g, parmst.Stats()).tolist())
    [0, 1, 3]
    """
    with stats.init():
        csr = graph.csr()
    with stats.compute():
        with stats.phase("keys"):
            keys = edge_keys(graph.weight).keys
        with stats.phase("heap"):
            chosen, trees = _prim_forest(csr.indptr, csr.indices, csr.edge_ids, keys)
    stats.rounds = trees
    return chosen
