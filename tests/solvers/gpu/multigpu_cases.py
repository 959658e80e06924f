"""ecl/multigpu on numba-cuda's simulator (CI) and on real GPUs (the device machine).

Not collected by a plain ``pytest`` run: ``test_gpu_simulator.py`` runs this
file with ``NUMBA_ENABLE_CUDASIM=1``, and ``benchmarks/multigpu_device_run.sh``
runs it on a GPU machine with ``PARMST_REQUIRE_GPU=1``.

The simulator models one device only (its ``select_device`` accepts 0 and
nothing else), so there every case runs its parts one after another on that
device; on one real GPU the same; on a machine with two or more GPUs the
cases also run with one part per device, each in its own host thread. The
two-device cases skip, naming why, where fewer than two devices exist.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parmst
from conformance.cases import CASES, GENERATOR_SPECS  # tests/ is on sys.path (conftest)
from parmst._cuda import runtime

SIMULATOR = runtime.simulator_active()
_PROBE = runtime.probe()
REQUIRED = os.environ.get("PARMST_REQUIRE_GPU") == "1"

pytestmark = pytest.mark.skipif(_PROBE is not True and not REQUIRED,
                                reason=f"GPU solvers cannot run: {_PROBE}")


def _device_count() -> int:
    from parmst.solvers.multigpu._devices import visible_devices

    return len(visible_devices()) if _PROBE is True else 0


DEVICES = _device_count()
two_devices = pytest.mark.skipif(
    DEVICES < 2, reason="the CUDA simulator models one device" if SIMULATOR
    else f"this machine shows {DEVICES} CUDA device(s); two are needed")

# One device: parts one after another there; the default needs >= 2 devices off the simulator.
ONE_DEVICE = [{"devices": [0], "parts": 2}, {"devices": [0], "parts": 3, "split": "blocks"},
              {"devices": [0], "parts": 2, "split": "bfs", "keys": "two-pass"}]
TWO_DEVICES = [{"devices": [0, 1]}, {"devices": [1, 0], "parts": 3, "split": "bfs"},
               {"devices": [0, 1], "parts": 4, "keys": "two-pass"}]
SPECS = ["rmat:scale=5,seed=1", "grid2d:side=7,seed=2", "dense:n=24,seed=3"] \
    if SIMULATOR else ["rmat:scale=16,seed=1", "grid2d:side=300,seed=2", "road:side=400,seed=5",
                       "random-degree:n=200000,seed=6", "delaunay:n=100000,seed=3",
                       "seed000-sparse:size=medium,seed=4", "seed000-dense:size=medium,seed=5"]


def random_graph(seed: int, n: int, m: int, dtype: str) -> parmst.Graph:
    """Multi-edges, self-loops, ties and several components, with ``dtype`` weights."""
    rng = np.random.default_rng(seed)
    weight = rng.integers(-3, 4, m).astype(dtype) if dtype.startswith("int") else \
        rng.choice([-1.5, 0.0, 0.25, 2.0, np.inf], m).astype(dtype)
    return parmst.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), weight,
                                   num_vertices=n)


def assert_exact(graph: parmst.Graph, label: str = "", **options) -> parmst.Forest:
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, "ecl/multigpu", verify=True, **options)
    np.testing.assert_array_equal(forest.edge_ids, expected, err_msg=f"{label} {options}")
    return forest


@pytest.mark.parametrize("options", ONE_DEVICE, ids=str)
@pytest.mark.parametrize("spec", SPECS)
def test_parts_on_one_device_match_kruskal(spec, options):
    forest = assert_exact(parmst.generate(spec), **options)
    extra = forest.stats.extra
    assert extra["parts"] == options["parts"] and "local_time_gpu0" in extra
    assert extra["transfer"] == "device"  # every part on the merge device: no peer copy
    assert 0 < extra["merge_share"] < 1


@pytest.mark.parametrize("path", ["device", "host", pytest.param("peer", marks=pytest.mark.skipif(
    SIMULATOR, reason="a peer copy needs a real device"))])
def test_every_copy_path_moves_a_column_into_its_slot(path):
    """Each transfer path, device 0 to device 0 (cuMemcpyPeer accepts the same context twice), into
    the middle of a larger array, as the merge's concatenation does."""
    from numba import cuda

    from parmst.solvers.multigpu._devices import copy_into

    values = np.arange(5, 12, dtype=np.int64) * 3
    out = cuda.to_device(np.full(10, -1, np.int64))
    copy_into(out[2:9], cuda.to_device(values), 0, 0, path)
    np.testing.assert_array_equal(out.copy_to_host(), [-1, -1, *values, -1])


