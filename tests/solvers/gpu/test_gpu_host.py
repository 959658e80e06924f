"""Host-side parts of the GPU solvers: registration, limits, keys, options (no device needed)."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace

import numpy as np
import pytest

from parmst import registry
from parmst._cuda import runtime
from parmst.solvers.gpu import _device

GPU_NAMES = ["ecl/gpu", "boruvka-edge/gpu", "genboruvka/gpu", "prim-dense/gpu"]
needs_numba_cuda = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                      reason="numba-cuda is not installed")


@pytest.mark.parametrize("name", GPU_NAMES)
def test_gpu_solver_registered_with_probe_and_limit(name):
    solver = registry.solvers()[name]
    assert solver.backend == "gpu"
    assert solver.paper.startswith(tuple(registry.CITATIONS.values()))
    assert solver.requires == ("numba_cuda",)
    assert solver.probe is runtime.probe
    assert solver.limit is (_device.dense_limit if name == "prim-dense/gpu" else _device.graph_limit)


def test_probe_is_true_exactly_where_the_gpu_solvers_can_run():
    reason = runtime.probe()
    if importlib.util.find_spec("numba_cuda") is None:
        assert reason == "numba-cuda is not installed (pip install 'parmst[gpu]')"
    elif runtime.simulator_active():
        assert reason is True
    else:
        from numba import cuda

        usable = cuda.is_available()
        assert (reason is True) == usable, reason
        assert usable or "CUDA" in reason


def test_probe_names_a_missing_numba_cuda(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert runtime.probe() == "numba-cuda is not installed (pip install 'parmst[gpu]')"


def test_graph_limit_rejects_vertex_ids_beyond_32_bits():
    huge = SimpleNamespace(num_vertices=2**31, num_edges=10)
    assert "32 bits" in _device.graph_limit(huge)
    assert "32 bits" in _device.dense_limit(huge)


def test_dense_limit_rejects_oversized_matrix():
    big = SimpleNamespace(num_vertices=_device.DENSE_MAX_VERTICES + 1, num_edges=10)
    assert "too large" in _device.dense_limit(big)


def test_threshold_plan_filters_only_at_average_degree_four_and_matches_the_host():
    from parmst.solvers import ecl_host

    assert ecl_host.sample_plan(1000, 600, seed=0, degree=ecl_host.FILTER_DEGREE) is None
    positions, pick = ecl_host.sample_plan(1000, 100, seed=0, degree=ecl_host.FILTER_DEGREE)
    keys = np.random.default_rng(1).permutation(1000).astype(np.uint64)
    # The device picks the key of rank `pick` among the sampled keys: the host's threshold.
    assert np.sort(keys[positions])[pick] == ecl_host.light_threshold(keys, 100, seed=0)


@needs_numba_cuda
@pytest.mark.parametrize("options", [{"init": "csr"}, {"block_size": 100}, {"launch": "graph"},
                                     {"persistent_below": 0}, {"persistent_below": 2.5},
                                     {"select": "vertices"}, {"filter_target": 0},
                                     {"filter_target": "3"}, {"filter_samples": 0},
                                     {"filter_samples": 1025}, {"filter_samples": 20.0},
                                     {"max_registers": 8}, {"max_registers": 32.0}],
                         ids=str)
def test_ecl_rejects_bad_option_values(options):
    from parmst.solvers.gpu import ecl

    merged = {"init": "edge", "block_size": 512, "launch": "persistent", "persistent_below": 64,
              "select": "auto", "filter_target": 1.5, "filter_samples": 1024,
              "max_registers": None, **options}
    with pytest.raises(ValueError, match="ecl/gpu"):
        ecl._check_options(merged["init"], merged["block_size"], merged["launch"],
                           merged["persistent_below"], merged["select"], merged["filter_target"],
                           merged["filter_samples"], merged["max_registers"])


class _FakeDLPack:
    """A DLPack producer that says where it lives and nothing else."""

    def __init__(self, device_type: int) -> None:
        self._device_type = device_type

    def __dlpack_device__(self):
        return (self._device_type, 0)


def test_device_arrays_are_told_apart_without_importing_anything():
    from parmst.graph import is_device_array

    cuda_like = SimpleNamespace(__cuda_array_interface__={"shape": (1,), "typestr": "<i4",
                                                          "data": (0, False), "version": 3})
    assert is_device_array(cuda_like)
    assert is_device_array(_FakeDLPack(2))       # kDLCUDA
    assert not is_device_array(_FakeDLPack(1))   # kDLCPU
    assert not is_device_array(np.zeros(3))
    assert not is_device_array([1, 2, 3])


@pytest.mark.parametrize(("shape", "dtype"), [(0, np.int32), (5, np.float64),
                                              ((3_000, 1_001), np.int32), (1 << 22, np.uint8)])
def test_host_arrays_for_large_copies_back_come_with_their_pages_touched(shape, dtype):
    # runtime.read copies large device arrays into these: the right shape and type, every
    # byte writable (pages of any size, the last one partly used).
    from parmst._cuda.host_pages import touched_empty

    out = touched_empty(shape, dtype)
    assert out.shape == np.empty(shape).shape and out.dtype == dtype and out.flags.c_contiguous
    out[...] = 7
    assert (out == 7).all()


class _Buffer:
    """A stand-in for a pooled device array: sliceable, and it takes weak references as
    numba-cuda's device arrays do (the simulator's arrays take none)."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, where):
        return self.values[where]


def test_parts_of_an_array_are_made_once_and_go_with_it():
    import gc

    buffer = _Buffer(np.arange(10))
    first = runtime.part(buffer, 2, 5)
    assert first.tolist() == [2, 3, 4]
    assert runtime.part(buffer, 2, 5) is first
    assert runtime.part(buffer, 7).tolist() == [7, 8, 9]
    assert runtime.part(buffer, 2, 6) is not first
    held = len(runtime._PARTS)
    del buffer
    gc.collect()
    assert len(runtime._PARTS) == held - 1


def test_parts_of_an_array_without_weak_references_are_slices():
    values = np.arange(6)  # NumPy arrays, like the simulator's device arrays, cannot be keys
    assert runtime.part(values, 1, 3).tolist() == [1, 2]
    assert runtime.part(values, 4).tolist() == [4, 5]
