"""parmst.partition and parmst.cut.

Partitions must cover every vertex with a part id in range, keep what
their method promises (the block rule for blocks, balanced edge endpoints
for BFS), keep BFS parts connected where the graph allows, and report their
cut exactly.
"""

from __future__ import annotations

import importlib
import importlib.util

import networkx as nx
import numpy as np
import pytest

import parmst
from parmst.graph import Graph
from parmst.partition import METHODS, block_size

HAS_METIS = importlib.util.find_spec("pymetis") is not None


@pytest.fixture(scope="module")
def grid() -> Graph:
    return parmst.generate("grid2d:side=40,seed=3")


@pytest.fixture(scope="module")
def road() -> Graph:
    return parmst.generate("road:side=60,seed=2")


def _methods():
    return [pytest.param(m, marks=pytest.mark.skipif(
        m == "metis" and not HAS_METIS, reason="pymetis not installed (pip install "
                                               "'parmst[metis]')")) for m in METHODS]


@pytest.mark.parametrize("method", _methods())
@pytest.mark.parametrize("parts", [1, 2, 3, 8])
def test_every_vertex_gets_one_part_in_range(grid, parts, method):
    part = parmst.partition(grid, parts, method=method)
    assert part.shape == (grid.num_vertices,)
    assert part.dtype == np.int32
    assert part.min() >= 0 and part.max() < parts
    assert len(np.unique(part)) == parts


@pytest.mark.parametrize("parts", [2, 5, 7, 16])
def test_blocks_are_contiguous_runs_of_the_block_size(road, parts):
    part = parmst.partition(road, parts, method="blocks")
    assert np.all(np.diff(part) >= 0)
    sizes = np.bincount(part, minlength=parts)
    size = block_size(road.num_vertices, parts)
    assert sizes[:-1].tolist() == [size] * (parts - 1) and 0 < sizes[-1] <= size


@pytest.mark.parametrize("parts", [2, 4, 7])
def test_bfs_parts_are_connected_and_balanced_by_edges(grid, parts):
    part = parmst.partition(grid, parts, method="bfs")
    report = parmst.cut(grid, part)
    assert report.imbalance < 1.05
    g = grid.to_networkx()
    # Every part but the last grows as one search; the last also takes the pockets that
    # would overfill their neighbours (partition's documented trade).
    for p in range(parts - 1):
        assert nx.is_connected(g.subgraph(np.flatnonzero(part == p).tolist())), p
    # A contiguous block cuts a grid along whole rows: BFS parts must not cut much more.
    blocks = parmst.cut(grid, parmst.partition(grid, parts, method="blocks"))
    assert report.crossing_edges <= 2 * blocks.crossing_edges


def test_bfs_continues_in_the_next_component_when_one_runs_out():
    # Two triangles and an isolated vertex, three parts: part 0 fills up in the first
    # triangle, the others share the second one; the isolated vertex is covered too.
    g = Graph.from_edges([0, 1, 2, 3, 4, 5], [1, 2, 0, 4, 5, 3], num_vertices=7)
    part = parmst.partition(g, 3, method="bfs")
    assert part[:3].tolist() == [0, 0, 0]
    assert set(part[3:6].tolist()) == {1, 2}
    assert 0 <= part[6] < 3


def test_more_parts_than_vertices_leaves_parts_empty():
    g = Graph.from_edges([0], [1], num_vertices=2)
    for method in ("blocks", "bfs"):
        part = parmst.partition(g, 5, method=method)
        assert part.shape == (2,) and part.max() < 5


def test_cut_counts_crossing_edges_and_boundary_vertices():
    # A path 0-1-2-3 with a parallel edge 1-2 and a self-loop at 3, split {0, 1} | {2, 3}.
    g = Graph.from_edges([0, 1, 2, 1, 3], [1, 2, 3, 2, 3], num_vertices=4)
    report = parmst.cut(g, np.array([0, 0, 1, 1]))
    assert report.crossing_edges == 2
    assert report.boundary_vertices == 2
    assert report.vertices.tolist() == [2, 2]
    assert report.endpoints.tolist() == [4, 4]
    assert report.as_dict()["imbalance"] == 1.0


@pytest.mark.parametrize("parts", [0, -1, 2.5, True])
def test_bad_part_count_is_rejected(grid, parts):
    with pytest.raises(ValueError, match="parts must be a positive integer"):
        parmst.partition(grid, parts)


def test_bad_method_and_bad_part_arrays_are_rejected(grid):
    with pytest.raises(ValueError, match="unknown partition method 'kway'; methods: blocks"):
        parmst.partition(grid, 2, method="kway")
    with pytest.raises(parmst.GraphValueError, match="one part per vertex"):
        parmst.cut(grid, np.zeros(3, dtype=np.int32))
    with pytest.raises(parmst.GraphValueError, match="non-negative"):
        parmst.cut(grid, np.full(grid.num_vertices, -1))


def test_metis_absence_names_the_extra(grid, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pymetis" else real(name, *a))
    with pytest.raises(ImportError, match=r"pip install 'parmst\[metis\]'"):
        parmst.partition(grid, 2, method="metis")


