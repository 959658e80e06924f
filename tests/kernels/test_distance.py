"""The one distance of point sets: its summation order, its symmetry, mutual reachability."""

from __future__ import annotations

import numpy as np

from parmst.kernels.distance import (
    mutual_reachability,
    precedes_pair,
    squared_distance,
)


def test_squared_distance_sums_coordinates_in_order() -> None:
    # Squares 1, 1e16, 1: in order each 1 is lost (1e16 + 1 rounds to even, 1e16); the two
    # 1s summed first would give 1e16 + 2.
    a = np.array([[1.0, 1e8, 1.0]])
    b = np.zeros((1, 3))
    assert squared_distance(a, 0, b, 0) == 1e16 != (1.0 + 1.0) + 1e16
    x = np.random.default_rng(0).random((50, 7))
    for i, j in [(0, 1), (3, 49), (10, 10)]:
        expected = 0.0
        for k in range(7):
            expected += (x[i, k] - x[j, k]) * (x[i, k] - x[j, k])
        assert squared_distance(x, i, x, j) == expected == squared_distance(x, j, x, i)


def test_mutual_reachability_and_the_order() -> None:
    core2 = np.array([4.0, 1.0, 9.0])
    assert mutual_reachability(core2, 0, 1, 2.0) == 4.0
    assert mutual_reachability(core2, 0, 2, 16.0) == 16.0
    assert precedes_pair(1.0, 5, 2.0, 0) and precedes_pair(1.0, 4, 1.0, 5)
    assert not precedes_pair(1.0, 5, 1.0, 5)
