"""Malformed files fail with GraphFormatError naming the file, the line or byte offset,
what was expected and what was found."""

import gzip
import re

import numpy as np
import pytest

from parmst import Graph, GraphFormatError, io
from parmst.io import GraphFileNotFoundError


def read_error(tmp_path, name: str, content, **options) -> GraphFormatError:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content)
    else:
        path.write_bytes(content)
    with pytest.raises(GraphFormatError) as error:
        io.read(path, **options)
    assert error.value.path == str(path) and str(path) in str(error.value)
    assert "\n" not in str(error.value)  # one line, whatever bytes the file holds
    return error.value


def egr_bytes(*int32_words) -> bytes:
    return np.array(int32_words, dtype="<i4").tobytes()


# Text: line number, expected field, found token.
@pytest.mark.parametrize(("name", "content", "line", "message"), [
    ("bad_token.txt", "0 1 5\n1 x 2\n", 2, "expected an integer vertex id for 'v', found 'x'"),
    ("bad_weight.txt", "0 1 5\n\n1 2 abc\n", 3,
     "expected a number for the weight 'w', found 'abc'"),
    ("float_id.txt", "0 1.0 5\n", 1, "expected an integer vertex id for 'v', found '1.0'"),
    ("huge_id.txt", "99999999999999999999 1 5\n", 1, "integer vertex id for 'u'"),
    ("missing_column.txt", "0 1 5\n1 2\n", 2, ("expected 3 fields 'u v w', found 2 "
                                                "(missing 'w' at end of line)")),
    ("missing_at_eof.txt", "0 1 5\n1 2", 2, "found 2 (missing 'w' at end of file)"),
    ("extra_column.txt", "0 1\n1 2\n2 3 4\n", 3,
     "expected 2 fields 'u v', found an extra field '4'"),
    ("header_guess.txt", "0 1\n1 2 3\n", 2,
     ("vertex id 1 for 'u' is out of range 0..-1 "
     "(num_vertices=0 from the header line 'n m' on line 1)")),
    ("negative_id.txt", "0 1 5\n-1 2 5\n", 2, "vertex id -1 for 'u' is out of range 0.."),
    ("nan_weight.txt", "0 1 1.5\n1 2 NaN\n", 2, "NaN weight 'NaN' (pass allow_nan=True"),
    ("wrong_header.txt", "4 x\n0 1 5\n", 1, "expected a header line 'n m' of two integers"),
    ("header_count.txt", "4 3\n0 1 5\n1 2 5\n", 1,
     "the header line 'n m' announces m=3 edges but the file has 2"),
    ("negative_header.txt", "-4 1\n0 1 5\n", 1, "negative count in the header line"),
    ("too_many_columns.txt", "0 1 5 6\n", 1, "expected 3 fields 'u v w' (or 2, 'u v'), found 4"),
    ("matrix.txt", "%%MatrixMarket matrix coordinate real general\n1 1 0\n", 1,
     "this is a Matrix Market file; read it with format='mtx'"),
])
def test_edgelist_errors(tmp_path, name, content, line, message):
    error = read_error(tmp_path, name, content)
    assert error.line == line and error.offset is None
    assert message in str(error) and f"{name}, line {line}:" in str(error)


def test_nan_weight_accepted_with_allow_nan(tmp_path):
    path = tmp_path / "nan.txt"
    path.write_text("0 1 nan\n")
    assert np.isnan(io.read(path, allow_nan=True).weight[0])


def test_ids_checked_against_num_vertices_option(tmp_path):
    error = read_error(tmp_path, "g.txt", "0 1 5\n1 7 5\n", num_vertices=5)
    assert error.line == 2
    expected = ("vertex id 7 for 'v' is out of range 0..4 "
                "(num_vertices=5 from the num_vertices option)")
    assert expected in str(error)


