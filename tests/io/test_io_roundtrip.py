"""Every format writes and reads back the same graph (as exactly as the format can hold it)."""

import gzip
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parmst import Graph, GraphFormatError, io
from parmst.formats import dimacs, edgelist, mtx, pbbs

EXACT = ("edgelist", "snap", "dimacs", "npz")


def canonical_egr(g: Graph) -> Graph:
    """What an egr round trip gives: edges by smaller endpoint (stable), oriented low -> high."""
    lo, hi = np.minimum(g.src, g.dst), np.maximum(g.src, g.dst)
    order = np.argsort(lo, kind="stable")
    return Graph.from_edges(lo[order], hi[order], g.weight[order].astype(np.int32),
                            g.num_vertices)


def expected_after(fmt: str, g: Graph) -> Graph:
    """The graph each format reads back after writing ``g`` with default options."""
    if fmt == "mtx":  # symmetric storage keeps order but writes the lower triangle
        return Graph.from_edges(np.maximum(g.src, g.dst), np.minimum(g.src, g.dst), g.weight,
                                g.num_vertices)
    if fmt in ("pbbs", "csv"):  # no vertex count, no dtype
        wide = np.float64 if g.weight.dtype.kind == "f" and g.num_edges else np.int64
        return Graph.from_edges(g.src, g.dst, g.weight.astype(wide))
    if fmt == "egr":
        return canonical_egr(g)
    return g


def assert_same(a: Graph, b: Graph) -> None:
    assert a.num_vertices == b.num_vertices
    assert a.src.tolist() == b.src.tolist() and a.dst.tolist() == b.dst.tolist()
    assert a.weight.dtype == b.weight.dtype
    assert a.weight.tobytes() == b.weight.tobytes()  # bitwise: -0.0, inf, float32 values


def round_trip(g: Graph, fmt: str, folder, **write_options) -> Graph:
    path = os.path.join(folder, "g" + io.FORMATS[fmt].extensions[0])
    io.write(g, path, **write_options)
    return io.read(path)


GRAPHS = {
    "int32-multi-loops-isolated": Graph.from_edges(
        [0, 1, 2, 3, 3, 1, 4], [1, 2, 0, 3, 1, 2, 4],
        np.array([3, 1, 2, -5, 1, 1, 0], dtype=np.int32), num_vertices=7),
    "int64-extremes": Graph.from_edges(
        [0, 1, 2], [1, 2, 0], np.array([-(2**63), 2**63 - 1, 0], dtype=np.int64)),
    "float64-specials": Graph.from_edges(
        [0, 1, 2, 0, 1], [1, 2, 0, 2, 1],
        [0.1, 5e-324, np.inf, -0.0, 1.7976931348623157e308], num_vertices=4),
    "float32": Graph.from_edges([0, 1, 2], [1, 2, 0],
                                np.array([0.1, 1 / 3, -np.inf], dtype=np.float32)),
    "empty": Graph.from_edges([], [], np.zeros(0, dtype=np.int32)),
    "no-edges": Graph.from_edges([], [], np.zeros(0, dtype=np.float64), num_vertices=5),
}


def applicable(fmt: str, g: Graph) -> bool:
    if fmt == "egr":  # int32 weights only
        return g.weight.dtype == np.int32
    return True


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("fmt", io.FORMATS)
def test_round_trip_named_graphs(fmt, name, tmp_path):
    g = GRAPHS[name]
    if not applicable(fmt, g):
        with pytest.raises(GraphFormatError, match="int32 weights"):
            round_trip(g, fmt, tmp_path)
        return
    back = round_trip(g, fmt, tmp_path)
    expected = expected_after(fmt, g)
    if fmt in ("pbbs", "csv"):  # trailing isolated vertices are not in the file
        back = Graph.from_edges(back.src, back.dst, back.weight, expected.num_vertices)
    assert_same(back, expected)


@st.composite
def small_graphs(draw):
    n = draw(st.integers(1, 7))
    m = draw(st.integers(0, 12))
    ids = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    dtype = np.dtype(draw(st.sampled_from(["int32", "int64", "float32", "float64"])))
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        values = st.integers(int(info.min), int(info.max))
    else:
        values = st.floats(allow_nan=False, width=8 * dtype.itemsize)
    weights = draw(st.lists(values, min_size=m, max_size=m))
    return Graph.from_edges(draw(ids), draw(ids), np.array(weights, dtype=dtype), n)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(g=small_graphs())
