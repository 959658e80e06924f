"""The k-d tree: its shape, and its queries against brute force under the (key, id) order."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from parmst.kernels import kdtree, kdtree_build
from parmst.kernels.distance import pair_id
from parmst.kernels.kdtree import (
    NO_POINT,
    STACK_SIZE,
    leaf_component,
    nearest_k_all,
    nearest_k_point,
    nearest_outside,
    node_components,
    node_minima,
)
from parmst.kernels.kdtree_build import build


def _points() -> np.ndarray:
    rng = np.random.default_rng(1)
    x = rng.integers(0, 6, (300, 3)).astype(np.float64)  # a small lattice: many ties
    return np.concatenate([x, x[:40]])  # and duplicates


@pytest.mark.parametrize("leaf_size", [1, 5, 32, 1000])
def test_the_tree_holds_every_point_once_in_tight_boxes(leaf_size: int) -> None:
    x = _points()
    tree = build(x, leaf_size)
    assert sorted(tree.order.tolist()) == list(range(len(x)))
    np.testing.assert_array_equal(tree.points, x[tree.order])
    sizes = tree.end[tree.first_leaf:] - tree.start[tree.first_leaf:]
    assert sizes.min() >= 1 and sizes.max() <= max(leaf_size, 2) and sizes.sum() == len(x)
    for v in range(tree.num_nodes):
        inside = tree.points[tree.start[v]:tree.end[v]]
        np.testing.assert_array_equal(tree.lo[v], inside.min(axis=0))
        np.testing.assert_array_equal(tree.hi[v], inside.max(axis=0))


def test_k_nearest_lists_follow_distance_then_index() -> None:
    x = _points()
    tree = build(x, 4)
    near, near_key = nearest_k_all(tree, 6)
    for t in range(len(x)):
        q = tree.order[t]
        d2 = ((x - x[q]) ** 2).sum(axis=1)
        others = np.array([p for p in np.lexsort((np.arange(len(x)), d2)) if p != q])[:6]
        assert tree.order[near[t]].tolist() == others.tolist()
        np.testing.assert_array_equal(near_key[t], d2[others])


@pytest.mark.parametrize("leaf_size", [1, 4, 64])
def test_the_per_point_search_lists_what_the_per_leaf_search_lists(leaf_size: int) -> None:
    x = _points()
    tree = build(x, leaf_size)
    near, near_key = nearest_k_all(tree, 5)
    row, row_key = np.empty_like(near), np.empty_like(near_key)
    stack, stack_bound = np.empty(STACK_SIZE, dtype=np.int64), np.empty(STACK_SIZE)
    for q in range(len(x)):
        nearest_k_point(tree.points, tree.order, tree.start, tree.end, tree.lo, tree.hi,
                        tree.min_index, tree.first_leaf, q, row, row_key, stack, stack_bound)
    np.testing.assert_array_equal(row, near)
    np.testing.assert_array_equal(row_key, near_key)


def test_a_leaf_has_a_component_only_when_its_points_share_one() -> None:
    tree = build(np.arange(8.0).reshape(8, 1), 2)
    comp = np.array([0, 0, 0, 5, 5, 5, 5, 5])
    labels = [leaf_component(comp, tree.start, tree.end, v)
              for v in range(tree.first_leaf, tree.num_nodes)]
    assert labels == [0, -1, 5, 5]


def test_nearest_outside_is_the_lightest_pair_to_another_component() -> None:
    x = _points()
    n = len(x)
    tree = build(x, 4)
    comp = (np.arange(n) * 7 % 5).astype(np.int64)  # five scattered components
    node_comp = np.empty(tree.num_nodes, dtype=np.int64)
    node_components(comp, tree.start, tree.end, tree.first_leaf, node_comp)
    core2 = np.random.default_rng(2).integers(0, 3, n).astype(np.float64)  # mutual reach.
    node_core = node_minima(core2, tree.start, tree.end, tree.first_leaf)
    stack = np.empty(STACK_SIZE, dtype=np.int64)
    stack_bound = np.empty(STACK_SIZE)
    pts, order = tree.points, tree.order
    for q in range(n):
        outside = np.flatnonzero(comp != comp[q])
        keys = np.maximum(np.maximum(core2[q], core2[outside]),
                          ((pts[outside] - pts[q]) ** 2).sum(axis=1))
        ids = np.array([pair_id(order[q], order[p], n) for p in outside])
        best = outside[np.lexsort((ids, keys))[0]]
        p, key, _ = nearest_outside(pts, order, tree.start, tree.end, tree.lo, tree.hi,
                                    tree.min_index, tree.first_leaf, comp, node_comp, core2,
                                    node_core, q, np.inf, stack, stack_bound)
        assert (p, key) == (best, keys.min())
        # Under a bound below the answer nothing is found.
        found, _, _ = nearest_outside(pts, order, tree.start, tree.end, tree.lo, tree.hi,
                                      tree.min_index, tree.first_leaf, comp, node_comp, core2,
                                      node_core, q, keys.min() - 0.5, stack, stack_bound)
        assert found == NO_POINT


def _split_everywhere(tree, d: int) -> bool:
    """Whether every inner node's children are separated along some coordinate."""
    for v in range(tree.first_leaf):
        left = tree.points[tree.start[2 * v + 1]:tree.end[2 * v + 1]]
        right = tree.points[tree.start[2 * v + 2]:tree.end[2 * v + 2]]
        if not any(left[:, k].max() <= right[:, k].min() for k in range(d)):
            return False
    return True


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two Numba threads")
def test_top_levels_split_by_parallel_passes_give_a_tree_with_the_same_lists(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Nodes of 16 points and more split by the parallel passes (the top level on two
    # threads): lattice points, duplicates and uniform points.
    monkeypatch.setattr(kdtree_build, "_WIDE_RANGE", 16)
    rng = np.random.default_rng(3)
    before = numba.get_num_threads()
    for x in (_points(), rng.random((3000, 2))):
        trees = []
        try:
            for threads in (1, 2):
                numba.set_num_threads(threads)
                trees.append(build(x, 4))
        finally:
            numba.set_num_threads(before)
        for tree in trees:
            assert sorted(tree.order.tolist()) == list(range(len(x)))
            np.testing.assert_array_equal(tree.points, x[tree.order])
            assert _split_everywhere(tree, x.shape[1])
        lists = []
        for tree in trees:
            near, near_key = nearest_k_all(tree, 5)
            by_input = np.argsort(tree.order)
            lists.append((tree.order[near][by_input], near_key[by_input]))
        np.testing.assert_array_equal(lists[0][0], lists[1][0])
        np.testing.assert_array_equal(lists[0][1], lists[1][1])


@pytest.mark.parametrize("below, above", [(0.1, 0.2), (0.4, 0.6), (0.8, 0.9)])
def test_a_parallel_split_finds_the_middle_whichever_run_holds_it(below: float,
                                                                  above: float) -> None:
    # Pivots that miss the median on either side (a sample far off), or bracket it.
    x = np.random.default_rng(4).random((1001, 2))
    points, index = x.copy(), np.arange(len(x))
    into, into_index = np.empty_like(points), np.empty_like(index)
    second, third = kdtree_build._partition_wide(points, index, into, into_index, 0, len(x), 0,
                                           below, above)
    kdtree_build._select_in_run(into, into_index, 0, second, third, len(x), 500, 0)
    np.testing.assert_array_equal(into, x[into_index])
    assert into[:500, 0].max() <= into[500, 0] <= into[501:, 0].min()


def test_levels_of_many_nodes_fill_their_boxes_minima_and_labels_in_parallel() -> None:
    rng = np.random.default_rng(6)
    tree = build(rng.random((20000, 2)), 2)
    assert tree.first_leaf > kdtree.SERIAL_NODES  # some levels take the parallel loop
    v = np.arange(tree.first_leaf)
    np.testing.assert_array_equal(tree.lo[v], np.minimum(tree.lo[2 * v + 1], tree.lo[2 * v + 2]))
    np.testing.assert_array_equal(tree.hi[v], np.maximum(tree.hi[2 * v + 1], tree.hi[2 * v + 2]))
    values = rng.random(len(tree.order))
    minima = node_minima(values, tree.start, tree.end, tree.first_leaf)
    comp = (np.arange(len(tree.order)) // 64).astype(np.int32)  # runs of tree positions
    node_comp = np.empty(tree.num_nodes, dtype=np.int32)
    node_components(comp, tree.start, tree.end, tree.first_leaf, node_comp)
    for u in range(tree.num_nodes):
        a, z = tree.start[u], tree.end[u]
        assert minima[u] == values[a:z].min()
        assert node_comp[u] == (comp[a] if comp[a] == comp[z - 1] else -1)


def test_for_one_point_the_pair_id_grows_with_the_other_points_index() -> None:
    # The tie rule of the searches: among candidates of equal key, the smaller index wins.
    n = 40
    for q in range(n):
        ids = [pair_id(q, j, n) for j in range(n) if j != q]
        assert ids == sorted(ids) and len(set(ids)) == n - 1


def _heavy_ties() -> dict[str, np.ndarray]:
    """All identical, few distinct values repeated, lattices, float32 values: 1-4 D."""
    rng = np.random.default_rng(8)
    axes = np.meshgrid(*[np.arange(3.0)] * 4, indexing="ij")
    return {
        "identical-2d": np.full((150, 2), 0.25),
        "few-values-1d": rng.integers(0, 4, (200, 1)).astype(np.float64),
        "lattice-4d": np.stack([a.ravel() for a in axes], axis=1)[rng.permutation(81)],
        "float32-3d": rng.integers(0, 3, (180, 3)).astype(np.float32).astype(np.float64) / 3,
    }


@pytest.mark.parametrize("name", list(_heavy_ties()))
def test_searches_among_equal_keys_give_the_smallest_indices(name: str) -> None:
    x = _heavy_ties()[name]
    n = len(x)
    tree = build(x, 4)
    order = tree.order
    for v in range(tree.num_nodes):
        assert tree.min_index[v] == order[tree.start[v]:tree.end[v]].min()
    near, near_key = nearest_k_all(tree, 6)
    row, row_key = np.empty_like(near), np.empty_like(near_key)
    stack, stack_bound = np.empty(STACK_SIZE, dtype=np.int64), np.empty(STACK_SIZE)
    d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=2)
    for t in range(n):
        q = order[t]
        others = np.array([p for p in np.lexsort((np.arange(n), d2[q])) if p != q])[:6]
        assert order[near[t]].tolist() == others.tolist()
        nearest_k_point(tree.points, order, tree.start, tree.end, tree.lo, tree.hi,
                        tree.min_index, tree.first_leaf, t, row, row_key, stack, stack_bound)
    np.testing.assert_array_equal(row, near)
    np.testing.assert_array_equal(row_key, near_key)
    # Nearest outside, plain and under mutual reachability (core distances of the 3rd
    # nearest: whole regions tie at the core distance).
    comp = (np.arange(n) * 7 % 3).astype(np.int64)  # tree positions in three components
    node_comp = np.empty(tree.num_nodes, dtype=np.int64)
    node_components(comp, tree.start, tree.end, tree.first_leaf, node_comp)
    for core2 in (np.zeros(n), near_key[:, 2].copy()):
        node_core = node_minima(core2, tree.start, tree.end, tree.first_leaf)
        for t in range(n):
            outside = np.flatnonzero(comp != comp[t])
            keys = np.maximum(np.maximum(core2[t], core2[outside]), d2[order[t], order[outside]])
            best = outside[np.lexsort((order[outside], keys))[0]]
            p, key, _ = nearest_outside(tree.points, order, tree.start, tree.end, tree.lo,
                                        tree.hi, tree.min_index, tree.first_leaf, comp,
                                        node_comp, core2, node_core, t, np.inf, stack,
                                        stack_bound)
            assert (p, key) == (best, keys.min())
