"""A k-d tree over a point set and its two queries: nearest point of another component, and
the k-th nearest neighbour's distance.

The tree is built by :mod:`parmst.kernels.kdtree_build`. It is balanced and implicit (Bentley, "Multidimensional binary search trees used for
associative searching", CACM 1975, with the median split of Friedman, Bentley and Finkel,
TOMS 1977): node ``v`` has children ``2v + 1`` and ``2v + 2``, every leaf lies at the same
depth, and each node splits its range of points at the middle position, along its widest
coordinate, by a selection (no sort). The points are copied in tree order (``order[t]`` is
the input index of tree position ``t``), so a leaf's points sit together in memory. Each
node keeps the tight bounding box of its points.

The ``k``-nearest queries (:func:`nearest_k_leaf`, one search per leaf, on the CPU;
:func:`nearest_k_point`, one per point, on the GPU) give each point its first candidates
and its core distance. The nearest-other-component query is the per-point step of single-tree Borůvka
(Prokopenko, Sao and Lebrun-Grandié, "A single-tree algorithm to compute the Euclidean
minimum spanning tree on GPUs", ICPP 2022, Algorithm 2): a depth-first search, nearer child
first, that skips a node whose points all lie in the querying point's component (its label
in ``node_comp``, -1 when mixed) or whose lower bound exceeds the best found so far. Keys are
squared distances from :mod:`parmst.kernels.distance`, or squared mutual-reachability
distances (``core2`` zero for plain distances), and ties go to the smaller pair id, so the
answer is the exact minimum under the ``(key, i, j)`` order. The box bound is a true lower
bound of the computed key: every rounding step involved is monotone.

Ties. For one query point ``q`` the pair id ``pair_id(q, j)`` grows with ``j``'s input index,
so among candidates of equal key the order is that of their input indices. Every node keeps
the smallest input index of its points (``min_index``), and every search also prunes a node
whose lower bound EQUALS its current bound when that index exceeds the index of the entry
that sets the bound (:func:`_cannot_precede`): none of its points can come first. Without
it, points with many equal keys (identical points, lattices, mutual reachability's equal
core distances) make every node of equal bound a visit, and a search over ``n`` identical
points visits all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parmst.kernels.distance import add_square, mutual_reachability, pair_id, squared_distance
from parmst.stats import Stats

__all__ = ["NO_POINT", "SERIAL_NODES", "STACK_SIZE", "KDTree", "index_dtype", "leaf_component",
           "nearest_k_all",
           "nearest_k_leaf", "nearest_k_point", "nearest_outside", "node_components",
           "node_minima"]

NO_POINT = -1
"""Answer of a query that found no point under its bound."""

STACK_SIZE = 128
"""Entries of a query's stack: a depth-first search pushes at most two per level, and the
tree is at most 62 levels deep (int64 positions)."""


@dataclass(frozen=True)
class KDTree:
    """A balanced implicit k-d tree (see the module docstring).

    Attributes
    ----------
    points : ndarray, shape (n, d), float64
        The points in tree order.
    order : ndarray of int64
        ``order[t]``: the input index of tree position ``t``.
    start, end : ndarray of int64
        Each node's range of tree positions.
    lo, hi : ndarray, shape (num_nodes, d)
        Each node's bounding box.
    min_index : ndarray of int64
        Each node's smallest input index among its points: the tie bound of the searches.
    first_leaf : int
        Nodes from this one on are leaves.
    """

    points: np.ndarray
    order: np.ndarray
    start: np.ndarray
    end: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    min_index: np.ndarray
    first_leaf: int

    @property
    def num_nodes(self) -> int:
        return len(self.start)


SERIAL_NODES = 4095
"""Inner nodes above a level of fewer nodes than this are filled from their children on
one thread: a parallel region per small level costs more than the level's work."""




