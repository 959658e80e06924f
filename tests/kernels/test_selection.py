"""The median-of-three pivot by ``(key, edge_id)``."""

from __future__ import annotations

import numpy as np

from parmst.kernels.selection import median_of_three


def test_median_of_three_picks_middle_pair():
    keys = np.array([4, 4, 4, 4, 4], dtype=np.uint64)
    ids = np.array([9, 3, 7, 1, 5], dtype=np.int64)
    assert median_of_three(keys, ids, 0, 5) == 2  # ids 9, 7, 5: 7 is the median
    keys = np.array([1, 8, 3], dtype=np.uint64)
    assert median_of_three(keys, np.arange(3), 0, 3) == 2
