"""Partitioned reading (parmst.io.read_part, each format's read_range) in one process.

Ranks are simulated by their parts: for every format and every rank count
1..5 (and more ranks than lines), the parts together must be exactly the
file's edges, in id order, each once: the byte ranges tile the edge lines
and every part parses only its own. The same code runs under mpiexec in
tests/solvers/mpi/.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import touched
from hypothesis import given
from hypothesis import strategies as st

from conformance.cases import tie_heavy_graphs
from parmst import Graph, io
from parmst.errors import GraphFormatError
from parmst.formats._ranges import byte_range
from parmst.io import read_part

EXTENSIONS = {"edgelist": ".txt", "snap": ".snap", "dimacs": ".gr", "npz": ".npz",
              "mtx": ".mtx", "pbbs": ".pbbs", "egr": ".egr"}


def _parts(path, size: int):
    return [read_part(path, rank, size) for rank in range(size)]


def _assert_tiles(path, whole: Graph, size: int, **options) -> None:
    parts = [read_part(path, rank, size, **options) for rank in range(size)]
    src = np.concatenate([p.src for p in parts])
    dst = np.concatenate([p.dst for p in parts])
    weight = np.concatenate([p.weight for p in parts]).astype(whole.weight.dtype)
    assert src.tolist() == whole.src.tolist(), size
    assert dst.tolist() == whole.dst.tolist(), size
    assert np.array_equal(weight, whole.weight), size
    balances = [p.balance for p in parts if p.balance is not None]
    if balances:  # .egr: the mirror check sums over the parts
        assert not np.sum(balances, axis=0, dtype=np.uint64).any()


def _integer_weights(graph: Graph) -> Graph:
    """egr holds int32 weights only: the same graph with its weights ranked."""
    if graph.weight.dtype.kind == "i" and graph.weight.dtype.itemsize <= 4:
        return graph
    ranks = np.unique(graph.weight, return_inverse=True)[1].astype(np.int32)
    return Graph.from_edges(graph.src, graph.dst, ranks, graph.num_vertices)


@given(graph=tie_heavy_graphs(max_vertices=12, max_edges=30),
       fmt=st.sampled_from(sorted(EXTENSIONS)))
def test_parts_are_the_file_for_1_to_5_ranks(tmp_path_factory, graph, fmt):
    path = tmp_path_factory.mktemp("part") / f"g{EXTENSIONS[fmt]}"
    if fmt == "egr":
        graph = _integer_weights(graph)
    io.write(graph, path)
    whole = Graph.read(path)
    assert whole.num_edges == graph.num_edges
    for size in range(1, 6):
        _assert_tiles(path, whole, size)


HAND_MADE = (
    "# a comment\n\n"
    "3 1 2.5\n"
    "% another comment\n"
    "0 1 1\r\n"
    "   \n"
    "1 2 -4\n"
    "2 0 7" + " " * 300 + "\n"  # a line longer than some ranks' ranges
    "0 0 1e3\n"
    "2 3 5"  # no final line break
)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 9, 40])
def test_hand_made_edge_list_with_comments_blank_lines_and_long_line(tmp_path, size):
    path = tmp_path / "g.txt"
    path.write_text(HAND_MADE)
    whole = Graph.read(path)
    assert whole.num_edges == 6
    _assert_tiles(path, whole, size)


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_header_line_is_read_by_every_rank_and_counted_once(tmp_path, size):
    path = tmp_path / "g.txt"
    path.write_text("6 4\n0 1 5\n1 2 7\n2 3 1\n4 5 2\n")
    parts = _parts(path, size)
    assert sum(len(p.src) for p in parts) == 4
    assert {p.num_vertices for p in parts} == {6}
    assert {p.expected_edges for p in parts} == {4}


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_bad_line_is_reported_with_its_file_line_by_the_rank_that_holds_it(tmp_path, size):
    lines = [f"{i} {i + 1} {i}" for i in range(30)]
    lines[21] = "21 22 oops"
    path = tmp_path / "g.txt"
    path.write_text("# header comment\n" + "\n".join(lines) + "\n")
    failures = []
    for rank in range(size):
        try:
            read_part(path, rank, size)
        except GraphFormatError as exc:
            failures.append((rank, str(exc)))
    assert len(failures) == 1
    assert "line 23" in failures[0][1] and "oops" in failures[0][1]


def test_byte_ranges_start_at_line_starts_and_tile(tmp_path):
    data = np.frombuffer(b"h\n" + b"".join(b"%d 1 2\n" % i for i in range(50)), dtype=np.uint8)
    for size in range(1, 12):
        ranges = [byte_range(data, 2, r, size) for r in range(size)]
        assert ranges[0][0] == 2 and ranges[-1][1] == len(data)
        for (_, hi), (next_lo, _) in itertools.pairwise(ranges):
            assert hi == next_lo
        assert all(lo == 2 or data[lo - 1] == 10 for lo, _ in ranges)


def test_gzip_and_whole_file_options_are_refused_with_a_hint(tmp_path):
    g = Graph.from_edges([0], [1], [2])
    io.write(g, tmp_path / "g.txt.gz")
    with pytest.raises(GraphFormatError, match="uncompressed"):
        read_part(tmp_path / "g.txt.gz", 0, 2)
    io.write(g, tmp_path / "g.mtx")
    with pytest.raises(ValueError, match="keep, upper and lower"):
        read_part(tmp_path / "g.mtx", 0, 2, general="dedupe")
    with pytest.raises(TypeError, match="header= does not apply to mtx"):
        read_part(tmp_path / "g.mtx", 0, 2, header=True)


GENERAL_MTX = ("%%MatrixMarket matrix coordinate real general\n% a comment\n5 5 9\n"
               + "".join(f"{i} {j} {w}\n" for i, j, w in [(1, 2, 1.5), (2, 1, 1.5), (3, 3, 2),
                                                           (4, 1, 0.5), (1, 4, 0.5), (5, 2, 7),
                                                           (2, 5, 7), (3, 4, 1), (4, 3, 1)]))


@pytest.mark.parametrize("general", ["keep", "upper", "lower"])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 12])
def test_general_matrix_market_entries_keep_their_ids_under_each_choice(tmp_path, general, size):
    path = tmp_path / "g.mtx"
    path.write_text(GENERAL_MTX)
    whole = io.read(path, general=general)
    _assert_tiles(path, whole, size, general=general)
    parts = [read_part(path, r, size, general=general) for r in range(size)]
    assert sum(p.counted for p in parts) == 9  # the size line counts entries before the choice


PBBS_ACROSS_LINES = "WeightedEdgeArray 0 1\n5 1\n2 7 2 3\n\n\n1 3 0 2.5\n4 4 4"


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 9])
def test_pbbs_rows_may_span_lines_and_ranges(tmp_path, size):
    path = tmp_path / "g.pbbs"
    path.write_text(PBBS_ACROSS_LINES)
    whole = io.read(path)
    assert whole.num_edges == 5
    _assert_tiles(path, whole, size)


@pytest.mark.parametrize("size", [1, 2, 4])
def test_pbbs_incomplete_last_row_is_reported_once(tmp_path, size):
    path = tmp_path / "g.pbbs"
    path.write_text("WeightedEdgeArray\n0 1 5\n1 2 7\n2 3\n")
    failures = []
    for rank in range(size):
        try:
            read_part(path, rank, size)
        except GraphFormatError as exc:
            failures.append(str(exc))
    with pytest.raises(GraphFormatError) as whole:
        io.read(path)
    assert failures == [str(whole.value)]


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_egr_without_a_mirror_entry_fails_the_summed_check(tmp_path, size):
    path = tmp_path / "g.egr"
    io.write(Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [4, 5, 6, 7]), path)
    raw = np.fromfile(path, dtype="<i4")
    raw[-1] += 1  # the last entry's weight no longer matches its mirror's
    raw.tofile(path)
    parts = [read_part(path, r, size) for r in range(size)]
    assert np.sum([p.balance for p in parts], axis=0, dtype=np.uint64).any()
    with pytest.raises(GraphFormatError, match="no mirror"):
        io.read(path)


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_egr_with_a_decreasing_nindex_is_reported_by_one_part(tmp_path, size):
    path = tmp_path / "g.egr"
    io.write(parmst_ring(12), path)
    raw = np.fromfile(path, dtype="<i4")
    raw[2 + 7] = 1  # nindex[7] below nindex[6]
    raw.tofile(path)
    failures = []
    for rank in range(size):
        try:
            read_part(path, rank, size)
        except GraphFormatError as exc:
            failures.append(str(exc))
    assert failures and all("nindex" in f for f in failures)
    with pytest.raises(GraphFormatError) as whole:
        io.read(path)
    assert str(whole.value) in failures


def parmst_ring(n: int) -> Graph:
    return Graph.from_edges(np.arange(n), (np.arange(n) + 1) % n, np.arange(n) % 3)


@pytest.mark.parametrize("size", [1, 3, 5])
def test_compressed_npz_is_sliced_through_the_archive_member(tmp_path, size):
    rng = np.random.default_rng(3)
    g = Graph.from_edges(rng.integers(0, 30, 200), rng.integers(0, 30, 200),
                         rng.random(200).astype(np.float32))
    path = tmp_path / "g.npz"
    io.write(g, path, compressed=True)
    _assert_tiles(path, g, size)


# ------------------------------------------------------------------ what each part touches
def _zero_before(mine, of_rank):
    """A ``before`` that touches no other part (the line numbers only serve errors)."""
    return (0,) * len(mine)


@pytest.fixture(scope="module")
def large_files(tmp_path_factory):
    """Each format's file of one random graph, ~1.5-2.5 MB: parts much larger than a window."""
    folder = tmp_path_factory.mktemp("touch")
    rng = np.random.default_rng(7)
    n, m = 5000, 100_000
    graph = Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m),
                             rng.integers(1, 1000, m).astype(np.int32), n)
    paths = {}
    for fmt, ext in EXTENSIONS.items():
        paths[fmt] = folder / f"g{ext}"
        io.write(graph, paths[fmt])
    return paths


