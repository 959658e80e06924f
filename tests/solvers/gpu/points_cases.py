"""``boruvka-bvh/gpu`` cases that need numba-cuda's simulator or a real GPU.

Not collected by a plain ``pytest`` run: ``test_gpu_simulator.py`` runs this file in a
subprocess with ``NUMBA_ENABLE_CUDASIM=1`` (tiny point sets: every simulated thread is a
Python thread), and on the GPU machine it runs as is, on larger sets. The shared
conformance suite (``tests/conformance/test_points.py``) checks the solver against the
brute-force reference; these cases check it against the CPU solver's pairs, on device
arrays, and on bad input.
"""

from __future__ import annotations

import numpy as np
import pytest
from gpu_cases import CudaArrayInterface

import parmst
from parmst import registry
from parmst._cuda import runtime
from parmst.errors import PointsValueError, SolverUnavailable, UnknownOptionError

SIMULATOR = runtime.simulator_active()
SOLVER = "boruvka-bvh/gpu"
SIZE = 150 if SIMULATOR else 20_000

pytestmark = pytest.mark.skipif(runtime.probe() is not True,
                                reason=f"GPU solvers cannot run: {runtime.probe()}")


def point_sets() -> dict[str, np.ndarray]:
    """Uniform, clustered, duplicated, lattice and identical points: ties everywhere but the
    first (identical points: every search prunes on the tie order, kernels.kdtree)."""
    rng = np.random.default_rng(3)
    side = round(SIZE ** (1 / 3))
    axes = np.meshgrid(*[np.arange(side, dtype=np.float64)] * 3, indexing="ij")
    return {
        "uniform-3d": rng.random((SIZE, 3)),
        "clustered-2d": np.concatenate([rng.normal(c, 0.01, (SIZE // 3, 2))
                                        for c in (0.0, 1.0, 5.0)]),
        "duplicates-4d": rng.random((SIZE // 10, 4))[rng.integers(0, SIZE // 10, SIZE)],
        "lattice-3d": np.stack([a.ravel() for a in axes], axis=1)[
            rng.permutation(side ** 3)],
        "identical-2d": np.full((SIZE, 2), 0.5),
    }


CASES = point_sets()


@pytest.mark.parametrize("name", ["uniform-3d", "clustered-2d", "duplicates-4d", "lattice-3d",
                                  "identical-2d"])
def test_tree_is_a_k_d_tree_of_tight_boxes(name):
    """The device tree holds every point once, each node's box is the tight box of its
    points and its minimum the smallest input index among them. On points that fill
    their box (all but the clusters, whose bins are cut from boxes inherited from far
    larger parents), each inner node's halves are split along one side: they overlap
    there by at most a sixteenth of the node's width (a Morton-ordered or random split
    overlaps along every side)."""
    from numba import cuda

    from parmst.solvers.gpu import _point_tree
    x = CASES[name]
    tree = _point_tree.build(cuda.to_device(x), 8)
    order, points = tree.order.copy_to_host(), tree.points.copy_to_host()
    start, end = tree.start.copy_to_host(), tree.end.copy_to_host()
    lo, hi = tree.lo.copy_to_host(), tree.hi.copy_to_host()
    assert sorted(order.tolist()) == list(range(len(x)))
    np.testing.assert_array_equal(points, x[order])
    assert (end[tree.first_leaf:] > start[tree.first_leaf:]).all()
    np.testing.assert_array_equal(tree.min_index.copy_to_host(),
                                  [order[s:e].min() for s, e in zip(start, end)])
    for v in range(tree.num_nodes):
        np.testing.assert_array_equal(lo[v], points[start[v]:end[v]].min(axis=0))
        np.testing.assert_array_equal(hi[v], points[start[v]:end[v]].max(axis=0))
    for v in range(tree.first_leaf if name != "clustered-2d" else 0):
        a, b = 2 * v + 1, 2 * v + 2
        overlap = np.minimum(hi[a], hi[b]) - np.maximum(lo[a], lo[b])
        assert (overlap <= (hi[v] - lo[v]) / 16).any(), (v, overlap, hi[v] - lo[v])


@pytest.mark.parametrize("min_samples", [None, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_pairs_equal_the_cpu_solvers(name, min_samples):
    x = CASES[name]
    gpu = parmst.euclidean_mst(x, solver=SOLVER, min_samples=min_samples)
    cpu = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", min_samples=min_samples)
    np.testing.assert_array_equal(gpu.edge_ids, cpu.edge_ids)
    np.testing.assert_array_equal(gpu.weight, cpu.weight)
    assert gpu.solver == SOLVER and gpu.stats.rounds >= 1


@pytest.mark.parametrize("options", [{"leaf_size": 1}, {"leaf_size": 200},
                                     {"device": 0}, {"neighbours": 0},
                                     {"pair_sort": "radix", "seed_bounds": False},
                                     {"walk": "thread"}])
def test_options_do_not_change_the_tree(options):
    """Mutual reachability: ``neighbours`` does not apply (the core distances' lists)."""
    x = CASES["lattice-3d"]
    expected = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", min_samples=3)
    tree = parmst.euclidean_mst(x, solver=SOLVER, min_samples=3, **options)
    np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)


@pytest.mark.parametrize("name, options", [
    ("uniform-3d", {"neighbours": 0}),
    ("duplicates-4d", {"neighbours": 2}),
    ("clustered-2d", {"neighbours": 0, "seed_bounds": False}),
    ("lattice-3d", {"neighbours": 0, "walk": "thread"}),
    ("duplicates-4d", {"neighbours": 3, "walk": "thread"}),
])
def test_neighbour_list_lengths_do_not_change_the_tree(name, options):
    """No lists (every point searches in the first round), lists of two or three, no bounds
    from consecutive tree positions, and each thread walking the tree alone."""
    x = CASES[name]
    tree = parmst.euclidean_mst(x, solver=SOLVER, **options)
    expected = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial")
    np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)
    np.testing.assert_array_equal(tree.weight, expected.weight)
    assert (tree.stats.worklist_sizes[0] == len(x)) == (options["neighbours"] == 0)


@pytest.mark.parametrize("pair_sort, copies", [("counting", 1), ("counting", 80),
                                               ("radix", 1)])
def test_pairs_come_back_in_id_order(pair_sort, copies):
    """The solver's own output, before the Forest (which would put it in order): grouped by
    first index, or sorted by id, also where 80 copies of a point make it the first index
    of 79 pairs (a group too long for one thread: the radix sort takes over)."""
    x = CASES["uniform-3d"].copy()
    x[:copies] = x[0]
    _, (first, second, key), _ = registry.run_points(SOLVER, x, pair_sort=pair_sort)
    n = len(x)
    ids = first * n - first * (first + 1) // 2 + (second - first - 1)
    assert np.all(np.diff(ids) > 0)
    assert np.count_nonzero(first == 0) >= copies - 1  # the long group is there
    expected = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial")
    np.testing.assert_array_equal(ids, expected.edge_ids)
    np.testing.assert_array_equal(np.sqrt(key), expected.weight)


@pytest.mark.parametrize("options, message", [
    ({"neighbours": -1}, "neighbours must be an integer >= 0, got -1"),
    ({"neighbours": True}, "neighbours must be an integer >= 0, got True"),
    ({"neighbours": 2.0}, r"neighbours must be an integer >= 0, got 2\.0"),
    ({"pair_sort": "host"}, "pair_sort must be one of counting, radix, got 'host'"),
    ({"seed_bounds": 1}, "seed_bounds must be True or False, got 1"),
    ({"walk": "block"}, "walk must be one of warp, thread, got 'block'"),
])
def test_bad_options_name_their_value(options, message):
    with pytest.raises(PointsValueError, match=message):
        parmst.euclidean_mst(CASES["uniform-3d"], solver=SOLVER, **options)


def test_float32_points_are_their_float64_values():
    x = CASES["uniform-3d"].astype(np.float32)
    tree = parmst.euclidean_mst(x, solver=SOLVER)
    expected = parmst.euclidean_mst(x.astype(np.float64), solver="boruvka-kdtree/serial")
    np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_device_arrays_stay_on_the_device_and_go_to_the_gpu_solver(dtype):
    x = np.round(CASES["clustered-2d"] * 1000).astype(dtype)
    expected = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial")
    for device_points in (CudaArrayInterface(x), _numba_array(x),
                          CudaArrayInterface(np.asfortranarray(x))):
        tree = parmst.euclidean_mst(device_points)
        assert tree.solver == SOLVER
        np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    x = CASES["uniform-3d"]
    tree = parmst.euclidean_mst(cupy.asarray(x), min_samples=5)
    expected = parmst.euclidean_mst(x, solver="boruvka-kdtree/serial", min_samples=5)
    assert tree.solver == SOLVER
    np.testing.assert_array_equal(tree.edge_ids, expected.edge_ids)


def _numba_array(x: np.ndarray):
    from numba import cuda

    return cuda.to_device(np.ascontiguousarray(x))


@pytest.mark.parametrize("value, what", [(np.nan, "NaN"), (np.inf, "infinite"),
                                         (-np.inf, "infinite")])
def test_bad_coordinates_on_the_device_name_their_place(value, what):
    x = CASES["uniform-3d"].copy()
    x[7, 2] = value
    x[9, 0] = np.nan
    with pytest.raises(PointsValueError, match=fr"^point 7 has a {what} coordinate \(column 2\)$"):
        parmst.euclidean_mst(CudaArrayInterface(x))


@pytest.mark.parametrize("shape, message", [
    ((5,), r"2-D array of shape \(n, d\), got 1 dimension"),
    ((1, 3), "at least 2 points, got 1"),
    ((4, 0), "no coordinates"),
])
def test_bad_shapes_on_the_device(shape, message):
    with pytest.raises(PointsValueError, match=message):
        parmst.euclidean_mst(CudaArrayInterface(np.zeros(shape)))


def test_device_arrays_refuse_host_solvers_and_bad_options():
    points = CudaArrayInterface(CASES["uniform-3d"])
    with pytest.raises(PointsValueError, match="boruvka-kdtree/cpu' runs on the host"):
        parmst.euclidean_mst(points, solver="boruvka-kdtree/cpu")
    with pytest.raises(UnknownOptionError, match="threads"):
        parmst.euclidean_mst(points, threads=2)
    for device in (-1, True, "0"):
        with pytest.raises(PointsValueError, match="CUDA device number"):
            parmst.euclidean_mst(CASES["uniform-3d"], device=device)
    with pytest.raises(UnknownOptionError, match="device"):
        parmst.euclidean_mst(CASES["uniform-3d"], solver="boruvka-kdtree/serial", device=0)


@pytest.mark.skipif(not SIMULATOR, reason="the simulator's size limit")
def test_the_simulator_refuses_large_point_sets():
    with pytest.raises(SolverUnavailable, match="too slow for the CUDA simulator"):
        parmst.euclidean_mst(np.zeros((10_000, 2)), solver=SOLVER)


@pytest.mark.skipif(SIMULATOR, reason="the simulator runs the Python arithmetic: a fused "
                                      "multiply-add can only happen on a GPU")
def test_device_squared_distances_are_the_cpus_bit_for_bit():
    from numba import cuda

    import parmst.kernels.distance_cuda  # noqa: F401
    from parmst.kernels.distance import squared_distance

    @cuda.jit
    def distances(x, out):
        for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
            out[i] = squared_distance(x, i, x, i + 1)

    x = np.random.default_rng(1).random((100_001, 5)) * 3 - 1
    out = cuda.device_array(100_000)
    distances[256, 256](cuda.to_device(x), out)
    expected = np.array([squared_distance(x, i, x, i + 1) for i in range(100_000)])
    np.testing.assert_array_equal(out.copy_to_host(), expected)
