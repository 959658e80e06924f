"""Forest.to_linkage against SciPy's single linkage."""

import numpy as np
import pytest

import parmst
from parmst.errors import GraphValueError

hierarchy = pytest.importorskip("scipy.cluster.hierarchy", reason="SciPy is the reference")
distance = pytest.importorskip("scipy.spatial.distance", reason="SciPy is the reference")


def _complete_graph_tree(points):
    """The minimum spanning tree of the points' complete graph, edge ids in pair order
    (pdist's order: the pair (i, j), i < j, is edge i*n - i*(i+1)/2 + j-i-1)."""
    n = len(points)
    i, j = np.triu_indices(n, k=1)
    graph = parmst.Graph.from_edges(i, j, distance.pdist(points), num_vertices=n)
    return parmst.minimum_spanning_forest(graph, solver="kruskal/serial")


def _same_partition(a, b):
    """Two flat clusterings group the points alike (their labels may be numbered apart)."""
    pairs = set(zip(a.tolist(), b.tolist()))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def test_rows_equal_scipys_where_heights_are_distinct():
    points = np.random.default_rng(3).random((150, 3))
    ours = _complete_graph_tree(points).to_linkage()
    theirs = hierarchy.linkage(points, "single")
    assert ours.dtype == np.float64 and ours.shape == (149, 4)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("points", [
    np.array([(x, y) for x in range(9) for y in range(7)], dtype=np.float64),  # a grid: ties
    np.repeat(np.random.default_rng(4).random((20, 2)), 3, axis=0),  # each point three times
], ids=["lattice", "duplicates"])
def test_equal_heights_give_scipys_clusters(points):
    ours = _complete_graph_tree(points).to_linkage()
    theirs = hierarchy.linkage(points, "single")
    assert hierarchy.is_valid_linkage(ours)
    np.testing.assert_array_equal(np.sort(ours[:, 2]), np.sort(theirs[:, 2]))
    np.testing.assert_allclose(hierarchy.cophenet(ours), hierarchy.cophenet(theirs))
    for t in np.unique(theirs[:, 2]):
        assert _same_partition(hierarchy.fcluster(ours, t, "distance"),
                               hierarchy.fcluster(theirs, t, "distance"))
    for k in (2, 5, 11):
        assert _same_partition(hierarchy.fcluster(ours, k, "maxclust"),
                               hierarchy.fcluster(theirs, k, "maxclust"))


def test_equal_heights_merge_in_edge_id_order():
    # Edges 0 (0-1) and 1 (2-3) have equal weight: edge 0 merges first, as cluster 4.
    g = parmst.Graph.from_edges([2, 0, 1], [3, 1, 2], [1.0, 1.0, 5.0])
    rows = parmst.minimum_spanning_forest(g).to_linkage()
    assert rows.tolist() == [[2.0, 3.0, 1.0, 2.0], [0.0, 1.0, 1.0, 2.0], [4.0, 5.0, 5.0, 4.0]]


def test_integer_weights_and_one_point():
    g = parmst.Graph.from_edges([0], [1], [7], num_vertices=2)
    assert parmst.minimum_spanning_forest(g).to_linkage().tolist() == [[0.0, 1.0, 7.0, 2.0]]
    single = parmst.Graph.from_edges([], [], [], num_vertices=1)
    assert parmst.minimum_spanning_forest(single).to_linkage().shape == (0, 4)


@pytest.mark.parametrize(("src", "dst", "weight", "n", "message"), [
    ([0], [1], [1.0], 4, "one tree over all 4 points, and this forest has 3 trees"),
    ([0, 1], [1, 2], [1.0, -2.0], 3, "edge 1 has weight -2.0"),
    ([], [], [], 0, "at least one point"),
])
def test_what_scipys_format_cannot_hold_is_one_clear_error(src, dst, weight, n, message):
    g = parmst.Graph.from_edges(src, dst, np.array(weight, dtype=np.float64), num_vertices=n)
    with pytest.raises(GraphValueError, match=message):
        parmst.minimum_spanning_forest(g).to_linkage()


def test_a_cycle_is_refused():
    from parmst._linkage import single_linkage

    with pytest.raises(GraphValueError, match="edge 2 closes a cycle"):
        single_linkage(np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1.0, 2.0, 3.0]),
                       np.array([0, 1, 2]), 4)