def test_integer_weight_dtype_rejects_fractions_and_overflow(tmp_path):
    error = read_error(tmp_path, "f.txt", "0 1 5\n1 2 2.5\n", weight_dtype="int32")
    assert error.line == 2 and "expected an integer for the weight 'w', found '2.5'" in str(error)
    error = read_error(tmp_path, "o.txt", "0 1 5\n1 2 2147483648\n", weight_dtype="int32")
    assert error.line == 2 and "weight 2147483648 is out of range -2147483648..2147483647" in str(
        error)


def test_bad_metadata_comment(tmp_path):
    error = read_error(tmp_path, "m.txt", "# made by hand\n# parmst: weight=complex64\n0 1 5\n")
    assert error.line == 2 and "the metadata comment names weight type 'complex64'" in str(error)
    error = read_error(tmp_path, "n.txt", "# parmst: num_vertices=lots\n0 1 5\n")
    assert error.line == 1 and "num_vertices='lots'; expected a non-negative integer" in str(error)


@pytest.mark.parametrize(("options", "message"), [
    ({"num_vertices": -1}, "num_vertices must be a non-negative integer; got -1"),
    ({"num_vertices": 2.5}, "num_vertices must be a non-negative integer; got 2.5"),
    ({"symmetric": "both"}, "symmetric must be one of 'keep', 'dedupe'; got 'both'"),
    ({"relabel": "random"}, "relabel must be one of False, True, 'sorted', 'first'"),
])
def test_bad_options_are_value_errors(tmp_path, options, message):
    (tmp_path / "g.txt").write_text("0 1 5\n")
    with pytest.raises(ValueError, match=re.escape(message)):
        io.read(tmp_path / "g.txt", **options)


def test_bad_weight_dtype_option_is_a_value_error(tmp_path):
    (tmp_path / "g.txt").write_text("0 1 5\n")
    with pytest.raises(ValueError, match="weight_dtype='int8' is not a weight type"):
        io.read(tmp_path / "g.txt", weight_dtype="int8")


# DIMACS
@pytest.mark.parametrize(("content", "line", "message"), [
    ("p sp 3 1\na 0 2 5\n", 2, ("vertex id 0 for 'u' is out of range 1..3 (ids are 1-based; "
                               "the problem line on line 1 says n=3)")),
    ("p sp 3 1\na 1 4 5\n", 2, "vertex id 4 for 'v' is out of range 1..3"),
    ("p sp -3 1\na 1 2 5\n", 1, "negative count in the problem line"),
    ("p sp 3 2\na 1 2 5\n", 1, "the problem line announces m=2 arcs but the file has 1 arc lines"),
    ("c arcs first\na 1 2 5\np sp 3 1\n", 2, ("expected the problem line 'p sp <n> <m>' before any "
                                             "other line, found 'a 1 2 5'")),
    ("c no problem line\n", 2, "expected the problem line 'p sp <n> <m>', found no 'p' line"),
    ("", 1, "expected the problem line 'p sp <n> <m>', found an empty file"),
    ("p edge 3 1\n", 1, "expected the problem line 'p sp <n> <m>', found 'p edge 3 1'"),
    ("p sp three 1\n", 1, "expected integers n and m in the problem line"),
    ("p sp 3 2\na 1 2 5\ne 2 3 5\n", 3, "expected a line 'a u v w', found 'e'"),
    ("p sp 3 1\na 1 2\n", 2, "expected 3 fields 'a u v w', found 2 (missing 'w' at end of line)"),
])
def test_dimacs_errors(tmp_path, content, line, message):
    error = read_error(tmp_path, "g.gr", content)
    assert error.line == line and message in str(error)


