"""Pivot selection for quicksort-style partitioning by ``(key, edge_id)``.

Shared by the serial and the parallel Filter-Kruskal.
"""

from __future__ import annotations

import numba

from parmst.order import precedes

__all__ = ["median_of_three"]


@numba.njit(cache=True)
def median_of_three(keys, ids, lo, hi):
    """Osipov et al. section 3 (pivot choice): position of the median of first, middle, last."""
    a, b, c = lo, lo + (hi - lo) // 2, hi - 1
    if precedes(keys[b], ids[b], keys[a], ids[a]):
        a, b = b, a
    if precedes(keys[c], ids[c], keys[b], ids[b]):
        b = c
        if precedes(keys[b], ids[b], keys[a], ids[a]):
            b = a
    return b
