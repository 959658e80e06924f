"""Sequential union-find in one array, with free functions, and Kruskal's scan over it.

A root holds minus its tree's size, any other vertex its parent; ``-1`` marks a
singleton, so a new union-find of ``n`` vertices is ``np.full(n, -1)``. This is
union by size with path halving (Tarjan and van Leeuwen, "Worst-case analysis of set
union algorithms", 1984): a find reads the size where it finds the root, so a union
touches no second array and the scan's working set is one array of vertices, half
the cache lines of a parent array beside a size array (Kruskal's scan takes 0.77x to
0.90x the time it took with the pair, ``docs/architecture.md``). The arrays may be int32
or int64; a caller keeps the narrowest that holds its vertex ids (Numba compiles each
dtype once).

Shared by the serial solvers (Kruskal, Filter-Kruskal, Borůvka), the partitioned and
multi-instance Prims, the SciPy and NetworkX front doors, the MPI contractions and
forest merge, and the verifiers. :func:`scan_in_order` is Kruskal's scan: take edges
in the ``(weight, edge_id)`` order unless they close a cycle.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._forest_kernels import marked_ascending
from parmst._prefetch import prefetch


@numba.njit(cache=True, inline="always")
def find(parent, v):
    """Root of ``v``, halving the path on the way (path compression, Shou and He section
    2.7; path halving of Tarjan and van Leeuwen): each vertex passed is linked to its
    grandparent.

    Examples
    --------
    >>> import numpy as np
    >>> parent = np.array([-3, 0, 1])  # 2 -> 1 -> 0, the root of a tree of 3
    >>> int(find(parent, 2)), parent.tolist()
    (0, [-3, 0, 0])
    """
    p = parent[v]
    while p >= 0:
        grandparent = parent[p]
        # Up to the grandparent, or to the parent where that is the root: a select, not a
        # branch. Which of the two ends a path varies from edge to edge; as a second exit
        # of the loop it was mispredicted: cache-resident scans ran 17 % slower.
        up = p if grandparent < 0 else grandparent
        parent[v] = up
        v = up
        p = parent[v]
    return v


@numba.njit(cache=True, inline="always")
def find_read_only(parent, v):
    """Root of ``v`` without writing: safe while other threads read the same array (no
    union runs meanwhile), where :func:`find`'s halving would race."""
    while parent[v] >= 0:
        v = parent[v]
    return v


@numba.njit(cache=True, inline="always")
def link_roots(parent, ru, rv):
    """Union by size of two distinct roots: the smaller tree goes under the larger, ``ru``
    staying the root where they are equal. Returns the root of the union."""
    if parent[ru] > parent[rv]:  # minus sizes: ru's tree is the smaller
        ru, rv = rv, ru
    parent[ru] += parent[rv]
    parent[rv] = ru
    return ru


# How many edges ahead :func:`scan_sorted` asks for the union-find at the ends
# (:func:`parmst._prefetch.prefetch`). Two forests merged by the MPI forest merge, scanned
# on one thread (CPU time): 3.5 M edges over 2 M vertices 77 -> 58 ms (16 ahead 60, 32
# ahead 64), 1.07 M over 1 M vertices 17.7 -> 12.8 ms.
SCAN_PREFETCH_DISTANCE = 8


@numba.njit(cache=True)
def scan_sorted(src, dst, parent, chosen, count):
    """Shou and He Listing 2 lines 11-16 on edges already in order: take each unless it
    closes a cycle, linking the two trees by size.

    Edge ``k`` joins ``src[k]`` and ``dst[k]``; ``chosen`` receives positions
    ``k``. Continues a scan that already holds ``count`` entries in
    ``chosen`` and returns the new count. Stops once ``chosen`` is full:
    ``n - 1`` edges make a spanning tree, nothing can follow.

    Examples
    --------
    >>> import numpy as np
    >>> parent, chosen = np.full(3, -1), np.empty(2, dtype=np.int64)
    >>> k = scan_sorted(np.array([0, 1, 0]), np.array([1, 0, 2]), parent, chosen, 0)
    >>> chosen[:k].tolist(), int(parent[find(parent, 2)])
    ([0, 2], -3)
    """
    capacity = len(chosen)
    ahead = len(src) - SCAN_PREFETCH_DISTANCE
    for k in range(len(src)):
        if count == capacity:
            break
        if k < ahead:  # the union-find at a later edge's ends, read while this one is done
            prefetch(parent, src[k + SCAN_PREFETCH_DISTANCE])
            prefetch(parent, dst[k + SCAN_PREFETCH_DISTANCE])
        u, v = src[k], dst[k]
        # Ends under one parent close a cycle: no find. Where hubs repeat from edge to edge
        # (R-MAT, social graphs) most edges end so, and a find's halving store there (a
        # no-op at depth 1) would chain each edge's loads to the last edge's store.
        p = parent[u]
        if p >= 0 and p == parent[v]:
            continue
        ru = find(parent, u)
        rv = find(parent, v)
        if ru != rv:
            link_roots(parent, ru, rv)
            chosen[count] = k
            count += 1
    return count


@numba.njit(cache=True)
def scan_in_order(order, src, dst, parent, chosen, count):
    """:func:`scan_sorted` over the edges ``order`` lists; ``chosen`` receives edge ids
    after its first ``count``; returns the new count.

    The endpoints are gathered in order first: the gather's loads are
    independent and overlap, while inside the scan each one would wait
    behind the previous edge's finds (3-4x faster on a million edges).
    """
    start = count
    count = scan_sorted(src[order], dst[order], parent, chosen, count)
    for i in range(start, count):
        chosen[i] = order[chosen[i]]
    return count


@numba.njit(cache=True)
def scan_in_order_ascending(order, src, dst, parent, capacity):
    """:func:`scan_in_order` from an empty forest of at most ``capacity`` edges, the kept
    edge ids returned ascending (the order a forest reports them in).

    Each kept position marks its edge id in a byte per edge, collected in one
    branch-free pass (:func:`parmst._forest_kernels.marked_ascending`) while
    the scan's arrays are still in cache: the positions are mapped to ids by
    the marking itself, so ordering costs one pass over the edges' bytes.
    """
    kept = np.empty(capacity, dtype=np.int64)
    count = scan_sorted(src[order], dst[order], parent, kept, 0)
    marks = np.zeros(len(order), dtype=np.uint8)
    for i in range(count):
        marks[order[kept[i]]] = 1
    return marked_ascending(marks, count)


@numba.njit(cache=True)
def reset_at(src, dst, parent):
    """Make every endpoint of the edges ``src``, ``dst`` a singleton (-1) again, leaving
    the other vertices as they are: a reused union-find costs the touched vertices alone."""
    for i in range(len(src)):
        parent[src[i]] = -1
        parent[dst[i]] = -1


@numba.njit(cache=True)
def sort_and_scan(keys, ids, lo, hi, src, dst, parent, chosen, count, id_mask=0):
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
    return scan_in_order(order, src, dst, parent, chosen, count)


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
        if parent[v] < 0 and keep[v]:
            root_label[v] = offset + count
            count += 1
    label = np.empty(n, dtype=np.int64)
    for v in range(n):
        label[v] = root_label[find(parent, v)]
    return label, count
