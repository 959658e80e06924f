"""Sequential union-find as struct-of-arrays with free functions, and Kruskal's scan over it.

Shared by the serial solvers (Kruskal, Filter-Kruskal, Borůvka), the
partitioned and multi-instance Prims, the SciPy and NetworkX front doors and
the MPI contractions (:func:`label_kept_roots`). Union by size keeps trees shallow; finds
halve paths as they go. :func:`scan_in_order` is Kruskal's scan: take edges
in the ``(weight, edge_id)`` order unless they close a cycle.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._forest_kernels import marked_ascending


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
def scan_sorted(src, dst, parent, size, chosen, count):
    """Shou and He Listing 2 lines 11-16 on edges already in order: take each unless it closes a cycle.

    Edge ``k`` joins ``src[k]`` and ``dst[k]``; ``chosen`` receives positions
    ``k``. Continues a scan that already holds ``count`` entries in
    ``chosen`` and returns the new count. Stops once ``chosen`` is full:
    ``n - 1`` edges make a spanning tree, nothing can follow.
    """
    capacity = len(chosen)
    for k in range(len(src)):
        if count == capacity:
            break
        ru = find(parent, src[k])
        rv = find(parent, dst[k])
        if ru != rv:
            union_roots(parent, size, ru, rv)
            chosen[count] = k
            count += 1
    return count


@numba.njit(cache=True)
def scan_in_order(order, src, dst, parent, size, chosen, count):
    """:func:`scan_sorted` over the edges ``order`` lists; ``chosen`` receives edge ids.

    The endpoints are gathered in order first: the gather's loads are
    independent and overlap, while inside the scan each one would wait
    behind the previous edge's finds (3-4x faster on a million edges).
    """
    start = count
    count = scan_sorted(src[order], dst[order], parent, size, chosen, count)
    for i in range(start, count):
        chosen[i] = order[chosen[i]]
    return count


@numba.njit(cache=True)
def scan_in_order_ascending(order, src, dst, parent, size, capacity):
    """:func:`scan_in_order` from an empty forest of at most ``capacity`` edges, the kept
    edge ids returned ascending (the order a forest reports them in).

    Each kept position marks its edge id in a byte per edge, collected in one
    branch-free pass (:func:`parmst._forest_kernels.marked_ascending`) while
    the scan's arrays are still in cache: the positions are mapped to ids by
    the marking itself, so ordering costs one pass over the edges' bytes.
    """
    kept = np.empty(capacity, dtype=np.int64)
    count = scan_sorted(src[order], dst[order], parent, size, kept, 0)
    marks = np.zeros(len(order), dtype=np.uint8)
    for i in range(count):
        marks[order[kept[i]]] = 1
    return marked_ascending(marks, count)


@numba.njit(cache=True)
def reset_at(src, dst, parent, size):
    """Make every endpoint of the edges ``src``, ``dst`` a singleton again (its own parent,
    size 1), leaving the other vertices as they are: a reused union-find costs the
    touched vertices alone."""
    for i in range(len(src)):
        parent[src[i]], parent[dst[i]] = src[i], dst[i]
        size[src[i]] = size[dst[i]] = 1


@numba.njit(cache=True)
def sort_and_scan(keys, ids, lo, hi, src, dst, parent, size, chosen, count, id_mask=0):
    """Osipov et al. Alg. 1 (base case): plain Kruskal on a small segment.

    Ids ascend within the segment, so a stable argsort by key breaks ties by
    id, packed keys or not. A nonzero ``id_mask`` says keys are packed: then
    sorting the keys alone orders the edges and their low bits are the ids,
    twice as fast as the argsort.
    """
    if id_mask:
        order = (np.sort(keys[lo:hi]) & np.uint64(id_mask)).astype(np.int64)
    else:
        order = ids[lo:hi][np.argsort(keys[lo:hi], kind="mergesort")]
    return scan_in_order(order, src, dst, parent, size, chosen, count)


@numba.njit(cache=True)
def label_kept_roots(parent, keep, offset):
    """Consecutive labels ``offset, offset + 1, ...`` for the roots marked in ``keep`` (in
    root order), and each vertex its root's label (-1 where the root is not kept).

    Returns the labels and how many roots were kept: the renumbering step of
    every contraction (Sousa's prefix-sum renumbering, Shou and He Listing 8
    line 40).
    """
    n = len(parent)
    root_label = np.full(n, -1, dtype=np.int64)
    count = 0
    for v in range(n):
        if parent[v] == v and keep[v]:
            root_label[v] = offset + count
            count += 1
    label = np.empty(n, dtype=np.int64)
    for v in range(n):
        label[v] = root_label[find(parent, v)]
    return label, count


# Union-find in one array: a root holds minus its tree's size, any other vertex its parent
# (Tarjan and van Leeuwen's "Worst-case analysis of set union algorithms", union by size with
# path halving). A find reads the size where it finds the root, so a union touches no second
# array: on two R-MAT forests of 0.53 M edges each over 1 M vertices, Kruskal's scan of their
# merge took 17.3 ms of CPU time against 25.5 ms with the parent and size arrays (docs/mpi.md).


@numba.njit(cache=True, inline="always")
def find_signed(parent, v):
    """Root of ``v`` in a one-array union-find (roots hold minus their size), halving the path."""
    while True:
        p = parent[v]
        if p < 0:
            return v
        grandparent = parent[p]
        if grandparent < 0:
            return p
        parent[v] = grandparent
        v = grandparent


@numba.njit(cache=True)
def scan_signed(src, dst, parent, chosen, count):
    """:func:`scan_sorted` over a one-array union-find (:func:`find_signed`): Kruskal's scan
    of edges already in order (Shou and He Listing 2 lines 11-16), the smaller tree linked
    under the larger.

    ``parent`` must hold -1 at every singleton. ``chosen`` receives the kept
    positions after its first ``count``; returns the new count, stopping once
    ``chosen`` is full.

    Examples
    --------
    >>> import numpy as np
    >>> parent, chosen = np.full(3, -1), np.empty(2, dtype=np.int64)
    >>> k = scan_signed(np.array([0, 1, 0]), np.array([1, 0, 2]), parent, chosen, 0)
    >>> chosen[:k].tolist(), int(parent[find_signed(parent, 2)])
    ([0, 2], -3)
    """
    capacity = len(chosen)
    for k in range(len(src)):
        if count == capacity:
            break
        ru = find_signed(parent, src[k])
        rv = find_signed(parent, dst[k])
        if ru != rv:
            if parent[ru] > parent[rv]:  # minus sizes: ru's tree is the smaller
                ru, rv = rv, ru
            parent[ru] += parent[rv]
            parent[rv] = ru
            chosen[count] = k
            count += 1
    return count


@numba.njit(cache=True)
def scan_in_order_signed(order, src, dst, parent, chosen):
    """:func:`scan_in_order` from an empty forest over a one-array union-find: the positions
    of the edges ``order`` lists that Kruskal's scan keeps, in that order, in ``chosen``;
    returns how many. The ends are gathered in order first (their loads overlap)."""
    count = scan_signed(src[order], dst[order], parent, chosen, 0)
    for i in range(count):
        chosen[i] = order[chosen[i]]
    return count


@numba.njit(cache=True)
def reset_signed_at(src, dst, parent):
    """Make every endpoint of the edges ``src``, ``dst`` a singleton (-1) of a one-array
    union-find again, leaving the other vertices as they are."""
    for i in range(len(src)):
        parent[src[i]] = -1
        parent[dst[i]] = -1
