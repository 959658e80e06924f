import numpy as np
import pytest

from parmst import Graph, GraphValueError


def test_from_edges_infers_vertices_and_types():
    g = Graph.from_edges([0, 2], [1, 0], [1.5, 2.5])
    assert g.num_vertices == 3 and g.num_edges == 2
    assert g.index_dtype == np.int32 and g.weight.dtype == np.float64


def test_graph_is_immutable_and_does_not_alias_input():
    src = np.array([0, 1])
    g = Graph.from_edges(src, [1, 2], [1, 1])
    src[0] = 2
    assert g.src[0] == 0
    with pytest.raises(AttributeError):
        g.num_vertices = 5
    with pytest.raises(ValueError):
        g.src[0] = 1


@pytest.mark.parametrize(("dtype", "expected"), [
    (np.int8, np.int32), (np.uint16, np.int32), (np.int32, np.int32), (np.uint32, np.int64),
    (np.int64, np.int64), (np.float16, np.float32), (np.float32, np.float32),
    (np.float64, np.float64), (bool, np.int32),
])
def test_weight_dtype_coercion(dtype, expected):
    g = Graph.from_edges([0], [1], np.array([1], dtype=dtype))
    assert g.weight.dtype == expected


def test_unit_weights_when_omitted():
    assert Graph.from_edges([0, 1], [1, 2]).weight.tolist() == [1, 1]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"src": [0, 1], "dst": [1], "weight": [1, 1]}, "src has 2 entries but dst has 1"),
    ({"src": [0], "dst": [1], "weight": [1, 2]}, "1 edges but 2 weights"),
    ({"src": [0, -1], "dst": [1, 0], "weight": [1, 1]}, "edge 1 has negative vertex id -1"),
    ({"src": [0, 5], "dst": [1, 0], "weight": [1, 1], "num_vertices": 3},
     "edge 1 has vertex id 5 but num_vertices is 3"),
    ({"src": [0], "dst": [1], "weight": [np.nan]}, "edge 0 has a NaN weight"),
    ({"src": [0], "dst": [1], "weight": ["a"]}, "weights must be real numbers"),
    ({"src": [0.5], "dst": [1], "weight": [1]}, "src must hold integer vertex ids"),
    ({"src": [0], "dst": [1], "weight": [1], "num_vertices": -1}, "num_vertices must be a non-negative"),
    ({"src": [0], "dst": [1], "weight": np.array([2**64 - 1], dtype=np.uint64)}, "does not fit int64"),
])
def test_validation_errors_name_the_problem(kwargs, message):
    with pytest.raises(GraphValueError, match=message.replace("(", r"\(")):
        Graph.from_edges(**kwargs)


def test_nan_allowed_on_request():
    g = Graph.from_edges([0], [1], [np.nan], allow_nan=True)
    assert g.has_nan


def test_empty_graph_and_isolated_vertices():
    g = Graph.from_edges([], [], [], num_vertices=4)
    assert g.num_edges == 0 and g.num_vertices == 4
    assert g.csr().indptr.tolist() == [0, 0, 0, 0, 0]


def test_csr_has_both_directions_without_loops_and_keeps_ids():
    g = Graph.from_edges([0, 1, 2, 0], [1, 2, 2, 1], [5, 6, 7, 8])
    csr = g.csr()
    assert csr.indptr.tolist() == [0, 2, 5, 6]
    assert csr.indices.tolist() == [1, 1, 0, 2, 0, 1]
    assert csr.edge_ids.tolist() == [0, 3, 0, 1, 3, 1]
    assert csr.weights.tolist() == [5, 8, 5, 6, 8, 6]
    assert g.csr() is csr
    g.clear_cache()
    assert g.csr() is not csr


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_csr_rows_are_in_edge_id_order_for_any_thread_count(threads):
    import numba

    from parmst._csr import build_csr

    rng = np.random.default_rng(11)
    n, m = 500, 4000
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    dst[:40] = src[:40]  # self-loops stay out of the CSR
    dst[40:400] = 7  # one heavy row spanning several thread ranges' worth of entries
    weight = rng.integers(-50, 50, m).astype(np.int64)
    keep = src != dst
    rows = np.concatenate([src[keep], dst[keep]])
    cols = np.concatenate([dst[keep], src[keep]])
    ids = np.concatenate([np.flatnonzero(keep)] * 2)
    order = np.lexsort((ids, rows))
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        csr = build_csr(src, dst, weight, n)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(csr.indptr, np.searchsorted(rows[order], np.arange(n + 1)))
    np.testing.assert_array_equal(csr.indices, cols[order])
    np.testing.assert_array_equal(csr.edge_ids, ids[order])
    np.testing.assert_array_equal(csr.weights, weight[ids[order]])


def test_from_scipy_keeps_upper_triangle_of_symmetric_matrix():
    sp = pytest.importorskip("scipy.sparse")
    m = sp.coo_array(([1.0, 1.0, 2.0, 2.0], ([0, 1, 1, 2], [1, 0, 2, 1])), shape=(4, 4))
    g = Graph.from_scipy(m)
    assert g.num_vertices == 4 and g.num_edges == 2
    assert sorted(zip(g.src.tolist(), g.dst.tolist())) == [(0, 1), (1, 2)]
    with pytest.raises(GraphValueError, match="square"):
        Graph.from_scipy(sp.coo_array((2, 3)))


def test_to_scipy_keeps_lightest_parallel_edge():
    pytest.importorskip("scipy.sparse")
    g = Graph.from_edges([0, 1, 0, 2], [1, 0, 0, 1], [5, 3, 1, 4])
    a = g.to_scipy().toarray()
    assert a[0, 1] == 3 and a[1, 0] == 3 and a[1, 2] == 4 and a[0, 0] == 0


def test_networkx_round_trip():
    nx = pytest.importorskip("networkx")
    g = Graph.from_networkx(nx.Graph([("a", "b", {"weight": 2}), ("b", "c", {"weight": 1})]))
    assert (g.num_vertices, g.num_edges) == (3, 2)
    back = g.to_networkx()
    assert back.number_of_edges() == 2
    assert {d["edge_id"] for _, _, d in back.edges(data=True)} == {0, 1}


def test_from_table_names_missing_column():
    with pytest.raises(GraphValueError, match="no column 'w'"):
        Graph.from_table({"source": [0], "target": [1]}, weight="w")


def test_large_graph_gets_int64_indices():
    from parmst.graph import index_dtype_for

    assert index_dtype_for(10, 2**30 - 1) == np.int32
    assert index_dtype_for(10, 2**30) == np.int64
    assert index_dtype_for(2**31, 1) == np.int64
