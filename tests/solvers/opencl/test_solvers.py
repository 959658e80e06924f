"""The OpenCL solvers beyond the conformance catalogue: key modes, options, larger graphs,
statistics, device choice and the errors a user can meet."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst._opencl import runtime as _runtime
from parmst.errors import SolverUnavailable
from parmst.solvers.opencl import ecl, segscan_boruvka

SOLVERS = ["segscan-boruvka/opencl", "ecl/opencl"]


def _random_graph(n: int, m: int, seed: int, weights: str = "int") -> parmst.Graph:
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if weights == "int":
        weight = rng.integers(0, 50, m).astype(np.int32)  # many ties
    else:  # keys too wide to pack with the id: the rank-key path
        weight = rng.choice([0.1, 2.0**60, -1e300, 3.5, -7.25], m)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


def _check(graph: parmst.Graph, solver: str, **options) -> parmst.Forest:
    expected = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver=solver, **options)
    np.testing.assert_array_equal(forest.edge_ids, expected)
    assert parmst.verify(graph, forest)
    return forest


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize(("n", "m", "weights"), [
    (3000, 40_000, "int"),  # average degree >= 4: ECL-MST filters
    (20_000, 15_000, "int"),  # sparse, many components and isolated vertices
    (2000, 9000, "wide"),  # rank keys
])
def test_exact_on_random_graphs(solver, n, m, weights):
    forest = _check(_random_graph(n, m, seed=n + m, weights=weights), solver)
    expected_method = "rank" if weights == "wide" else "packed"
    assert forest.stats.extra["key_method"] == expected_method


@pytest.mark.parametrize("options", [{"filter": False}, {"atomic_guards": False, "seed": 5}])
def test_ecl_options(options):
    _check(_random_graph(1500, 20_000, seed=9), "ecl/opencl", **options)


@pytest.mark.parametrize("weights", ["int", "wide"])
def test_ecl_rounds_with_a_size_read_each_select_by_vertices(weights):
    # batch_below=0: every round reads its size, and rounds with few vertices per record
    # select by sweeping the vertices; rank keys ("wide") put the edges in slot order.
    forest = _check(_random_graph(3000, 40_000, seed=12, weights=weights), "ecl/opencl",
                    batch_below=0)
    assert forest.stats.extra["vertex_select_rounds"] > 0


def test_ecl_batches_small_rounds_by_default():
    forest = _check(_random_graph(3000, 40_000, seed=12), "ecl/opencl")
    assert forest.stats.extra["vertex_select_rounds"] == 0


def test_ecl_filters_dense_graphs():
    forest = _check(_random_graph(1000, 20_000, seed=4), "ecl/opencl")
    assert forest.stats.extra["filter_threshold"] is not None
    assert {"populate", "relax", "select", "reset"} <= set(forest.stats.phases)


def test_segscan_boruvka_reports_the_four_steps():
    forest = _check(_random_graph(5000, 30_000, seed=2), "segscan-boruvka/opencl")
    stats = forest.stats
    assert set(segscan_boruvka.PHASES) <= set(stats.phases)
    assert all(stats.phases[p] > 0 for p in segscan_boruvka.PHASES)
    assert stats.rounds == len(stats.worklist_sizes) >= 2
    assert stats.worklist_sizes == sorted(stats.worklist_sizes, reverse=True)
    assert stats.device.startswith("opencl:")


@pytest.mark.parametrize("solver", SOLVERS)
def test_device_option(solver):
    graph = _random_graph(300, 1000, seed=1)
    _check(graph, solver, device=0)
    with pytest.raises(ValueError, match="no OpenCL device matches"):
        parmst.minimum_spanning_forest(graph, solver=solver, device="no-such-device")


@pytest.mark.parametrize(("solver", "module"), [("segscan-boruvka/opencl", segscan_boruvka),
                                                ("ecl/opencl", ecl)])
def test_graph_too_large_fails_before_allocating(solver, module, monkeypatch):
    have = int(_runtime.env().device.global_mem_size)
    monkeypatch.setattr(module, "device_bytes", lambda n, m: (have + 1, 8))
    with pytest.raises(_runtime.DeviceMemoryError, match=f"needs {have + 1:,} bytes"):
        parmst.minimum_spanning_forest(_random_graph(10, 20, seed=0), solver=solver)


def test_ecl_refuses_a_device_without_64_bit_atomics(monkeypatch):
    monkeypatch.setattr(_runtime.Env, "int64_atomics", property(lambda self: False))
    with pytest.raises(SolverUnavailable, match="cl_khr_int64_extended_atomics"):
        parmst.minimum_spanning_forest(_random_graph(10, 20, seed=0), solver="ecl/opencl")


def test_limits_name_the_bound():
    class Huge:
        num_vertices = 2**32
        num_edges = 2**32

    assert "2**31" in segscan_boruvka.limit(Huge())
    assert "2**32" in ecl.limit(Huge())


def test_can_run_names_the_missing_device(monkeypatch):
    monkeypatch.setattr(_runtime, "_platform_devices", lambda: ())
    assert "no OpenCL platform" in _runtime.probe()()
    for solver in SOLVERS:
        assert "no OpenCL platform" in parmst.registry.get(solver).can_run()


def test_can_run_names_missing_64_bit_atomics(monkeypatch):
    class Device:
        extensions = "cl_khr_fp64"

    monkeypatch.setattr(_runtime, "_platform_devices", lambda: ((None, Device()),))
    assert parmst.registry.get("segscan-boruvka/opencl").can_run() is True
    assert "cl_khr_int64_extended_atomics" in parmst.registry.get("ecl/opencl").can_run()
