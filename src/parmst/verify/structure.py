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
>>> check_minimal(tree, Edges.of(g), candidates(g, np.array([0, 2])), rec)
>>> rec.result.failed_checks
['minimal']
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parmst.graph import Graph
from parmst.kernels.unionfind import find, link_roots
from parmst.order import precedes
from parmst.verify.path_maxima import LinkTree, connection_rank
from parmst.verify.result import Recorder

__all__ = ["Edges", "candidates", "check_acyclic", "check_minimal", "check_spanning",
           "missing_edges", "record_missing"]


@dataclass
class Edges:
    """Edges by position: their global ``ids``, ends and weights.

    ``ids`` is empty where each position is its edge's id (a whole
    :class:`~parmst.Graph`); a rank of a distributed graph has its held
    edges' ids, ascending.
    """

    ids: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray

    @classmethod
    def of(cls, graph: Graph) -> Edges:
        """Every edge of ``graph``, each at the position of its id."""
        return cls(np.zeros(0, dtype=np.int64), graph.src, graph.dst, graph.weight)

    def id_of(self, k: int) -> int:
        return int(self.ids[k]) if len(self.ids) else int(k)

    def positions(self, ids: np.ndarray) -> np.ndarray:
        """Positions of edge ``ids`` that are among these edges."""
        return np.searchsorted(self.ids, ids) if len(self.ids) else ids

    def describe(self, k: int) -> str:
        return (f"edge {self.id_of(k)} (u={int(self.src[k])}, v={int(self.dst[k])}, "
                f"weight {self.weight[k].item()!r})")


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
        a = find(tree_parent, roots[src[e]])
        b = find(tree_parent, roots[dst[e]])
        if a != b:
            link_roots(tree_parent, a, b)
            missing[k] = True
            count += 1
    return count


@numba.njit(cache=True, parallel=True)
def _flag_cycle_property_violations(src, dst, weight, ids, candidate, link_parent, link_rank,
                                    order, order_weight, violates):
    """Cycle property check (Shou and He, section 2.4) under the ``(weight, edge_id)`` order.

    Flags each candidate non-loop edge inside one tree whose key is smaller
    than the key of the heaviest forest edge on the forest path between its
    ends. ``ids`` are the edges' global ids, or empty where a position is
    the id. Edges between trees are left to the spanning check. Queries are
    independent, so they run in parallel.
    """
    for e in numba.prange(len(src)):
        violates[e] = False
        if candidate[e] and src[e] != dst[e]:
            rank = connection_rank(link_parent, link_rank, src[e], dst[e])
            if rank >= 0:
                eid = ids[e] if len(ids) else np.int64(e)
                violates[e] = precedes(weight[e], eid, order_weight[rank], order[rank])


def check_acyclic(tree: LinkTree, listed: Edges, rec: Recorder) -> None:
    """Record the listed edges that close a cycle (a self-loop is a cycle of one edge).

    ``listed`` holds at least the listed edges, so their ends can be named.
    """
    rec.run("acyclic")
    messages = []
    for k in listed.positions(tree.cycle_edges[: rec.limit]).tolist():
        if listed.src[k] == listed.dst[k]:
            messages.append(f"{listed.describe(k)} is a self-loop, a cycle of one edge")
        else:
            messages.append(f"{listed.describe(k)} closes a cycle with listed edges of "
                            "smaller (weight, edge_id) key")
    rec.fail("acyclic", messages, len(tree.cycle_edges))


def candidates(graph: Graph, ids: np.ndarray) -> np.ndarray:
    """Edges to test against the forest: not listed and not NaN."""
    candidate = np.ones(graph.num_edges, dtype=np.bool_)
    candidate[ids] = False
    if graph.weight.dtype.kind == "f":
        candidate &= ~np.isnan(graph.weight)
    return candidate


def missing_edges(edges: Edges, roots: np.ndarray, candidate: np.ndarray) -> np.ndarray:
    """Positions of candidate edges that each merge two forest trees (``roots``: the tree
    root of every vertex), first come first: as many as the forest lacks to span the
    components of ``edges``."""
    crossing = np.empty(len(edges.src), dtype=np.bool_)
    _flag_crossing_edges(edges.src, edges.dst, candidate, roots, crossing)
    crossing_ids = np.flatnonzero(crossing)
    if len(crossing_ids) == 0:
        return crossing_ids
    tree_parent = np.full(len(roots), -1, dtype=roots.dtype)
    missing = np.zeros(len(crossing_ids), dtype=np.bool_)
    _flag_missing_edges(edges.src, edges.dst, crossing_ids, roots, tree_parent, missing)
    return crossing_ids[missing]


def record_missing(edges: Edges, missing: np.ndarray, rec: Recorder) -> None:
    """Record the ``spanning`` failures of the edges at positions ``missing``."""
    rec.fail("spanning", [f"graph {edges.describe(k)} joins two different forest trees: "
                          "missing component edge" for k in missing[: rec.limit].tolist()],
             len(missing))


def check_spanning(graph: Graph, tree: LinkTree, candidate: np.ndarray,
                   rec: Recorder) -> int:
    """Record missing component edges; return the graph's number of components."""
    rec.run("spanning")
    missing = missing_edges(Edges.of(graph), tree.roots, candidate)
    record_missing(Edges.of(graph), missing, rec)
    return tree.num_trees - len(missing)


def check_minimal(tree: LinkTree, edges: Edges, candidate: np.ndarray, rec: Recorder) -> None:
    """Record candidate ``edges`` lighter, by key, than a forest edge on the path between
    their ends."""
    rec.run("minimal")
    violates = np.empty(len(edges.src), dtype=np.bool_)
    _flag_cycle_property_violations(edges.src, edges.dst, edges.weight, edges.ids, candidate,
                                    tree.link_parent, tree.link_rank, tree.order,
                                    tree.order_weight, violates)
    bad = np.flatnonzero(violates)
    messages = []
    for e in bad[: rec.limit].tolist():
        rank = connection_rank(tree.link_parent, tree.link_rank, edges.src[e], edges.dst[e])
        f, wf = int(tree.order[rank]), tree.order_weight[rank]
        if edges.weight[e] == wf:
            messages.append(f"{edges.describe(e)} ties with forest edge {f} "
                            f"(weight {wf.item()!r}) on the forest path between its ends and "
                            "has the smaller id: the forest is not minimal under the "
                            "(weight, edge_id) order")
        else:
            messages.append(f"{edges.describe(e)} is lighter than forest edge {f} "
                            f"(weight {wf.item()!r}) on the forest path between its ends: the "
                            "forest is not minimal")
    rec.fail("minimal", messages, len(bad))
