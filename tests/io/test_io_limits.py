"""Sizes no machine holds fail before allocation, naming the file, line or offset, and value."""

from __future__ import annotations

import zipfile
from io import BytesIO

import numpy as np
import pytest
from test_io_errors import read_error

from parmst import Graph, GraphFormatError, io
from parmst._memory import available_memory, count_text, shortfall, size_text
from parmst.errors import SettingError

TEN_TWELVE = "would need 10^12 vertices, 7.28 TiB, more than the 1.00 GiB available"


@pytest.fixture(autouse=True)
def one_gib(monkeypatch):
    """Every machine looks like 1 GiB of free memory, so these limits do not depend on it."""
    monkeypatch.setattr("parmst._memory.available_memory", lambda: 2**30)


@pytest.mark.parametrize(("name", "content", "line", "message"), [
    ("sparse.snap", "# Nodes: 2\n\n# c\n0\t1\n1\t999999999999\n", 5,
     f"vertex id 999999999999 {TEN_TWELVE}; read with relabel=True (parmst CLI: --relabel)"),
    ("wide.txt", "0 1 5\n4294967296 1 2\n", 2,
     "vertex id 4294967296 would need 4,294,967,297 vertices, 32.0 GiB"),
    ("header.txt", "1000000000000 1\n0 1 5\n", 1,
     f"num_vertices=1000000000000 from the header line 'n m' on line 1 {TEN_TWELVE}"),
    ("meta.txt", "# c\n# parmst: num_vertices=1000000000000\n0 1 5\n", 2,
     f"num_vertices=1000000000000 from the metadata comment on line 2 {TEN_TWELVE}"),
    ("g.gr", "c x\np sp 1000000000000 1\na 1 2 3\n", 2,
     f"n=1000000000000 in the problem line {TEN_TWELVE}"),
    ("g.mtx", ("%%MatrixMarket matrix coordinate integer general\n"
               "1000000000000 1000000000000 1\n1 2 3\n"), 2,
     f"1000000000000 rows in the size line {TEN_TWELVE}"),
    ("g.pbbs", "WeightedEdgeArray\n0 1 2\n1\n999999999999\n7\n", 5,
     f"vertex id 999999999999 {TEN_TWELVE}"),
])
def test_huge_vertex_counts_name_file_line_and_value(tmp_path, name, content, line, message):
    error = read_error(tmp_path, name, content)
    assert error.line == line and f"{name}, line {line}: " in str(error)
    assert message in str(error)


def test_the_line_is_found_beyond_the_first_block_of_rows(tmp_path):
    rows = "".join(f"{i % 50} {(i + 1) % 50} 1\n" for i in range(70_000))
    error = read_error(tmp_path, "long.txt", "# head\n" + rows + "3 999999999999 1\n")
    assert error.line == 70_002


def test_num_vertices_option_beyond_memory(tmp_path):
    error = read_error(tmp_path, "g.txt", "0 1 5\n", num_vertices=10**12)
    assert f"num_vertices=1000000000000 from the num_vertices option {TEN_TWELVE}" in str(error)
    error = read_error(tmp_path, "g.pbbs", "WeightedEdgeArray 0 1 5", num_vertices=10**12)
    assert "from the num_vertices option" in str(error)


def test_relabel_reads_what_the_dense_count_refuses(tmp_path):
    path = tmp_path / "sparse.snap"
    path.write_text("0\t999999999999\t5\n999999999999\t-4\t1\n")
    g, labels = io.read_with_labels(path)
    assert g.num_vertices == 3 and labels.tolist() == [-4, 0, 999999999999]
    out = tmp_path / "back.txt"
    io.write(g, out, labels=labels)
    assert out.read_text().splitlines()[1:] == ["0 999999999999 5", "999999999999 -4 1"]
    assert io.read_with_labels(out)[1].tolist() == labels.tolist()
    with pytest.raises(ValueError, match="one integer id per vertex"):
        io.write(g, out, labels=labels[:2])


def test_relabel_is_refused_for_dense_formats(tmp_path):
    path = tmp_path / "g.gr"
    path.write_text("p sp 2 1\na 1 2 3\n")
    with pytest.raises(GraphFormatError, match="dimacs files number their vertices densely"):
        io.read_with_labels(path)


def test_egr_header_vertex_count_checked_before_the_arrays(tmp_path):
    error = read_error(tmp_path, "g.egr", np.array([2**31 - 1, 0], dtype="<i4").tobytes())
    assert error.offset == 0
    assert "n=2147483647 in the header would need 2,147,483,647 vertices, 16.0 GiB" in str(error)


def test_npz_counts_and_lying_array_headers(tmp_path):
    huge = tmp_path / "huge.npz"
    np.savez(huge, src=[0], dst=[1], weight=[1], num_vertices=10**12)
    error = read_error(tmp_path, huge.name, huge.read_bytes())
    assert f"num_vertices=1000000000000 {TEN_TWELVE}" in str(error)
    liar = tmp_path / "liar.npz"
    with zipfile.ZipFile(liar, "w") as archive:
        for name, array in {"src": np.array([0]), "dst": np.array([1]),
                            "weight": np.array([1]), "num_vertices": np.array(2)}.items():
            buffer = BytesIO()
            shape = (10**12,) if name == "dst" else array.shape
            np.lib.format.write_array_header_1_0(buffer, {
                "descr": "<i8", "fortran_order": False, "shape": shape})
            buffer.write(array.astype("<i8").tobytes())
            archive.writestr(name + ".npy", buffer.getvalue())
    message = str(read_error(tmp_path, liar.name, liar.read_bytes()))
    assert ("array 'dst' declares shape (1000000000000,), which would need 10^12 dst entries"
            in message)
    single = tmp_path / "single.npz"
    np.save(tmp_path / "single.npy", np.arange(3))
    single.write_bytes((tmp_path / "single.npy").read_bytes())
    error = read_error(tmp_path, single.name, single.read_bytes())
    assert "holds a single .npy array" in str(error)


def test_row_buffers_are_checked_too(tmp_path, monkeypatch):
    monkeypatch.setattr("parmst._memory.available_memory", lambda: 100)
    error = read_error(tmp_path, "g.txt", "".join(f"{i} {i + 1} 1\n" for i in range(50)))
    assert error.line == 1 and "reading on from here would need" in str(error)


def test_memory_limit_variable(monkeypatch):
    monkeypatch.undo()  # the real function, capped by the variable
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", "2M")
    assert available_memory() <= 2 * 2**20
    assert "more than the" in shortfall(2**20)
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", "1024")
    assert available_memory() <= 1024
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", "lots")
    with pytest.raises(SettingError, match="PARMST_MEMORY_LIMIT='lots' is not a size"):
        available_memory()


def test_size_and_count_text():
    assert size_text(2**40) == "1.00 TiB" and size_text(1023) == "1023 bytes"
    assert count_text(10**6) == "10^6" and count_text(999_999) == "999,999"
    for k in range(0, 1400, 3):  # any size has a text, however absurd the input
        for size in (2**k - 1, 2**k, 10**k):
            assert size_text(size)
    assert size_text(2**90 - 1) == "1024 YiB" and size_text(10**400) == "about 10^400 bytes"
    assert Graph.from_edges([0], [1]).num_vertices == 2  # small graphs pass the check
