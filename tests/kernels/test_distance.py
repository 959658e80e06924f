"""The one distance of point sets: its summation order, its symmetry, pair ids."""

from __future__ import annotations

import numpy as np

from parmst.kernels.distance import (
    mutual_reachability,
    pair_id,
    pair_of_id,
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


def test_pair_ids_are_the_lexicographic_ranks() -> None:
    n = 9
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    assert [pair_id(i, j, n) for i, j in pairs] == list(range(len(pairs)))
    assert pair_id(5, 2, n) == pair_id(2, 5, n)
    big = 3_000_000_000  # beyond int32: the arithmetic stays in int64
    assert pair_id(big - 2, big - 1, big) == big * (big - 1) // 2 - 1


def test_pair_of_id_inverts_pair_id() -> None:
    # Every pair of small sets, and random ids of sets up to 3e9 points, where the
    # quadratic's float root is off and the integer correction decides.
    for n in (2, 3, 7):
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        assert [tuple(int(v) for v in pair_of_id(pair_id(i, j, n), n)) for i, j in pairs] == pairs
    for n in (1000, 2**20 + 7, 3_000_000_000):
        total = n * (n - 1) // 2
        ids = np.random.default_rng(n).integers(0, total, 500).tolist() + [0, total - 1]
        for ident in ids:
            i, j = pair_of_id(ident, n)
            assert 0 <= i < j < n and pair_id(i, j, n) == ident


def test_mutual_reachability_and_the_order() -> None:
    core2 = np.array([4.0, 1.0, 9.0])
    assert mutual_reachability(core2, 0, 1, 2.0) == 4.0
    assert mutual_reachability(core2, 0, 2, 16.0) == 16.0
    assert precedes_pair(1.0, 5, 2.0, 0) and precedes_pair(1.0, 4, 1.0, 5)
    assert not precedes_pair(1.0, 5, 1.0, 5)
