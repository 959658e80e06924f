"""Indexed binary heap of ``(key, edge, vertex)`` entries, ordered by ``(key, edge_id)``.

Sousa, Algorithm 4: the heap holds vertices outside a tree, each with the
lightest known edge to it. Entries live in three heap-ordered arrays (key,
edge, vertex), so that sifting compares neighbouring memory instead of
chasing vertex ids; ``position[v]`` says where vertex ``v`` sits (``-1``: not
in the heap), so a lighter edge found later decreases its key in place and
the heap never holds a vertex twice. Shared by every Prim here (serial, the
partitioned and the multi-instance ones, the local-forest filter) and by the
NetworkX front door's Prim.
"""

from __future__ import annotations

import numba

from parmst.order import precedes

__all__ = ["offer", "pop_min", "sift_down", "sift_up"]


@numba.njit(cache=True, inline="always")
def _place(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex):
    """Store entry (key, edge, vertex) in heap slot ``i`` and record where the vertex sits."""
    heap_key[i] = key
    heap_edge[i] = edge
    heap_vertex[i] = vertex
    position[vertex] = i


@numba.njit(cache=True)
def sift_up(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex):
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
def sift_down(heap_key, heap_edge, heap_vertex, position, size, key, edge, vertex):
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

    """
    i = position[vertex]
    if i == -1:
        sift_up(heap_key, heap_edge, heap_vertex, position, size, key, edge, vertex)
        return size + 1
    if precedes(key, edge, heap_key[i], heap_edge[i]):
        sift_up(heap_key, heap_edge, heap_vertex, position, i, key, edge, vertex)
    return size


@numba.njit(cache=True, inline="always")
def pop_min(heap_key, heap_edge, heap_vertex, position, size):
    """Seed 003 Alg. 4 deletemin: drop the root (read it first); returns the new heap size.

    The removed vertex's position is reset to -1, so a later tree of the same
    heap may offer it again (the multi-instance Prims reuse one heap for many trees).
    """
    vertex = heap_vertex[0]
    size -= 1
    sift_down(heap_key, heap_edge, heap_vertex, position, size, heap_key[size],
               heap_edge[size], heap_vertex[size])
    position[vertex] = -1
    return size
