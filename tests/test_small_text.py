"""The NumPy reader of small plain edge lists gives exactly parmst.io.read's graph, or leaves
the file to it."""

import numpy as np
import pytest

import parmst
from parmst import io
from parmst._small_text import EDGELIST_EXTENSIONS, read_small_edge_list

READ_HERE = {
    "integers": "0 1 5\n1 2 -7\n2 0 9\n",
    "floats and integer literals": "0 1 2.5\n1 2 -0\n2 3 +5\n3 0 .5\n0 2 5.\n1 3 1E5\n3 3 1e400\n",
    "negative zero": "0 1 -0.0\n1 2 -0\n",
    "unweighted": "0 1\n1 2\n\n4 2\n",
    "header": "6 2\n0 1 1.5\n1 2 2\n",
    "comments, blanks, tabs": "# a road map\n%  note\n0\t1\t3  \n\n   # indented comment\n1 2 4\n",
    "big integers": "0 1 9223372036854775807\n1 2 -9223372036854775808\n",
    "signed ids": "+0 +1 3\n",
}
LEFT_TO_THE_READER = {
    "nan": "0 1 nan\n",
    "inf spelled out": "0 1 inf\n",
    "negative id": "0 -1 3\n",
    "mixed field counts": "0 1 3\n1 2\n",
    "header count wrong": "5 3\n0 1 1\n1 2 2\n",
    "id beyond the header": "2 1\n0 5 1\n",
    "hexadecimal": "0 1 0x10\n",
    "integer beyond int64": "0 1 9223372036854775808\n",
    "matrix market banner": "%%MatrixMarket matrix coordinate real general\n0 1 2\n",
    "crlf": "0 1 2\r\n1 2 3\r\n",
    "marker inside a line": "0 1 2 # heavy\n",
    "only comments": "# nothing\n",
    "int32 weight out of range": "# parmst: weight=int32\n0 1 4294967296\n",
    "int32 weight not an integer": "# parmst: weight=int32\n0 1 1.5\n",
    "bad metadata": "# parmst: num_vertices=x\n0 1 2\n",
}


def _same_graph(ours, theirs):
    assert ours.num_vertices == theirs.num_vertices
    for a, b in ((ours.src, theirs.src), (ours.dst, theirs.dst), (ours.weight, theirs.weight)):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", sorted(READ_HERE))
def test_small_files_read_here_as_the_reader_reads_them(tmp_path, name):
    path = tmp_path / "g.txt"
    path.write_text(READ_HERE[name])
    ours = read_small_edge_list(path)
    assert ours is not None
    _same_graph(ours, io.read(path))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_files_parmst_wrote_keep_their_metadata(tmp_path, dtype):
    rng = np.random.default_rng(4)
    weight = (rng.normal(size=300) * 1000).astype(dtype)
    g = parmst.Graph.from_edges(rng.integers(0, 90, 300), rng.integers(0, 90, 300), weight,
                                num_vertices=100)  # trailing isolated vertices
    for path in (tmp_path / "g.el", tmp_path / "g.txt"):
        g.write(path)
        ours = read_small_edge_list(path)
        assert ours is not None
        _same_graph(ours, io.read(path))
    unweighted = parmst.Graph.from_edges([0, 1], [1, 2], np.ones(2, dtype=dtype))
    unweighted.write(tmp_path / "u.txt")
    text = (tmp_path / "u.txt").read_text().replace(" 1\n", "\n")  # drop the weight column
    (tmp_path / "u.txt").write_text(text)
    _same_graph(read_small_edge_list(tmp_path / "u.txt"), io.read(tmp_path / "u.txt"))


@pytest.mark.parametrize("name", sorted(LEFT_TO_THE_READER))
def test_anything_else_is_left_to_the_reader(tmp_path, name):
    path = tmp_path / "g.txt"
    path.write_text(LEFT_TO_THE_READER[name], newline="")
    assert read_small_edge_list(path) is None


def test_other_formats_options_and_sizes_are_left_to_the_reader(tmp_path, monkeypatch):
    import parmst._small_text as small

    (tmp_path / "g.gr").write_text("0 1 2\n")
    (tmp_path / "g.txt").write_text("0 1 2\n")
    assert read_small_edge_list(tmp_path / "g.gr") is None
    assert read_small_edge_list(tmp_path / "g.txt", format="snap") is None
    assert read_small_edge_list(tmp_path / "g.gr", format="edgelist") is not None
    assert read_small_edge_list(tmp_path / "missing.txt") is None
    monkeypatch.setattr(small, "SMALL_BYTES", 5)
    assert read_small_edge_list(tmp_path / "g.txt") is None


def test_extensions_are_the_edge_list_formats():
    assert EDGELIST_EXTENSIONS == io.FORMATS["edgelist"].extensions