def test_round_trip_random_graphs(g, tmp_path):
    for fmt in io.FORMATS:
        if fmt == "egr":
            g32 = g.with_weights(np.clip(g.weight, -(2**31), 2**31 - 1).astype(np.int32)) \
                if g.weight.dtype.kind == "i" else g.with_weights(np.arange(g.num_edges) % 3)
            assert_same(round_trip(g32, fmt, tmp_path), canonical_egr(g32))
            continue
        back = round_trip(g, fmt, tmp_path)
        expected = expected_after(fmt, g)
        if fmt in ("pbbs", "csv"):
            back = io.read(os.path.join(tmp_path, "g" + io.FORMATS[fmt].extensions[0]),
                           num_vertices=g.num_vertices, weight_dtype=g.weight.dtype.name)
            expected = g
        assert_same(back, expected)


@pytest.mark.parametrize("fmt", ["edgelist", "dimacs", "mtx", "egr"])
def test_gzip_compressed_files(fmt, tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    path = tmp_path / ("g" + io.FORMATS[fmt].extensions[0] + ".gz")
    io.write(g, path)
    with gzip.open(path) as f:
        assert len(f.read()) > 0
    assert_same(io.read(path), expected_after(fmt, g))


def test_npz_refuses_gzip_suffix(tmp_path):
    with pytest.raises(GraphFormatError, match="cannot be gzip-compressed"):
        io.write(GRAPHS["empty"], tmp_path / "g.npz.gz")


def test_metadata_off_gives_inferred_types_and_max_id_vertices(tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    path = tmp_path / "g.txt"
    edgelist.write(g, path, metadata=False)
    back = io.read(path)
    assert back.weight.dtype == np.int64 and back.num_vertices == 5
    assert io.read(path, num_vertices=7, weight_dtype="int32").weight.dtype == np.int32


def test_dimacs_both_directions_then_dedupe(tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    path = tmp_path / "g.gr"
    dimacs.write(g, path, both_directions=True)
    assert io.read(path).num_edges == 2 * g.num_edges
    assert_same(io.read(path, symmetric="dedupe"), g)


def test_dimacs_road_file_keeps_arcs_by_default(tmp_path):
    path = tmp_path / "road.gr"
    path.write_text("c road\np sp 3 4\na 1 2 10\na 2 1 10\na 2 3 5\na 3 2 5\n")
    arcs = io.read(path)
    roads = io.read(path, symmetric="dedupe")
    assert arcs.num_edges == 4
    assert (roads.src.tolist(), roads.dst.tolist(), roads.weight.tolist()) == (
        [0, 1], [1, 2], [10, 5])


def test_mtx_general_storage_and_options(tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    path = tmp_path / "g.mtx"
    mtx.write(g, path, symmetry="general")
    assert_same(io.read(path), g)
    path.write_text("%%MatrixMarket matrix coordinate real general\n% two-way\n3 3 4\n"
                    "1 2 0.5\n2 1 0.5\n3 2 1.5\n2 3 2.5\n")
    assert io.read(path).num_edges == 4
    assert io.read(path, general="dedupe").weight.tolist() == [0.5, 1.5, 2.5]
    assert io.read(path, general="upper").weight.tolist() == [0.5, 2.5]
    assert io.read(path, general="lower").weight.tolist() == [0.5, 1.5]


def test_mtx_pattern_gives_unit_weights(tmp_path):
    path = tmp_path / "p.mtx"
    path.write_text("%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n4 3\n")
    g = io.read(path)
    assert (g.num_vertices, g.src.tolist(), g.dst.tolist()) == (4, [1, 3], [0, 2])
    assert g.weight.dtype == np.int32 and g.weight.tolist() == [1, 1]


def test_mtx_matches_scipy_reader(tmp_path):
    scipy_io = pytest.importorskip("scipy.io", reason="scipy cross-check")
    g = GRAPHS["float64-specials"].subgraph_edges(np.isfinite(GRAPHS["float64-specials"].weight))[0]
    path = tmp_path / "g.mtx"
    io.write(g, path)
    matrix = scipy_io.mmread(path).tocoo()  # expanded to both triangles
    lower = matrix.row >= matrix.col
    entries = zip(matrix.row[lower].tolist(), matrix.col[lower].tolist(),
                  matrix.data[lower].tolist())
    assert sorted(entries) == sorted(
        zip(np.maximum(g.src, g.dst).tolist(), np.minimum(g.src, g.dst).tolist(),
            g.weight.tolist()))


def test_snap_relabels_sparse_ids(tmp_path):
    path = tmp_path / "s.snap"
    path.write_text("# Nodes: 3 Edges: 3\n# FromNodeId\tToNodeId\n900\t5\n5\t77\n77\t900\n")
    g, labels = io.read_with_labels(path, "snap", relabel=True)
    assert labels.tolist() == [5, 77, 900]
    assert (g.src.tolist(), g.dst.tolist()) == ([2, 0, 1], [0, 1, 2])
    g, labels = io.read_with_labels(path, "snap", relabel="first")
    assert labels.tolist() == [900, 5, 77] and g.src.tolist() == [0, 1, 2]
    assert io.read(path).num_vertices == 901


def test_ids_beyond_int32_switch_to_int64(tmp_path, monkeypatch):
    # 3e9 vertices are 24 GB at 8 bytes each: pretend the machine has 1 TiB, whatever it has.
    monkeypatch.setattr("parmst._memory.available_memory", lambda: 2**40)
    path = tmp_path / "wide.txt"
    path.write_text("0 1 5\n1 3000000000 7\n")
    g = io.read(path)
    assert g.num_vertices == 3_000_000_001 and g.src.dtype == np.int64
    assert g.dst.tolist() == [1, 3_000_000_000]
    g, labels = io.read_with_labels(path, "snap", relabel=True)
    assert labels.tolist() == [0, 1, 3_000_000_000] and g.src.dtype == np.int32


def test_snap_dedupe_of_two_way_listing(tmp_path):
    path = tmp_path / "s.snap"
    path.write_text("0\t1\n1\t0\n1\t2\n2\t1\n")
    assert io.read(path, symmetric="dedupe").src.tolist() == [0, 1]


def test_edgelist_header_line_detected_and_checked(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("6 2\n0 1 5\n2 3 7\n")
    g = io.read(path)
    assert (g.num_vertices, g.num_edges) == (6, 2)
    path.write_text("0 1\n2 3\n")
    assert io.read(path).num_edges == 2  # two columns everywhere: unweighted edges
    with pytest.raises(GraphFormatError, match=r"line 2: vertex id 2 .* out of range 0\.\.-1"):
        io.read(path, header=True)  # header n=0 m=1 leaves no valid id


def test_edgelist_header_forced_and_unweighted(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("5 2\n0 1\n2 3\n")
    g = io.read(path, header=True)
    assert (g.num_vertices, g.num_edges, g.weight.tolist()) == (5, 2, [1, 1])


def test_pbbs_reads_free_form_words(tmp_path):
    path = tmp_path / "g.pbbs"
    path.write_text("WeightedEdgeArray\n0 1\n2.5 1 2 3.5 2\n0\n-1\n")
    g = io.read(path)
    assert g.weight.tolist() == [2.5, 3.5, -1.0] and g.dst.tolist() == [1, 2, 0]
    path.write_text("EdgeArray\n0 1\n1 2\n")
    assert io.read(path).weight.tolist() == [1, 1]


def test_pbbs_matches_pbbs_writer_layout(tmp_path):
    path = tmp_path / "g.pbbs"
    pbbs.write(Graph.from_edges([0, 3], [1, 2], [1.5, 2.0]), path)
    assert path.read_text() == "WeightedEdgeArray\n0 1 1.5\n3 2 2.0\n"


def test_float_text_is_correctly_rounded(tmp_path):
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.random(2000), rng.standard_normal(2000) * 1e300,
                             rng.random(2000) * 1e-310, rng.integers(-10**6, 10**6, 500) * 1.0])
    path = tmp_path / "f.txt"
    exact_decimal_of_0_1 = "0.1000000000000000055511151231257827021181583404541015625"
    lines = [f"0 1 {v!r}" for v in values.tolist()] + [f"0 1 {exact_decimal_of_0_1}"]
    path.write_text("\n".join(lines) + "\n")
    w = io.read(path).weight
    assert w[:-1].tobytes() == values.tobytes() and w[-1] == 0.1


def test_crlf_tabs_blank_lines_and_comments(tmp_path):
    path = tmp_path / "w.txt"
    path.write_bytes(b"# made on windows\r\n0\t1\t5\r\n\r\n  % aside\r\n1 2   7  \r\n")
    g = io.read(path)
    assert (g.src.tolist(), g.dst.tolist(), g.weight.tolist()) == ([0, 1], [1, 2], [5, 7])


def test_empty_edge_list_is_empty_graph(tmp_path):
    path = tmp_path / "e.txt"
    path.write_text("")
    assert io.read(path).num_edges == 0
    path.write_text("# nothing\n\n")
    assert io.read(path, num_vertices=3).num_vertices == 3


def test_nan_weights_kept_on_request(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("0 1 nan\n1 2 2.5\n")
    g = io.read(path, allow_nan=True)
    assert np.isnan(g.weight[0]) and g.weight[1] == 2.5


def test_many_chunks_and_array_growth(tmp_path, monkeypatch):
    monkeypatch.setattr("parmst.formats._rows.CHUNK_BYTES", 7)
    g = Graph.from_edges(np.arange(50) % 9, (np.arange(50) * 7) % 9, np.arange(50) * 1.5)
    path = tmp_path / "g.txt"
    io.write(g, path)
    assert_same(io.read(path), g)
    path = tmp_path / "g.pbbs"  # all on one line: the row estimate from line breaks is 1
    path.write_text("WeightedEdgeArray " + " ".join(f"{u} {v} {w}" for u, v, w in
                                                    zip(g.src, g.dst, g.weight.tolist())))
    assert_same(io.read(path, num_vertices=9), g)


def test_progress_bar_on_request(tmp_path, capsys):
    g = GRAPHS["int32-multi-loops-isolated"]
    io.write(g, tmp_path / "g.txt", progress=True)
    io.read(tmp_path / "g.txt", progress=True)
    assert "reading" in capsys.readouterr().err
    io.read(tmp_path / "g.txt", progress=False)
    assert capsys.readouterr().err == ""


def test_detection_by_extension_and_by_name(tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    for fmt in io.FORMATS.values():
        for extension in fmt.extensions:
            assert io.detect_format(f"x{extension.upper()}").name == fmt.name
    path = tmp_path / "graph.data"
    io.write(g, path, format="dimacs")
    assert path.read_text().count("\na ") == g.num_edges
    assert_same(io.read(path, format="DIMACS"), g)


def test_unknown_extension_lists_formats_and_guesses_content(tmp_path):
    path = tmp_path / "graph.data"
    io.write(GRAPHS["float32"], path, format="mtx")
    with pytest.raises(GraphFormatError) as error:
        io.read(path)
    message = str(error.value)
    assert "'.data'" in message and "looks like mtx" in message and "format=" in message
    assert all(name in message for name in io.FORMATS)


def test_unknown_format_name_and_unknown_option(tmp_path):
    io.write(GRAPHS["float32"], tmp_path / "g.gr")
    with pytest.raises(GraphFormatError, match="unknown format 'xlsx'"):
        io.read(tmp_path / "g.gr", format="xlsx")
    with pytest.raises(TypeError, match="dimacs reading got unknown option.*relabel"):
        io.read(tmp_path / "g.gr", relabel=True)
    with pytest.raises(TypeError, match="npz writing got unknown option.*metadata"):
        io.write(GRAPHS["float32"], tmp_path / "g.npz", metadata=False)


def test_convert_and_graph_methods(tmp_path):
    g = GRAPHS["int32-multi-loops-isolated"]
    g.write(tmp_path / "g.txt")
    back = io.convert(tmp_path / "g.txt", tmp_path / "g.gr")
    assert_same(back, g)
    assert_same(Graph.read(tmp_path / "g.gr"), g)
    io.convert(tmp_path / "g.gr", tmp_path / "g.bin", dst_format="npz",
               write_options={"compressed": True})
    assert_same(io.read(tmp_path / "g.bin", format="npz"), g)


def test_formats_work_without_jit(tmp_path):
    """The kernels also run as plain Python (NUMBA_DISABLE_JIT=1) on tiny inputs."""
    script = (
        "import sys, numpy as np\n"
        "from parmst import Graph, io\n"
        "g = Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 2], np.array([1, 2, -3, 4], dtype=np.int32),"
        " num_vertices=4)\n"
        "gf = g.with_weights(np.array([0.1, 2.5e-300, 1e300, float('inf')]))\n"
        "folder = sys.argv[1]\n"
        "for name, fmt in io.FORMATS.items():\n"
        "    for graph in ([g] if name == 'egr' else [g, gf]):\n"
        "        path = f'{folder}/g{fmt.extensions[0]}'\n"
        "        io.write(graph, path)\n"
        "        back = io.read(path)\n"
        "        assert back.num_edges == graph.num_edges, name\n"
        "        assert sorted(back.weight.tolist()) == sorted(graph.weight.tolist()), name\n"
        "print('ok')\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", script,
                           str(tmp_path)], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
