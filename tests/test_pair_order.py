"""A point set's tree pairs put in the ``(i, j)`` order by the Forest's parallel sort."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from parmst.pointset import forest_of_pairs


def _random_tree(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    second = np.arange(1, n)
    first = (rng.random(n - 1) * second).astype(np.int64)
    order = rng.permutation(n - 1)
    return first[order], second[order]


@pytest.mark.parametrize("n", [2, 3, 1000, 5000, (1 << 16) + 3])
def test_pairs_in_any_order_come_out_sorted_with_their_keys(n: int) -> None:
    # Sizes around the bucket split (n - 1 below and above 2**10 buckets of first).
    first, second = _random_tree(n, n)
    key = np.random.default_rng(1).random(n - 1)
    forest = forest_of_pairs(first, second, key, n)
    order = np.lexsort((second, first))
    assert forest.src.tolist() == first[order].tolist()
    assert forest.dst.tolist() == second[order].tolist()
    assert forest.weight.tolist() == np.sqrt(key[order]).tolist()
    i = first[order]
    assert forest.edge_ids.tolist() == (i * n - i * (i + 1) // 2 + second[order] - i - 1).tolist()


def test_a_star_in_random_order_is_sorted_without_quadratic_time() -> None:
    # Many equal points join the lowest index: one group of 200,000 pairs, which an
    # insertion sort would take minutes to order.
    m = 200_000
    second = np.random.default_rng(2).permutation(np.arange(1, m + 1))
    forest = forest_of_pairs(np.zeros(m, dtype=np.int64), second, np.zeros(m), m + 1)
    assert forest.dst.tolist() == list(range(1, m + 1))
    assert forest.edge_ids.tolist() == list(range(m))


def test_sorted_pairs_keep_their_order() -> None:
    first, second = _random_tree(3000, 5)
    order = np.lexsort((second, first))
    forest = forest_of_pairs(first[order], second[order], np.ones(2999), 3000)
    assert forest.src.tolist() == first[order].tolist()
    assert (np.diff(forest.edge_ids) > 0).all()


def test_the_order_does_not_depend_on_the_thread_count() -> None:
    first, second = _random_tree(20_000, 7)
    key = np.random.default_rng(3).random(len(first))
    before = numba.get_num_threads()
    try:
        results = []
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            forest = forest_of_pairs(first, second, key, 20_000)
            results.append((forest.src.tolist(), forest.dst.tolist(), forest.weight.tolist()))
    finally:
        numba.set_num_threads(before)
    assert all(r == results[0] for r in results)


def test_pairs_sorted_on_the_device_keep_their_order_and_may_come_as_int32() -> None:
    # boruvka-bvh/gpu sends its pairs sorted, with int32 ends: the Forest takes them as
    # they are (int64 fields); one descent anywhere, in either end, is seen on all threads.
    from parmst._pair_order import in_lexicographic_order

    n = 3000
    first = np.repeat(np.arange(n // 2, dtype=np.int32), 2)[:n - 1]
    second = (first + 1 + np.arange(n - 1) % 2).astype(np.int32)  # (i, i+1), (i, i+2)
    assert in_lexicographic_order(first, second)
    forest = forest_of_pairs(first, second, np.ones(n - 1), n)
    assert forest.src.dtype == forest.dst.dtype == np.int64
    assert forest.src.tolist() == first.tolist() and forest.dst.tolist() == second.tolist()
    for at in (1, 1501, n - 3):  # a descent in the second end (same first), then the first
        wrong = second.copy()
        wrong[at - 1], wrong[at] = wrong[at], wrong[at - 1]
        assert first[at - 1] == first[at] and not in_lexicographic_order(first, wrong)
    wrong = first.copy()
    wrong[[1499, 1500]] = wrong[[1500, 1499]]
    assert wrong[1499] > wrong[1500] and not in_lexicographic_order(wrong, second)