@numba.njit(cache=True, parallel=True)
def node_minima(values, start, end, first_leaf):
    """Each node's smallest value among its points (``values`` in tree order, the minima
    of ``values``' type): the core distance bound of a node for mutual reachability, and
    the node's smallest input index (``values = order``). Leaves in parallel, then the
    inner nodes from their children, a level at a time in parallel
    (:data:`SERIAL_NODES`)."""
    minima = np.empty(len(start), dtype=values.dtype)
    for v in numba.prange(first_leaf, len(start)):
        minima[v] = values[start[v]:end[v]].min()
    level = first_leaf
    while level > SERIAL_NODES:
        level = (level - 1) // 2  # the first node of the level above; it has level + 1
        for v in numba.prange(level, 2 * level + 1):
            minima[v] = min(minima[2 * v + 1], minima[2 * v + 2])
    for v in range(level - 1, -1, -1):
        minima[v] = min(minima[2 * v + 1], minima[2 * v + 2])
    return minima


@numba.njit(cache=True, inline="always")
def leaf_component(comp, start, end, v):
    """The component of leaf ``v``'s points if they share one, else -1 (Prokopenko et al.,
    section 4.2); also a device function of ``boruvka-bvh/gpu``."""
    label = comp[start[v]]
    for t in range(start[v] + 1, end[v]):
        if comp[t] != label:
            return -1
    return label


@numba.njit(cache=True, parallel=True)
def node_components(comp, start, end, first_leaf, node_comp):
    """Fill ``node_comp``: the component of a node's points if they share one, else -1
    (Prokopenko et al., section 4.2: refreshed after every Borůvka round). Leaves in
    parallel (:func:`leaf_component`), then the inner nodes from their children, a level
    at a time in parallel (:data:`SERIAL_NODES`)."""
    for c in numba.prange(len(start) - first_leaf):
        node_comp[first_leaf + c] = leaf_component(comp, start, end, first_leaf + c)
    level = first_leaf
    while level > SERIAL_NODES:
        level = (level - 1) // 2  # the first node of the level above; it has level + 1
        for v in numba.prange(level, 2 * level + 1):
            node_comp[v] = _label_of_children(node_comp, v)
    for v in range(level - 1, -1, -1):
        node_comp[v] = _label_of_children(node_comp, v)


@numba.njit(cache=True, inline="always")
def _label_of_children(node_comp, v):
    """Node ``v``'s component: its children's if they share one, else -1."""
    left = node_comp[2 * v + 1]
    return left if left == node_comp[2 * v + 2] else -1


@numba.njit(cache=True, inline="always")
def _box_distance(lo, hi, v, points, q):
    """Squared distance from point ``q`` to node ``v``'s box: a lower bound of
    :func:`~parmst.kernels.distance.squared_distance` to any point inside.

    A coordinate within the box's range adds nothing (adding the square of a zero gap is
    exact); two and three dimensions are written out, as in ``squared_distance``."""
    d = points.shape[1]
    if d == 2:
        return add_square(add_square(0.0, _gap(points[q, 0], lo[v, 0], hi[v, 0])),
                          _gap(points[q, 1], lo[v, 1], hi[v, 1]))
    if d == 3:
        return add_square(add_square(add_square(0.0, _gap(points[q, 0], lo[v, 0], hi[v, 0])),
                                     _gap(points[q, 1], lo[v, 1], hi[v, 1])),
                          _gap(points[q, 2], lo[v, 2], hi[v, 2]))
    total = 0.0
    for k in range(d):
        total = add_square(total, _gap(points[q, k], lo[v, k], hi[v, k]))
    return total


@numba.njit(cache=True, inline="always")
def _gap(value, low, high):
    """How far ``value`` lies outside the range ``low .. high`` (0 inside it)."""
    if value < low:
        return low - value
    if value > high:
        return value - high
    return 0.0


