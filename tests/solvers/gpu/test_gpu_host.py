"""Host-side parts of the GPU solvers: registration, limits, keys, options (no device needed)."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace

import numpy as np
import pytest

from parmst import registry
from parmst.order import canonical_order
from parmst.solvers.gpu import _device, _keys

GPU_NAMES = ["ecl/gpu", "boruvka-edge/gpu", "prim-dense/gpu"]
needs_numba_cuda = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                      reason="numba-cuda is not installed")


@pytest.mark.parametrize("name", GPU_NAMES)
def test_gpu_solver_registered_with_probe_and_limit(name):
    solver = registry.solvers()[name]
    assert solver.backend == "gpu"
    assert solver.paper.startswith(tuple(registry.CITATIONS.values()))
    assert solver.requires == ("numba_cuda",)
    assert solver.probe is _device.probe
    assert solver.limit is not None


def test_probe_names_what_is_missing():
    reason = _device.probe()
    if reason is not True:
        assert "numba-cuda" in reason or "CUDA" in reason


def test_graph_limit_rejects_vertex_ids_beyond_32_bits():
    huge = SimpleNamespace(num_vertices=2**31, num_edges=10)
    assert "32 bits" in _device.graph_limit(huge)
    assert "32 bits" in _device.dense_limit(huge)


def test_dense_limit_rejects_oversized_matrix():
    big = SimpleNamespace(num_vertices=_device.DENSE_MAX_VERTICES + 1, num_edges=10)
    assert "too large" in _device.dense_limit(big)


@pytest.mark.parametrize("weight", [
    np.array([3, -1, 3, 0, -1], dtype=np.int32),
    np.array([0.5, -2.0, 0.5, np.inf, -0.0, 0.0]),
    np.array([2**62, -(2**62), 7, 7], dtype=np.int64),
    np.array([0.1, 2.0**60, -1e300, 0.1]),
], ids=["int32", "float64-narrow", "int64-wide", "float64-wide"])
def test_keys_order_edges_like_the_canonical_order(weight):
    keys = _keys.prepare_keys(weight)
    order = np.argsort(keys.keys, kind="stable")
    np.testing.assert_array_equal(order, canonical_order(weight))
    assert len(np.unique(keys.keys)) == len(weight)
    slots = keys.keys & keys.slot_mask
    np.testing.assert_array_equal(keys.edge_ids(slots.astype(np.int64)), np.arange(len(weight)))


def test_unpackable_weights_fall_back_to_rank_keys():
    weight = np.array([0.1, 2.0**60, -1e300, 0.1])
    keys = _keys.prepare_keys(weight)
    assert keys.method == "rank"
    np.testing.assert_array_equal(keys.keys, [1, 3, 0, 2])
    with pytest.raises(ValueError, match="do not fit"):
        _keys.prepare_keys(weight, "packed")


def test_rank_keys_on_request_even_where_packing_fits():
    weight = np.array([3, -1, 3, 0], dtype=np.int32)
    assert _keys.prepare_keys(weight).method == "packed"
    keys = _keys.prepare_keys(weight, "rank")
    assert keys.method == "rank"
    np.testing.assert_array_equal(keys.keys, [2, 0, 3, 1])
    np.testing.assert_array_equal(keys.edge_ids(keys.keys.astype(np.int64)), np.arange(4))
    with pytest.raises(ValueError, match="keys must be one of"):
        _keys.prepare_keys(weight, "two-pass")


def test_filter_threshold_only_at_average_degree_four():
    keys = np.arange(1000, dtype=np.uint64)
    assert _keys.filter_threshold(keys, 600, seed=0) is None  # 2m/n = 3.3
    threshold = _keys.filter_threshold(keys, 100, seed=0)     # 2m/n = 20
    assert threshold is not None and 0 < int(threshold) < 1000


@needs_numba_cuda
@pytest.mark.parametrize("options", [{"init": "csr"}, {"block_size": 100}, {"launch": "graph"},
                                     {"persistent_below": 0}, {"persistent_below": 2.5},
                                     {"select": "vertices"}, {"filter_target": 0},
                                     {"filter_target": "3"}],
                         ids=str)
def test_ecl_rejects_bad_option_values(options):
    from parmst.solvers.gpu import ecl

    merged = {"init": "edge", "block_size": 512, "launch": "persistent", "persistent_below": 64,
              "select": "auto", "filter_target": 1.5, **options}
    with pytest.raises(ValueError, match="ecl/gpu"):
        ecl._check_options(merged["init"], merged["block_size"], merged["launch"],
                           merged["persistent_below"], merged["select"], merged["filter_target"])
