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
        for a in range(start[i] + 1, start[i + 1]):
            e = order[a]
            b = a
            while b > start[i] and second[order[b - 1]] > second[e]:
                order[b] = order[b - 1]
                b -= 1
            order[b] = e
    return order
