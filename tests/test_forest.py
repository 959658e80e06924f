import math

import numpy as np
import pytest

import parmst
from parmst.forest import exact_sum


def test_exact_integer_total_beyond_int64():
    assert exact_sum(np.array([2**62] * 4, dtype=np.int64)) == 2**64


def test_compensated_float_total():
    values = np.array([1e16, 1.0, -1e16, 1.0])
    assert exact_sum(values) == math.fsum(values.tolist()) == 2.0


def test_forest_fields_and_converters(tmp_path):
    g = parmst.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], [1, 2, 3, 4], num_vertices=6)
    f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
    assert f.edge_ids.tolist() == [0, 1, 3]
    assert f.num_components == 3 and len(f) == 3 and f.total_weight == 7
    assert f.component_labels().tolist() == [0, 0, 0, 3, 3, 5]
    _src, _dst, weight = f.to_numpy()
    assert weight.tolist() == [1, 2, 4]
    if pytest.importorskip("networkx"):
        assert f.to_networkx().number_of_edges() == 3
    assert "3 forest edges" in f.summary()


def test_forest_ids_come_back_sorted_on_either_route(route):
    g = parmst.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [1, 1, 1, 1])
    f = parmst.Forest.from_edge_ids(g, np.array([2, 0, 1]))
    assert f.edge_ids.tolist() == [0, 1, 2] and f.total_weight == 3


def test_component_labels_are_each_components_smallest_vertex():
    rng = np.random.default_rng(5)
    g = parmst.Graph.from_edges(rng.integers(0, 300, 250), rng.integers(0, 300, 250),
                                rng.random(250), num_vertices=320)
    labels = parmst.minimum_spanning_forest(g, solver="kruskal/serial").component_labels()
    for component in np.unique(labels):
        members = np.flatnonzero(labels == component)
        assert members[0] == component
    src, dst = g.src, g.dst
    assert (labels[src] == labels[dst]).all()  # every graph edge stays inside one component
    assert len(np.unique(labels)) == g.num_vertices - len(
        parmst.minimum_spanning_forest(g, solver="kruskal/serial"))


def test_total_with_both_infinities_is_nan_not_an_error(route):
    assert math.isnan(exact_sum(np.array([-np.inf, 1.0, np.inf])))
    assert exact_sum(np.array([1.0, np.inf])) == np.inf


@pytest.fixture(params=["numpy", "compiled"])
def route(request, monkeypatch):
    """Small forests are summed and sorted by NumPy and math.fsum while Numba is not loaded,
    by the compiled kernels otherwise: both must give the same answers."""
    import parmst.forest

    monkeypatch.setattr(parmst.forest, "compiled_pays", lambda size: request.param == "compiled")
    return request.param


def test_float_total_is_the_exact_sum_rounded_once_even_past_fsums_overflow(route):
    from fractions import Fraction

    rng = np.random.default_rng(11)
    for _ in range(200):
        w = rng.choice([1e308, -1e308, 1e-308, 5e-324, 1.0, -1.0, 1e16, 0.1], rng.integers(1, 40))
        exact = sum(map(Fraction, w.tolist()))
        try:
            expected = float(exact)
        except OverflowError:
            expected = math.inf if exact > 0 else -math.inf
        assert exact_sum(w) == expected
    big = np.array([1e308, 1e308, -1e308])  # math.fsum raises OverflowError here
    assert exact_sum(big) == 1e308


def test_float_total_of_many_values_of_every_magnitude():
    rng = np.random.default_rng(5)
    w = rng.normal(size=200_000) * 10.0 ** rng.integers(-300, 300, 200_000)
    assert exact_sum(w) == math.fsum(w.tolist())
    subnormal = np.full(1000, 5e-324)
    assert exact_sum(subnormal) == 1000 * 5e-324


def test_float_total_summed_in_chunks_on_all_threads_is_still_exact():
    # Past one chunk of 2**20 values each thread sums its own digits; the total must not
    # depend on the split, the order or the thread count, and an infinity in a later chunk
    # still makes the total infinite.
    from parmst._forest_kernels import _CHUNK

    rng = np.random.default_rng(12)
    w = rng.normal(size=2 * _CHUNK + 5) * 10.0 ** rng.integers(-30, 30, 2 * _CHUNK + 5)
    assert exact_sum(w) == math.fsum(w.tolist()) == exact_sum(w[::-1].copy())
    w[_CHUNK + 3] = np.inf
    assert exact_sum(w) == np.inf


