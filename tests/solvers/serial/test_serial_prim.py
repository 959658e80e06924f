"""Heap-based Prim: the indexed binary heap, restarts per component, init vs compute."""

from __future__ import annotations

import parmst


def test_one_tree_per_component_and_csr_build_is_initialization():
    graph = parmst.Graph.from_edges([0, 1, 3, 5, 5], [1, 2, 4, 6, 5], [2, 1, 1, 1, 0],
                                    num_vertices=9)
    graph.clear_cache()
    forest = parmst.minimum_spanning_forest(graph, solver="prim/serial")
    assert forest.edge_ids.tolist() == [0, 1, 2, 3]
    assert forest.stats.rounds == forest.num_components == 5
    assert forest.stats.init_time > 0
    assert set(forest.stats.phases) == {"keys", "heap"}


def test_lighter_edge_found_later_decreases_the_key():
    # From 0 the heap first holds 2 via edge 0 (weight 9); edge 2 (via 1) is lighter.
    graph = parmst.Graph.from_edges([0, 0, 1], [2, 1, 2], [9, 1, 1])
    forest = parmst.minimum_spanning_forest(graph, solver="prim/serial")
    assert forest.edge_ids.tolist() == [1, 2]
