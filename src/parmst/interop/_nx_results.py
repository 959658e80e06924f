"""parmst's answer as NetworkX gives it: edge tuples, or a tree graph of the input's class.

The tuples hold the input's node labels, keys and attribute dicts themselves,
in NetworkX's yield order and orientation; a NaN error is raised where
NetworkX's iteration would raise it.

Examples
--------
>>> import networkx as nx
>>> G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 3})])
>>> list(spanning_edges(G, "kruskal", True, "weight", True, False, False))
[(1, 2), (0, 1)]
>>> sorted(spanning_tree(G, "kruskal", True, "weight", False).edges(data="weight"))
[(0, 1, 2), (1, 2, 1)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import repeat
from typing import Any

import networkx as nx
import numpy as np

from parmst.interop._nx_algorithms import solve
from parmst.interop._nx_snapshot import NxSnapshot, gc_paused, snapshot

__all__ = ["spanning_edges", "spanning_tree"]


def _tuples(snap: NxSnapshot, halves: np.ndarray, keys: bool, data: bool) -> list[tuple]:
    """NetworkX's ``(u, v[, key][, data])`` tuples of ``halves``, oriented from row to neighbour."""
    h = halves.tolist()
    nodes = snap.nodes
    u = map(nodes.__getitem__, snap.row[halves].tolist())
    v = map(nodes.__getitem__, snap.nbr[halves].tolist())
    parts = [u, v]
    if snap.multigraph and keys:
        parts.append(map(snap.keys.__getitem__, h))
    if data:
        parts.append(_dicts_of(snap, halves))
    with gc_paused():
        return list(zip(*parts))


def _dicts_of(snap: NxSnapshot, halves: np.ndarray) -> Iterator:
    """Attribute dicts of ``halves``, from the edges' list when all are edges (Kruskal)."""
    where = snap.edge_of_half[halves]
    if len(halves) and where.min() < 0:
        return map(snap.dicts.__getitem__, halves.tolist())
    return map(snap.edge_dicts.__getitem__, where.tolist())


def _yield_then_raise(edges: list[tuple], error: str | None):
    yield from edges
    if error is not None:
        raise ValueError(error)


def spanning_edges(G: Any, algorithm: str, minimum: bool, weight: Any, keys: bool, data: bool,
                   ignore_nan: bool):
    """NetworkX's ``*_spanning_edges``: an iterator of its tuples, raising where NetworkX would.

    The forest is found when this is called; the iterator yields the tuples
    NetworkX would yield, then raises NetworkX's ``ValueError`` where
    NetworkX would have met a NaN edge.
    """
    snap = snapshot(G)
    halves, error = solve(snap, algorithm, minimum, weight, ignore_nan)
    return _yield_then_raise(_tuples(snap, halves, keys, data), error)


def spanning_tree(G: Any, algorithm: str, minimum: bool, weight: Any,
                  ignore_nan: bool) -> nx.Graph:
    """NetworkX's tree: ``G.__class__()`` with ``G.graph``, every node and its data, the edges.

    NetworkX adds the edges one by one and raises at a NaN edge, discarding
    the tree; raising before building gives the same outcome. For exactly
    ``nx.Graph`` and ``nx.MultiGraph`` the dicts are filled directly, in the
    order ``add_edges_from`` would fill them; subclasses go through their own
    methods.
    """
    snap = snapshot(G)
    halves, error = solve(snap, algorithm, minimum, weight, ignore_nan)
    if error is not None:
        raise ValueError(error)
    T = snap.graph_class()
    T.graph.update(snap.graph)
    with gc_paused():
        if snap.graph_class is nx.Graph or snap.graph_class is nx.MultiGraph:
            n = len(snap.node_data)
            T._node.update(zip(snap.node_data, map(dict, snap.node_data.values())))
            T._adj.update(zip(snap.node_data, map(dict, repeat((), n))))
            _fill_adjacency(T._adj, snap, halves)
        else:
            T.add_nodes_from(snap.node_data.items())
            T.add_edges_from(_tuples(snap, halves, True, True))
    return T


def _fill_adjacency(adj: dict, snap: NxSnapshot, halves: np.ndarray) -> None:
    """Insert the tree edges into ``adj`` in yield order, both directions, as ``add_edges_from``.

    Entry ``2k`` is edge ``k`` seen from its row, ``2k+1`` from its neighbour;
    one ``map`` over the interleaved entries does every insertion in C.
    """
    copies = list(map(dict, _dicts_of(snap, halves)))
    if snap.multigraph:
        copies = [{k: d} for k, d in zip(map(snap.keys.__getitem__, halves.tolist()), copies)]
    ends = np.empty(2 * len(halves), dtype=np.int64)
    ends[0::2] = snap.row[halves]
    ends[1::2] = snap.nbr[halves]
    owners = list(map(snap.nodes.__getitem__, ends.tolist()))
    others = owners[:]
    others[0::2], others[1::2] = owners[1::2], owners[0::2]
    values = copies + copies
    values[0::2] = values[1::2] = copies
    deque(map(dict.__setitem__, map(adj.__getitem__, owners), others, values), maxlen=0)
