"""The edge id of point pairs: their ranks in the lexicographic order of all pairs, and back.

A point set of ``n`` points stands for the complete graph on them (docs/points.md). The pair
``(i, j)``, ``i < j``, is edge ``i*n - i*(i+1)/2 + (j - i - 1)``: the ids grow with ``(i, j)``
lexicographically, so the ``(weight, edge_id)`` rule orders point pairs by distance, then
``(i, j)``. :func:`pair_ids` and :func:`pairs_of_ids` compute it on whole arrays, by NumPy;
:func:`parmst.order.scalar.pair_id` and :func:`parmst.order.scalar.pair_of_id` for one pair
inside a kernel (CPU and CUDA alike), apart so that this module loads no Numba.

Examples
--------
>>> import numpy as np
>>> pair_ids(np.array([0, 0, 1]), np.array([1, 2, 2]), 3).tolist()
[0, 1, 2]
>>> [a.tolist() for a in pairs_of_ids(np.array([0, 1, 2]), 3)]
[[0, 0, 1], [1, 2, 2]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["pair_ids", "pairs_of_ids"]


def pair_ids(first: np.ndarray, second: np.ndarray, n: int) -> np.ndarray:
    """:func:`~parmst.order.scalar.pair_id` of pairs ``first < second`` of ``n`` points, as an int64 array."""
    i = first.astype(np.int64)
    return i * n - i * (i + 1) // 2 + (second.astype(np.int64) - i - 1)


def pairs_of_ids(ids: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~parmst.order.scalar.pair_of_id` of an array of valid pair ids of ``n`` points: ``(first, second)``."""
    b = 2.0 * n - 1.0
    i = np.floor((b - np.sqrt(np.maximum(b * b - 8.0 * ids, 0.0))) / 2.0).astype(np.int64)
    i = np.clip(i, 0, max(n - 2, 0))

    def row_start(r: np.ndarray) -> np.ndarray:
        return r * n - r * (r + 1) // 2

    for _ in range(3):  # the float estimate is off by at most one row
        i = np.where(row_start(i) > ids, i - 1, i)
        i = np.where((i < n - 2) & (row_start(i + 1) <= ids), i + 1, i)
    return i, ids - row_start(i) + i + 1