@two_devices
@pytest.mark.parametrize("options", TWO_DEVICES, ids=str)
@pytest.mark.parametrize("spec", SPECS)
def test_one_part_per_device_matches_kruskal(spec, options):
    forest = assert_exact(parmst.generate(spec), **options)
    extra = forest.stats.extra
    assert extra["local_compute_time_gpu0"] > 0 and extra["local_compute_time_gpu1"] > 0
    assert forest.stats.device.count("cuda:") == 2
    assert extra["transfer"] in ("device+peer", "device+host")


# The int64 graphs key as the int32 ones (the same draws, a 3-bit range) and the float64 ones as
# the float32 ones (exact float32 values, narrowed before keying): every dtype takes the default
# route, and the two-pass route runs on one integer and one float dtype.
DTYPE_ROUTES = [(dtype, "auto") for dtype in ("int32", "int64", "float32", "float64")] \
    + [("int32", "two-pass"), ("float64", "two-pass")]


@pytest.mark.parametrize(("dtype", "keys"), DTYPE_ROUTES)
def test_every_weight_dtype_and_key_route(dtype, keys):
    n, m = (20, 90) if SIMULATOR else (30_000, 200_000)
    for seed in range(2):
        assert_exact(random_graph(seed, n, m, dtype), devices=[0], parts=2 + seed, keys=keys)


@settings(max_examples=10 if SIMULATOR else 50)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24), m=st.integers(0, 70),
       parts=st.integers(2, 4), split=st.sampled_from(["edges", "blocks", "bfs"]))
def test_random_multigraphs(seed, n, m, parts, split):
    assert_exact(random_graph(seed, n, m, "float64"), devices=[0], parts=parts, split=split)


@pytest.mark.skipif(SIMULATOR, reason="the conformance suite runs ecl/multigpu under the "
                    "simulator itself (two parts by default there)")
def test_conformance_catalogue_with_two_parts_on_one_device():
    """The conformance suite's cases on a real GPU, where its default-option run of
    ecl/multigpu skips unless the machine has two devices."""
    for name, build in CASES.items():
        assert_exact(build(), name, devices=[0], parts=2)
    for name, spec in GENERATOR_SPECS.items():
        graph = parmst.generate(spec)
        for options in ({"devices": [0], "parts": 2}, {"devices": [0], "parts": 3,
                                                       "split": "bfs"}):
            assert_exact(graph, name, **options)


def test_what_available_solvers_says_matches_the_devices_seen():
    status = parmst.available_solvers()["ecl/multigpu"]
    if SIMULATOR or DEVICES >= 2:
        assert status is True
    else:
        assert f"sees {DEVICES} CUDA device" in status and "parts=2" in status


# Graphs already on the GPUs (parmst.Graph.from_device_parts): the simulator's one device
# holds every part, so there the parts lie on [0, 0, 0] and are solved one after another.
PART_DEVICES = [[0], [0, 0, 0]] + ([[0, 1], [1, 0, 1, 0]] if DEVICES >= 2 else [])


@pytest.mark.parametrize("placement", PART_DEVICES, ids=str)
@pytest.mark.parametrize("spec", SPECS[:2])
def test_parts_on_the_devices_match_the_host_path_and_kruskal(spec, placement):
    graph = parmst.generate(spec)
    split = parmst.Graph.from_device_parts(graph.to_device_parts(placement))
    assert (split.num_edges, split.num_vertices) == (graph.num_edges, graph.num_vertices)
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(split, verify=True)  # "auto": ecl/multigpu
    host = parmst.minimum_spanning_forest(graph, "ecl/multigpu", devices=[0],
                                          parts=max(2, len(placement)))
    np.testing.assert_array_equal(forest.edge_ids, expected)
    np.testing.assert_array_equal(host.edge_ids, expected)
    assert forest.solver == "ecl/multigpu" and forest.total_weight == host.total_weight
    extra = forest.stats.extra
    assert extra["parts"] == len(placement)
    assert set(forest.stats.phases) == {"split", "local", "exchange", "merge"}
    for d in set(placement):
        assert extra[f"local_time_gpu{d}"] >= extra[f"local_compute_time_gpu{d}"] > 0
        assert extra[f"exchange_time_gpu{d}"] >= 0 and f"peak_memory_bytes_gpu{d}" in extra
        if not SIMULATOR:
            assert extra[f"peak_memory_bytes_gpu{d}"] > 0
    assert extra[f"merge_time_gpu{placement[0]}"] > 0


