"""Point-set trees against other libraries: the Delaunay route (SciPy), scikit-learn's and
fast_hdbscan's mutual-reachability trees, mlpack's EMST. Each peer is optional."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from points.reference import squared


def _delaunay_tree(x: np.ndarray) -> np.ndarray:
    """Sorted pair ids of the tree of the Delaunay edges under (d2, i, j): the Euclidean
    tree is a subgraph of the Delaunay triangulation (Shamos and Hoey, FOCS 1975)."""
    spatial = pytest.importorskip("scipy.spatial", reason="SciPy is an optional peer")
    simplices = spatial.Delaunay(x).simplices
    k = simplices.shape[1]
    i = np.concatenate([simplices[:, a] for a in range(k) for b in range(a + 1, k)])
    j = np.concatenate([simplices[:, b] for a in range(k) for b in range(a + 1, k)])
    pairs = np.unique(np.stack([np.minimum(i, j), np.maximum(i, j)], axis=1).astype(np.int64),
                      axis=0)  # sorted by (i, j): positions ascend with pair ids
    first, second = pairs[:, 0], pairs[:, 1]
    n = len(x)
    ids = first * n - first * (first + 1) // 2 + (second - first - 1)
    # kruskal/serial's (weight, position) order is then the (d2, i, j) order.
    graph = parmst.Graph.from_edges(first, second, squared(x, first, second), num_vertices=n)
    return ids[parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "d"), [(100_000, 2), (20_000, 3)])
def test_equal_to_the_delaunay_route(n: int, d: int) -> None:
    x = np.random.default_rng(n + d).random((n, d))
    np.testing.assert_array_equal(parmst.euclidean_mst(x).edge_ids, _delaunay_tree(x))


@pytest.mark.parametrize("min_samples", [2, 5, 10])
def test_mutual_reachability_equals_scikit_learn(min_samples: int) -> None:
    cluster = pytest.importorskip("sklearn.cluster", reason="scikit-learn is an optional peer")
    x = np.concatenate([np.random.default_rng(2).normal(c, 0.05, (300, 2)) for c in (0, 1)])
    fitted = cluster.HDBSCAN(min_samples=min_samples, min_cluster_size=5, copy=True).fit(x)
    heights = np.sort(fitted._single_linkage_tree_["value"])  # its tree's sorted weights
    tree = parmst.euclidean_mst(x, min_samples=min_samples)
    np.testing.assert_allclose(np.sort(tree.weight), heights, rtol=1e-12, atol=0)


def test_mutual_reachability_equals_fast_hdbscan_one_neighbour_on() -> None:
    hdbscan = pytest.importorskip("fast_hdbscan.hdbscan",
                                  reason="fast_hdbscan is an optional peer")
    x = np.random.default_rng(3).random((1000, 2))
    mst, _, _ = hdbscan.compute_minimum_spanning_tree(x, min_samples=4)
    # fast_hdbscan counts neighbours without the point itself: its 4 is our 5. It keeps
    # core distances in float32, hence the tolerance.
    tree = parmst.euclidean_mst(x, min_samples=5)
    np.testing.assert_allclose(np.sort(tree.weight), np.sort(mst[:, 2]), rtol=1e-5)


def test_equal_to_mlpack() -> None:
    mlpack = pytest.importorskip("mlpack", reason="mlpack is an optional peer")
    x = np.random.default_rng(4).random((5000, 3))  # distinct distances: no tie to break
    out = mlpack.emst(input_=x)["output"]
    i = np.minimum(out[:, 0], out[:, 1]).astype(np.int64)
    j = np.maximum(out[:, 0], out[:, 1]).astype(np.int64)
    n = len(x)
    ids = np.sort(i * n - i * (i + 1) // 2 + (j - i - 1))
    np.testing.assert_array_equal(parmst.euclidean_mst(x).edge_ids, ids)
