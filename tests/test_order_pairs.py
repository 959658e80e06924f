"""A point pair's edge id: the lexicographic rank of ``(i, j)``, and back, scalar and on arrays."""

from __future__ import annotations

import numpy as np

from parmst.order.pairs import pair_ids, pairs_of_ids
from parmst.order.scalar import pair_id, pair_of_id


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


def test_array_forms_agree_with_the_scalar_ones() -> None:
    for n in (2, 11, 3_000_000_000):
        total = n * (n - 1) // 2
        ids = np.unique(np.random.default_rng(n).integers(0, total, 300))
        first, second = pairs_of_ids(ids, n)
        assert [(int(i), int(j)) for i, j in zip(first, second)] == [
            tuple(int(v) for v in pair_of_id(ident, n)) for ident in ids.tolist()]
        assert pair_ids(first, second, n).tolist() == ids.tolist()
