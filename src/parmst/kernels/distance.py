"""The one distance of point sets: squared Euclidean distance, pair ids, mutual reachability.

Every point-set solver, the verifier and the GPU kernels compare the
values these functions compute, so all agree on every tie. Coordinates are
float64 (the caller converts float32 once); the squared distance is summed
in coordinate order ``0 .. d-1`` by a plain scalar loop, which a GPU kernel
compiles as a device function unchanged. Its one arithmetic step,
:func:`add_square`, is a rounded product then a rounded sum, never one fused
multiply-add: NVVM fuses ``total + diff * diff`` by default, which rounds once
instead of twice and so gives other keys than the CPU. The CPU compiles it as
written (Numba's CPU target does not fuse); :mod:`parmst.kernels.distance_cuda`
gives CUDA the same two roundings. The total order of pairs is
``(key, i, j)`` with ``i < j``, where ``key`` is the squared distance (or the
squared mutual-reachability distance): comparing square roots could round two
different squared values to one double and change a tie-break. Because the
pair id :func:`pair_id` grows with ``(i, j)`` lexicographically, the order is
also ``(key, pair_id)``, the ``(weight, edge_id)`` order of every graph solver.

Examples
--------
>>> import numpy as np
>>> x = np.array([[0.0, 0.0], [3.0, 4.0]])
>>> float(squared_distance(x, 0, x, 1)), int(pair_id(0, 1, 2))
(25.0, 0)
"""

from __future__ import annotations

import numba
from numba.extending import overload

# The pair ids belong to the order (layer 1); the kernels take them here with the distance.
from parmst.order.scalar import pair_id, pair_of_id

__all__ = ["add_square", "mutual_reachability", "pair_id", "pair_of_id", "precedes_pair",
           "squared_distance"]


def add_square(total, diff):
    """``total + diff * diff`` rounded twice (the product, then the sum), never fused.

    The one arithmetic step of every squared distance and box bound. A plain
    function with one implementation per Numba target: the CPU's below, CUDA's in
    :mod:`parmst.kernels.distance_cuda`; Python (and the CUDA simulator) runs
    this body, which rounds the same way.
    """
    return total + diff * diff


@overload(add_square, jit_options={"cache": True})
def _add_square_cpu(total, diff):
    def add_square_cpu(total, diff):
        return total + diff * diff
    return add_square_cpu


@numba.njit(cache=True, inline="always")
def squared_distance(a, i, b, j):
    """Squared Euclidean distance between row ``i`` of ``a`` and row ``j`` of ``b``.

    Summed in coordinate order in float64 by :func:`add_square`: the one definition
    every solver shares, on every target. ``(x - y)**2 == (y - x)**2`` exactly, so the
    value does not depend on which point comes first. Two and three dimensions are
    written out (the same sums in the same order): with constant columns each row's
    offset is computed once instead of once a coordinate, and that index arithmetic, not
    the floating point, is what a search spends its instructions on.
    """
    d = a.shape[1]
    if d == 2:
        return add_square(add_square(0.0, a[i, 0] - b[j, 0]), a[i, 1] - b[j, 1])
    if d == 3:
        return add_square(add_square(add_square(0.0, a[i, 0] - b[j, 0]), a[i, 1] - b[j, 1]),
                          a[i, 2] - b[j, 2])
    total = 0.0
    for k in range(d):
        total = add_square(total, a[i, k] - b[j, k])
    return total


@numba.njit(cache=True, inline="always")
def mutual_reachability(core2, p, q, d2):
    """Squared mutual-reachability distance ``max(core2[p], core2[q], d2)``.

    Campello, Moulavi and Sander, "Density-based clustering based on hierarchical
    density estimates" (PAKDD 2013), section 2; squared values, so the max of the
    squares equals the square of the max.
    """
    return max(core2[p], core2[q], d2)


@numba.njit(cache=True, inline="always")
def precedes_pair(key_a, id_a, key_b, id_b):
    """Whether pair ``a`` comes before pair ``b`` in the ``(key, pair_id)`` order."""
    return key_a < key_b or (key_a == key_b and id_a < id_b)
