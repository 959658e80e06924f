"""parmst.euclidean_mst: input checks, options, the Forest it returns, "auto" selection."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.errors import PointsValueError, UnknownOptionError, UnknownSolverError
from points.reference import brute_tree


@pytest.mark.parametrize(("points", "message"), [
    ([[0.0, np.nan], [1.0, 2.0]], "point 0 has a NaN coordinate (column 1)"),
    ([[0.0, 1.0], [np.inf, 2.0]], "point 1 has a infinite coordinate (column 0)"),
    ([[0.0, 1.0], [2.0]], "not a rectangular array"),
    (np.zeros((0, 2)), "at least 2 points, got 0"),
    (np.zeros((1, 3)), "at least 2 points, got 1"),
    (np.zeros((4, 0)), "no coordinates"),
    (np.arange(5.0), "2-D array of shape (n, d), got 1 dimension(s)"),
    (np.zeros((2, 2, 2)), "got 3 dimension(s)"),
    (np.array([["a", "b"], ["c", "d"]]), "float or integer coordinates, got dtype <U1"),
    (np.ones((3, 2), dtype=bool), "got dtype bool"),
    (np.ones((3, 2), dtype=complex), "got dtype complex128"),
])
def test_bad_points_get_one_clear_error(points, message: str) -> None:
    with pytest.raises(PointsValueError) as info:
        parmst.euclidean_mst(points)
    assert message in str(info.value)


@pytest.mark.parametrize(("options", "message"), [
    ({"min_samples": 0}, "between 1 and the number of points (5), got 0"),
    ({"min_samples": 6}, "got 6"),
    ({"min_samples": 2.5}, "must be an integer"),
    ({"min_samples": True}, "must be an integer"),
    ({"leaf_size": 0}, "leaf_size must be a positive integer"),
    ({"leaf_size": 2.0}, "leaf_size must be a positive integer"),
    ({"device": "cuda"}, "device must be a CUDA device number"),
])
def test_bad_options_get_one_clear_error(options: dict, message: str) -> None:
    with pytest.raises(PointsValueError) as info:
        parmst.euclidean_mst(np.random.default_rng(0).random((5, 2)), **options)
    assert message in str(info.value)


class _DeviceArray:
    """A GPU array as far as the point-set front door can tell (no memory behind it)."""

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": (3, 2), "typestr": "<f8", "version": 3}


def test_a_gpu_array_is_refused_by_host_solvers() -> None:
    with pytest.raises(PointsValueError, match="runs on the host: pass solver='auto' or "
                                               "'boruvka-bvh/gpu'"):
        parmst.euclidean_mst(_DeviceArray(), solver="boruvka-kdtree/cpu")


@pytest.mark.skipif(registry.get("boruvka-bvh/gpu").can_run() is True,
                    reason="the GPU point solver can run here: tests/solvers/gpu/points_cases.py "
                           "solves GPU arrays")
def test_a_gpu_array_without_a_gpu_says_why_the_gpu_solver_cannot_run() -> None:
    with pytest.raises(parmst.SolverUnavailable, match="boruvka-bvh/gpu' cannot run here"):
        parmst.euclidean_mst(_DeviceArray())


def test_solver_names_are_checked() -> None:
    x = np.random.default_rng(0).random((5, 2))
    with pytest.raises(UnknownSolverError, match="boruvka-kdtree/serial"):
        parmst.euclidean_mst(x, solver="kruskal/serial")
    with pytest.raises(UnknownSolverError):
        parmst.euclidean_mst(x, solver="no-such/solver")
    with pytest.raises(UnknownOptionError, match="leaf_size"):
        parmst.euclidean_mst(x, solver="prim-dense/points", leaf_size=8)
    with pytest.raises(UnknownOptionError, match="threads"):
        parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", threads=2)
    with pytest.raises(parmst.SolverUnavailable, match="point sets"):
        parmst.minimum_spanning_forest(parmst.Graph.from_edges([0], [1], [1.0]),
                                       solver="prim-dense/points")


def test_solver_options_pass_through_and_are_checked() -> None:
    """Options beyond the named parameters go to the solver, which must take them."""
    x = np.random.default_rng(0).random((5, 2))
    with pytest.raises(UnknownOptionError, match="neighbours"):
        parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", neighbours=0)
    with pytest.raises(UnknownOptionError, match="no_such_option"):
        parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", no_such_option=1)


def test_the_forest_follows_the_contract() -> None:
    x = np.array([[0, 0], [3, 4], [0, 1], [3, 5]], dtype=np.int32)  # integers are accepted
    tree = parmst.euclidean_mst(x, solver="prim-dense/points")
    n = len(x)
    assert tree.num_vertices == n and tree.num_components == 1 and len(tree) == n - 1
    assert tree.edge_ids.dtype == np.int64 and tree.weight.dtype == np.float64
    assert (np.diff(tree.edge_ids) > 0).all() and (tree.src < tree.dst).all()
    i, j = tree.src, tree.dst
    np.testing.assert_array_equal(tree.edge_ids, i * n - i * (i + 1) // 2 + (j - i - 1))
    assert sorted(zip(i.tolist(), j.tolist())) == [(0, 2), (1, 2), (1, 3)]
    assert tree.weight.tolist() == [1.0, np.sqrt(18.0), 1.0]
    assert tree.total_weight == 2.0 + np.sqrt(18.0)
    assert tree.solver == "prim-dense/points" and tree.stats.compute_time >= 0


def test_the_callers_points_are_not_modified() -> None:
    x = np.asfortranarray(np.random.default_rng(3).random((300, 3)).astype(np.float32))
    before = x.copy()
    parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", leaf_size=np.int64(4))
    np.testing.assert_array_equal(x, before)


def test_ties_go_to_the_smaller_pair() -> None:
    # A square: four sides of length 1; the tree keeps the three sides of smallest ids.
    x = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    for solver in registry.solvers("points"):
        if registry.get(solver).can_run(x) is not True:  # the GPU solver without a GPU
            continue
        tree = parmst.euclidean_mst(x, solver=solver)
        assert list(zip(tree.src.tolist(), tree.dst.tolist())) == [(0, 1), (0, 3), (1, 2)]


def test_min_samples_one_is_the_euclidean_tree() -> None:
    x = np.random.default_rng(4).random((200, 2))
    plain = parmst.euclidean_mst(x)
    np.testing.assert_array_equal(parmst.euclidean_mst(x, min_samples=1).edge_ids,
                                  plain.edge_ids)
    np.testing.assert_array_equal(plain.edge_ids, brute_tree(x))


def test_auto_picks_by_the_documented_rules() -> None:
    assert registry.explain_points(500, 2)[0].name == "prim-dense/points"
    assert registry.explain_points(20_000, 16)[0].name == "prim-dense/points"
    assert registry.explain_points(10**6, 16)[0].name != "prim-dense/points"
    big = registry.explain_points(10**6, 3)[0].name
    assert big == ("boruvka-kdtree/cpu" if registry.cpu_count() > 1 else "boruvka-kdtree/serial")
    # Options steer "auto" to the solvers that take them.
    assert registry.explain_points(500, 2, {"threads": 1})[0].name == "boruvka-kdtree/cpu"
    assert registry.explain_points(500, 2, {"leaf_size": 8})[0].backend in ("cpu", "serial")
    x = np.random.default_rng(0).random((50, 2))
    assert parmst.euclidean_mst(x, threads=1).solver == "boruvka-kdtree/cpu"


def test_point_solvers_are_listed_apart_from_graph_solvers() -> None:
    points = registry.solvers("points")
    assert set(points) == {"prim-dense/points", "boruvka-kdtree/serial", "boruvka-kdtree/cpu",
                           "boruvka-bvh/gpu"}
    assert registry.get("boruvka-bvh/gpu").backend == "gpu"
    assert not set(points) & set(registry.solvers())
    assert registry.get("prim-dense/points").backend == "serial"
