"""Borůvka: rounds shrink the live edge list; stats describe them."""

from __future__ import annotations

import itertools
import math

import numpy as np

import parmst
from parmst.solvers.serial import boruvka


def test_worklist_shrinks_every_round_and_rounds_are_logarithmic():
    rng = np.random.default_rng(3)
    n, m = 200, 1200
    graph = parmst.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m),
                                    rng.integers(0, 5, m), n)
    forest = parmst.minimum_spanning_forest(graph, solver="boruvka/serial")
    sizes = forest.stats.worklist_sizes
    assert sizes[0] == int(np.count_nonzero(graph.src != graph.dst))
    assert all(later < earlier for earlier, later in itertools.pairwise(sizes))
    assert forest.stats.rounds == len(sizes) <= math.ceil(math.log2(n)) + 1
    assert {"lightest-edge", "join", "drop-internal"} <= set(forest.stats.phases)


def test_no_rounds_without_non_loop_edges():
    graph = parmst.Graph.from_edges([0, 1], [0, 1], [1, 2], num_vertices=3)
    forest = parmst.minimum_spanning_forest(graph, solver="boruvka/serial")
    assert forest.num_edges == 0
    assert forest.stats.rounds == 0


def test_lightest_edge_is_found_per_component_root():
    src = np.array([0, 1, 2, 0], dtype=np.int32)
    dst = np.array([1, 2, 3, 3], dtype=np.int32)
    keys = np.array([4, 4, 2, 4], dtype=np.uint64)
    parent = np.full(4, -1)
    lightest = np.full(4, -1, dtype=np.int64)
    lightest_key = np.empty(4, dtype=np.uint64)
    live = np.arange(4, dtype=np.int64)
    boruvka._lightest_edge_per_component(live, 4, src, dst, keys, parent, lightest, lightest_key)
    assert lightest.tolist() == [0, 0, 2, 2]
