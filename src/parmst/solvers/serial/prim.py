"""Prim's algorithm with an indexed binary heap (Sousa, Algorithm 4).

The heap holds the vertices outside the tree, each with the lightest known
edge to the tree, compared by ``(key, edge_id)``. Entries live in three
heap-ordered arrays (key, edge, vertex), so that sifting compares
neighbouring memory instead of chasing vertex ids; ``position[v]`` says
where vertex ``v`` sits (``-1``: never reached), so a lighter edge found
later decreases its key in place and the heap never holds a vertex twice.
Growing a tree from every vertex not yet reached turns Prim's tree into a
forest.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.order import edge_keys, precedes
from parmst.stats import Stats


@numba.njit(cache=True, inline="always")
def _place(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex):
    """Store entry (key, edge, vertex) in heap slot ``i`` and record where the vertex sits."""
    heap_key[i] = key
    heap_edge[i] = edge
    heap_vertex[i] = vertex
    position[vertex] = i


@numba.njit(cache=True)
def _sift_up(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex):
    """Sousa Alg. 4 insert/decrease: place entry (key, edge, vertex) at ``i`` or above."""
    while i > 0:
        parent = (i - 1) >> 1
        if not precedes(key, edge, heap_key[parent], heap_edge[parent]):
            break
        _place(heap_key, heap_edge, heap_vertex, position, i,
               heap_key[parent], heap_edge[parent], heap_vertex[parent])
        i = parent
    _place(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex)


@numba.njit(cache=True)
def _sift_down(heap_key, heap_edge, heap_vertex, position, size, key, edge, vertex):
    """Sousa Alg. 4 deletemin: place entry (key, edge, vertex) from the root downwards."""
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and precedes(heap_key[child + 1], heap_edge[child + 1],
                                         heap_key[child], heap_edge[child]):
            child += 1
        if not precedes(heap_key[child], heap_edge[child], key, edge):
            break
        _place(heap_key, heap_edge, heap_vertex, position, i,
               heap_key[child], heap_edge[child], heap_vertex[child])
        i = child
    _place(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex)


@numba.njit(cache=True, inline="always")
def offer(heap_key, heap_edge, heap_vertex, position, size, key, edge, vertex):
    """Seed 003 Alg. 4 lines 25-28: insert ``vertex`` with edge ``(key, edge)``, or decrease
    its key if that edge is lighter than the one it holds; returns the new heap size.

    Shared by every Prim here (serial, the partitioned and the multi-instance ones).
    """
    i = position[vertex]
    if i == -1:
        _sift_up(heap_key, heap_edge, heap_vertex, position, size, key, edge, vertex)
        return size + 1
    if precedes(key, edge, heap_key[i], heap_edge[i]):
        _sift_up(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex)
    return size


@numba.njit(cache=True, inline="always")
def pop_min(heap_key, heap_edge, heap_vertex, position, size):
    """Seed 003 Alg. 4 deletemin: drop the root (read it first); returns the new heap size.

    The removed vertex's position is reset to -1, so a later tree of the same
    heap may offer it again (the multi-instance Prims reuse one heap for many trees).
    """
    vertex = heap_vertex[0]
    size -= 1
    _sift_down(heap_key, heap_edge, heap_vertex, position, size, heap_key[size],
               heap_edge[size], heap_vertex[size])
    position[vertex] = -1
    return size


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