def test_digit_carry_keeps_the_value():
    # The carry that runs every 2**30 terms (too many for a test to sum): any digits,
    # negative ones too, keep their value and end within 32 bits below the top.
    from parmst._forest_kernels import DIGIT_BITS as _DIGIT_BITS
    from parmst._forest_kernels import _carry

    rng = np.random.default_rng(6)
    digits = rng.integers(-2**62, 2**62, 68)

    def value(d):
        return sum(int(x) << (_DIGIT_BITS * i) for i, x in enumerate(d.tolist()))

    before = value(digits)
    _carry(digits)
    assert value(digits) == before
    assert ((digits[:-1] >= 0) & (digits[:-1] < 2**32)).all()


@pytest.mark.parametrize("ids", [
    [5, 3, 9, 0, 1, 2, 4, 6, 7, 8],  # a permutation: marked and collected
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 1],  # a repeated id: through the sort, the repeat kept
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 12],  # an id beyond the graph: through the sort, kept
    [0, 2, 4, 6, 8],  # ascending already
])
def test_forest_ids_come_out_sorted_with_repeats_and_strays_kept(ids):
    g = parmst.Graph.from_edges(np.arange(10), np.arange(1, 11), np.arange(10.0))
    f = parmst.Forest.from_edge_ids(g, np.array(ids))
    assert f.edge_ids.tolist() == sorted(ids)


@pytest.mark.parametrize("ids", [
    np.random.default_rng(3).permutation(3000)[:1700],  # many 64-edge words, bits set by chance
    np.r_[63, 64, 0, 2999, 128, 127, 65, 1, np.arange(2, 20)],  # ids at word edges
    np.r_[np.arange(0, 2500), 2501, 2500],  # ascending but for a descent in the third block
    np.r_[np.arange(1500, 0, -1), 1500],  # a repeat far from its twin: through the sort
    np.r_[np.arange(20, 0, -1), -1],  # a negative id: through the sort, kept
    np.r_[np.arange(2000, 0, -1), -1],  # the same among marked bytes (a dense forest)
    np.r_[np.arange(2000, 0, -1), 3000],  # an id beyond the graph among marked bytes
    np.r_[np.arange(999, -1, -1), 2999],  # bytes: the last position marked
])
def test_forest_ids_of_a_larger_graph_come_out_sorted(ids):
    g = parmst.Graph.from_edges(np.arange(3000), np.arange(1, 3001), np.ones(3000))
    assert parmst.Forest.from_edge_ids(g, ids).edge_ids.tolist() == sorted(ids.tolist())


def test_lazy_forest_fields_read_as_eager_ones_through_replace_and_pickle():
    import dataclasses
    import pickle

    g = parmst.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], [0.5, 2.0, 3.0, 1e16],
                                num_vertices=6)
    f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
    copied = pickle.loads(pickle.dumps(f))
    swapped = dataclasses.replace(f, src=f.dst)
    assert swapped.dst.tolist() == [1, 2, 4] and swapped.src.tolist() == [1, 2, 4]
    for forest in (f, copied):
        assert forest.edge_ids.tolist() == [0, 1, 3]
        assert forest.src.tolist() == [0, 1, 3] and forest.weight.tolist() == [0.5, 2.0, 1e16]
        assert forest.total_weight == 1e16 + 2.5
    assert object.__getattribute__(f, "_graph") is None  # all read: the graph is let go


def test_ids_are_sorted_only_when_read_and_the_total_needs_no_sort(route):
    g = parmst.Graph.from_edges([0, 1, 2, 3, 0], [1, 2, 3, 4, 4], [0.1, 0.2, 1e16, 0.3, 5.0])
    f = parmst.Forest.from_edge_ids(g, np.array([3, 0, 2, 1]))
    assert len(f) == 4 and f.num_components == 1
    assert f.total_weight == math.fsum([0.1, 0.2, 1e16, 0.3])  # from the unsorted ids
    assert object.__getattribute__(f, "_unsorted") is not None  # nothing sorted yet
    assert f.weight.tolist() == [0.1, 0.2, 1e16, 0.3]  # a gather sorts the ids first
    assert f.edge_ids.tolist() == [0, 1, 2, 3]
    assert object.__getattribute__(f, "_unsorted") is None
    unread = parmst.Forest.from_edge_ids(g, np.array([3, 0, 2, 1]))
    assert repr(unread) == repr(f)  # every field reads as it would have been filled eagerly


def test_ids_known_to_ascend_are_kept_as_they_come():
    g = parmst.Graph.from_edges([0, 1, 2, 3, 0], [1, 2, 3, 4, 4], [1, 2, 3, 4, 9])
    ids = np.array([0, 1, 2, 3])
    f = parmst.Forest.from_edge_ids(g, ids, ascending=True)
    assert f.edge_ids is ids and object.__getattribute__(f, "_unsorted") is None
    assert len(f) == 4 and f.total_weight == 10 and f.src.tolist() == [0, 1, 2, 3]
    assert repr(f) == repr(parmst.Forest.from_edge_ids(g, ids[::-1].copy()))