@numba.njit(cache=True, inline="always")
def _cannot_precede(node_bound, min_index, v, bound, order, p):
    """Whether no point of node ``v``, whose keys are at least ``node_bound``, comes before
    the entry ``p`` (a tree position, or :data:`NO_POINT`) of key ``bound`` for the same
    query point: all its keys are larger, or equal with larger input indices
    (``min_index[v]``, its smallest: for one query point ``q``, ``pair_id(q, j)`` grows
    with ``j``, so among equal keys the smaller index wins). The equal case is what keeps
    identical and lattice points from making a search visit every node of equal bound;
    the indices are read only then."""
    if node_bound > bound:  # two statements: as one "or" expression the searches ran 3x slower
        return True
    return node_bound == bound and p != NO_POINT and min_index[v] > order[p]


@numba.njit(cache=True)
def nearest_outside(tree_points, order, start, end, lo, hi, min_index, first_leaf, comp,
                    node_comp, core2, node_core, q, bound, stack, stack_bound):
    """The point of another component nearest to ``q`` under ``(key, pair id)``, or
    :data:`NO_POINT` if none has a key at most ``bound``.

    Prokopenko, Sao and Lebrun-Grandié, Algorithm 2 (single-tree nearest neighbour
    with component pruning). ``key = max(core2[q], core2[p], d2(q, p))``; all
    positions are tree positions, ties compare pair ids of input indices
    (``order``), and a node of bound equal to the best key is pruned when its
    smallest input index (``min_index``) exceeds the best's (:func:`_cannot_precede`).
    Returns ``(position, key, leaves)``, ``leaves`` the number of leaves scanned;
    ``stack`` and ``stack_bound`` are the caller's scratch of :data:`STACK_SIZE` entries.
    """
    n = len(order)
    cq = comp[q]
    core_q = core2[q]
    best, best_key, best_id = NO_POINT, bound, np.iinfo(np.int64).max
    leaves = 0
    stack[0], stack_bound[0], top = 0, 0.0, 1
    while top:
        top -= 1
        v = stack[top]
        if _cannot_precede(stack_bound[top], min_index, v, best_key, order, best):
            continue
        if v >= first_leaf:
            leaves += 1
            for p in range(start[v], end[v]):
                if comp[p] == cq:
                    continue
                key = mutual_reachability(core2, q, p, squared_distance(tree_points, q,
                                                                        tree_points, p))
                if key <= best_key:
                    ident = pair_id(order[q], order[p], n)
                    if key < best_key or ident < best_id:
                        best, best_key, best_id = p, key, ident
            continue
        near, far = 2 * v + 1, 2 * v + 2
        near_bound = max(core_q, node_core[near], _box_distance(lo, hi, near, tree_points, q))
        far_bound = max(core_q, node_core[far], _box_distance(lo, hi, far, tree_points, q))
        if far_bound <= near_bound and (far_bound < near_bound
                                        or min_index[far] < min_index[near]):
            # The nearer first; on equal bounds the smaller index, the winner of a tie,
            # so that the best's index drops early and prunes the other.
            near, far, near_bound, far_bound = far, near, far_bound, near_bound
        if (not _cannot_precede(far_bound, min_index, far, best_key, order, best)
                and node_comp[far] != cq):
            stack[top], stack_bound[top] = far, far_bound
            top += 1
        if (not _cannot_precede(near_bound, min_index, near, best_key, order, best)
                and node_comp[near] != cq):
            stack[top], stack_bound[top] = near, near_bound
            top += 1
    return best, best_key, leaves


@numba.njit(cache=True, inline="always")
def _add_nearer(tree_points, order, lo, hi, q, near, near_key):
    """Insert the points ``lo .. hi - 1`` (not ``q``) nearer to ``q`` than the last of the
    sorted list ``near`` into it, in ``(d2, input index)`` order.

    The list's last key is held in a local while it does not change: most points do not
    enter, and they then cost one distance and one comparison. An entering point shifts
    the larger entries up by one as it moves down (one loop: compare, then move).
    """
    k = len(near)
    last = near_key[k - 1]
    for p in range(lo, hi):
        d2 = squared_distance(tree_points, q, tree_points, p)
        if d2 > last or p == q:
            continue
        if d2 == last and order[near[k - 1]] < order[p]:
            continue  # a tie with the last entry that loses to it
        slot = k - 1
        while slot > 0 and (near_key[slot - 1] > d2 or (
                near_key[slot - 1] == d2 and order[near[slot - 1]] > order[p])):
            near[slot], near_key[slot] = near[slot - 1], near_key[slot - 1]
            slot -= 1
        near[slot], near_key[slot] = p, d2
        last = near_key[k - 1]


