"""The pairs of a point set's tree in the ``(i, j)`` order, the order of their edge ids
(:func:`parmst.pointset.forest_of_pairs`; compiled, so loaded with the first tree)."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def lexicographic(first, second, n):
    """Positions of the pairs sorted by ``(first, second)``: a counting sort by ``first``,
    then an insertion sort of each group by ``second`` (a tree's groups are small)."""
    count = np.zeros(n + 1, dtype=np.int64)
    for e in range(len(first)):
        count[first[e] + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    order = np.empty(len(first), dtype=np.int64)
    for e in range(len(first)):
        order[fill[first[e]]] = e
        fill[first[e]] += 1
    for i in range(n):
        sort_run(order, second, start[i], start[i + 1])
    return order


@numba.njit(cache=True, inline="always")
def sort_run(order, second, lo, hi):
    """Insertion sort of the positions ``order[lo:hi]`` (pairs of one first index) by their
    pair's ``second``: a tree's runs are short. Also a device function of
    ``boruvka-bvh/gpu``, which groups its pairs by first index on the device."""
    for a in range(lo + 1, hi):
        e = order[a]
        b = a
        while b > lo and second[order[b - 1]] > second[e]:
            order[b] = order[b - 1]
            b -= 1
        order[b] = e


@numba.njit(cache=True)
def in_lexicographic_order(first, second):
    """Whether the pairs already come sorted by ``(first, second)`` (``boruvka-bvh/gpu``
    sorts them on the device): then no order needs computing."""
    for e in range(1, len(first)):
        if first[e] < first[e - 1] or (first[e] == first[e - 1] and second[e] < second[e - 1]):
            return False
    return True


@numba.njit(cache=True, parallel=True)
def ordered_fields(first, second, key, order, n):
    """The Forest's fields of the pairs (``first < second``) taken in ``order``, in one
    parallel pass: both ends, the pair ids (:func:`parmst.pointset.pair_ids`' rank
    ``i*n - i*(i+1)/2 + (j-i-1)``) and the weights ``sqrt(key)`` (correctly rounded, as
    NumPy's)."""
    m = len(order)
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    ids = np.empty(m, dtype=np.int64)
    weight = np.empty(m)
    for e in numba.prange(m):
        o = order[e]
        i, j = first[o], second[o]
        src[e], dst[e] = i, j
        ids[e] = i * n - i * (i + 1) // 2 + (j - i - 1)
        weight[e] = np.sqrt(key[o])
    return src, dst, ids, weight
