import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parmst.order import (
    canonical,
    canonical_order,
    canonical_order_or_none,
    edge_keys,
    id_bits,
    precedes,
    weight_keys,
)


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
    keys = edge_keys(w)
    assert keys.mode == "packed"
    assert (np.sort(keys.keys) & keys.slot_mask).tolist() == reference_order(w.tolist())


def test_wide_weights_fall_back_to_ranks():
    w = np.array([2**62, -(2**62), 5, 5], dtype=np.int64)
    keys = edge_keys(w, unpacked="rank")
    assert keys.mode == "rank"
    assert np.argsort(keys.keys).tolist() == [1, 2, 3, 0]
    assert keys.edge_ids(np.arange(4)).tolist() == [1, 2, 3, 0]


def test_precedes_is_key_then_id():
    assert precedes(1, 9, 2, 0) and precedes(2, 0, 2, 1)
    assert not precedes(2, 1, 2, 1) and not precedes(3, 0, 2, 9)


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


def _adversarial_float64(case, rng, m=1 << 17):
    """float64 weights on enough edges (ids take 17 bits) that keys must drop low bits."""
    if case == "low-mantissa-bits":
        # One prefix run of values that differ only in their last 10 mantissa bits, in
        # random id order, with ties among them; outliers make the key range 64 bits wide.
        w = 1.0 + rng.integers(0, 1000, m) * 2.0**-52
        w[:2] = (-1e300, 1e300)
    elif case == "many-short-runs":
        # Pairs of neighbouring floats everywhere in a huge range: many short runs.
        base = rng.choice([-1.0, 1.0], m // 2) * 10.0 ** rng.uniform(-300, 300, m // 2)
        w = np.concatenate([base, np.nextafter(base, np.inf)])
        rng.shuffle(w)
    elif case == "zeros-and-subnormals":
        tiny = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, 2.2250738585072014e-308])
        w = rng.choice(tiny, m)
        w[::997] = np.inf
        w[1::997] = -np.finfo(np.float64).max
    elif case == "integers-as-floats":
        # Integer values share their low mantissa bits: they pack whole, no refinement.
        w = rng.integers(-(2**20), 2**20, m).astype(np.float64)
    else:
        raise ValueError(case)
    return w


@pytest.mark.parametrize("case", ["low-mantissa-bits", "many-short-runs", "zeros-and-subnormals",
                                  "integers-as-floats"])
def test_canonical_order_exact_on_adversarial_float64(case):
    w = _adversarial_float64(case, np.random.default_rng(11))
    np.testing.assert_array_equal(canonical_order(w), _by_weight_then_id(w))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32])
def test_canonical_order_exact_when_the_weights_share_low_bits(dtype):
    """Multiples of a power of two drop their shared zero bits exactly, ties kept in id order."""
    rng = np.random.default_rng(5)
    step = {np.int32: 2**12, np.int64: 2**40, np.float32: 1}[dtype]
    w = (rng.integers(-1000, 1000, 1 << 17) * step).astype(dtype)
    np.testing.assert_array_equal(canonical_order(w), _by_weight_then_id(w))


@given(st.lists(st.integers(-(2**22), 2**22), max_size=80), st.integers(0, 41))
def test_canonical_order_exact_for_wide_int64_with_shared_low_bits(values, shift):
    w = np.array(values, dtype=np.int64) << shift
    np.testing.assert_array_equal(canonical_order(w), _by_weight_then_id(w))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("value", [-7, 0, 1, np.inf])
def test_equal_weights_need_no_order(dtype, value):
    """Every weight equal: the id order is the order, and no array is built for it."""
    if np.isinf(value) and np.dtype(dtype).kind == "i":
        value = np.iinfo(dtype).max
    w = np.full(1000, value, dtype=dtype)
    assert canonical_order_or_none(w) is None
    np.testing.assert_array_equal(canonical_order(w), np.arange(1000))


def test_zeros_of_both_signs_are_equal_weights():
    assert canonical_order_or_none(np.array([0.0, -0.0, 0.0, -0.0])) is None


