"""A NetworkX graph as arrays: :class:`NxSnapshot`, the graph type of the ``parmst`` backend.

Graphs convert without an edge-by-edge Python loop where the node labels
allow it; attribute dicts, keys, node data and ``G.graph`` are held by
reference, so results can hand NetworkX's own objects back.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain, compress
from operator import itemgetter, methodcaller
from typing import Any

import networkx as nx
import numpy as np

__all__ = ["NxSnapshot", "gc_paused", "snapshot"]

_values = methodcaller("values")


class NxSnapshot:
    """A NetworkX graph as arrays: the backend graph type of ``parmst``.

    Half-edges are the adjacency entries in NetworkX's iteration order (rows
    in node order, neighbours in adjacency order, a multigraph's keys
    flattened); edges are the half-edges ``G.edges`` yields, i.e. those whose
    neighbour does not come before their row. Attribute dicts, keys, node
    data and ``G.graph`` are held by reference, as NetworkX yields them; like
    NetworkX's cache of converted graphs, a snapshot assumes the graph is not
    changed afterwards (NetworkX drops cached snapshots when it is).

    Examples
    --------
    >>> import networkx as nx
    >>> s = NxSnapshot(nx.path_graph(3))
    >>> s.src.tolist(), s.dst.tolist()
    ([0, 1], [1, 2])
    """

    __networkx_backend__ = "parmst"

    def __init__(self, graph: Any) -> None:
        if not isinstance(graph, nx.Graph):
            raise TypeError(f"expected a NetworkX graph, got {type(graph).__name__}")
        self.graph_class = type(graph)
        self.graph = graph.graph
        self.node_data = graph._node
        self.directed = graph.is_directed()
        self.multigraph = graph.is_multigraph()
        self.plain_dicts = graph.edge_attr_dict_factory is dict
        # dict.values, a method descriptor, reads plain dicts at half the cost of methodcaller.
        plain_rows = (graph.adjlist_inner_dict_factory is dict
                      and getattr(graph, "edge_key_dict_factory", dict) is dict)
        self._values = dict.values if plain_rows else _values
        self._adj = adj = graph._adj
        self.nodes, self.edge_dicts = _aged_lists(2)
        with gc_paused():
            self.nodes.extend(adj)
            n = len(self.nodes)
            self._int_labels, self.labels_are_positions = self._int_label_array()
            pair_nbr, pairs = self._neighbours_and_row_lengths()
            if self.multigraph:
                multiplicity = np.fromiter(map(len, self._keydicts()), dtype=np.int64,
                                           count=len(pair_nbr))
                self.nbr = np.repeat(pair_nbr, multiplicity)
                pair_end = np.cumsum(pairs)
                half_end = np.concatenate(([0], np.cumsum(multiplicity)))
                counts = np.diff(np.concatenate(([0], half_end[pair_end])))
            else:
                self.nbr = pair_nbr
                counts = pairs
            self.indptr = np.concatenate(([0], np.cumsum(counts)))
            self.row = np.repeat(np.arange(n, dtype=np.int64), counts)
            mask = self.nbr >= self.row
            self.edge_half = np.flatnonzero(mask)
            self.src = self.row[self.edge_half]
            self.dst = self.nbr[self.edge_half]
            # A list, not an object array (which numpy's take picks from faster): the
            # cyclic collector must see these references, or a cached snapshot whose
            # dicts refer back to the graph would keep the graph alive forever. The
            # selectors are bytes: iterating them yields cached small ints, where
            # mask.tolist() would first build a list as long as the adjacency.
            self.edge_dicts.extend(compress(self._half_dicts(), mask.view(np.uint8).tobytes()))
        self._derived: dict[str, Any] = {}
        self._weights: dict[tuple[Any, bool], np.ndarray] = {}

    def _neighbours_and_row_lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions of the adjacency's neighbours, row after row, and each row's length.

        An undirected graph's row ``u`` holds ``v`` exactly when row ``v`` holds ``u``
        (NetworkX enters every edge in both rows, a self-loop once in its own), so a
        row's length is the number of times its node is a neighbour: one ``bincount``
        instead of a pass of ``len`` over the rows, which costs a fifth of the
        neighbours' own pass on road graphs (rows of 2.7 entries). A directed graph's
        rows hold successors only, so it takes that pass.
        """
        adj, n = self._adj, len(self.nodes)
        if self.directed:
            lengths = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
            return self._positions(lambda: chain.from_iterable(adj.values()),
                                   int(lengths.sum())), lengths
        nbr = self._positions(lambda: chain.from_iterable(adj.values()), -1)
        return nbr, np.bincount(nbr, minlength=n)

    def _keydicts(self) -> Iterator:
        return chain.from_iterable(map(self._values, self._adj.values()))

    def _half_dicts(self) -> Iterator:
        """Attribute dicts of the half-edges, in half-edge order (read from the adjacency)."""
        if self.multigraph:
            return chain.from_iterable(map(self._values, self._keydicts()))
        return chain.from_iterable(map(self._values, self._adj.values()))

    @property
    def dicts(self) -> list:
        """Attribute dict of every half-edge (built on first use: Prim, Borůvka, messages)."""
        if "dicts" not in self._derived:
            with gc_paused():
                self._derived["dicts"] = list(self._half_dicts())
        return self._derived["dicts"]

    @property
    def keys(self) -> list | None:
        """Multigraph key of every half-edge (``None`` for a simple graph)."""
        if not self.multigraph:
            return None
        if "keys" not in self._derived:
            with gc_paused():
                self._derived["keys"] = list(chain.from_iterable(self._keydicts()))
        return self._derived["keys"]

    def _int_label_array(self) -> tuple[np.ndarray | None, bool]:
        """The node labels as an int64 array when all are ``int`` within int64 (else None),
        and whether they are ``0..n-1`` in node order, each label its own position.

        ``array("q")`` reads the labels in C and takes only integers (objects with
        ``__index__``: ``int``, ``bool``, numpy's integers), which, as dict keys, equal
        their value. Labels ``0..n-1`` are then distinct positions whatever their type,
        and the type of each is checked only otherwise (a pass of ``type`` over the
        nodes, which cost as much as reading them: 18 against 9.5 ms on 500 k nodes).
        """
        nodes = self.nodes
        try:
            values = np.frombuffer(array("q", nodes), dtype=np.int64)
        except (TypeError, OverflowError):  # not integers, or beyond int64
            return None, False
        if np.array_equal(values, np.arange(len(nodes))):
            return values, True
        return (values if set(map(type, nodes)) <= {int} else None), False

    def label_array(self) -> np.ndarray:
        """The node labels, the graph's own objects, as an object array in node order.

        Numpy's take from it gives the labels at given positions with the loop in
        C: on road 100 k's forest a third of the time of making new ints by
        ``positions.tolist()`` (2.2 against 5.5 ms for 144 k labels), a sixth of
        that of a ``map`` of ``list.__getitem__``. Made for each use and not kept:
        the collector does not see an object array's references.
        """
        return np.fromiter(self.nodes, dtype=object, count=len(self.nodes))

    def _positions(self, labels: Callable[[], Iterator], count: int) -> np.ndarray:
        """Positions (in node order) of the ``count`` node labels ``labels()`` yields (-1: all).

        Integer labels map through an array (identity for ``0..n-1``), others
        through a dict; either way the loop over labels runs in C.
        """
        nodes = self.nodes
        n = len(nodes)
        values = self._int_labels
        if values is not None:  # the labels wanted are nodes, so ints within int64 too
            wanted = np.fromiter(labels(), dtype=np.int64, count=count)
            if self.labels_are_positions:
                return wanted
            lo = int(values.min())
            span = int(values.max()) - lo + 1
            if span <= 4 * n + 1024:
                where = np.full(span, -1, dtype=np.int64)
                where[values - lo] = np.arange(n)
                return where[wanted - lo]
            order = np.argsort(values)
            return order[np.searchsorted(values, wanted, sorter=order)]
        index = dict(zip(nodes, range(n)))
        return np.fromiter(map(index.__getitem__, labels()), dtype=np.int64, count=count)

    @property
    def num_vertices(self) -> int:
        return len(self.nodes)

    @property
    def num_edges(self) -> int:
        return len(self.edge_half)

    def weights(self, weight: Any, half: bool) -> np.ndarray:
        """Weights of the edges (``half`` False) or half-edges, missing ones 1 (cached).

        Raises NotImplementedError for weights that are not int or float
        numbers of at most 64 bits, so that NetworkX can run its own code.
        """
        cached = self._weights.get((weight, half))
        if cached is not None:
            return cached
        dicts = self.dicts if half else self.edge_dicts
        with gc_paused():
            try:  # every edge has the attribute: itemgetter reads it at half the cost of get
                if not self.plain_dicts:  # a dict subclass might answer a missing key itself
                    raise KeyError(weight)
                raw = list(map(itemgetter(weight), dicts))
            except KeyError:
                raw = list(map(methodcaller("get", weight, 1), dicts))
            values = np.array(raw)
        if values.dtype.kind not in "biuf" or values.ndim != 1:
            raise NotImplementedError(
                f"parmst handles int and float weights; edge attribute {weight!r} holds "
                f"{values.dtype} values")
        if values.dtype.kind == "f" and values.size:
            big = np.abs(values) > 2**53  # infinities too, NaN not; no copy of the finite ones
            if big.any() and np.isfinite(values[big]).any() and any(
                    isinstance(x, (int, np.integer)) for x in raw):
                raise NotImplementedError(
                    "integer weights above 2**53 mixed with floats would lose their exact order")
        self._weights[(weight, half)] = values
        return values

    def to_networkx(self) -> nx.Graph:
        """A graph of the original class with the same nodes, edges and attribute dicts."""
        g = self.graph_class()
        g.graph.update(self.graph)
        g.add_nodes_from(self.node_data.items())
        nodes = self.nodes
        ends = zip(map(nodes.__getitem__, self.src.tolist()),
                   map(nodes.__getitem__, self.dst.tolist()))
        if self.multigraph:
            keys = map(self.keys.__getitem__, self.edge_half.tolist())
            g.add_edges_from((u, v, k, d) for (u, v), k, d in zip(ends, keys, self.edge_dicts))
        else:
            g.add_edges_from((u, v, d) for (u, v), d in zip(ends, self.edge_dicts))
        return g


def _aged_lists(count: int) -> list[list]:
    """``count`` empty lists, moved out of the collector's youngest generation.

    The snapshot's lists hold a reference to every node and every edge's dict. Made
    and filled in the youngest generation, they would be walked by its next
    collection, the first of those that :mod:`parmst.interop._nx_results` makes between
    bursts of new tuples: a million references on a 10^6-edge graph, each a visit to a
    dict elsewhere in memory (40-60 ms of a 480 ms call on grid 1 M). Collected while
    still empty, they sit in the middle generation, which no collection of the call
    walks; an uncached snapshot is gone before one does. Where the caller has switched
    the collector off, nothing is collected here either.
    """
    made = [[] for _ in range(count)]
    if gc.isenabled():
        gc.collect(0)
    return made


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small objects.

    Each burst of new tuples would trigger collections that traverse every
    object of the caller's graph (its dicts of dicts); the objects built
    here hold no cycles of their own.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def snapshot(G: Any) -> NxSnapshot:
    """``G`` itself when NetworkX already converted it, else a new snapshot of it."""
    return G if isinstance(G, NxSnapshot) else NxSnapshot(G)