@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
def test_each_part_touches_only_its_share_of_the_file(large_files, monkeypatch, fmt):
    """For p = 1..4, part r touches the head of the file and its own ~1/p (text: its byte
    range and the line across its end; .egr: its rows' nindex, nlist and eweight entries,
    plus the few nindex entries of the binary searches; .npz: its slice of each array)."""
    path = large_files[fmt]
    read_part(path, 0, 1)  # compile and cache first: the later calls read nothing else
    size_bytes = path.stat().st_size
    recorder = touched.Recorder(monkeypatch)
    for size in range(1, 5):
        for rank in range(size):
            options = {} if fmt in ("egr", "npz") else {"before": _zero_before}
            start = touched.bytes_read()
            part = read_part(path, rank, size, **options)
            if fmt == "npz":
                slice_bytes = 4 * 4 * len(part.src)  # int32 src and dst, int32 weight (x2 room)
                assert touched.bytes_read() - start <= slice_bytes + touched.WINDOW, (rank, size)
                continue
            used = recorder.last_windows()
            if fmt == "egr":
                share, nindex = touched.egr_windows(path, rank, size)
                probes = (size + 1) * (int(np.log2(len(nindex) + 1)) + 2)
                assert used - share <= nindex and len(used - share) <= probes, (rank, size)
            else:
                lo, hi = size_bytes * rank // size, size_bytes * (rank + 1) // size
                share = touched.windows(0, 1) | touched.windows(lo, hi)
                assert used <= share, (rank, size, sorted(used - share))
            assert len(used) <= len(touched.windows(0, size_bytes)) // size + 12, (rank, size)


def test_egr_row_bounds_search_nindex_instead_of_reading_it(tmp_path, monkeypatch):
    """A graph with many vertices and few edges: nindex is most of the file, and the binary
    searches of the row bounds touch a few windows of it, not every one."""
    n = 1 << 21
    rng = np.random.default_rng(2)
    path = tmp_path / "sparse.egr"
    io.write(Graph.from_edges(rng.integers(0, n, 2000), rng.integers(0, n, 2000),
                              np.ones(2000, dtype=np.int32), n), path)
    read_part(path, 0, 1)
    recorder = touched.Recorder(monkeypatch)
    size = 4
    for rank in range(size):
        read_part(path, rank, size)
        share, nindex = touched.egr_windows(path, rank, size)
        searched = recorder.last_windows() - share
        depth = int(np.log2(len(nindex))) + 1  # windows a search may visit
        assert searched <= nindex and len(searched) <= (size + 1) * depth, rank
        assert 2 * len(searched) < len(nindex - share), rank  # most of nindex is untouched
