"""The local-forest filter: shares in global id order, and every forest edge kept."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.graph import Graph
from parmst.kernels.local_forest import Share, local_forest_filter, split_edges, split_vertices
from parmst.kernels.prim_instances import prim_instance_forest


@pytest.fixture(scope="module")
def road() -> Graph:
    return parmst.generate("road:side=60,seed=2")


def _by_parts(graph, part):
    shares, crossing = split_vertices(graph, part)
    return shares, prim_instance_forest, crossing


@pytest.mark.parametrize("method", ["blocks", "bfs"])
@pytest.mark.parametrize("parts", [1, 3, 9])
def test_local_forest_filter_keeps_the_whole_minimum_forest(road, method, parts):
    part = parmst.partition(road, parts, method=method)
    kept = local_forest_filter(*_by_parts(road, part))
    msf = parmst.minimum_spanning_forest(road, solver="kruskal/serial").edge_ids
    assert np.isin(msf, kept).all()
    crossing = np.flatnonzero(part[road.src] != part[road.dst])
    assert np.isin(crossing, kept).all()
    assert len(kept) < road.num_edges


def test_local_forest_filter_without_parts_is_the_forest(road):
    msf = parmst.minimum_spanning_forest(road, solver="kruskal/serial").edge_ids
    np.testing.assert_array_equal(local_forest_filter(split_edges(road, 1), prim_instance_forest),
                                  msf)


def test_filter_on_a_share_breaks_ties_as_the_whole_graph():
    # Every weight ties: a share kept in global id order must keep the smaller global ids.
    g = Graph.from_edges([0, 1, 2, 0, 1, 0], [1, 2, 0, 1, 2, 2], [1, 1, 1, 1, 1, 1])
    share, ids = g.subgraph_edges(np.array([False, True, True, True, True, True]))
    kept = local_forest_filter([Share(share, ids)], prim_instance_forest)
    assert kept.tolist() == [1, 2]
    msf = parmst.minimum_spanning_forest(g, solver="kruskal/serial").edge_ids
    assert set(msf) & set(ids) <= set(kept)


@pytest.mark.parametrize("parts", [2, 3, 7])
@pytest.mark.parametrize("split", ["edges", "blocks", "bfs"])
def test_shares_cover_every_edge_once_in_id_order(split, parts):
    graph = parmst.generate("rmat:scale=9,seed=2")
    if split == "edges":
        shares, crossing = split_edges(graph, parts), np.zeros(0, np.int64)
    else:
        shares, crossing = split_vertices(graph, parmst.partition(graph, parts, method=split))
    assert len(shares) == parts
    pieces = [share.ids + np.arange(share.graph.num_edges) if isinstance(share.ids, int)
              else share.ids for share in shares]
    for ids, share in zip(pieces, shares):
        assert np.all(np.diff(ids) > 0)
        np.testing.assert_array_equal(share.graph.src, graph.src[ids])
        np.testing.assert_array_equal(share.graph.weight, graph.weight[ids])
        assert share.graph.num_vertices == graph.num_vertices
    assert np.all(np.diff(crossing) > 0)
    np.testing.assert_array_equal(np.sort(np.concatenate(pieces + [crossing])),
                                  np.arange(graph.num_edges))