@numba.njit(cache=True, inline="always")
def _seed_list(tree_points, order, lo, hi, q, near, near_key):
    """Start the sorted list ``near`` of point ``q`` from the points ``lo .. hi - 1``
    (``q``'s own leaf): the first ``k`` of them (not ``q``) enter by insertion into the
    filled part only, the rest through :func:`_add_nearer`; entries left over hold
    :data:`NO_POINT` at distance inf. Same list as inserting all of them into an empty
    one, without moving the empty entries at every insertion."""
    k = len(near)
    filled, p = 0, lo
    while p < hi and filled < k:
        if p != q:
            d2 = squared_distance(tree_points, q, tree_points, p)
            slot = filled
            while slot > 0 and (near_key[slot - 1] > d2 or (
                    near_key[slot - 1] == d2 and order[near[slot - 1]] > order[p])):
                near[slot], near_key[slot] = near[slot - 1], near_key[slot - 1]
                slot -= 1
            near[slot], near_key[slot] = p, d2
            filled += 1
        p += 1
    for s in range(filled, k):
        near[s], near_key[s] = NO_POINT, np.inf
    _add_nearer(tree_points, order, p, hi, q, near, near_key)


@numba.njit(cache=True, inline="always")
def _leaf_of(start, end, first_leaf, q):
    """The leaf holding tree position ``q``: down from the root by the children's ranges."""
    v = 0
    while v < first_leaf:
        v = 2 * v + 1 if q < end[2 * v + 1] else 2 * v + 2
    return v


@numba.njit(cache=True)
def nearest_k_point(tree_points, order, start, end, lo, hi, min_index, first_leaf, q, near,
                    near_key, stack, stack_bound):
    """Fill row ``q`` of ``near`` and ``near_key`` (``k`` columns) with the ``k`` points
    nearest to tree position ``q`` and their squared distances, in ``(d2, input index)``
    order, as :func:`nearest_k_leaf` does for a whole leaf, but for one point: the
    query of one GPU thread (one thread per point, in tree order, keeps a warp's searches
    alike; one thread per leaf would leave the GPU mostly idle). Returns the number of
    leaves scanned besides ``q``'s own.

    The list is seeded from ``q``'s own leaf, then a depth-first search, nearer child
    first (box distance), pruned by the list's last entry (:func:`_cannot_precede`: its
    key, and on an equal bound its input index), scans the other leaves.
    """
    k = near.shape[1]
    home = _leaf_of(start, end, first_leaf, q)
    _seed_list(tree_points, order, start[home], end[home], q, near[q], near_key[q])
    # The list's last entry, read again only where the list can change: after a leaf.
    last, last_entry = near_key[q, k - 1], near[q, k - 1]
    leaves = 0
    stack[0], stack_bound[0], top = 0, 0.0, 1
    while top:
        top -= 1
        v = stack[top]
        if v == home or _cannot_precede(stack_bound[top], min_index, v, last, order, last_entry):
            continue
        if v >= first_leaf:
            leaves += 1
            _add_nearer(tree_points, order, start[v], end[v], q, near[q], near_key[q])
            last, last_entry = near_key[q, k - 1], near[q, k - 1]
            continue
        near_child, far = 2 * v + 1, 2 * v + 2
        near_bound = _box_distance(lo, hi, near_child, tree_points, q)
        far_bound = _box_distance(lo, hi, far, tree_points, q)
        if far_bound <= near_bound and (far_bound < near_bound
                                        or min_index[far] < min_index[near_child]):
            near_child, far, near_bound, far_bound = far, near_child, far_bound, near_bound
        if not _cannot_precede(far_bound, min_index, far, last, order, last_entry):
            stack[top], stack_bound[top] = far, far_bound
            top += 1
        if not _cannot_precede(near_bound, min_index, near_child, last, order, last_entry):
            stack[top], stack_bound[top] = near_child, near_bound
            top += 1
    return leaves


