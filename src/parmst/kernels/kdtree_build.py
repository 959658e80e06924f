"""Building the k-d tree of :mod:`parmst.kernels.kdtree`: the median splits, level by level.

Each node splits its range of points at the middle position along its widest coordinate by
a selection, never a sort (Friedman, Bentley and Finkel, TOMS 1977; the sampling step of
Floyd and Rivest's SELECT, CACM 1975, picks the pivots). The levels with at least as many
nodes as threads split their nodes in parallel, one node a thread; a level of fewer nodes
splits each wide node by parallel passes (per-block extents for the widest coordinate, two
sampled pivots, a stable three-run partition into a second buffer), then selects only
within the run that holds the middle. The nodes' boxes, and their smallest input indices
(the searches' tie bound), are filled bottom-up, a level at a time. The splits, and so the
tree, do not depend on the thread count's answers: the order of points inside a node may,
the queries' results may not.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst.kernels.kdtree import SERIAL_NODES, KDTree, node_minima

__all__ = ["build"]


def _depth(n: int, leaf_size: int) -> int:
    """Levels below the root such that no leaf holds more than ``leaf_size`` points, and
    none is empty (so a leaf holds at most ``max(leaf_size, 2)``)."""
    depth = 0
    while -(-n // (1 << depth)) > leaf_size and (2 << depth) <= n:
        depth += 1
    return depth


@numba.njit(cache=True)
def _node_ranges(n, num_nodes):
    """Each node's range of tree positions: a node splits its range at the middle."""
    start = np.empty(num_nodes, dtype=np.int64)
    end = np.empty(num_nodes, dtype=np.int64)
    start[0] = 0
    end[0] = n
    for v in range((num_nodes - 1) // 2):
        middle = (start[v] + end[v]) // 2
        start[2 * v + 1], end[2 * v + 1] = start[v], middle
        start[2 * v + 2], end[2 * v + 2] = middle, end[v]
    return start, end


@numba.njit(cache=True)
def _widest(points, lo, hi):
    """The coordinate along which the points ``points[lo:hi]`` spread the most (no
    allocation: the nodes of a level run this at once on every thread)."""
    best, widest = 0, -1.0
    for k in range(points.shape[1]):
        low = high = points[lo, k]
        for t in range(lo + 1, hi):
            low = min(low, points[t, k])
            high = max(high, points[t, k])
        if high - low > widest:
            best, widest = k, high - low
    return best


@numba.njit(cache=True, inline="always")
def _swap(points, index, i, j):
    index[i], index[j] = index[j], index[i]
    for k in range(points.shape[1]):
        points[i, k], points[j, k] = points[j, k], points[i, k]


@numba.njit(cache=True, inline="always")
def _order_three(points, index, a, b, c, k):
    """Sort rows ``a < b < c`` by coordinate ``k`` (the median of three then at ``b``)."""
    if points[b, k] < points[a, k]:
        _swap(points, index, a, b)
    if points[c, k] < points[b, k]:
        _swap(points, index, b, c)
        if points[b, k] < points[a, k]:
            _swap(points, index, a, b)


_SAMPLED = 600
"""Ranges longer than this take their pivot from a sample (Floyd and Rivest's constant)."""


@numba.njit(cache=True)
def _select(points, index, lo, hi, middle, k):
    """Reorder rows ``lo:hi`` of ``points`` (and ``index`` with them) so that row
    ``middle`` holds the point of rank ``middle`` along coordinate ``k``, smaller before
    it, larger after.

    Floyd and Rivest's SELECT ("Algorithm 489", CACM 1975): a range longer than
    :data:`_SAMPLED` first selects the same row within a subrange of about ``n^(2/3)``
    rows around ``middle`` (recursively), so its pivot lands near the wanted rank and
    one partition leaves a short range (10-15% off the whole build on 10^6 uniform 2-D
    points against Hoare's FIND with a median of three); a shorter range takes the
    median of its first, middle and last keys. Rows move, not indices: later
    levels then read their ranges sequentially. The partition stops on keys equal to
    the pivot from both sides, so many equal coordinates (lattices, duplicates) still
    split the range near its middle.
    """
    right = hi - 1
    while right > lo:
        if right - lo > _SAMPLED:
            n = right - lo + 1
            i = middle - lo + 1
            z = np.log(n)
            s = 0.5 * np.exp(2.0 * z / 3.0)
            sd = 0.5 * np.sqrt(z * s * (n - s) / n) * (1.0 if 2 * i >= n else -1.0)
            inner_lo = max(lo, int(middle - i * s / n + sd))
            inner_right = min(right, int(middle + (n - i) * s / n + sd))
            _select(points, index, inner_lo, inner_right + 1, middle, k)
        else:
            _order_three(points, index, lo, middle, right, k)
        # Partition around the key now at ``middle``, kept at ``lo`` meanwhile; the
        # keys at ``lo`` and ``right`` stop the scans (no bounds tests).
        pivot = points[middle, k]
        i, j = lo, right
        _swap(points, index, lo, middle)
        if points[right, k] > pivot:
            _swap(points, index, right, lo)
        while i < j:
            _swap(points, index, i, j)
            i += 1
            j -= 1
            while points[i, k] < pivot:
                i += 1
            while points[j, k] > pivot:
                j -= 1
        if points[lo, k] == pivot:
            _swap(points, index, lo, j)
        else:
            j += 1
            _swap(points, index, j, right)
        # Now the pivot is at ``j``, keys at most it before, at least it after.
        if j <= middle:
            lo = j + 1
        if middle <= j:
            right = j - 1


@numba.njit(cache=True, parallel=True)
def _split_level(points, index, start, end, first, count):
    """Split every node of one level (nodes ``first .. first + count - 1``) at its middle,
    along its widest coordinate; the nodes own disjoint ranges, so they split in parallel."""
    for c in numba.prange(count):
        v = first + c
        middle = (start[v] + end[v]) // 2
        _select(points, index, start[v], end[v], middle, _widest(points, start[v], end[v]))


_WIDE_RANGE = 1 << 16
"""The smallest node that splits by parallel passes (:func:`_split_wide`): below, one
thread per node is cheaper than the passes' bookkeeping."""

_PIVOT_SAMPLE = 1 << 15
"""Keys sampled to bracket the median of a node split by parallel passes: about
``6 / sqrt(sample)`` (3%) of the node's points fall between the two pivots."""


@numba.njit(cache=True, parallel=True)
def _start_rows(x, points, index):
    """``points = x`` and ``index = 0 .. n - 1``, in parallel (NumPy's copy runs on one thread)."""
    for t in numba.prange(len(x)):
        index[t] = t
        for k in range(x.shape[1]):
            points[t, k] = x[t, k]


@numba.njit(cache=True, parallel=True)
def _widest_wide(points, lo, hi):
    """:func:`_widest` of a large range: each block's extent in parallel
    (:mod:`parmst._blocks`), then the widest coordinate of their union (the same
    coordinate: minima and maxima are exact)."""
    d, m = points.shape[1], hi - lo
    blocks = num_blocks(m)
    low = np.empty((blocks, d))
    high = np.empty((blocks, d))
    for b in numba.prange(blocks):
        first, stop = block_span(b, m)
        for k in range(d):
            low[b, k] = high[b, k] = points[lo + first, k]
        for t in range(lo + first + 1, lo + stop):
            for k in range(d):
                low[b, k] = min(low[b, k], points[t, k])
                high[b, k] = max(high[b, k], points[t, k])
    best, widest = 0, -1.0
    for k in range(d):
        if high[:, k].max() - low[:, k].min() > widest:
            best, widest = k, high[:, k].max() - low[:, k].min()
    return best


@numba.njit(cache=True)
def _pivots(points, lo, hi, middle, k):
    """Two keys along coordinate ``k`` that most likely bracket the key of rank ``middle``
    in rows ``lo:hi``: Floyd and Rivest's sampling step (their SELECT, "Algorithm 489",
    CACM 1975), on :data:`_PIVOT_SAMPLE` evenly spaced rows, three standard deviations of
    the sampled rank either side."""
    m = hi - lo
    count = min(_PIVOT_SAMPLE, m)
    sample = np.empty(count)
    for i in range(count):
        sample[i] = points[lo + (i * m) // count, k]
    sample.sort()
    rank = (middle - lo) * count / m
    margin = 3.0 * np.sqrt(count)
    return (sample[max(0, int(rank - margin))],
            sample[min(count - 1, int(rank + margin))])


@numba.njit(cache=True, parallel=True)
def _partition_wide(points, index, into, into_index, lo, hi, k, below, above):
    """Rows ``lo:hi`` of ``points`` (and ``index``) into the same rows of ``into`` (and
    ``into_index``) in three runs: keys along ``k`` under ``below``, from ``below`` to
    ``above``, over ``above``; returns where the second and third runs start. Fixed
    blocks count their rows, then write them from their prefix sums
    (:mod:`parmst._blocks`): stable, the same rows on any number of threads."""
    m = hi - lo
    blocks = num_blocks(m)
    counts = np.empty((blocks, 3), dtype=np.int64)
    for b in numba.prange(blocks):
        first, stop = block_span(b, m)
        under = over = 0
        for t in range(lo + first, lo + stop):
            under += points[t, k] < below
            over += points[t, k] > above
        counts[b, 0], counts[b, 1], counts[b, 2] = under, stop - first - under - over, over
    offsets = exclusive_sums(counts)
    second = lo + offsets[blocks, 0]
    third = second + offsets[blocks, 1]
    for b in numba.prange(blocks):
        slots = (lo + offsets[b, 0], second + offsets[b, 1], third + offsets[b, 2])
        under, inside, over = slots
        first, stop = block_span(b, m)
        for t in range(lo + first, lo + stop):
            key = points[t, k]
            if key < below:
                slot = under
                under += 1
            elif key > above:
                slot = over
                over += 1
            else:
                slot = inside
                inside += 1
            into_index[slot] = index[t]
            for c in range(points.shape[1]):
                into[slot, c] = points[t, c]
    return second, third


def _split_wide(points, index, into, into_index, lo, hi):
    """Split rows ``lo:hi`` at their middle along their widest coordinate as
    :func:`_select` does, by parallel passes, the rows moving from ``points`` into
    ``into``: the pivots bracket the middle rank (:func:`_pivots`), one parallel pass
    puts the rows between them together (:func:`_partition_wide`), and a selection
    within those few finishes (within the run that holds the middle, if the sample
    missed)."""
    middle = (lo + hi) // 2
    k = _widest_wide(points, lo, hi)
    below, above = _pivots(points, lo, hi, middle, k)
    second, third = _partition_wide(points, index, into, into_index, lo, hi, k, below, above)
    _select_in_run(into, into_index, lo, second, third, hi, middle, k)


def _select_in_run(points, index, lo, second, third, hi, middle, k):
    """Finish a split after :func:`_partition_wide` left rows ``lo:hi`` in three runs along
    ``k`` (starting at ``lo``, ``second``, ``third``): select row ``middle`` within the
    run that holds it (:func:`_select`); the runs are in key order already."""
    if middle < second:
        _select(points, index, lo, second, middle, k)
    elif middle < third:
        _select(points, index, second, third, middle, k)
    else:
        _select(points, index, third, hi, middle, k)




@numba.njit(cache=True, parallel=True)
def _boxes(points, start, end, first_leaf):
    """Tight bounding boxes: each leaf's from its points, each inner node's from its
    children; the nodes of a level in parallel (:data:`SERIAL_NODES`)."""
    num_nodes, d = len(start), points.shape[1]
    lo = np.empty((num_nodes, d))
    hi = np.empty((num_nodes, d))
    for v in numba.prange(first_leaf, num_nodes):
        for k in range(d):
            lo[v, k] = hi[v, k] = points[start[v], k]
        for t in range(start[v] + 1, end[v]):
            for k in range(d):
                lo[v, k] = min(lo[v, k], points[t, k])
                hi[v, k] = max(hi[v, k], points[t, k])
    level = first_leaf
    while level > SERIAL_NODES:
        level = (level - 1) // 2  # the first node of the level above; it has level + 1
        for v in numba.prange(level, 2 * level + 1):
            _box_of_children(lo, hi, v)
    for v in range(level - 1, -1, -1):
        _box_of_children(lo, hi, v)
    return lo, hi


@numba.njit(cache=True, inline="always")
def _box_of_children(lo, hi, v):
    """Node ``v``'s box: the union of its children's."""
    for k in range(lo.shape[1]):
        lo[v, k] = min(lo[2 * v + 1, k], lo[2 * v + 2, k])
        hi[v, k] = max(hi[2 * v + 1, k], hi[2 * v + 2, k])


def build(x: np.ndarray, leaf_size: int) -> KDTree:
    """The k-d tree of the float64 points ``x`` (shape (n, d)), leaves of at most
    ``leaf_size`` points (2 for ``leaf_size=1``), none empty, on the Numba threads in use:
    a level of fewer nodes than threads splits each large node by parallel passes
    (:func:`_split_wide`), the levels below split their nodes in parallel. On one thread
    every node splits by :func:`_select` (the passes move about twice the bytes), so the
    order of the points within a node may depend on the number of threads; the tree's
    answers do not.

    Examples
    --------
    >>> import numpy as np
    >>> tree = build(np.arange(10.0).reshape(5, 2), leaf_size=2)
    >>> tree.first_leaf, tree.order.tolist() == sorted(tree.order.tolist())
    (3, True)
    """
    n = len(x)
    depth = _depth(n, leaf_size)
    num_nodes = (1 << (depth + 1)) - 1
    start, end = _node_ranges(n, num_nodes)
    x = np.ascontiguousarray(x, dtype=np.float64)
    index = np.empty(n, dtype=np.int64)
    points = np.empty_like(x)  # a copy: the caller's rows stay put
    _start_rows(x, points, index)
    wide = 0  # the top levels of fewer nodes than threads
    while (1 << wide) < numba.get_num_threads() and wide < depth and n >> wide >= _WIDE_RANGE:
        wide += 1
    if wide:
        into, into_index = np.empty_like(points), np.empty_like(index)
        for level in range(wide):  # each level moves the rows to the other buffer
            for v in range((1 << level) - 1, (2 << level) - 1):
                _split_wide(points, index, into, into_index, start[v], end[v])
            points, index, into, into_index = into, into_index, points, index
    for level in range(wide, depth):
        _split_level(points, index, start, end, (1 << level) - 1, 1 << level)
    first_leaf = (1 << depth) - 1
    lo, hi = _boxes(points, start, end, first_leaf)
    # Each node's smallest input index: the searches' tie bound (kernels.kdtree, "Ties").
    min_index = node_minima(index, start, end, first_leaf)
    return KDTree(points, index, start, end, lo, hi, min_index, first_leaf)
