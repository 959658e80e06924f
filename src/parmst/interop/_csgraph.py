"""Kernels behind :func:`parmst.scipy.minimum_spanning_tree`.

SciPy makes every stored entry an edge, so a symmetric matrix holds each
edge twice. Two entries joining the same pair are parallel edges, and the
later one in the ``(weight, position)`` order can never be in the forest
(cycle property on the two-edge cycle); dropping it first halves the work
on symmetric input without changing the answer. Self-loops (diagonal
entries) are never in a forest either.

Each kernel is one serial pass over the matrix: on two cores a pass over
memory costs less than waking threads that other work may be holding.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def canonical_without_nan(indptr, indices, data):
    """Whether every row's columns strictly ascend (SciPy's canonical format) and no entry is NaN.

    Reads the arrays once and writes nothing (``has_canonical_format`` would
    cache its answer on the caller's matrix).
    """
    for i in range(len(indptr) - 1):
        for p in range(indptr[i], indptr[i + 1]):
            if data[p] != data[p]:
                return False
            if p > indptr[i] and indices[p] <= indices[p - 1]:
                return False
    return True


@numba.njit(cache=True, inline="always")
def _mirror(indptr, indices, i, j):
    """Position of entry ``(j, i)`` by binary search of row ``j``, or -1."""
    lo = indptr[j]
    hi = indptr[j + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if indices[mid] < i:
            lo = mid + 1
        else:
            hi = mid
    if lo < indptr[j + 1] and indices[lo] == i:
        return lo
    return -1


@numba.njit(cache=True)
def _dominated(indptr, indices, data):
    """Entries with a mirror entry before them in ``(weight, position)`` order.

    Visits each pair once, from its upper-triangle entry ``(i, j)``, ``i < j``,
    whose mirror ``(j, i)`` lies in a later row and so loses ties. Rows must
    be canonical (see :func:`canonical_without_nan`).
    """
    dominated = np.zeros(len(indices), dtype=np.bool_)
    for i in range(len(indptr) - 1):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            if j <= i:
                continue
            q = _mirror(indptr, indices, i, j)
            if q < 0:
                continue
            if data[q] < data[p]:
                dominated[p] = True
            else:
                dominated[q] = True
    return dominated


@numba.njit(cache=True)
def candidate_edges(indptr, indices, data, index_type):
    """The entries that may be forest edges, as an edge list in position order.

    Returns ``(src, dst, weight, position, count)``: the first ``count``
    entries are the off-diagonal entries no mirror dominates (see
    :func:`_dominated`), ``src`` their row and ``dst`` their column, typed
    like ``index_type``.
    """
    dominated = _dominated(indptr, indices, data)
    nnz = len(indices)
    src = np.empty(nnz, dtype=index_type)
    dst = np.empty(nnz, dtype=index_type)
    weight = np.empty(nnz, dtype=data.dtype)
    position = np.empty(nnz, dtype=np.int64)
    count = 0
    for i in range(len(indptr) - 1):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            if j == i or dominated[p]:
                continue
            src[count] = i
            dst[count] = j
            weight[count] = data[p]
            position[count] = p
            count += 1
    return src, dst, weight, position, count


@numba.njit(cache=True)
def kept_entries(indptr, indices, data, chosen):
    """The result matrix's arrays: entries at ``chosen`` positions whose value is not zero.

    SciPy zeroes every entry it does not keep and then eliminates zeros, so
    a chosen entry holding a stored zero is left out too. Returns
    ``(indptr, indices, data)`` of the result, rows in input order.
    """
    n = len(indptr) - 1
    keep = np.zeros(len(indices), dtype=np.bool_)
    for k in range(len(chosen)):
        keep[chosen[k]] = True
    out_indptr = np.zeros(n + 1, dtype=indptr.dtype)
    out_indices = np.empty(len(chosen), dtype=indices.dtype)
    out_data = np.empty(len(chosen), dtype=data.dtype)
    count = 0
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            if keep[p] and data[p] != 0:
                out_indices[count] = indices[p]
                out_data[count] = data[p]
                count += 1
        out_indptr[i + 1] = count
    return out_indptr, out_indices[:count], out_data[:count]
