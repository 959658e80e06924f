"""GPU solver cases that need numba-cuda's simulator or a real GPU.

Not collected by a plain ``pytest`` run (the name does not start with
``test_``): ``test_gpu_simulator.py`` runs this file in a subprocess with
``NUMBA_ENABLE_CUDASIM=1`` (CI), and ``benchmarks/gpu_device_run.sh`` runs it
on the GPU machine, where the warp paths (ballot/shuffle) run for real and the
graphs are larger. The tests that only a real GPU can run are in
``test_gpu_device.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parmst
from parmst.solvers.gpu import _device

SIMULATOR = _device.simulator_active()
GPU_SOLVERS = [name for name in parmst.registry.solvers() if name.endswith("/gpu")]
# Every ecl/gpu code path: edge-list and CSR (hybrid warp / thread) initialization,
# with and without filtering, atomic guards, one or both directions, select by sweeping
# the vertices (the default where keys pack) or by records, filter targets.
ECL_VARIANTS = [
    {},
    {"init": "hybrid"},
    {"init": "thread", "atomic_guards": False},
    {"filter": False, "both_directions": True},
    {"init": "hybrid", "both_directions": True, "seed": 3},
    {"launch": "per-round"},
    {"launch": "persistent", "filter": False},
    {"launch": "per-round", "init": "hybrid", "atomic_guards": False},
    {"select": "records"},
    {"launch": "per-round", "filter_target": 0.5},
    {"launch": "persistent", "select": "records", "filter_target": 3},
    {"launch": "per-round", "keys": "rank"},
]
BLOCK = {"block_size": 32} if SIMULATOR else {}

pytestmark = pytest.mark.skipif(_device.probe() is not True,
                                reason=f"GPU solvers cannot run: {_device.probe()}")


def random_graph(seed: int, n: int, m: int, dtype: str) -> parmst.Graph:
    """Multi-edges, self-loops, ties and several components, with ``dtype`` weights."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if dtype in ("int32", "int64"):
        weight = rng.integers(-3, 4, m).astype(dtype)
    else:
        weight = rng.choice([-1.5, 0.0, 0.25, 2.0, np.inf], m).astype(dtype)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


def solver_block(solver: str) -> dict:
    """``BLOCK`` where the solver takes a block size (prim-dense/gpu's is fixed)."""
    return {k: v for k, v in BLOCK.items() if k in parmst.registry.get(solver).options}


def assert_exact(graph: parmst.Graph, solver: str, **options) -> parmst.Forest:
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver, **options)
    np.testing.assert_array_equal(forest.edge_ids, expected, err_msg=f"{solver} {options}")
    return forest


SIZES = [(12, 40), (30, 140)] if SIMULATOR else [(1000, 6000), (50_000, 400_000)]


@pytest.mark.parametrize("variant", ECL_VARIANTS, ids=str)
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_ecl_variants_match_kruskal(variant, dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "ecl/gpu", **variant, **BLOCK)


@pytest.mark.parametrize("solver", GPU_SOLVERS)
@settings(max_examples=10 if SIMULATOR else 50)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24), m=st.integers(0, 70))
def test_gpu_solver_on_random_multigraphs(solver, seed, n, m):
    assert_exact(random_graph(seed, n, m, "float64"), solver, **solver_block(solver))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_boruvka_edge_matches_kruskal(dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "boruvka-edge/gpu", **BLOCK)


def dense_forest(dtype: str) -> parmst.Graph:
    """Two dense blocks and an isolated vertex: three trees, parallel edges, ties."""
    n = 20 if SIMULATOR else 600
    half = n // 2
    rng = np.random.default_rng(11)
    src = np.concatenate([rng.integers(0, half, 4 * n), rng.integers(half, n - 1, 4 * n)])
    dst = np.concatenate([rng.integers(0, half, 4 * n), rng.integers(half, n - 1, 4 * n)])
    weight = rng.integers(0, 5, len(src)).astype(dtype)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_prim_dense_matches_kruskal_on_dense_forest(dtype):
    forest = assert_exact(dense_forest(dtype), "prim-dense/gpu")
    assert forest.stats.rounds == forest.num_components


@pytest.mark.parametrize("solver", GPU_SOLVERS)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_rank_keys_give_the_exact_forest(solver, dtype):
    """``keys="rank"``: the route for weights whose keys do not pack with ids, forced on
    weights that would pack, on every GPU solver."""
    graph = dense_forest(dtype) if solver == "prim-dense/gpu" \
        else random_graph(7, *SIZES[-1], dtype)
    forest = assert_exact(graph, solver, keys="rank", **solver_block(solver))
    assert forest.stats.extra["key_method"] == "rank"


