"""Heap-based Prim: the indexed binary heap, restarts per component, init vs compute."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import parmst
from parmst.solvers.serial import prim


@given(st.lists(st.integers(0, 3), max_size=40), st.data())
def test_heap_pops_in_key_then_edge_order_after_decreases(keys, data):
    n = len(keys)
    key = np.array(keys, dtype=np.uint64)
    edge = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_edge = np.empty(n, dtype=np.int64)
    heap_vertex = np.empty(n, dtype=np.int64)
    position = np.full(n, -1, dtype=np.int64)
    for v in range(n):
        prim._sift_up(heap_key, heap_edge, heap_vertex, position, v, key[v], edge[v], v)
    decreased = data.draw(st.lists(st.integers(0, n - 1), max_size=n)) if n else []
    for v in decreased:
        key[v] = 0
        prim._sift_up(heap_key, heap_edge, heap_vertex, position, position[v], key[v],
                      edge[v], v)
    popped = []
    for size in range(n - 1, -1, -1):
        popped.append(int(heap_vertex[0]))
        prim._sift_down(heap_key, heap_edge, heap_vertex, position, size, heap_key[size],
                        heap_edge[size], heap_vertex[size])
    assert popped == sorted(range(n), key=lambda v: (key[v], edge[v]))


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
