"""Filter-Kruskal's pieces: partition, filter, explicit-stack recursion, options."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import parmst
from parmst.order import edge_keys
from parmst.solvers.serial import filter_kruskal


def _random_graph(n, m, seed, dtype=np.float64, distinct=8):
    rng = np.random.default_rng(seed)
    weight = rng.integers(0, distinct, m).astype(dtype)
    return parmst.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), weight, n)


def test_stable_partition_splits_around_pivot_and_keeps_order():
    keys = np.array([5, 1, 5, 3, 9, 5, 0], dtype=np.uint64)
    ids = np.arange(7, dtype=np.int64)
    spare_keys, spare_ids = np.empty_like(keys), np.empty_like(ids)
    mid = filter_kruskal._stable_partition(keys, ids, 0, 7, np.uint64(5), 2, spare_keys, spare_ids)
    assert mid == 5
    assert ids.tolist() == [0, 1, 2, 3, 6, 4, 5]
    assert keys.tolist() == [5, 1, 5, 3, 0, 9, 5]


@pytest.mark.parametrize("base_case", [2, 3, 17])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_small_base_case_recurses_and_matches_kruskal(base_case, dtype):
    graph = _random_graph(60, 400, seed=base_case, dtype=dtype)
    expected = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver="filter-kruskal/serial",
                                            base_case=base_case)
    np.testing.assert_array_equal(forest.edge_ids, expected)
    assert forest.stats.extra["partitions"] > 0
    assert forest.stats.extra["filtered_edges"] > 0
    assert forest.stats.rounds > forest.stats.extra["partitions"]


@given(st.integers(0, 2**32), st.integers(2, 12))
def test_any_base_case_gives_kruskal_ids(seed, base_case):
    graph = _random_graph(25, 120, seed, dtype=np.int64, distinct=3)
    expected = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver="filter-kruskal/serial",
                                            base_case=base_case)
    np.testing.assert_array_equal(forest.edge_ids, expected)


def test_large_base_case_is_plain_kruskal():
    graph = _random_graph(30, 100, seed=1)
    forest = parmst.minimum_spanning_forest(graph, solver="filter-kruskal/serial")
    assert forest.stats.extra == {"partitions": 0, "filtered_edges": 0}
    assert forest.stats.rounds == 1


@pytest.mark.parametrize("bad", [1, 0, -5, 2.5])
def test_base_case_below_two_is_rejected(bad):
    graph = _random_graph(5, 10, seed=0)
    with pytest.raises(ValueError, match="base_case"):
        parmst.minimum_spanning_forest(graph, solver="filter-kruskal/serial", base_case=bad)


@pytest.mark.parametrize("weight, packed", [
    (np.array([3, -1, 3, 0, -1, 7], dtype=np.int32), True),
    (np.array([3, -1, 3, 0, -1, 7], dtype=np.int64), True),
    (np.array([3.5, -1e300, 3.5, 0.0, -1e300, 1e300]), False),
])
def test_filter_kruskal_takes_packed_and_two_pass_keys(weight, packed):
    assert edge_keys(weight).packed is packed
    graph = parmst.Graph.from_edges([0, 1, 2, 3, 0, 1], [1, 2, 3, 0, 2, 3], weight)
    expected = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver="filter-kruskal/serial", base_case=2)
    np.testing.assert_array_equal(forest.edge_ids, expected)
