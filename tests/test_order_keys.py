"""The host's edge keys: packed, two-pass and rank modes, and the rule that picks one."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.order import canonical_order, edge_keys, graph_keys, id_bits, weight_keys
from parmst.order.keys import _narrow_weight_keys


def _order_by_keys(prepared):
    ids = np.arange(len(prepared.keys))
    return np.lexsort((ids, prepared.keys))


@pytest.mark.parametrize("weight", [
    np.array([3, -1, 3, 0, -1], dtype=np.int32),
    np.array([2**40, -(2**40), 7, 7], dtype=np.int64),
    np.array([1.5, -0.0, 0.0, np.inf, -np.inf, 1.5], dtype=np.float32),
    np.array([1.0, 2.0, 1.0, 1e30], dtype=np.float64),
    np.array([0.1, 1e300, -1e-300, 0.1, np.inf], dtype=np.float64),
    np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0, 0], dtype=np.int64),
], ids=["int32", "int64-narrow-range", "float32", "float64-exact-float32", "float64-wide",
        "int64-full-range"])
@pytest.mark.parametrize("mode", ["auto", "two-pass"])
def test_keys_order_edges_by_weight_then_id(weight, mode):
    prepared = edge_keys(weight, mode)
    np.testing.assert_array_equal(_order_by_keys(prepared), canonical_order(weight))


def _many_weights(kind: str) -> np.ndarray:
    """Weights spanning several key-kernel blocks, with the special values of each kind."""
    rng = np.random.default_rng(7)
    m = 3 * 65536 + 17
    if kind in ("int32", "int64"):
        info = np.iinfo(kind)
        return rng.integers(info.min // 2, info.max // 2, m).astype(kind)
    if kind == "float64-integers":
        return rng.integers(-1000, 1000, m).astype(np.float64)
    w = rng.normal(0.0, 1e3, m).astype(kind)
    w[::1000], w[1::1000], w[2::1000], w[3::1000] = -0.0, np.inf, -np.inf, 0.0
    return w


@pytest.mark.parametrize("kind", ["int32", "int64", "float32", "float64", "float64-integers"])
@pytest.mark.parametrize("threads", [1, 2])
def test_parallel_keys_equal_the_numpy_definition(kind, threads):
    import numba

    weight = _many_weights(kind)
    source = weight.astype(np.float32) if kind == "float64-integers" else weight
    reference = weight_keys(source).astype(np.uint64)
    if source.dtype.itemsize == 8:  # 64-bit keys are shifted down by their minimum
        reference -= reference.min()
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        keys, largest = _narrow_weight_keys(weight)
        packed = edge_keys(weight)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(keys, reference)
    assert largest == int(reference.max())
    if packed.packed:
        bits = id_bits(len(weight))
        expected = (reference << np.uint64(bits)) | np.arange(len(weight), dtype=np.uint64)
        np.testing.assert_array_equal(packed.keys, expected)


def test_packed_keys_are_unique_and_carry_the_edge_id():
    weight = np.array([5, 5, 5, -2], dtype=np.int32)
    prepared = edge_keys(weight)
    assert prepared.packed
    assert len(np.unique(prepared.keys)) == 4
    mask = np.uint64((1 << prepared.id_bits) - 1)
    np.testing.assert_array_equal(prepared.keys & mask, np.arange(4))


def test_narrow_int64_range_packs_without_sorting():
    weight = np.array([10**15, 10**15 + 3, 10**15 + 1], dtype=np.int64)
    assert edge_keys(weight).mode == "packed"


def test_wide_float64_weights_fall_back_to_two_passes():
    prepared = edge_keys(np.array([-1e300, 0.7, 1e300]))
    assert prepared.mode == "two-pass"
    with pytest.raises(ValueError, match="do not fit"):
        edge_keys(np.array([-1e300, 0.7, 1e300]), "packed")


def test_unknown_key_mode_is_rejected():
    with pytest.raises(ValueError, match="keys must be one of"):
        edge_keys(np.array([1, 2], dtype=np.int32), "fast")


def test_rank_keys_follow_the_canonical_order():
    weight = np.array([0.1, 1e300, -1e-300, 0.1, np.inf])
    for mode in ("auto", "rank"):
        keys = edge_keys(weight, mode, unpacked="rank")
        assert keys.mode == "rank" and keys.slot_mask == np.uint64(2**64 - 1)
        np.testing.assert_array_equal(keys.order, canonical_order(weight))
        np.testing.assert_array_equal(keys.edge_ids(np.sort(keys.keys)), canonical_order(weight))
    with pytest.raises(ValueError, match="keys must be one of"):
        edge_keys(weight, "rank")


def test_empty_weights_give_empty_packed_keys():
    assert len(edge_keys(np.array([], dtype=np.float64)).keys) == 0


def _graph_with(weight: np.ndarray):
    import parmst

    m = len(weight)
    rng = np.random.default_rng(11)
    return parmst.Graph.from_edges(rng.integers(0, 5000, m), rng.integers(0, 5000, m), weight,
                                   num_vertices=5000)


def test_graph_keys_are_cached_read_only_until_the_cache_is_cleared():
    graph = _graph_with(_many_weights("float64"))
    keys = graph_keys(graph)
    assert graph_keys(graph) is keys and not keys.keys.flags.writeable
    np.testing.assert_array_equal(keys.keys, edge_keys(graph.weight).keys)
    graph.clear_cache()
    assert graph_keys(graph) is not keys