@numba.njit(cache=True, inline="always")
def _box_gap(lo, hi, a, b):
    """Squared distance between the boxes of nodes ``a`` and ``b``: a lower bound of the
    squared distance between any of their points (every rounding step is monotone)."""
    total = 0.0
    for k in range(lo.shape[1]):
        total = add_square(total, max(lo[b, k] - hi[a, k], lo[a, k] - hi[b, k], 0.0))
    return total


@numba.njit(cache=True, inline="always")
def _largest_last(near_key, first, stop):
    """The largest last key of rows ``first .. stop - 1``: the leaf's search bound (a plain
    loop, so that the search also compiles as a CUDA device function)."""
    largest = near_key[first, near_key.shape[1] - 1]
    for q in range(first + 1, stop):
        largest = max(largest, near_key[q, near_key.shape[1] - 1])
    return largest


_UNKNOWN = -2
"""A leaf search's tie bound not computed since its bound last changed (no input index is
negative)."""


@numba.njit(cache=True, inline="always")
def _tie_bound(order, near, near_key, bound, first, stop):
    """The largest input index among the last entries of rows ``first .. stop - 1`` whose
    last key is ``bound`` (the int64 maximum where one is empty): a node whose bound equals
    ``bound`` and whose smallest input index exceeds it enters none of these lists (for
    one query point the pair id grows with the other point's index), and the lists of
    smaller last keys exclude it anyway."""
    k = near_key.shape[1]
    index = -1
    for q in range(first, stop):
        if near_key[q, k - 1] == bound:
            p = near[q, k - 1]
            index = max(index, order[p] if p != NO_POINT else np.iinfo(np.int64).max)
    return index


@numba.njit(cache=True)
def nearest_k_leaf(tree_points, order, start, end, lo, hi, min_index, first_leaf, leaf, near,
                   near_key, stack, stack_bound):
    """Fill rows ``start[leaf] .. end[leaf] - 1`` of ``near`` and ``near_key`` (``k``
    columns) with each of the leaf's points' ``k`` nearest other points and their squared
    distances, in ``(d2, input index)`` order: each point's first ``k`` pairs in the
    ``(key, pair id)`` order of plain distances (for one point, the pair id grows with
    the other point's index). ``near_key`` holds inf where fewer than ``k`` exist.
    Returns the number of other leaves scanned.

    One depth-first search serves the whole leaf (nearer node first, by box gap; on equal
    gaps the node of smaller input index), pruned by the largest ``k``-th distance of its
    points, and on a node of equal gap by the tie bound (:func:`_tie_bound`, computed on
    the first such node after the bound changed: the ties of identical and lattice points),
    after each point's list is seeded from its own leaf; a visited leaf is scanned for each
    point whose own bound its box does not exceed. (The tie tests stand apart from the
    common tests: folded into them, or tested for every point, they cost the lists 3-12% on
    points without ties.)
    """
    k = near.shape[1]
    for q in range(start[leaf], end[leaf]):
        _seed_list(tree_points, order, start[leaf], end[leaf], q, near[q], near_key[q])
    first, stop = start[leaf], end[leaf]
    bound = _largest_last(near_key, first, stop)
    bound_index = _UNKNOWN
    leaves = 0
    stack[0], stack_bound[0], top = 0, 0.0, 1
    while top:
        top -= 1
        v = stack[top]
        if v == leaf or stack_bound[top] > bound:
            continue
        if stack_bound[top] == bound:
            if bound_index == _UNKNOWN:
                bound_index = _tie_bound(order, near, near_key, bound, first, stop)
            if min_index[v] > bound_index:
                continue
        if v >= first_leaf:
            leaves += 1
            for q in range(first, stop):
                box = _box_distance(lo, hi, v, tree_points, q)
                if box <= near_key[q, k - 1]:
                    _add_nearer(tree_points, order, start[v], end[v], q, near[q], near_key[q])
            bound = _largest_last(near_key, first, stop)
            bound_index = _UNKNOWN
            continue
        near_child, far = 2 * v + 1, 2 * v + 2
        near_bound = _box_gap(lo, hi, leaf, near_child)
        far_bound = _box_gap(lo, hi, leaf, far)
        if far_bound <= near_bound and (far_bound < near_bound
                                        or min_index[far] < min_index[near_child]):
            near_child, far, near_bound, far_bound = far, near_child, far_bound, near_bound
        if far_bound <= bound:
            stack[top], stack_bound[top] = far, far_bound
            top += 1
        if near_bound <= bound:
            stack[top], stack_bound[top] = near_child, near_bound
            top += 1
    return leaves