def test_weights_given_sorted_need_no_order_but_one_descent_does():
    w = np.array([-np.inf, -1.0, 0.0, 0.0, 2.5, np.inf])
    assert canonical_order_or_none(w) is None
    w[-1] = 1.0
    np.testing.assert_array_equal(canonical_order_or_none(w), _by_weight_then_id(w))


def _sort_packed_words_only(monkeypatch):
    """Make canonical_order take neither counting sort: the reference for them."""
    monkeypatch.setattr(canonical, "_COUNTING_SPAN", 0)
    monkeypatch.setattr(canonical, "_TABLE_EDGES", 1 << 62)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("distinct", [2, 300, 1 << 16])
def test_counting_sort_of_few_distinct_weights_matches_the_sort(dtype, distinct, monkeypatch):
    """Few distinct weights (negative, zero, positive; integers as floats) take the counting
    sort; it gives exactly the order of the sort of packed words."""
    rng = np.random.default_rng(distinct)
    w = (rng.integers(0, distinct, 1 << 17) - distinct // 3).astype(dtype)
    counted = canonical_order(w)
    np.testing.assert_array_equal(counted, _by_weight_then_id(w))
    _sort_packed_words_only(monkeypatch)
    np.testing.assert_array_equal(canonical_order(w), counted)


def _spans(monkeypatch):
    """The bucket counts canonical_order's counting sorts are called with."""
    counting_order = canonical._counting_order
    spans = []
    monkeypatch.setattr(canonical, "_counting_order",
                        lambda *args: spans.append(args[7]) or counting_order(*args))
    return spans


def test_counting_sort_span_is_measured_after_the_shared_low_bits(monkeypatch):
    """Multiples of 2**40 span few key values once their shared zero bits are dropped."""
    w = np.array([3, -2, 3, 0, -2, 0, 3, -2], dtype=np.int64) << 40
    spans = _spans(monkeypatch)
    assert canonical_order(w).tolist() == [1, 4, 7, 3, 5, 0, 2, 6]
    assert spans == [6]  # key values -2 .. 3


@pytest.mark.parametrize("weights", ["fractions", "wide-integers", "infinities", "signed-zeros"])
def test_few_distinct_weights_of_wide_span_are_counted_by_rank(weights, monkeypatch):
    """Few values spread wide (k / 300 as float64, multiples of a large odd number, infinities,
    both zeros) go through the table of distinct keys and give exactly the sort's order."""
    rng = np.random.default_rng(9)
    m = 1 << 17
    w = {"fractions": lambda: rng.integers(0, 300, m) / 300,
         "wide-integers": lambda: rng.integers(-500, 500, m).astype(np.int64) * 999_999_937,
         "infinities": lambda: rng.choice([-np.inf, -1.5, 0.0, 1e300, np.inf], m),
         "signed-zeros": lambda: rng.choice([-0.0, 0.0, 0.1, -0.1], m)}[weights]()
    spans = _spans(monkeypatch)
    counted = canonical_order(w)
    assert spans == [len(np.unique(w))]
    np.testing.assert_array_equal(counted, _by_weight_then_id(w))
    _sort_packed_words_only(monkeypatch)
    np.testing.assert_array_equal(canonical_order(w), counted)


def test_many_distinct_weights_give_up_the_table(monkeypatch):
    """More distinct keys than the table takes: the probe stops, the words are sorted."""
    w = np.random.default_rng(2).random(1 << 17)
    spans = _spans(monkeypatch)
    np.testing.assert_array_equal(canonical_order(w), _by_weight_then_id(w))
    assert spans == []


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_numpy_order_is_the_compiled_order(dtype):
    from parmst.order import stable_order_or_none

    rng = np.random.default_rng(7)
    for values in (rng.integers(-5, 5, 500), rng.normal(size=500) * 1e6, np.zeros(10),
                   np.arange(20), np.array([3, 1])):
        weight = values.astype(dtype)
        ours = stable_order_or_none(weight)
        if ours is None:
            assert np.array_equal(canonical_order(weight), np.arange(len(weight)))
        else:
            assert np.array_equal(ours, canonical_order(weight))
    inf = np.array([np.inf, -np.inf, -0.0, 0.0, 1.0], dtype=np.float64)
    assert stable_order_or_none(inf).tolist() == canonical_order(inf).tolist() == [1, 2, 3, 4, 0]
