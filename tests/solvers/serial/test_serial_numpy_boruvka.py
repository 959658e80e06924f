import numpy as np
import pytest

import parmst
from parmst.errors import GraphValueError
from parmst.solvers.serial import numpy_boruvka

DTYPES = [np.int32, np.int64, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(4))
def test_same_ids_as_kruskal_on_multigraphs_with_ties_loops_and_isolated_vertices(dtype, seed):
    rng = np.random.default_rng(seed)
    n, m = 60, 200
    src, dst = rng.integers(0, n - 5, m), rng.integers(0, n - 5, m)  # 5 isolated vertices
    src[:10] = dst[:10]  # self-loops
    src[10:20], dst[10:20] = dst[20:30], src[20:30]  # mirrored duplicates
    weight = rng.integers(-3, 4, m).astype(dtype)  # few values: many ties
    g = parmst.Graph.from_edges(src, dst, weight, num_vertices=n)
    expected = parmst.minimum_spanning_forest(g, "kruskal/serial").edge_ids
    stats = parmst.Stats()
    ours = numpy_boruvka.solve(g, stats)
    assert np.array_equal(np.sort(ours), expected) and len(np.unique(ours)) == len(ours)
    assert stats.rounds == len(stats.worklist_sizes) >= 1


def test_unweighted_empty_and_single_vertex_graphs():
    unweighted = parmst.Graph.from_edges([0, 1, 0, 2, 3], [1, 2, 2, 0, 4], [1, 1, 1, 1, 1])
    assert sorted(numpy_boruvka.solve(unweighted, parmst.Stats()).tolist()) == [0, 1, 4]
    for g in (parmst.Graph.from_edges([], [], [], num_vertices=3),
              parmst.Graph.from_edges([0], [0], [1.0], num_vertices=1)):
        assert numpy_boruvka.solve(g, parmst.Stats()).tolist() == []


def test_infinite_and_negative_zero_weights_follow_the_tie_rule():
    g = parmst.Graph.from_edges([0, 0, 1, 1], [1, 1, 2, 2], [np.inf, -0.0, 0.0, -np.inf])
    assert sorted(numpy_boruvka.solve(g, parmst.Stats()).tolist()) == [1, 3]


def test_a_path_of_equal_weights_needs_the_mutual_pairs_broken():
    # Every vertex's lightest edge is shared with a neighbour: only pairs may point at
    # each other, and a long path is joined in a few rounds without a cycle.
    n = 1000
    g = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.ones(n - 1))
    stats = parmst.Stats()
    ours = numpy_boruvka.solve(g, stats)
    assert np.array_equal(np.sort(ours), np.arange(n - 1)) and stats.rounds <= 11


def test_nan_is_refused_before_the_solver_and_left_out_on_request():
    g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, np.nan], allow_nan=True)
    with pytest.raises(GraphValueError, match="edge 1 has a NaN weight"):
        parmst.minimum_spanning_forest(g, "boruvka-numpy/serial")
    f = parmst.minimum_spanning_forest(g, "boruvka-numpy/serial", ignore_nan=True)
    assert f.edge_ids.tolist() == [0]