def index_dtype(n: int) -> type:
    """The integer type of per-point arrays of ``n`` points (tree positions, component
    labels, answers): int32 where every position fits, else int64. Half the bytes halve
    the memory traffic of the passes over all points that every Borůvka round makes.

    Examples
    --------
    >>> index_dtype(10**6).__name__, index_dtype(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if n < 2**31 else np.int64


_LEAF_CHUNK = 64
"""Leaves a thread takes at a time in :func:`nearest_k_all` (dynamic scheduling: a dense
cluster's leaves cost more than a sparse region's, so equal shares of the leaves per thread
leave threads idle)."""


@numba.njit(cache=True, parallel=True)
def _nearest_k_leaves(points, order, start, end, lo, hi, min_index, first_leaf, near,
                      near_key):
    """:func:`nearest_k_leaf` of every leaf into ``near`` and ``near_key``, the leaves
    split over the threads; returns the number of leaves their searches scanned."""
    leaves = len(start) - first_leaf
    scanned = np.empty(leaves, dtype=np.int64)
    for c in numba.prange(leaves):
        stack = np.empty(STACK_SIZE, dtype=np.int64)
        stack_bound = np.empty(STACK_SIZE)
        scanned[c] = nearest_k_leaf(points, order, start, end, lo, hi, min_index, first_leaf,
                                    first_leaf + c, near, near_key, stack, stack_bound)
    return scanned.sum()


def nearest_k_all(tree: KDTree, k: int, stats: Stats | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Every tree position's ``k`` nearest other points (tree positions) and their squared
    distances, in ``(d2, input index)`` order (:func:`nearest_k_leaf`), rows in tree order;
    positions as :func:`index_dtype`. With ``stats``, the leaves the searches scanned
    (each leaf's own not counted) go to ``stats.extra["neighbour_leaves"]``.

    Examples
    --------
    >>> from parmst.kernels.kdtree_build import build
    >>> tree = build(np.array([[0.0], [1.0], [3.0]]), leaf_size=1)
    >>> near, near_key = nearest_k_all(tree, 1)
    >>> tree.order[near[:, 0]][np.argsort(tree.order)].tolist(), float(near_key.max())
    ([1, 0, 1], 4.0)
    """
    n = len(tree.order)
    near = np.empty((n, k), dtype=index_dtype(n))
    near_key = np.empty((n, k))
    with numba.parallel_chunksize(_LEAF_CHUNK):
        scanned = _nearest_k_leaves(tree.points, tree.order, tree.start, tree.end, tree.lo,
                                    tree.hi, tree.min_index, tree.first_leaf, near, near_key)
    if stats is not None:
        stats.extra["neighbour_leaves"] = int(scanned)
    return near, near_key
