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


@numba.njit(cache=True)
def undominated_entries(indptr, indices, data, t_indptr, t_indices, t_data):
    """Entries with no mirror entry ``(j, i)`` before them in ``(weight, position)`` order.

    ``t_*`` is the transpose in CSR form, so row ``i`` of it lists the
    mirrors ``(j, i)`` of row ``i``'s entries by column ``j``; both rows are
    sorted and free of duplicates (SciPy's canonical format), so one merge
    per row finds every mirror. A mirror in an earlier row (``j < i``) wins
    ties, one in a later row loses them. Serial: one pass over memory costs
    less than waking threads on a busy machine.
    """
    n = len(indptr) - 1
    keep = np.ones(len(indices), dtype=np.bool_)
    for i in range(n):
        q = t_indptr[i]
        stop = t_indptr[i + 1]
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            while q < stop and t_indices[q] < j:
                q += 1
            if q == stop:
                break
            if t_indices[q] == j and j != i:
                mirror = t_data[q]
                if mirror < data[p] or (mirror == data[p] and j < i):
                    keep[p] = False
    return keep