def test_ties_across_parts_break_by_global_id():
    """Every weight equal and each edge repeated in another part: only the global ids decide."""
    src = np.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 1, 3])
    dst = np.array([1, 2, 3, 0, 1, 2, 3, 0, 2, 0, 3, 1])
    graph = parmst.Graph.from_edges(src, dst, np.ones(12), num_vertices=5)
    for placement in ([0, 0], [0, 0, 0], [0] * 5):
        split = parmst.Graph.from_device_parts(graph.to_device_parts(placement))
        got = parmst.minimum_spanning_forest(split, "ecl/multigpu").edge_ids
        assert got.tolist() == [0, 1, 2]  # the first copies, not the later parts' repeats


def test_global_ids_past_2_31_in_the_id_mapping():
    """A part's local forest (32-bit positions) mapped to int64 ids of a graph past 2**31."""
    from parmst._cuda import arrays
    from parmst.solvers.multigpu.ecl import _Part

    first = 2**33 + 7
    local = np.array([0, 3, 2**31 - 2], dtype=np.int32)
    shifted = arrays.shift(runtime.to_device(local), first).copy_to_host()
    assert shifted.dtype == np.int64 and shifted.tolist() == (local.astype(np.int64)
                                                              + first).tolist()
    graph = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    (part,) = graph.to_device_parts([0])
    solved = _Part(part.edges, first, graph.num_vertices)
    solved.solve_here({"keys": "auto"})
    assert solved.survivors[3].copy_to_host().tolist() == [first + 1, first + 2, first + 3]


def test_a_part_too_big_for_its_device_is_refused_before_allocating(monkeypatch):
    from parmst.errors import SolverUnavailable
    from parmst.solvers.multigpu import ecl as multigpu

    graph = parmst.generate("rmat:scale=5,seed=1")
    split = parmst.Graph.from_device_parts(graph.to_device_parts([0, 0]))
    monkeypatch.setattr(multigpu, "memory_info", lambda device, reclaim=False: (4096.0, 2.0**34))
    with pytest.raises(SolverUnavailable, match=r"part [01] \(\d+ edges\) on device cuda:0 .* "
                       r"needs about 0\.\d\d GiB .* 0\.00 GiB of 16\.00 GiB is free; split the "
                       r"graph into more parts"):
        parmst.minimum_spanning_forest(split)
    with pytest.raises(SolverUnavailable, match=r"the merge of 10 surviving edges on device "
                       r"cuda:0 .* needs about 1024\.00 GiB .* each part keeps at most n - 1 = "
                       r"10 edges, so fewer, larger parts"):
        multigpu._check_merge_memory(0, 10, 2**40, 11)


def test_malformed_parts_are_refused_naming_the_part():
    from dataclasses import replace

    from parmst.errors import GraphValueError, SolverUnavailable

    graph = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4.0, 1.0, 3.0, 2.0])
    parts = graph.to_device_parts([0, 0])
    with pytest.raises(GraphValueError, match="part 1 starts at edge id 3, expected 2"):
        parmst.Graph.from_device_parts([parts[0], replace(parts[1], first_id=3)])
    with pytest.raises(GraphValueError, match="the parts hold edge ids 0..1 but the graph has 4"):
        parmst.Graph.from_device_parts(parts[:1])
    wide = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4.0, 1.0, 3.0, 2.0],
                                   num_vertices=9).to_device_parts([0, 0])
    narrow = [replace(p, num_vertices=3) for p in wide]
    with pytest.raises(GraphValueError, match=r"part 1 \(device 0, edge ids 2..3\) holds vertex "
                       r"id 3, outside 0..2"):
        parmst.Graph.from_device_parts(narrow)
    with pytest.raises(GraphValueError, match="part 0 is a str, not a DevicePart"):
        parmst.Graph.from_device_parts(["part"])
    split = parmst.Graph.from_device_parts(parts)
    with pytest.raises(GraphValueError, match=r"2 parts on devices \[0, 0\], not one device"):
        split.as_device_graph()
    with pytest.raises(SolverUnavailable, match="solved by ecl/multigpu, not 'ecl/gpu'"):
        parmst.minimum_spanning_forest(split, "ecl/gpu")
    with pytest.raises(ValueError, match="solved where its parts lie"):
        parmst.minimum_spanning_forest(split, parts=3)
