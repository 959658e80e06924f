"""The ``acyclic``, ``spanning`` and ``minimal`` checks: the listed edges form the minimum spanning forest.

Each check reads the :class:`~parmst.verify.path_maxima.LinkTree` of the
listed edges; ``minimal`` is the cycle property (Shou and He, section 2.4)
under the ``(weight, edge_id)`` order and needs an acyclic edge set.

Examples
--------
>>> import parmst
>>> from parmst.verify.path_maxima import link_tree
>>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
>>> from parmst.verify import VerifyResult
>>> rec = Recorder(VerifyResult(), limit=10)
>>> tree = link_tree(g, np.array([0, 2]))
>>> check_minimal(g, tree, candidates(g, np.array([0, 2])), rec)
>>> rec.result.failed_checks
['minimal']
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.graph import Graph
from parmst.verify.path_maxima import LinkTree, connection_rank, precedes
from parmst.verify.result import Recorder

__all__ = ["candidates", "check_acyclic", "check_minimal", "check_spanning"]


@numba.njit(cache=True)
def _find_root(parent, v):
    """Root of ``v`` with path halving (Shou and He, section 2.7, disjoint-set find)."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@numba.njit(cache=True, parallel=True)
def _flag_crossing_edges(src, dst, candidate, roots, crossing):
    """Flag candidate edges whose ends lie in different trees of the forest."""
    for e in numba.prange(len(src)):
        crossing[e] = candidate[e] and roots[src[e]] != roots[dst[e]]


@numba.njit(cache=True)
def _flag_missing_edges(src, dst, crossing_ids, roots, tree_parent, missing):
    """Union forest trees along crossing edges; flag each edge that merges two of them.

    The flagged edges are exactly the edges the forest lacks to span the
    graph's components: their number is (forest trees) - (graph components).
    """
    count = 0
    for k in range(len(crossing_ids)):
        e = crossing_ids[k]
        a = _find_root(tree_parent, roots[src[e]])
        b = _find_root(tree_parent, roots[dst[e]])
        if a != b:
            tree_parent[a] = b
            missing[k] = True
            count += 1
    return count


@numba.njit(cache=True, parallel=True)
def _flag_cycle_property_violations(src, dst, weight, candidate, link_parent, link_rank,
                                    order, violates):
    """Cycle property check (Shou and He, section 2.4) under the ``(weight, edge_id)`` order.

    Flags each candidate non-loop edge inside one tree whose key is smaller
    than the key of the heaviest forest edge on the forest path between its
    ends. Edges between trees are left to the spanning check. Queries are
    independent, so they run in parallel.
    """
    for e in numba.prange(len(src)):
        violates[e] = False
        if candidate[e] and src[e] != dst[e]:
            rank = connection_rank(link_parent, link_rank, src[e], dst[e])
            if rank >= 0:
                violates[e] = precedes(weight, np.int64(e), order[rank])


def _describe(graph: Graph, e: int) -> str:
    u, v = int(graph.src[e]), int(graph.dst[e])
    return f"edge {e} (u={u}, v={v}, weight {graph.weight[e].item()!r})"


def check_acyclic(graph: Graph, tree: LinkTree, rec: Recorder) -> None:
    """Record the listed edges that close a cycle (a self-loop is a cycle of one edge)."""
    rec.run("acyclic")
    messages = []
    for e in tree.cycle_edges[: rec.limit].tolist():
        if graph.src[e] == graph.dst[e]:
            messages.append(f"{_describe(graph, e)} is a self-loop, a cycle of one edge")
        else:
            messages.append(f"{_describe(graph, e)} closes a cycle with listed edges of "
                            "smaller (weight, edge_id) key")
    rec.fail("acyclic", messages, len(tree.cycle_edges))


def candidates(graph: Graph, ids: np.ndarray) -> np.ndarray:
    """Edges to test against the forest: not listed and not NaN."""
    candidate = np.ones(graph.num_edges, dtype=np.bool_)
    candidate[ids] = False
    if graph.weight.dtype.kind == "f":
        candidate &= ~np.isnan(graph.weight)
    return candidate


def check_spanning(graph: Graph, tree: LinkTree, candidate: np.ndarray,
                   rec: Recorder) -> int:
    """Record missing component edges; return the graph's number of components."""
    rec.run("spanning")
    crossing = np.empty(graph.num_edges, dtype=np.bool_)
    _flag_crossing_edges(graph.src, graph.dst, candidate, tree.roots, crossing)
    crossing_ids = np.flatnonzero(crossing)
    if len(crossing_ids) == 0:
        return tree.num_trees
    tree_parent = np.arange(graph.num_vertices, dtype=graph.index_dtype)
    missing = np.zeros(len(crossing_ids), dtype=np.bool_)
    count = _flag_missing_edges(graph.src, graph.dst, crossing_ids, tree.roots, tree_parent,
                                missing)
    witnesses = crossing_ids[missing][: rec.limit].tolist()
    rec.fail("spanning", [f"graph {_describe(graph, e)} joins two different forest trees: "
                          "missing component edge" for e in witnesses], count)
    return tree.num_trees - count


def check_minimal(graph: Graph, tree: LinkTree, candidate: np.ndarray, rec: Recorder) -> None:
    """Record candidate edges lighter, by key, than a forest edge on the path between their ends."""
    rec.run("minimal")
    violates = np.empty(graph.num_edges, dtype=np.bool_)
    _flag_cycle_property_violations(graph.src, graph.dst, graph.weight, candidate,
                                    tree.link_parent, tree.link_rank, tree.order, violates)
    bad = np.flatnonzero(violates)
    messages = []
    for e in bad[: rec.limit].tolist():
        rank = connection_rank(tree.link_parent, tree.link_rank, graph.src[e], graph.dst[e])
        f = int(tree.order[rank])
        wf = graph.weight[f].item()
        if graph.weight[e] == graph.weight[f]:
            messages.append(f"{_describe(graph, e)} ties with forest edge {f} (weight {wf!r}) "
                            "on the forest path between its ends and has the smaller id: the "
                            "forest is not minimal under the (weight, edge_id) order")
        else:
            messages.append(f"{_describe(graph, e)} is lighter than forest edge {f} "
                            f"(weight {wf!r}) on the forest path between its ends: the forest "
                            "is not minimal")
    rec.fail("minimal", messages, len(bad))
