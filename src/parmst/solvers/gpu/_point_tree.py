"""A bounding-volume hierarchy over a point set, built on the device: the tree of
``boruvka-bvh/gpu``.

A linear BVH (Lauterbach et al., "Fast BVH construction on GPUs", Eurographics 2009; the
tree of Prokopenko, Sao and Lebrun-Grandié, ICPP 2022, section 4.1): the points sorted by
their Morton codes (coordinates scaled to the bounding box, bits interleaved), then a
balanced hierarchy over that order in the layout of :mod:`parmst.kernels.kdtree` (node
``v`` has children ``2v + 1`` and ``2v + 2``, level ``L`` splits the sorted points into
``2**L`` runs of nearly equal length, all leaves at one depth), with each node's tight
bounding box and smallest input index (the searches' tie bound). Karras's hierarchy ("Maximizing parallelism in the construction of BVHs,
octrees, and k-d trees", HPG 2012) splits at Morton prefixes instead; the balanced split
keeps the k-d tree's implicit layout, so the k-d tree's own queries
(:func:`~parmst.kernels.kdtree.nearest_outside`, :func:`~parmst.kernels.kdtree.nearest_k_leaf`)
run on it unchanged, as device functions. Boxes are tight, so the sort order affects speed
only, never the answer.

Every kernel here loops grid-stride or one level at a time, so it also runs on the CUDA
simulator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

from parmst._cuda import arrays
from parmst.kernels.kdtree_build import _depth

__all__ = ["DeviceTree", "build", "node_minima"]

_MORTON_BITS = 63
"""Bits of a Morton code: at most ``63 // d`` per coordinate."""
_COORDINATE_BITS = 31
"""Bits of one coordinate's cell at most (its scaled value stays an int64)."""
_SPARE_BITS = 6
"""Code bits beyond ``log2(n)``: about 64 cells per point, so that few points share a code;
more bits would only lengthen the sort (4 bits a pass), the order affects speed only."""


@dataclass(frozen=True)
class DeviceTree:
    """The BVH on the device, with the fields of :class:`parmst.kernels.kdtree.KDTree`.

    Attributes
    ----------
    points : device array, shape (n, d), float64
        The points in tree (Morton) order.
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
def _morton(x, low, high, bits, codes):
    """Each point's Morton code: coordinate ``k`` scaled to ``bits`` bits over the box, the
    bits interleaved from the highest down (coordinate 0 first)."""
    d = x.shape[1]
    cells = np.float64(1 << bits)
    top = np.int64((1 << bits) - 1)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        code = np.uint64(0)
        for b in range(bits - 1, -1, -1):
            for k in range(d):
                width = high[k] - low[k]
                cell = np.int64(0)
                if width > 0:
                    cell = min(top, np.int64((x[i, k] - low[k]) / width * cells))
                code = (code << np.uint64(1)) | np.uint64((cell >> b) & 1)
        codes[i] = code


@cuda.jit(cache=True)
def _gather_rows(x, order, out):
    """``out[t] = x[order[t]]``, one coordinate per item."""
    d = x.shape[1]
    for e in range(cuda.grid(1), out.shape[0] * d, cuda.gridsize(1)):
        t = e // d
        k = e - t * d
        out[t, k] = x[order[t], k]


@cuda.jit(cache=True)
def _node_ranges(n, start, end):
    """Node ``v`` at level ``L``, ``i``-th of its level, holds positions
    ``i*n // 2**L .. (i+1)*n // 2**L``: a level splits each range of the one above in two."""
    for v in range(cuda.grid(1), start.shape[0], cuda.gridsize(1)):
        level = 0
        while (np.int64(2) << level) - 1 <= v:
            level += 1
        i = v - ((np.int64(1) << level) - 1)
        start[v] = (i * n) >> level
        end[v] = ((i + 1) * n) >> level


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
    """The BVH of the float64 device points ``x`` (shape (n, d), n >= 2): leaves of at most
    ``leaf_size`` points (2 for ``leaf_size=1``), none empty."""
    n, d = x.shape
    low = arrays.fill(d, np.inf, np.float64)
    high = arrays.fill(d, -np.inf, np.float64)
    for k in range(d):
        _extent[arrays.reduction_grid(n)](x, k, low, high)
    codes = cuda.device_array(n, dtype=np.uint64)
    bits = max(1, min(_COORDINATE_BITS, _MORTON_BITS // d,
                      -(-(int(n - 1).bit_length() + _SPARE_BITS) // d)))
    _morton[_grid(n)](x, low, high, bits, codes)
    order = arrays.radix_order(codes, bits * d)
    points = cuda.device_array((n, d), dtype=np.float64)
    _gather_rows[_grid(n * d)](x, order, points)
    depth = _depth(n, leaf_size)
    num_nodes = (1 << (depth + 1)) - 1
    first_leaf = (1 << depth) - 1
    start = cuda.device_array(num_nodes, dtype=np.int64)
    end = cuda.device_array(num_nodes, dtype=np.int64)
    _node_ranges[_grid(num_nodes)](np.int64(n), start, end)
    lo = cuda.device_array((num_nodes, d), dtype=np.float64)
    hi = cuda.device_array((num_nodes, d), dtype=np.float64)
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
