"""The k-d tree Borůvka rounds' parallel hooking and pair order
(``parmst.solvers.kdtree_boruvka``)."""

from __future__ import annotations

import numba
import numpy as np

import parmst
from parmst._blocks import exclusive_sums
from parmst.kernels.distance import pair_id
from parmst.solvers.kdtree_boruvka import _NO_PAIR, _emit, _jump, _link


def test_link_records_a_pair_two_components_chose_once_and_reads_a_raced_holder_back() -> None:
    # Four points in two components (labels 0 and 1); both chose the pair of inputs
    # (0, 2). Component 1's holder names point 3 (input 1), whose answer is input 2: the
    # pair (1, 2), as a lost race of the lightest-answer pass leaves it.
    n = 4
    order = np.array([2, 0, 3, 1])  # tree position -> input index
    position = np.argsort(order).astype(np.int32)
    comp = np.array([0, 1, 0, 1], dtype=np.int32)
    answer = np.array([1, 0, 1, 0], dtype=np.int32)  # tree positions
    best_id = np.full(n, _NO_PAIR, dtype=np.int64)
    best_id[0] = best_id[1] = pair_id(0, 2, n)
    best = np.array([0, 3, 0, 0], dtype=np.int32)
    roots = np.array([0, 1], dtype=np.int32)
    link = np.full(n, -1, dtype=np.int32)
    counts = np.empty((1, 2), dtype=np.int64)
    _link(roots, comp, order, position, answer, best_id, best, link, counts)
    assert link[:2].tolist() == [0, 0]  # the smaller label stays a root
    assert counts.tolist() == [[1, 1]]  # one pair recorded, one root stays
    first, second, keys = np.empty(3, np.int64), np.empty(3, np.int64), np.empty(3)
    next_roots = np.full(2, -1, dtype=np.int32)
    bound = np.array([1.5, 1.5, 0.0, 0.0])
    _emit(roots, link, exclusive_sums(counts), best_id, bound, first, second, keys, 0,
          next_roots)
    assert (first[0], second[0], keys[0]) == (0, 2, 1.5)
    assert next_roots[0] == 0


def test_jump_takes_a_path_of_links_to_its_root_in_logarithmic_sweeps() -> None:
    link = np.array([1, 2, 3, 4, 5, 6, 7, 7, 8], dtype=np.int32)  # 0 -> 1 -> ... -> 7; 8 alone
    roots = np.arange(9, dtype=np.int32)
    sweeps = 0
    while _jump(roots, link):
        sweeps += 1
    assert link.tolist() == [7] * 8 + [8]
    assert sweeps <= 3



def test_one_round_joins_a_path_of_links_as_long_as_the_input() -> None:
    # Gaps that grow along a line: every point's nearest point is the one before it, so
    # the first round's links form one path through all the points.
    x = np.cumsum(1.0 + np.arange(2000) * 1e-3)[:, None]
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    tree = parmst.euclidean_mst(x, solver="boruvka-kdtree/cpu", threads=threads)
    assert tree.stats.rounds == 1
    assert tree.src.tolist() == list(range(1999)) and tree.dst.tolist() == list(range(1, 2000))


def test_identical_points_cost_each_search_a_few_leaves_not_all_of_them() -> None:
    # Counted work, not time: 20,000 identical points in leaves of 16 (1,250 leaves). A
    # search that cannot prune a node of bound equal to its k-th key (0 here) scans every
    # leaf: 1,250 per leaf's neighbour search, 1,250 per point's search under mutual
    # reachability (where the lists answer nothing); pruning on the tie order scans ~23.
    n, leaves = 20_000, 1_250
    x = np.zeros((n, 2))
    for min_samples in (None, 5):
        tree = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", leaf_size=16,
                                    min_samples=min_samples)
        assert tree.src.tolist() == [0] * (n - 1)  # a star at the smallest index
        assert tree.dst.tolist() == list(range(1, n))
        assert 0 < tree.stats.extra["neighbour_leaves"] <= 40 * leaves
        assert tree.stats.extra["query_leaves"] <= 4 * n


def test_copies_of_a_point_skip_their_searches_and_the_tree_stays_exact() -> None:
    # Ten copies of each of 300 points: once the copies join, their lists hold only each
    # other and every later round searches; of a run of equal points in one component
    # only the smallest index searches. Against dense Prim (no tree, no skipping), plain
    # and mutual reachability, leaves that split runs of copies, one and two threads.
    rng = np.random.default_rng(12)
    x = rng.random((300, 2))[rng.permutation(np.repeat(np.arange(300), 10))]
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    for min_samples in (None, 5, 14):
        expected = parmst.euclidean_mst(x, solver="prim-dense/points", min_samples=min_samples)
        for leaf_size, solver, options in ((16, "boruvka-kdtree/serial", {}),
                                           (7, "boruvka-kdtree/cpu", {"threads": threads})):
            tree = parmst.euclidean_mst(x, solver=solver, min_samples=min_samples,
                                        leaf_size=leaf_size, **options)
            np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)
            np.testing.assert_array_equal(tree.weight, expected.weight)
