"""Kruskal, the oracle: no sort where the id order is the order, counting sort for few weights."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.order import canonical
from parmst.solvers.serial import kruskal


def _reference(src, dst, weight, n):
    """Plain Kruskal in Python: edges by (weight, id), union-find without any shortcut."""
    parent = list(range(n))

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    chosen = []
    for e in sorted(range(len(src)), key=lambda e: (weight[e], e)):
        ru, rv = root(int(src[e])), root(int(dst[e]))
        if ru != rv:
            parent[ru] = rv
            chosen.append(e)
    return sorted(chosen)


def _graph(rng, n, m, weight):
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    src[: m // 4] = src[m // 4: m // 2]  # duplicates, in both directions
    dst[: m // 4] = dst[m // 4: m // 2]
    src[m // 8: m // 4], dst[m // 8: m // 4] = dst[m // 8: m // 4].copy(), src[m // 8: m // 4].copy()
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("values", [[1], [0], [-3], [np.inf], [-2, 0, 5], list(range(300))])
def test_equal_and_few_weights_give_the_reference_forest(dtype, values):
    """Several components, isolated vertices, duplicates and self loops; every weight equal or
    few distinct (negative, zero, infinite) values."""
    rng = np.random.default_rng(len(values))
    if np.dtype(dtype).kind == "i":
        values = [np.iinfo(dtype).max if v == np.inf else v for v in values]
    n, m = 400, 600
    weight = rng.choice(np.array(values, dtype=dtype), m)
    graph = _graph(rng, n, m, weight)
    ids = kruskal.solve(graph, parmst.Stats())  # ascending, as the registry says it is
    assert ids.tolist() == _reference(graph.src, graph.dst, weight.tolist(), n)


def test_unweighted_graph_scans_in_id_order_without_an_order_array(monkeypatch):
    """Every weight equal: the scan walks the edges as they are (no gather through an order)."""
    monkeypatch.setattr(kruskal, "scan_in_order_ascending", None)  # must not be called
    graph = _graph(np.random.default_rng(3), 50, 80, np.ones(80))
    ids = kruskal.solve(graph, parmst.Stats())
    assert ids.tolist() == _reference(graph.src, graph.dst, [1.0] * 80, 50)


def test_counting_sort_and_packed_sort_give_the_same_forest(monkeypatch):
    rng = np.random.default_rng(4)
    graph = _graph(rng, 2000, 5000, rng.integers(-5, 5, 5000).astype(np.int32))
    counted = kruskal.solve(graph, parmst.Stats())
    monkeypatch.setattr(canonical, "_COUNTING_SPAN", 0)
    monkeypatch.setattr(canonical, "_TABLE_EDGES", 1 << 62)
    np.testing.assert_array_equal(kruskal.solve(graph, parmst.Stats()), counted)
