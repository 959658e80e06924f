import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

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


# ---------------------------------------------------------------------- hostile arrays
@pytest.fixture
def one_gib(monkeypatch):
    """Every machine looks like 1 GiB of free memory, so size limits do not depend on it."""
    monkeypatch.setattr("parmst._memory.available_memory", lambda: 2**30)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"src": [[0, 1]], "dst": [[1, 2]]}, "src must be a one-dimensional array, got shape (1, 2)"),
    ({"src": 0, "dst": 1}, "src must be a one-dimensional array, got a scalar"),
    ({"src": [0, 1], "dst": [1, [2, 3]]}, "dst must be a one-dimensional array: "),
    ({"src": [0], "dst": [1], "weight": [[1.0]]}, "weight must be a one-dimensional array"),
    ({"src": [0], "dst": [1], "weight": 5}, "weight must be a one-dimensional array, got a scalar"),
    ({"src": ["a"], "dst": [1], "relabel": False},
     "src must hold integer vertex ids or names, got dtype <U1"),
    ({"src": np.array([None], dtype=object), "dst": ["b"]}, "1 missing (null) values"),
    ({"src": [np.nan], "dst": [1]}, "src must hold integer vertex ids or names, got dtype float64"),
    ({"src": [0], "dst": [1], "relabel": "yes"}, "relabel must be one of"),
    ({"src": [1e20], "dst": [1]}, "src holds vertex id 1e+20, beyond int64"),
    ({"src": [0], "dst": [1], "weight": [1 + 2j]},
     "weights must be real numbers, got dtype complex128"),
    ({"src": [0], "dst": [1], "weight": np.array(["2020-01-01"], dtype="datetime64[D]")},
     "weights must be real numbers"),
    ({"src": [0, 1], "dst": [1, 2], "weight": [1]}, "2 edges but 1 weights"),
    ({"src": [0], "dst": [1], "num_vertices": float("nan")}, "got nan"),
    ({"src": [0], "dst": [1], "num_vertices": float("inf")}, "got inf"),
    ({"src": [0], "dst": [1], "num_vertices": 2.5}, "got 2.5"),
    ({"src": [0], "dst": [1], "num_vertices": True}, "got True"),
    ({"src": [0], "dst": [1], "num_vertices": "7"}, "got '7'"),
    ({"src": [0], "dst": [1], "num_vertices": -3}, "got -3"),
    ({"src": [0], "dst": [1], "num_vertices": 10**12},
     "num_vertices=1000000000000 would need 10^12 vertices, 7.28 TiB, more than the 1.00 GiB"),
    ({"src": [0], "dst": [1], "num_vertices": 2**80}, "beyond the int64 range"),
    ({"src": [0, 5], "dst": [999999999999, 1]},
     "vertex id 999999999999 (edge 0) would need 10^12 vertices"),
    ({"src": np.array([2**64 - 1], dtype=np.uint64), "dst": [0]}, "beyond the int64 range"),
])
def test_hostile_arrays_give_one_graph_value_error(one_gib, kwargs, message):
    with pytest.raises(GraphValueError) as caught:
        Graph.from_edges(**kwargs)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_num_vertices_may_be_an_integral_float_or_numpy_integer():
    assert Graph.from_edges([0], [1], num_vertices=5.0).num_vertices == 5
    assert Graph.from_edges([0], [1], num_vertices=np.int16(4)).num_vertices == 4


def test_non_contiguous_and_read_only_inputs_are_copied_not_touched():
    base = np.arange(12, dtype=np.int64).reshape(3, 4)
    src, dst = base[0, ::2], base[:, 1][:2]  # strided views
    weight = np.array([2.5, -1.0])
    for array in (src, dst, weight):
        array.setflags(write=False)
    g = Graph.from_edges(src, dst, weight, num_vertices=12)
    assert g.src.tolist() == [0, 2] and g.dst.tolist() == [1, 5] and g.weight.tolist() == [2.5, -1]
    assert g.src.flags.c_contiguous and not g.src.flags.writeable
    assert not weight.flags.writeable and base.tolist()[0] == [0, 1, 2, 3]


def test_edge_count_beyond_memory_is_refused_before_copying(monkeypatch):
    monkeypatch.setattr("parmst._memory.available_memory", lambda: 1000)
    with pytest.raises(GraphValueError, match="the graph's arrays would need 100 edges, 1.17 KiB"):
        Graph.from_edges(np.arange(100) % 5, np.arange(100) % 7)


@given(st.data())
def test_random_hostile_inputs_raise_only_graph_value_error(data):
    arrays = st.one_of(
        st.lists(st.integers(-3, 2**65), max_size=4),
        st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=4),
        st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=3),
        st.lists(st.text(max_size=2), max_size=3),
        st.integers(0, 5), st.none(), st.booleans(),
        st.sampled_from([np.zeros((2, 2)), np.ones(3, dtype=np.complex64), np.arange(3)[::-1],
                         np.array([1, None], dtype=object), np.array([], dtype=np.float16)]),
    )
    counts = st.one_of(st.none(), st.integers(-2, 2**70), st.floats(), st.text(max_size=2))
    src, dst, weight = data.draw(arrays), data.draw(arrays), data.draw(arrays)
    num_vertices = data.draw(counts)
    try:
        g = Graph.from_edges(src, dst, weight, num_vertices=num_vertices)
    except GraphValueError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert g.num_edges == len(g.dst) == len(g.weight)
        assert g.num_edges == 0 or max(g.src.max(), g.dst.max()) < g.num_vertices


_NO_CUDA_CHECK = """
import sys
import parmst
g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
assert g.has_nan is False and g.csr().num_vertices == 3 and f.component_labels().tolist() == [0] * 3
print("numba.cuda" in sys.modules)
"""


def test_host_graphs_never_import_numba_cuda():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _NO_CUDA_CHECK], check=True, capture_output=True,
                         text=True, timeout=300).stdout
    assert out.strip() == "False"


def _parmst_imports(module) -> set[str]:
    """Every ``parmst`` module that ``module``'s source imports, at any depth of its code."""
    import ast
    import inspect

    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("parmst"):
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("parmst"))
    return found


def test_graph_and_forest_import_nothing_above_their_layer():
    import importlib

    parts = ["parmst.graph", "parmst.forest", "parmst._csr", "parmst._edge_input",
             "parmst._graph_device", "parmst._graph_convert", "parmst._tables", "parmst._labels",
             "parmst._host_edges", "parmst.graph_parts"]
    above = ("parmst.solvers", "parmst.interop", "parmst.registry", "parmst.api",
             "parmst.verify", "parmst.bench", "parmst.cli", "parmst.distributed", "parmst.io")
    for name in parts:
        imported = _parmst_imports(importlib.import_module(name))
        assert not [m for m in imported if m.startswith(above)], name


def test_file_formats_sit_below_the_graph():
    # Graph.read and Graph.write call parmst.formats; parmst.io builds graphs from it.
    import importlib
    import pkgutil

    import parmst.formats

    names = ["parmst.formats", *(m.name for m in pkgutil.iter_modules(parmst.formats.__path__,
                                                                      "parmst.formats."))]
    assert "parmst.formats.edgelist" in names
    for name in names:
        imported = _parmst_imports(importlib.import_module(name))
        assert not [m for m in imported if m.startswith(("parmst.graph", "parmst.io"))], name
