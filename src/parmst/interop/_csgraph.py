"""Kernels behind :func:`parmst.scipy.minimum_spanning_tree`.

SciPy makes every stored entry an edge, so a symmetric matrix holds each
edge twice. Two entries joining the same pair are parallel edges, and the
later one in the ``(weight, position)`` order can never be in the forest
(cycle property on the two-edge cycle); dropping it first halves the work
on symmetric input without changing the answer.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def _find_column(indices, start, stop, column):
    """Position of ``column`` in the sorted slice ``indices[start:stop]``, or -1."""
    lo, hi = start, stop
    while lo < hi:
        mid = (lo + hi) >> 1
        if indices[mid] < column:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < stop and indices[lo] == column else -1


@numba.njit(cache=True, parallel=True)
def undominated_entries(indptr, indices, data):
    """Entries with no mirror entry ``(j, i)`` before them in ``(weight, position)`` order.

    Needs sorted column indices in every row and no NaN in ``data``.
    """
    n = len(indptr) - 1
    keep = np.ones(len(indices), dtype=np.bool_)
    for i in numba.prange(n):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            if j == i:
                continue
            q = _find_column(indices, indptr[j], indptr[j + 1], i)
            if q >= 0 and (data[q] < data[p] or (data[q] == data[p] and q < p)):
                keep[p] = False
    return keep