# Matrix Market
@pytest.mark.parametrize(("content", "line", "message"), [
    ("3 3 1\n1 2 5\n", 1, ("expected the banner '%%MatrixMarket matrix coordinate <field> "
                          "<symmetry>', found '3 3 1'")),
    ("", 1, "found an empty file"),
    ("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
     "only the sparse 'coordinate' layout is a graph, found 'array'"),
    ("%%MatrixMarket matrix coordinate complex general\n", 1, "field must be one of"),
    ("%%MatrixMarket matrix coordinate real skew-symmetric\n", 1,
     "symmetry must be 'general' or 'symmetric'"),
    ("%%MatrixMarket matrix coordinate real general\n% c\n3 -3 1\n", 3,
     "negative count in the size line '3 -3 1'"),
    ("%%MatrixMarket matrix coordinate real general\n3 4 1\n", 2,
     "an adjacency matrix must be square, found 3 x 4"),
    ("%%MatrixMarket matrix coordinate real general\n", 2,
     "expected the size line 'rows cols nnz', found the end of the file"),
    ("%%MatrixMarket matrix coordinate real general\n3 3\n", 2,
     "expected the size line 'rows cols nnz' (three integers), found '3 3'"),
    ("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 5\n", 2,
     "the size line announces 2 entries but the file has 1"),
    ("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 5.5\n", 3,
     "expected an integer for the weight 'value', found '5.5'"),
    ("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n0 1 5\n", 3,
     "vertex id 0 for 'i' is out of range 1..3 (indices are 1-based"),
])
def test_mtx_errors(tmp_path, content, line, message):
    error = read_error(tmp_path, "g.mtx", content)
    assert error.line == line and message in str(error)


# PBBS
@pytest.mark.parametrize(("content", "line", "message"), [
    ("", 1, "expected the header word 'WeightedEdgeArray', found an empty file"),
    ("AdjacencyGraph\n1\n0\n0\n", 1, ("expected the header word 'WeightedEdgeArray', found "
                                     "'AdjacencyGraph'")),
    ("WeightedEdgeArray\n0 1 5\n1 2\n", 3, ("expected 3 fields 'u v w', found 2 "
                                           "(missing 'w' at end of file)")),
    ("WeightedEdgeArray\n0 1 5\n1 q 5\n", 3, "expected an integer vertex id for 'v', found 'q'"),
])
def test_pbbs_errors(tmp_path, content, line, message):
    error = read_error(tmp_path, "g.pbbs", content)
    assert error.line == line and message in str(error)


# ECL binary CSR: byte offsets.
@pytest.mark.parametrize(("content", "offset", "message"), [
    (b"\x02\x00\x00", 3, "truncated: expected an 8-byte header (int32 n, int32 E), found 3 bytes"),
    (egr_bytes(-1, 0), 0, "negative vertex count n=-1"),
    (egr_bytes(2, -4), 4, "negative entry count E=-4"),
    (egr_bytes(2, 2, 0, 1), 16, ("truncated: the header (n=2, E=2) needs 28 bytes for nindex and "
                                "nlist, the file ends after 16")),
    (egr_bytes(2, 2, 0, 1, 2, 1, 0, 7), 32, "needs 36 bytes for eweight, the file ends after 32"),
    (egr_bytes(2, 2, 0, 1, 2, 1, 0, 7, 7, 9), 36, "4 unexpected bytes after eweight"),
    (egr_bytes(2, 2, 1, 1, 2, 1, 0, 7, 7), 8, "nindex[0] must be 0, found 1"),
    (egr_bytes(3, 2, 0, 2, 1, 2, 1, 0, 7, 7), 16, ("nindex must not decrease, found nindex[2]=1 < "
                                                  "nindex[1]=2")),
    (egr_bytes(2, 2, 0, 1, 1, 1, 0, 7, 7), 16, "nindex[n] must equal E=2, found 1"),
    (egr_bytes(2, 2, 0, 1, 2, 1, 5, 7, 7), 24, "nlist[1]=5 is not a vertex id 0..1"),
    (egr_bytes(2, 2, 0, 1, 2, 1, 0, 7, 8), 20, ("entry 0 (row 0, neighbour 1, weight 7) has no "
                                               "mirror entry (row 1, neighbour 0, weight 7)")),
    (egr_bytes(3, 2, 0, 1, 1, 2, 1, 2, 7, 7), 24, ("entry 0 (row 0, neighbour 1, weight 7) has no "
                                                  "mirror")),
])
def test_egr_errors(tmp_path, content, offset, message):
    error = read_error(tmp_path, "g.egr", content)
    assert error.offset == offset and error.line is None
    assert message in str(error) and f"byte offset {offset}:" in str(error)


