"""The parallel checks and copies of Graph.from_edges on large host arrays
(parmst._edge_checks), against NumPy, at chunk edges, and through from_edges' errors."""

import numpy as np
import pytest

import parmst
from parmst import _edge_checks
from parmst.errors import GraphValueError

M = _edge_checks.PARALLEL_FROM_EDGES + 7  # not a multiple of any chunk count


def _ids(dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 1000, M).astype(dtype), rng.integers(0, 1000, M).astype(dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("position", [0, 1, M // 2, M - 1])
def test_id_bounds_find_extremes_anywhere(dtype, position):
    src, dst = _ids(dtype)
    src[position], dst[M - 1 - position] = -5, 2**30
    assert _edge_checks.id_bounds(src, dst) == (-5, 2**30)
    assert _edge_checks.id_bounds(src, dst) == (min(src.min(), dst.min()),
                                                max(src.max(), dst.max()))


@pytest.mark.parametrize("position", [0, 1, M // 3, M - 1])
def test_first_nan_is_the_first(position):
    w = np.random.default_rng(1).random(M)
    assert _edge_checks.first_nan(w) == -1
    w[position] = np.nan
    w[-1] = np.nan
    assert _edge_checks.first_nan(w) == position
    assert _edge_checks.first_nan(w.astype(np.float32)) == position


@pytest.mark.parametrize(("source", "target"), [(np.int64, np.int32), (np.int32, np.int64),
                                                (np.float64, np.float64)])
def test_copy_into_equals_numpy(source, target):
    a = np.arange(M).astype(source)
    out = _edge_checks.copy_into(a[::-1], np.dtype(target))
    assert out.dtype == target and np.array_equal(out, a[::-1].astype(target))
    assert not np.shares_memory(out, a)


def test_large_from_edges_matches_the_numpy_path():
    src, dst = _ids(np.int64, seed=3)
    w = np.random.default_rng(3).random(M)
    large = parmst.Graph.from_edges(src, dst, w)
    small = [parmst.Graph.from_edges(src[i:i + 60_000], dst[i:i + 60_000], w[i:i + 60_000],
                                     num_vertices=large.num_vertices) for i in (0, 60_000)]
    assert large.src.dtype == np.int32 and large.num_vertices == max(src.max(), dst.max()) + 1
    assert np.array_equal(large.src, src) and np.array_equal(large.dst, dst)
    assert np.array_equal(large.weight, w) and not np.shares_memory(large.weight, w)
    assert np.array_equal(np.concatenate([g.src for g in small]), src[:120_000])


def test_large_from_edges_reports_each_error_as_before():
    src, dst = _ids(np.int32)
    bad = src.copy()
    bad[M - 2] = -1
    with pytest.raises(GraphValueError, match=f"edge {M - 2} has negative vertex id -1"):
        parmst.Graph.from_edges(bad, dst)
    with pytest.raises(GraphValueError, match=r"edge \d+ has vertex id 999 but num_vertices"):
        parmst.Graph.from_edges(src, dst, num_vertices=999)
    w = np.ones(M)
    w[[5, M - 1]] = np.nan
    with pytest.raises(GraphValueError, match=r"edge 5 has a NaN weight \(2 NaN weights"):
        parmst.Graph.from_edges(src, dst, w)
    assert parmst.Graph.from_edges(src, dst, w, allow_nan=True).has_nan


def test_non_native_byte_order_takes_the_numpy_path():
    src, dst = _ids(np.int32)
    swapped = src.astype(">i4")
    assert not _edge_checks.takes(swapped, dst, np.ones(M))
    graph = parmst.Graph.from_edges(swapped, dst, np.ones(M, dtype=">f8"))
    assert np.array_equal(graph.src, src) and np.array_equal(graph.weight, np.ones(M))
