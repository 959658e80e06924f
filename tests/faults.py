"""Planted faults for the verifier's soundness tests (tests/test_verify.py, tests/test_cli.py).

:func:`plant` turns a graph into a graph and a wrong claim about its minimum
spanning forest; :data:`FAULTS` names the check each fault must fail.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import parmst


def kruskal(graph):
    return parmst.minimum_spanning_forest(graph, solver="kruskal/serial")


FAULTS = {
    "heavier_swap": "minimal",
    "cycle": "acyclic",
    "missing_edge": "spanning",
    "wrong_weight": "fields",
    "duplicate_id": "ids",
    "out_of_range_id": "ids",
    "wrong_tie": "minimal",
}


def _forest_path(g, forest, u, v):
    """Edge ids on the path u..v of the forest (None if u and v lie in different trees)."""
    adjacent = {}
    for e in forest:
        a, b = int(g.src[e]), int(g.dst[e])
        adjacent.setdefault(a, []).append((b, e))
        adjacent.setdefault(b, []).append((a, e))
    came_from = {u: None}
    todo = [u]
    while todo:
        x = todo.pop()
        for y, e in adjacent.get(x, []):
            if y not in came_from:
                came_from[y] = (x, e)
                todo.append(y)
    if v not in came_from:
        return None
    path = []
    while came_from[v] is not None:
        v, e = came_from[v]
        path.append(e)
    return path


def _with_edge(g, u, v, w):
    """``g`` plus one edge (u, v, w) at the end; returns the graph and the new edge's id."""
    return parmst.Graph.from_edges(np.append(g.src, u), np.append(g.dst, v),
                                   np.append(g.weight, np.array(w, dtype=g.weight.dtype)),
                                   num_vertices=g.num_vertices), g.num_edges


def _swap_pairs(g, forest, same_weight):
    """(outside edge e, forest edge f on e's forest path) with w[e] > w[f] or w[e] == w[f]."""
    pairs = []
    for e in sorted(set(range(g.num_edges)) - set(forest)):
        u, v = int(g.src[e]), int(g.dst[e])
        for f in (_forest_path(g, forest, u, v) or []) if u != v else []:
            if (g.weight[e] == g.weight[f]) if same_weight else (g.weight[e] > g.weight[f]):
                pairs.append((e, f))
    return pairs


def plant(fault, g, rnd):
    """A graph and a wrong claim about its minimum spanning forest (ids, or a Forest).

    Faults use the graph's own edges when it has the shape they need, else one appended
    edge (a heavier or equal parallel copy of a forest edge) makes the fault possible.
    """
    forest = kruskal(g).edge_ids.tolist()
    f = rnd.choice(forest)
    u, v, w = int(g.src[f]), int(g.dst[f]), g.weight[f]
    if fault in ("heavier_swap", "wrong_tie"):
        pairs = _swap_pairs(g, forest, same_weight=fault == "wrong_tie")
        if pairs:
            e, f = rnd.choice(pairs)
        else:
            g, e = _with_edge(g, u, v, w if fault == "wrong_tie" else w + 1)
        return g, sorted(set(forest) - {f} | {e})
    if fault == "cycle":
        closing = [e for e in set(range(g.num_edges)) - set(forest)
                   if int(g.src[e]) == int(g.dst[e])
                   or _forest_path(g, forest, int(g.src[e]), int(g.dst[e])) is not None]
        if closing:
            return g, forest + [rnd.choice(sorted(closing))]
        g, e = _with_edge(g, u, v, w + 1)
        return g, forest + [e]
    if fault == "missing_edge":
        return g, [e for e in forest if e != f]
    if fault == "duplicate_id":
        return g, forest + [f]
    if fault == "out_of_range_id":
        return g, forest + [rnd.choice([-1, g.num_edges, g.num_edges + 7, 2**40])]
    assert fault == "wrong_weight"
    good = kruskal(g)
    k = forest.index(f)
    weight = good.weight.copy()
    weight[k] += rnd.choice([1, -1])
    changed = {"weight": weight}
    if rnd.random() < 0.5:  # a consistent total hides nothing: the listed weight is still wrong
        changed["total_weight"] = parmst.forest.exact_sum(weight)
    return g, dataclasses.replace(good, **changed)


