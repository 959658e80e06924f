"""The pairs of a point set's tree in the ``(i, j)`` order, the order of their edge ids
(:func:`parmst.pointset.forest_of_pairs`; compiled, so loaded with the first tree)."""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst.order.scalar import pair_id

BUCKET_BITS = 10
"""The pairs are first split by the high bits of ``first`` into at most ``2**BUCKET_BITS``
buckets of consecutive ``first`` values, each then sorted on its own."""


SMALL_GROUP = 16
"""Pairs of one ``first`` that an insertion sort (:func:`sort_run`) orders by ``second``;
larger groups (a star: many equal points join the lowest index) are sorted by NumPy's
sort, so no shape of tree costs quadratic time."""


@numba.njit(cache=True, parallel=True)
def lexicographic_fields(first, second, key, n):
    """The Forest's fields of the pairs (``first < second``, any order) sorted by
    ``(first, second)``, in parallel: both ends, the pair ids and the weights ``sqrt(key)``.

    A most-significant-digit radix step: fixed blocks of pairs count, then write, their
    pairs into buckets by the high bits of ``first`` (stable, :mod:`parmst._blocks`);
    then every bucket, on its own thread, places its pairs by ``first`` with a counting
    sort and orders each ``first``'s group by ``second``."""
    m = len(first)
    shift = 0
    while (n - 1) >> shift >= (1 << BUCKET_BITS):
        shift += 1
    buckets = ((n - 1) >> shift) + 1
    blocks = num_blocks(m)
    counts = np.zeros((blocks, buckets), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, m)
        for e in range(lo, hi):
            counts[b, first[e] >> shift] += 1
    offsets = exclusive_sums(counts)
    start = np.zeros(buckets + 1, dtype=np.int64)
    for k in range(buckets):
        start[k + 1] = start[k] + offsets[blocks, k]
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    weight = np.empty(m)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, m)
        cursor = offsets[b] + start[:buckets]
        for e in range(lo, hi):
            k = first[e] >> shift
            src[cursor[k]], dst[cursor[k]], weight[cursor[k]] = first[e], second[e], key[e]
            cursor[k] += 1
    ids = np.empty(m, dtype=np.int64)
    for k in numba.prange(buckets):
        _sort_bucket(src, dst, weight, ids, start[k], start[k + 1], k << shift,
                     min(1 << shift, n - (k << shift)), n)
    return src, dst, ids, weight


@numba.njit(cache=True)
def _sort_bucket(src, dst, key, ids, lo, hi, base, width, n):
    """Sort the pairs ``lo .. hi - 1`` (``first`` in ``base .. base + width - 1``) by
    ``(first, second)`` in place, then write their ids and turn their keys into weights."""
    group = np.zeros(width + 1, dtype=np.int64)
    for p in range(lo, hi):
        group[src[p] - base + 1] += 1
    for i in range(width):
        group[i + 1] += group[i]
    fill = group[:width].copy()
    order = np.empty(hi - lo, dtype=np.int64)
    for p in range(lo, hi):
        order[fill[src[p] - base]] = p
        fill[src[p] - base] += 1
    for i in range(width):
        g0, g1 = group[i], group[i + 1]
        if g1 - g0 > SMALL_GROUP:
            run = order[g0:g1]
            order[g0:g1] = run[np.argsort(dst[run])]
        else:
            sort_run(order, dst, g0, g1)
    second = dst[order]
    keys = key[order]
    for i in range(width):
        for a in range(group[i], group[i + 1]):
            p = lo + a
            src[p], dst[p] = base + i, second[a]
            ids[p] = pair_id(base + i, second[a], n)
            key[p] = np.sqrt(keys[a])


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


@numba.njit(cache=True, parallel=True)
def in_lexicographic_order(first, second):
    """Whether the pairs already come sorted by ``(first, second)`` (``boruvka-bvh/gpu``
    sorts them on the device): then no order needs computing. The descents are counted
    on all threads (a GPU tree of 37 M pairs: one pass of 40 ms on one)."""
    descents = 0
    for e in numba.prange(1, len(first)):
        descents += np.int64(first[e] < first[e - 1]
                             or (first[e] == first[e - 1] and second[e] < second[e - 1]))
    return descents == 0


@numba.njit(cache=True, parallel=True)
def sorted_fields(first, second, key, n):
    """The Forest's fields of pairs that already come sorted by ``(first, second)``
    (``boruvka-bvh/gpu`` sorts them on the device), in one parallel pass: both ends as
    int64 (the device sends int32 ends where they fit: half the bytes to copy), the pair
    ids and the weights ``sqrt(key)`` (correctly rounded, as NumPy's)."""
    m = len(first)
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    ids = np.empty(m, dtype=np.int64)
    weight = np.empty(m)
    for e in numba.prange(m):
        src[e], dst[e] = first[e], second[e]
        ids[e] = pair_id(src[e], dst[e], n)
        weight[e] = np.sqrt(key[e])
    return src, dst, ids, weight