def test_egr_unweighted_file_and_lone_self_loop(tmp_path):
    path = tmp_path / "u.egr"
    path.write_bytes(egr_bytes(2, 3, 0, 2, 3, 1, 0, 0))  # nlist only: (0,1) (0,0) (1,0)
    g = io.read(path)
    assert (g.src.tolist(), g.dst.tolist(), g.weight.tolist()) == ([0, 0], [1, 0], [1, 1])


@pytest.mark.parametrize(("graph", "message"), [
    (Graph.from_edges([0], [1], [1.0]), "egr stores int32 weights; this graph has float64"),
    (Graph.from_edges([0], [1], np.array([2**40])), "weights range over"),
])
def test_egr_write_limits(tmp_path, graph, message):
    with pytest.raises(GraphFormatError, match=message):
        io.write(graph, tmp_path / "g.egr")
    assert not (tmp_path / "g.egr").exists()


# NumPy archives
def test_npz_errors(tmp_path):
    np.savez(tmp_path / "partial.npz", src=[0], dst=[1])
    error = read_error(tmp_path, "partial.npz", (tmp_path / "partial.npz").read_bytes())
    assert "missing array(s) weight, num_vertices" in str(error)
    assert "not a NumPy .npz archive" in str(read_error(tmp_path, "junk.npz", b"hello"))
    np.save(tmp_path / "single.npy", np.arange(3))
    error = read_error(tmp_path, "single.npz", (tmp_path / "single.npy").read_bytes())
    assert "holds a single .npy array" in str(error)
    np.savez(tmp_path / "range.npz", src=[0], dst=[3], weight=[1], num_vertices=2)
    error = read_error(tmp_path, "range.npz", (tmp_path / "range.npz").read_bytes())
    assert "edge 0 has vertex id 3 but num_vertices is 2" in str(error)
    np.savez(tmp_path / "shape.npz", src=[[0]], dst=[[1]], weight=[[1]], num_vertices=2)
    error = read_error(tmp_path, "shape.npz", (tmp_path / "shape.npz").read_bytes())
    assert "src must be one-dimensional" in str(error)


def test_npz_nan_weights_need_allow_nan(tmp_path):
    np.savez(tmp_path / "nan.npz", src=[0], dst=[1], weight=[np.nan], num_vertices=2)
    error = read_error(tmp_path, "nan.npz", (tmp_path / "nan.npz").read_bytes())
    assert "NaN weight" in str(error)
    assert np.isnan(io.read(tmp_path / "nan.npz", allow_nan=True).weight[0])


# Files themselves
def test_file_not_found_is_clear(tmp_path):
    path = tmp_path / "nowhere.gr"
    with pytest.raises(GraphFileNotFoundError, match=re.escape(f"{path}: no such file")) as error:
        io.read(path)
    assert isinstance(error.value, FileNotFoundError) and isinstance(error.value, GraphFormatError)


def test_directory_is_not_a_graph(tmp_path):
    with pytest.raises(GraphFormatError, match="is a directory"):
        io.read(tmp_path, format="edgelist")


def test_corrupt_gzip(tmp_path):
    path = tmp_path / "g.txt.gz"
    path.write_bytes(gzip.compress(b"0 1 5\n" * 100)[:-20])
    with pytest.raises(GraphFormatError, match="cannot decompress gzip data"):
        io.read(path)


def test_binary_garbage_in_text_format(tmp_path):
    error = read_error(tmp_path, "garbage.txt", b"\x00\x01\x02\xff 1 2\n")
    assert error.line == 1 and "expected an integer vertex id for 'u'" in str(error)


def test_unwritable_destination(tmp_path):
    with pytest.raises(GraphFormatError, match="cannot open for writing"):
        io.write(Graph.from_edges([0], [1]), tmp_path / "missing-folder" / "g.txt")
