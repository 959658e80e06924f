"""The oracle itself, kruskal/serial, against SciPy and NetworkX.

NetworkX's Kruskal sorts edges stably by weight in its own iteration order,
which is not edge-id order, so it is given each edge's rank in the
``(weight, edge_id)`` order (computed here with Python's ``sorted``) as the
weight: its forest's edge keys must then equal the oracle's ids exactly.
Its forest under the plain weights must have the same total weight, since
all minimum spanning forests share one multiset of weights.

SciPy's ``minimum_spanning_tree`` treats a zero as a missing edge and keeps
one value per vertex pair, so it is given the graph with every weight
shifted to at least 1 (a shift changes no edge's place in the order) and
parallel edges reduced to their lightest (``Graph.to_scipy``).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from scipy.sparse import csgraph

import parmst
from parmst.forest import exact_sum
from parmst.solvers.serial import kruskal

from .cases import CASES, tie_heavy_graphs

ORACLE = "kruskal/serial"


def _exact_in_float64(graph: parmst.Graph) -> bool:
    w = graph.weight
    if w.dtype.kind == "f":
        return bool(np.isfinite(w).all())
    return not len(w) or max(abs(int(w.min())), abs(int(w.max()))) < 2**52


SCIPY_CASES = [name for name, build in CASES.items() if _exact_in_float64(build())]


def _rank_weighted_multigraph(graph: parmst.Graph) -> nx.MultiGraph:
    weights = graph.weight.tolist()
    order = sorted(range(graph.num_edges), key=lambda e: (weights[e], e))
    rank = {e: r for r, e in enumerate(order)}
    g = nx.MultiGraph()
    g.add_nodes_from(range(graph.num_vertices))
    for e, (u, v) in enumerate(zip(graph.src.tolist(), graph.dst.tolist())):
        g.add_edge(u, v, key=e, rank=rank[e], weight=weights[e])
    return g


def check_against_networkx(graph: parmst.Graph) -> None:
    forest = parmst.minimum_spanning_forest(graph, solver=ORACLE)
    g = _rank_weighted_multigraph(graph)
    by_rank = nx.minimum_spanning_edges(g, algorithm="kruskal", weight="rank", keys=True,
                                        data=False)
    assert sorted(key for _, _, key in by_rank) == forest.edge_ids.tolist()
    by_weight = nx.minimum_spanning_edges(g, algorithm="kruskal", weight="weight",
                                          keys=False, data=True)
    weights = np.array([d["weight"] for _, _, d in by_weight], dtype=graph.weight.dtype)
    np.testing.assert_equal(exact_sum(weights), forest.total_weight)  # nan == nan
    assert forest.num_components == nx.number_connected_components(g)


def check_against_scipy(graph: parmst.Graph) -> None:
    w = graph.weight.astype(np.float64)
    shifted = graph.with_weights(w - w.min() + 1.0) if len(w) else graph
    forest = parmst.minimum_spanning_forest(shifted, solver=ORACLE)
    tree = csgraph.minimum_spanning_tree(shifted.to_scipy())
    assert tree.nnz == forest.num_edges
    assert math.isclose(tree.sum(), forest.total_weight, rel_tol=1e-12, abs_tol=1e-9)


@pytest.mark.parametrize("case", list(CASES))
def test_oracle_matches_networkx_on_catalogue(case):
    check_against_networkx(CASES[case]())


@pytest.mark.parametrize("case", SCIPY_CASES)
def test_oracle_matches_scipy_on_catalogue(case):
    check_against_scipy(CASES[case]())


@given(tie_heavy_graphs())
def test_oracle_matches_networkx_on_tie_heavy_graphs(graph):
    check_against_networkx(graph)


@given(tie_heavy_graphs().filter(_exact_in_float64))
def test_oracle_matches_scipy_on_tie_heavy_graphs(graph):
    check_against_scipy(graph)


@pytest.mark.parametrize("check", [check_against_networkx, check_against_scipy])
def test_checks_catch_a_planted_wrong_oracle(check, monkeypatch):
    lightest_forest = kruskal.solve

    def heaviest_forest(graph, stats):
        return lightest_forest(graph.with_weights(-graph.weight.astype(np.float64)), stats)

    graph = CASES["complete-k12"]()
    check(graph)
    monkeypatch.setattr(kruskal, "solve", heaviest_forest)
    with pytest.raises(AssertionError):
        check(graph)
