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