@pytest.mark.parametrize("solver", GPU_SOLVERS)
def test_unpackable_weights_take_rank_keys_by_default(solver):
    """Weights spanning float64's range do not pack with edge ids: ``"auto"`` ranks them."""
    graph = random_graph(4, 12, 40, "float64")
    weight = graph.weight * np.where(np.arange(graph.num_edges) % 3, 1e300, 1e-300)
    graph = parmst.Graph.from_edges(graph.src, graph.dst, weight, num_vertices=12)
    forest = assert_exact(graph, solver, **solver_block(solver))
    assert forest.stats.extra["key_method"] == "rank"


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_ecl_auto_launch_hands_over_to_persistent_kernel(dtype):
    """launch="auto": per-round launches for big rounds, the cooperative kernel after."""
    n, m = SIZES[-1]
    forest = assert_exact(random_graph(5, n, m, dtype), "ecl/gpu", launch="auto",
                          persistent_below=m // 2, filter=False, **BLOCK)
    stats = forest.stats
    assert stats.rounds == len(stats.worklist_sizes)
    assert 1 <= stats.extra["persistent_rounds"] < stats.rounds


def test_ecl_per_round_launch_never_uses_persistent_kernel():
    forest = assert_exact(random_graph(6, *SIZES[-1], "int64"), "ecl/gpu", launch="per-round",
                          **BLOCK)
    assert "persistent_rounds" not in forest.stats.extra


def test_ecl_stats_report_rounds_times_and_memory():
    forest = assert_exact(random_graph(1, *SIZES[-1], "int32"), "ecl/gpu", **BLOCK)
    stats = forest.stats
    assert stats.rounds >= 1 and len(stats.worklist_sizes) == stats.rounds
    assert stats.compute_time > 0 and stats.extra["end_to_end_time"] >= stats.compute_time
    assert stats.extra["device_memory_bytes"] > 0
    assert stats.device.startswith("cuda")


def test_ecl_filtering_runs_both_phases():
    n, m = SIZES[-1]
    forest = assert_exact(random_graph(2, n, 6 * m, "float32"), "ecl/gpu", **BLOCK)
    assert forest.stats.extra["filter_threshold"] is not None
    assert set(forest.stats.phases) == {"light", "heavy"}


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_genboruvka_matches_kruskal(dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "genboruvka/gpu", **BLOCK)


def test_genboruvka_stats_count_rounds_of_the_contracted_graphs():
    graph = random_graph(3, *SIZES[-1], "float32")
    forest = assert_exact(graph, "genboruvka/gpu", **BLOCK)
    stats = forest.stats
    assert stats.rounds == len(stats.worklist_sizes) == len(stats.extra["colour_passes"]) >= 2
    assert stats.worklist_sizes[0] == int(np.count_nonzero(graph.src != graph.dst))
    assert all(a > b for a, b in zip(stats.worklist_sizes, stats.worklist_sizes[1:]))
    assert stats.extra["end_to_end_time"] >= stats.compute_time > 0
    assert stats.device.startswith("cuda")


def test_genboruvka_long_path_needs_several_colour_passes():
    """Increasing weights along a path: every vertex picks its left edge, one long chain.

    In-place jumping may converge in fewer passes than log2(n) (a thread can
    read colours already jumped), but the chain needs a changing pass and a
    quiet one.
    """
    n = 40 if SIMULATOR else 100_000
    graph = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.arange(n - 1.0))
    forest = assert_exact(graph, "genboruvka/gpu", **BLOCK)
    assert forest.stats.rounds == 1
    assert forest.stats.extra["colour_passes"][0] >= 2


@pytest.mark.parametrize("count", [0, 1, 31, 32, 33, 1100])
def test_genboruvka_exclusive_scan_over_several_block_levels(count):
    from numba import cuda

    from parmst.solvers.gpu import genboruvka

    values = np.random.default_rng(count).integers(0, 9, count).astype(np.int32)
    out = cuda.device_array(count + 1, np.int64)
    launcher = genboruvka._Launcher(BLOCK.get("block_size", _device.DEFAULT_BLOCK_SIZE))
    total = launcher.exclusive_scan(cuda.to_device(values), count, out)
    expected = np.concatenate([[0], np.cumsum(values)])
    assert total == expected[-1]
    np.testing.assert_array_equal(out.copy_to_host(), expected)
