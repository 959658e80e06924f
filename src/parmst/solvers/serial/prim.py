"""Prim's algorithm with an indexed binary heap (seed 003, Algorithm 4).

The heap holds vertices outside the tree keyed by the lightest known edge
to the tree, compared by ``(key, edge_id)``; a lighter edge found later
decreases the vertex's key in place (``position`` indexes the heap), so the
heap never holds more than one entry per vertex. Growing a tree from every
vertex not yet reached turns Prim's tree into a forest.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.solvers.serial._keys import edge_keys, precedes
from parmst.stats import Stats


@numba.njit(cache=True)
def _sift_up(heap, position, best_key, best_edge, i):
    """Seed 003 Alg. 4 insert/decrease: move the entry at ``i`` up past heavier parents."""
    v = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        u = heap[parent]
        if not precedes(best_key[v], best_edge[v], best_key[u], best_edge[u]):
            break
        heap[i] = u
        position[u] = i
        i = parent
    heap[i] = v
    position[v] = i


@numba.njit(cache=True)
def _sift_down(heap, position, best_key, best_edge, size, i):
    """Seed 003 Alg. 4 deletemin: move the entry at ``i`` down past lighter children."""
    v = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        c = heap[child]
        if child + 1 < size:
            r = heap[child + 1]
            if precedes(best_key[r], best_edge[r], best_key[c], best_edge[c]):
                child += 1
                c = r
        if not precedes(best_key[c], best_edge[c], best_key[v], best_edge[v]):
            break
        heap[i] = c
        position[c] = i
        i = child
    heap[i] = v
    position[v] = i


@numba.njit(cache=True)
def _relax_neighbours(v, indptr, indices, edge_ids, keys, in_tree, heap, position,
                      best_key, best_edge, size):
    """Seed 003 Alg. 4 lines 23-29: offer each edge of ``v`` to its endpoint outside the tree.

    Returns the new heap size.
    """
    for k in range(indptr[v], indptr[v + 1]):
        t = indices[k]
        if in_tree[t]:
            continue
        e = edge_ids[k]
        if best_edge[t] == -1:
            best_key[t] = keys[e]
            best_edge[t] = e
            heap[size] = t
            size += 1
            _sift_up(heap, position, best_key, best_edge, size - 1)
        elif precedes(keys[e], e, best_key[t], best_edge[t]):
            best_key[t] = keys[e]
            best_edge[t] = e
            _sift_up(heap, position, best_key, best_edge, position[t])
    return size


@numba.njit(cache=True)
def _prim_forest(indptr, indices, edge_ids, keys):
    """Seed 003 Alg. 4, restarted from every unreached vertex; returns edge ids and tree count."""
    n = len(indptr) - 1
    in_tree = np.zeros(n, dtype=np.bool_)
    best_key = np.empty(n, dtype=np.uint64)
    best_edge = np.full(n, -1, dtype=np.int64)
    heap = np.empty(n, dtype=np.int64)
    position = np.empty(n, dtype=np.int64)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    trees = 0
    for root in range(n):
        if in_tree[root]:
            continue
        trees += 1
        in_tree[root] = True
        size = _relax_neighbours(root, indptr, indices, edge_ids, keys, in_tree, heap,
                                 position, best_key, best_edge, 0)
        while size > 0:
            v = heap[0]
            size -= 1
            heap[0] = heap[size]
            _sift_down(heap, position, best_key, best_edge, size, 0)
            in_tree[v] = True
            chosen[count] = best_edge[v]
            count += 1
            size = _relax_neighbours(v, indptr, indices, edge_ids, keys, in_tree, heap,
                                     position, best_key, best_edge, size)
    return chosen[:count], trees


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by heap-based Prim on the CSR view."""
    with stats.init():
        csr = graph.csr()
    with stats.compute():
        with stats.phase("keys"):
            keys = edge_keys(graph.weight)
        with stats.phase("heap"):
            chosen, trees = _prim_forest(csr.indptr, csr.indices, csr.edge_ids, keys)
    stats.rounds = trees
    return chosen
