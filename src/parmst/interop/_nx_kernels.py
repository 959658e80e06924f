"""Kernels that reproduce NetworkX's Prim and Borůvka edge orders exactly, and one that
groups a tree's adjacency entries by row for building NetworkX's result graph.

Kruskal needs no kernel of its own: NetworkX sorts ``G.edges`` stably by
weight, which is parmst's ``(weight, edge_id)`` rule with edge ids in
``G.edges`` order. NetworkX's Prim and Borůvka break ties differently, so
under equal weights their trees (and always their edge orders) differ from
the ``(weight, edge_id)`` forest; these kernels follow NetworkX's own rules
on the half-edge CSR of the adjacency (rows in node order, entries in
adjacency order, a multigraph's keys flattened in place).

All kernels compare order-preserving uint64 weight keys (``parmst.order``)
of the sign-adjusted weights; NaN entries are flagged separately.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.heap import sift_down, sift_up
from parmst.order import precedes


@numba.njit(cache=True)
def _first_nan(indptr, nbr, nan, v, skip_loops, in_tree):
    """First entry of row ``v`` with a NaN weight that NetworkX's Prim would push, or -1.

    The root of a tree pushes every entry (``skip_loops`` False); later
    vertices skip neighbours already in the tree, their own loops included.
    """
    for h in range(indptr[v], indptr[v + 1]):
        if nan[h] and not (skip_loops and in_tree[nbr[h]]):
            return h
    return -1


@numba.njit(cache=True)
def prim_order(indptr, nbr, keys, nan, ignore_nan, start_order):
    """NetworkX's ``prim_mst_edges``: chosen half-edges in yield order.

    NetworkX keeps a lazy heap of ``(weight, push count)``; an indexed heap
    whose tie value is the push count pops the same vertex each step (the
    best pending entry of every outside vertex is the one the lazy heap would
    reach first). Trees grow from vertices in ``start_order`` (the order of
    ``set(G)``). Returns ``(chosen, count, nan_entry)``: the first ``count``
    half-edges are yielded, then, if ``nan_entry >= 0``, NetworkX raises on
    that entry's NaN weight.
    """
    n = len(indptr) - 1
    in_tree = np.zeros(n, dtype=np.bool_)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_tie = np.empty(n, dtype=np.int64)
    heap_vertex = np.empty(n, dtype=np.int64)
    position = np.full(n, -1, dtype=np.int64)
    offered = np.empty(n, dtype=np.int64)  # half-edge behind each vertex's heap entry
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    pushes = 0
    for s in range(len(start_order)):
        v = start_order[s]
        if in_tree[v]:
            continue
        root = True
        size = 0
        while True:
            in_tree[v] = True
            if not ignore_nan:
                bad = _first_nan(indptr, nbr, nan, v, not root, in_tree)
                if bad >= 0:
                    return chosen, count, bad
            root = False
            for h in range(indptr[v], indptr[v + 1]):
                t = nbr[h]
                if in_tree[t] or nan[h]:
                    continue
                pushes += 1
                i = position[t]
                if i == -1:
                    size += 1
                    offered[t] = h
                    sift_up(heap_key, heap_tie, heap_vertex, position, size - 1, keys[h],
                             pushes, t)
                elif precedes(keys[h], pushes, heap_key[i], heap_tie[i]):
                    offered[t] = h
                    sift_up(heap_key, heap_tie, heap_vertex, position, i, keys[h], pushes, t)
            if size == 0:
                break
            v = heap_vertex[0]
            chosen[count] = offered[v]
            count += 1
            size -= 1
            sift_down(heap_key, heap_tie, heap_vertex, position, size, heap_key[size],
                       heap_tie[size], heap_vertex[size])
    return chosen, count, -1


@numba.njit(cache=True)
def boruvka_candidates(indptr, row, nbr, keys, usable, label, best, tied):
    """One NetworkX Borůvka round: each component's lightest boundary entry.

    ``label[v]`` is the component of ``v`` (its first vertex in node order).
    ``best[c]`` gets the first lightest usable boundary entry in row order;
    ``tied[c]`` is set when another row of ``c`` offers an equally light
    entry: NetworkX then scans rows in the order of a Python set, which
    the caller reproduces. Returns the number of components with an entry.
    """
    n = len(indptr) - 1
    best[:] = -1
    tied[:] = False
    for v in range(n):
        c = label[v]
        for h in range(indptr[v], indptr[v + 1]):
            if not usable[h] or label[nbr[h]] == c:
                continue
            b = best[c]
            if b == -1 or keys[h] < keys[b]:
                best[c] = h
                tied[c] = False
            elif keys[h] == keys[b] and v != row[b]:
                tied[c] = True
    found = 0
    for c in range(n):
        if best[c] != -1:
            found += 1
    return found


@numba.njit(cache=True)
def group_by_row(owner, n):
    """Entries grouped by owning row, each row's entries in their given order (a counting sort).

    ``add_edges_from`` fills each row of the adjacency in the order the edges
    come; grouping the entries this way lets the caller fill the rows one
    after another while keeping that order. Entry ``order[j]`` is the
    ``j``-th in row-major order.
    """
    degree = np.zeros(n, dtype=np.int64)
    for i in range(len(owner)):
        degree[owner[i]] += 1
    slot = np.empty(n, dtype=np.int64)
    total = 0
    for v in range(n):
        slot[v] = total
        total += degree[v]
    order = np.empty(len(owner), dtype=np.int64)
    for i in range(len(owner)):
        order[slot[owner[i]]] = i
        slot[owner[i]] += 1
    return order
