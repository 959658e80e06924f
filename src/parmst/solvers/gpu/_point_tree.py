"""A k-d tree over a point set, built on the device: the tree (a bounding-volume
hierarchy of tight boxes) of ``boruvka-bvh/gpu``.

The layout of :mod:`parmst.kernels.kdtree` (node ``v`` has children ``2v + 1`` and
``2v + 2``; level ``L`` splits the points into ``2**L`` runs of nearly equal length, all
leaves at one depth), with each node's tight bounding box and smallest input index (the
searches' tie bound), so the k-d tree's own queries
(:func:`~parmst.kernels.kdtree.nearest_outside`,
:func:`~parmst.kernels.kdtree.nearest_k_point`) run on it unchanged, as device functions.

Each node splits its points at the middle along the widest side of its box, as the CPU's
k-d tree does (Bentley, "Multidimensional binary search trees used for associative
searching", CACM 1975), one level per step: every node of the level cuts the widest side
of its box into equal bins, counts its points per bin, and scatters them in bin order (a
counting sort per node), so its first half holds the points of the lower bins: the
middle cuts through one bin, a 1/256th of the side in the upper levels. Each block of the
count and the scatter takes a chunk of positions and counts it in shared memory (one
global atomic add per node and bin of the chunk), and the scatter writes a chunk's points
in the order of their places. A child's box for the next level is its parent's with the
split side clipped to the bins it holds, so a level reads the points twice (count,
scatter) and the tight boxes are computed once, at the end. Prokopenko, Sao and
Lebrun-Grandié (ICPP 2022, section 4.1) order the points along a Morton curve instead
and split that order at the middle; on clustered and uniform 3-D points the boxes of
such a hierarchy overlap: the 8 nearest neighbours of 10^6 points visited 112 nodes and
15 leaves a point on it, 29 and 4 on the k-d tree (the warp's shared walk: 209 and 48,
87 and 23). Boxes are tight, so the split only affects speed, never an answer; the order
of the points within a bin is that of the atomic adds, so the leaves' membership may
differ from run to run, and the pairs never do.

Every kernel here loops grid-stride or one level at a time, so it also runs on the CUDA
simulator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

from parmst._cuda import arrays, runtime
from parmst.kernels.kdtree import index_dtype
from parmst.kernels.kdtree_build import _depth

__all__ = ["DeviceTree", "build", "node_minima"]

MAX_BINS = 256
"""Bins per node in the upper levels: the middle cuts one bin of the widest side. Counted
on the CPU (10^6 clustered 3-D points, 8 nearest neighbours, a warp's 32 queries), the
exact median split's tree made the searches visit about as many nodes (84 against 86);
16 bins a node everywhere, 1.4x as many."""

MIN_BINS = 16
"""Bins per node in the deepest levels at least."""

LEVEL_COUNTERS = 1 << 24
"""Counters of one level at most (nodes times bins): the deep levels, of many small
nodes, take fewer bins each (never fewer than :data:`MIN_BINS`)."""

CHUNK = 4096
"""Positions one block of the split kernels takes at most: its counts stay in shared
memory, and one global atomic add per node and bin of the chunk replaces one per point
(an int16 holds a position within it)."""

CHUNK_COUNTERS = 2048
"""Shared counters of one block of the split kernels (nodes of its chunk times bins)."""

SPLIT_THREADS = 32 if runtime.simulator_active() else 256
"""Threads per block of the split kernels."""


def bins_at(level: int) -> int:
    """Bins per node at ``level``.

    Examples
    --------
    >>> bins_at(0), bins_at(17), bins_at(24)
    (256, 128, 16)
    """
    return min(MAX_BINS, max(MIN_BINS, LEVEL_COUNTERS >> level))


def level_counters(depth: int) -> int:
    """Counters that the split of every level of a tree of ``depth`` levels fits in: the
    largest level's nodes times bins.

    Examples
    --------
    >>> level_counters(3), level_counters(20)
    (1024, 16777216)
    """
    return max([bins_at(level) << level for level in range(depth)], default=1)


@dataclass(frozen=True)
class DeviceTree:
    """The tree on the device, with the fields of :class:`parmst.kernels.kdtree.KDTree`.

    Attributes
    ----------
    points : device array, shape (n, d), float64
        The points in tree order.
    order : device array of int64
        ``order[t]``: the input index of tree position ``t``.
    start, end : device arrays of int64
        Each node's range of tree positions.
    lo, hi : device arrays, shape (num_nodes, d)
        Each node's bounding box.
    min_index : device array of int64
        Each node's smallest input index among its points: the searches' tie bound.
    first_leaf : int
        Nodes from this one on are leaves.
    """

    points: Any
    order: Any
    start: Any
    end: Any
    lo: Any
    hi: Any
    min_index: Any
    first_leaf: int

    @property
    def num_nodes(self) -> int:
        return self.start.shape[0]

    def levels(self) -> range:
        """The inner levels, deepest first (for bottom-up passes)."""
        return range((self.first_leaf + 1).bit_length() - 2, -1, -1)


@cuda.jit(cache=True)
def _extent(x, k, low, high):
    """Smallest and largest coordinate ``k`` of the points (float atomics per thread)."""
    smallest = np.inf
    largest = -np.inf
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        smallest = min(smallest, x[i, k])
        largest = max(largest, x[i, k])
    cuda.atomic.min(low, k, smallest)
    cuda.atomic.max(high, k, largest)


@cuda.jit(cache=True)
def _copy_rows(x, out):
    """``out[t] = x[t]``, one coordinate per item (``x`` of any strides)."""
    d = x.shape[1]
    for e in range(cuda.grid(1), out.shape[0] * d, cuda.gridsize(1)):
        t = e // d
        k = e - t * d
        out[t, k] = x[t, k]


@cuda.jit(device=True, inline=True)
def _range_start(i, level, n):
    """The first tree position of the ``i``-th node of ``level`` (the layout's ranges: a
    level splits each range of the one above in two)."""
    return (i * n) >> level


@cuda.jit(device=True, inline=True)
def _node_at(t, level, n):
    """The index within its level of the node at ``level`` holding tree position ``t``:
    the largest ``i`` whose range starts at ``t`` or before (a float estimate, then exact
    steps)."""
    count = np.int64(1) << level
    i = min(count - 1, np.int64((t + 0.5) * count / n))
    while i > 0 and _range_start(i, level, n) > t:
        i -= 1
    while i + 1 < count and _range_start(i + 1, level, n) <= t:
        i += 1
    return i


@cuda.jit(device=True, inline=True)
def _split_side(lo, hi, v):
    """The widest side of node ``v``'s box (the first of equal ones), its low end and
    width."""
    side = 0
    width = hi[v, 0] - lo[v, 0]
    for k in range(1, lo.shape[1]):
        if hi[v, k] - lo[v, k] > width:
            side, width = k, hi[v, k] - lo[v, k]
    return side, lo[v, side], width


@cuda.jit(device=True, inline=True)
def _bin_of(points, t, lo, hi, v, bins):
    """The bin of point ``t`` along node ``v``'s widest side (``bins`` equal bins over its
    box; a point outside the box, or a box of no width, falls into the nearest end)."""
    side, low, width = _split_side(lo, hi, v)
    ratio = (points[t, side] - low) / width if width > 0 else 0.0
    if not ratio > 0:  # also NaN, from an infinite width
        return 0
    if ratio >= 1:
        return bins - 1
    return min(bins - 1, np.int64(ratio * bins))


@cuda.jit(device=True, inline=True)
def _chunk_histogram(points, level, bins, lo, hi, chunk, local):
    """Count the points of block-sized chunk ``cuda.blockIdx.x``'s positions per node and
    bin into the block's shared ``local`` (slots from the chunk's first node on, which the
    function returns with the chunk's range); the block's threads take consecutive
    positions."""
    n = points.shape[0]
    first = (np.int64(1) << level) - 1
    begin = np.int64(cuda.blockIdx.x) * chunk
    stop = min(n, begin + chunk)
    base_node = _node_at(begin, level, n)
    used = (_node_at(stop - 1, level, n) - base_node + 1) * bins
    for slot in range(cuda.threadIdx.x, used, cuda.blockDim.x):
        local[slot] = 0
    cuda.syncthreads()
    for t in range(begin + cuda.threadIdx.x, stop, cuda.blockDim.x):
        i = _node_at(t, level, n)
        cuda.atomic.add(local, (i - base_node) * bins
                        + _bin_of(points, t, lo, hi, first + i, bins), 1)
    cuda.syncthreads()
    return begin, stop, base_node, used


@cuda.jit(cache=True)
def _count_bins(points, level, bins, lo, hi, chunk, counts):
    """Each node's points at ``level`` counted per bin: every block counts a chunk of
    positions in shared memory, then adds its non-zero counts to ``counts`` (one global
    atomic per node and bin a chunk holds, not one per point)."""
    local = cuda.shared.array(CHUNK_COUNTERS, np.int32)
    _, _, base_node, used = _chunk_histogram(points, level, bins, lo, hi, chunk, local)
    for slot in range(cuda.threadIdx.x, used, cuda.blockDim.x):
        if local[slot]:
            cuda.atomic.add(counts, base_node * bins + slot, local[slot])


@cuda.jit(cache=True)
def _split_nodes(n, level, bins, counts, lo, hi):
    """Each node of ``level``: its bins' counts become the positions where their points
    go (an exclusive prefix sum from the node's start), and its children's boxes are its
    own with the split side clipped to the bins each holds (the first half: from the
    first non-empty bin to the bin of the middle's last point; the second: from the bin
    of its first point to the last non-empty bin)."""
    count = np.int64(1) << level
    first = count - 1
    d = lo.shape[1]
    for i in range(cuda.grid(1), count, cuda.gridsize(1)):
        v = first + i
        start = _range_start(i, level, n)
        middle = _range_start(2 * i + 1, level + 1, n)
        end = _range_start(i + 1, level, n)
        low_bin, high_bin, left_last, right_first = bins, -1, -1, -1
        at = start
        for b in range(bins):
            held = counts[i * bins + b]
            counts[i * bins + b] = at
            if held:
                low_bin = min(low_bin, b)
                high_bin = b
                if at < middle <= at + held:
                    left_last = b
                if at <= middle < at + held:
                    right_first = b
            at += held
        a = 2 * v + 1
        for k in range(d):
            lo[a, k], hi[a, k] = lo[v, k], hi[v, k]
            lo[a + 1, k], hi[a + 1, k] = lo[v, k], hi[v, k]
        side, low, width = _split_side(lo, hi, v)
        if width > 0 and end - start > 1:
            step = width / bins
            lo[a, side] = low + low_bin * step
            hi[a, side] = low + (left_last + 1) * step
            lo[a + 1, side] = low + right_first * step
            hi[a + 1, side] = low + (high_bin + 1) * step


@cuda.jit(cache=True)
def _scatter_bins(points, order, level, bins, lo, hi, chunk, counts, points_out, order_out):
    """Each point to a free position of its node and bin (:func:`_split_nodes`'s positions):
    every block counts its chunk again, takes one run of positions per node and bin it
    holds (a global atomic add each), puts its points in the order of those runs in shared
    memory, then writes them out in that order, so that consecutive threads write
    consecutive positions (a point written alone to a random place costs a partial write
    of each sector it touches)."""
    local = cuda.shared.array(CHUNK_COUNTERS, np.int32)
    taken = cuda.shared.array(CHUNK_COUNTERS, np.int64)
    source = cuda.shared.array(CHUNK, np.int16)
    slot_of = cuda.shared.array(CHUNK, np.int16)
    n = points.shape[0]
    first = (np.int64(1) << level) - 1
    begin, stop, base_node, used = _chunk_histogram(points, level, bins, lo, hi, chunk, local)
    for slot in range(cuda.threadIdx.x, used, cuda.blockDim.x):
        if local[slot]:
            taken[slot] = cuda.atomic.add(counts, base_node * bins + slot, local[slot])
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:  # the chunk's runs in order: a serial scan of its few counters
        at = 0
        for slot in range(used):
            held = local[slot]
            local[slot] = at
            taken[slot] -= at
            at += held
    cuda.syncthreads()
    for t in range(begin + cuda.threadIdx.x, stop, cuda.blockDim.x):
        i = _node_at(t, level, n)
        slot = (i - base_node) * bins + _bin_of(points, t, lo, hi, first + i, bins)
        j = cuda.atomic.add(local, slot, 1)
        source[j] = t - begin
        slot_of[j] = slot
    cuda.syncthreads()
    for j in range(cuda.threadIdx.x, stop - begin, cuda.blockDim.x):
        t = begin + source[j]
        to = taken[slot_of[j]] + j
        for k in range(points.shape[1]):
            points_out[to, k] = points[t, k]
        order_out[to] = order[t]


def _chunk(n: int, level: int, bins: int) -> int:
    """Positions a block takes at ``level``: at most :data:`CHUNK`, and few enough that the
    nodes they can touch (two more than fit whole) have a shared counter for every bin."""
    whole_nodes = max(1, CHUNK_COUNTERS // bins - 2)
    return max(1, min(CHUNK, whole_nodes * (n >> level)))


@cuda.jit(cache=True)
def _node_ranges(n, start, end):
    """Node ``v`` at level ``L``, ``i``-th of its level, holds positions
    ``i*n // 2**L .. (i+1)*n // 2**L`` (:func:`_range_start`)."""
    for v in range(cuda.grid(1), start.shape[0], cuda.gridsize(1)):
        level = 0
        while (np.int64(2) << level) - 1 <= v:
            level += 1
        i = v - ((np.int64(1) << level) - 1)
        start[v] = _range_start(i, level, n)
        end[v] = _range_start(i + 1, level, n)


@cuda.jit(cache=True)
def _leaf_boxes(points, start, end, first_leaf, lo, hi):
    """Each leaf's box from its points."""
    d = points.shape[1]
    for v in range(first_leaf + cuda.grid(1), start.shape[0], cuda.gridsize(1)):
        for k in range(d):
            low = points[start[v], k]
            high = low
            for t in range(start[v] + 1, end[v]):
                low = min(low, points[t, k])
                high = max(high, points[t, k])
            lo[v, k] = low
            hi[v, k] = high


@cuda.jit(cache=True)
def _inner_boxes(first, count, lo, hi):
    """The boxes of one level's nodes (``first .. first + count - 1``) from their children."""
    for c in range(cuda.grid(1), count, cuda.gridsize(1)):
        v = first + c
        for k in range(lo.shape[1]):
            lo[v, k] = min(lo[2 * v + 1, k], lo[2 * v + 2, k])
            hi[v, k] = max(hi[2 * v + 1, k], hi[2 * v + 2, k])


@cuda.jit(cache=True)
def _leaf_minima(values, start, end, first_leaf, minima):
    """Each leaf's smallest value among its points."""
    for v in range(first_leaf + cuda.grid(1), start.shape[0], cuda.gridsize(1)):
        smallest = values[start[v]]
        for t in range(start[v] + 1, end[v]):
            smallest = min(smallest, values[t])
        minima[v] = smallest


@cuda.jit(cache=True)
def _inner_minima(first, count, minima):
    """One level's minima from their children's."""
    for c in range(cuda.grid(1), count, cuda.gridsize(1)):
        v = first + c
        minima[v] = min(minima[2 * v + 1], minima[2 * v + 2])


def _grid(count: int) -> tuple[int, int]:
    return arrays.launch_grid(max(1, count))


def build(x: Any, leaf_size: int) -> DeviceTree:
    """The k-d tree of the float64 device points ``x`` (shape (n, d), n >= 2): leaves of at
    most ``leaf_size`` points (2 for ``leaf_size=1``), none empty."""
    n, d = x.shape
    depth = _depth(n, leaf_size)
    num_nodes = (1 << (depth + 1)) - 1
    first_leaf = (1 << depth) - 1
    lo = cuda.device_array((num_nodes, d), dtype=np.float64)
    hi = cuda.device_array((num_nodes, d), dtype=np.float64)
    arrays.refill(lo[0], np.inf)
    arrays.refill(hi[0], -np.inf)
    for k in range(d):
        _extent[arrays.reduction_grid(n)](x, k, lo[0], hi[0])
    points = cuda.device_array((n, d), dtype=np.float64)
    _copy_rows[_grid(n * d)](x, points)
    order = arrays.iota(n)
    spare_points = cuda.device_array((n, d), dtype=np.float64)
    spare_order = cuda.device_array(n, dtype=np.int64)
    counts = cuda.device_array(level_counters(depth), dtype=index_dtype(n))
    for level in range(depth):
        bins = bins_at(level)
        level_counts = arrays.refill(counts[:bins << level], 0)
        chunk = _chunk(n, level, bins)
        chunks = (-(-n // chunk), SPLIT_THREADS)
        args = (np.int64(level), np.int64(bins), lo, hi, np.int64(chunk), level_counts)
        runtime.launch(_count_bins, chunks, points, *args)
        runtime.launch(_split_nodes, _grid(1 << level), np.int64(n), np.int64(level),
                       np.int64(bins), level_counts, lo, hi)
        runtime.launch(_scatter_bins, chunks, points, order, *args, spare_points, spare_order)
        points, spare_points = spare_points, points
        order, spare_order = spare_order, order
    start = cuda.device_array(num_nodes, dtype=np.int64)
    end = cuda.device_array(num_nodes, dtype=np.int64)
    _node_ranges[_grid(num_nodes)](np.int64(n), start, end)
    _leaf_boxes[_grid(num_nodes - first_leaf)](points, start, end, np.int64(first_leaf), lo, hi)
    min_index = cuda.device_array(num_nodes, dtype=np.int64)
    tree = DeviceTree(points, order, start, end, lo, hi, min_index, first_leaf)
    for level in tree.levels():
        count = 1 << level
        _inner_boxes[_grid(count)](np.int64(count - 1), np.int64(count), lo, hi)
    node_minima(tree, order, min_index)
    return tree


def node_minima(tree: DeviceTree, values: Any, out: Any) -> Any:
    """Each node's smallest value among its points (``values`` in tree order) into ``out``
    (of ``values``' type): the core-distance bound of a node under mutual reachability, and
    its smallest input index (``values = tree.order``)."""
    leaves = tree.num_nodes - tree.first_leaf
    _leaf_minima[_grid(leaves)](values, tree.start, tree.end, np.int64(tree.first_leaf), out)
    for level in tree.levels():
        count = 1 << level
        _inner_minima[_grid(count)](np.int64(count - 1), np.int64(count), out)
    return out
