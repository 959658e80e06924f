import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parmst.order import canonical_order, id_bits, packed_keys, unpack_edge_ids, weight_keys


def reference_order(weight):
    return sorted(range(len(weight)), key=lambda i: (weight[i], i))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_weight_keys_preserve_order(dtype):
    if np.dtype(dtype).kind == "f":
        values = np.array([-np.inf, -3.5, -1.0, -0.0, 0.0, 1e-30, 2.0, np.inf], dtype=dtype)
    else:
        info = np.iinfo(dtype)
        values = np.array([info.min, -7, -1, 0, 1, 9, info.max], dtype=dtype)
    keys = weight_keys(values)
    for a, b in zip(range(len(values)), range(1, len(values))):
        assert (keys[a] < keys[b]) == (values[a] < values[b])
        assert (keys[a] == keys[b]) == (values[a] == values[b])


def test_negative_zero_ties_with_positive_zero():
    keys = weight_keys(np.array([0.0, -0.0]))
    assert keys[0] == keys[1]
    assert canonical_order(np.array([0.0, -0.0])).tolist() == [0, 1]


@given(st.lists(st.integers(-5, 5), max_size=60))
def test_canonical_order_matches_sorting_by_weight_then_id(values):
    w = np.array(values, dtype=np.int64)
    assert canonical_order(w).tolist() == reference_order(values)


@given(st.lists(st.floats(allow_nan=False, width=32), max_size=60))
def test_packed_keys_round_trip_ids_float32(values):
    w = np.array(values, dtype=np.float32)
    keys = packed_keys(w)
    assert keys is not None
    assert unpack_edge_ids(np.sort(keys), len(w)).tolist() == reference_order(w.tolist())


def test_wide_weights_fall_back_to_ranks():
    w = np.array([2**62, -(2**62), 5, 5], dtype=np.int64)
    keys = packed_keys(w)
    assert keys is not None
    assert np.argsort(keys).tolist() == [1, 2, 3, 0]


def test_id_bits():
    assert id_bits(0) == 1 and id_bits(1) == 1 and id_bits(2) == 1 and id_bits(3) == 2
    assert id_bits(2**32) == 32 and id_bits(2**32 + 1) == 33


def _by_weight_then_id(weight):
    folded = np.where(weight == 0, 0, weight)  # -0.0 ties with +0.0
    return np.lexsort((np.arange(len(weight)), folded))


WIDE_FLOATS = st.floats(allow_nan=False, allow_infinity=True, width=64)


@given(st.lists(st.one_of(WIDE_FLOATS, st.sampled_from([0.0, -0.0, 1.0, 1.0 + 2**-52])),
                max_size=80))
def test_canonical_order_exact_for_wide_float64(values):
    """Keys too wide to pack beside the id: prefixes sort first, runs are refined."""
    w = np.array(values, dtype=np.float64)
    np.testing.assert_array_equal(canonical_order(w), _by_weight_then_id(w))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_canonical_order_on_many_edges_with_crowded_weights(dtype):
    """Enough edges that ids take 17 bits; weights in a narrow band far from zero plus outliers."""
    rng = np.random.default_rng(7)
    m = 100_000
    info = np.iinfo(dtype) if np.dtype(dtype).kind == "i" else np.finfo(dtype)
    band = rng.integers(0, 50, m).astype(dtype) + dtype(info.max // 2 if np.dtype(dtype).kind == "i"
                                                        else 1e6)
    band[::1000] = info.min
    band[1::1000] = info.max
    np.testing.assert_array_equal(canonical_order(band), _by_weight_then_id(band))
