"""The ``parmst`` NetworkX backend: NetworkX's spanning-tree functions, answered by parmst.

Switch on per call with ``nx.minimum_spanning_tree(G, backend="parmst")`` or
for every call with ``NETWORKX_BACKEND_PRIORITY=parmst``. Results are exactly
NetworkX's: the same edges, in the same order, oriented the same way, with the
same key and the same attribute dict objects, for ``nx.Graph`` and
``nx.MultiGraph`` and every algorithm:

- ``kruskal``: NetworkX sorts ``G.edges`` stably by weight, which is parmst's
  ``(weight, edge_id)`` rule with edge ids in ``G.edges`` order, so any
  parmst solver gives the same forest; it is yielded in that order.
- ``prim`` and ``boruvka``: NetworkX breaks ties by its own traversal order
  (a heap's push count; the iteration order of Python sets), so
  :mod:`parmst.interop._nx_kernels` replays those rules on arrays.

Missing weights count as 1, ``ignore_nan`` drops NaN edges, and a NaN edge
otherwise raises NetworkX's ``ValueError`` at the same point of iteration.
Graphs convert to a :class:`NxSnapshot` (arrays of the adjacency plus
references to the attribute dicts) without an edge-by-edge Python loop where
the node labels allow it; NetworkX caches the snapshot on the graph
(``G.__networkx_cache__``) unless ``nx.config.cache_converted_graphs`` is off.

What parmst declines (``can_run`` says why, and NetworkX runs its own code
under automatic dispatch): directed graphs, ``partition=`` of
``kruskal_mst_edges``, weights that are not numbers of at most 64 bits.
``should_run`` declines graphs below :data:`MIN_EDGES` edges, where
converting costs more than NetworkX's own loop.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain, compress, repeat
from operator import methodcaller
from typing import Any

import networkx as nx
import numpy as np

from parmst.errors import GraphValueError
from parmst.graph import Graph

__all__ = ["MIN_EDGES", "BackendInterface", "NxSnapshot", "convert_from_nx", "convert_to_nx"]

#: Below this many edges ``should_run`` declines: NetworkX's own loop is about as
#: fast as building arrays (measured on 2 cores: 100 edges 0.49 ms NetworkX vs 0.55 ms
#: parmst for minimum_spanning_tree, 300 edges 1.42 ms vs 0.75 ms).
MIN_EDGES = 200

ALGORITHMS = ("kruskal", "prim", "boruvka", "borůvka")
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
        self._adj = adj = graph._adj
        with _gc_paused():
            self.nodes = list(adj)
            n = len(self.nodes)
            pairs = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
            pair_nbr = self._positions(lambda: chain.from_iterable(adj.values()),
                                       int(pairs.sum()))
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
            self.edge_dicts = list(compress(self._half_dicts(), mask.tolist()))
        self._derived: dict[str, Any] = {}
        self._weights: dict[tuple[Any, bool], np.ndarray] = {}

    def _keydicts(self) -> Iterator:
        return chain.from_iterable(map(_values, self._adj.values()))

    def _half_dicts(self) -> Iterator:
        """Attribute dicts of the half-edges, in half-edge order (read from the adjacency)."""
        if self.multigraph:
            return chain.from_iterable(map(_values, self._keydicts()))
        return chain.from_iterable(map(_values, self._adj.values()))

    @property
    def dicts(self) -> list:
        """Attribute dict of every half-edge (built on first use: Prim, Borůvka, messages)."""
        if "dicts" not in self._derived:
            with _gc_paused():
                self._derived["dicts"] = list(self._half_dicts())
        return self._derived["dicts"]

    @property
    def edge_of_half(self) -> np.ndarray:
        """Edge index of every half-edge that ``G.edges`` yields, -1 for the others (cached)."""
        if "edge_of_half" not in self._derived:
            where = np.full(len(self.nbr), -1, dtype=np.int64)
            where[self.edge_half] = np.arange(len(self.edge_half))
            self._derived["edge_of_half"] = where
        return self._derived["edge_of_half"]

    @property
    def keys(self) -> list | None:
        """Multigraph key of every half-edge (``None`` for a simple graph)."""
        if not self.multigraph:
            return None
        if "keys" not in self._derived:
            with _gc_paused():
                self._derived["keys"] = list(chain.from_iterable(self._keydicts()))
        return self._derived["keys"]

    def _positions(self, labels: Callable[[], Iterator], count: int) -> np.ndarray:
        """Positions (in node order) of the ``count`` node labels ``labels()`` yields.

        Integer labels map through an array (identity for ``0..n-1``), others
        through a dict; either way the loop over labels runs in C.
        """
        nodes = self.nodes
        n = len(nodes)
        if set(map(type, nodes)) <= {int}:
            try:
                values = np.fromiter(nodes, dtype=np.int64, count=n)
                wanted = np.fromiter(labels(), dtype=np.int64, count=count)
            except OverflowError:  # labels beyond int64: the dict below handles them
                pass
            else:
                if np.array_equal(values, np.arange(n)):
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
        get = methodcaller("get", weight, 1)
        with _gc_paused():
            values = np.array(list(map(get, dicts)))
        if values.dtype.kind not in "biuf" or values.ndim != 1:
            raise NotImplementedError(
                f"parmst handles int and float weights; edge attribute {weight!r} holds "
                f"{values.dtype} values")
        if values.dtype.kind == "f" and values.size:
            finite = np.abs(values[np.isfinite(values)])
            if finite.size and finite.max() > 2**53 and any(
                    isinstance(x, (int, np.integer)) for x in map(get, dicts)):
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


@contextmanager
def _gc_paused():
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


def _graph_arg(args: tuple, kwargs: dict) -> Any:
    return args[0] if args else kwargs.get("G")


def _edge_count(graph: Any) -> int:
    if isinstance(graph, NxSnapshot):
        return graph.num_edges
    return sum(map(len, graph._adj.values())) // 2


# ---------------------------------------------------------------- weights and keys
def _signed(values: np.ndarray, minimum: bool) -> np.ndarray:
    """``values`` as parmst weights, negated for a maximum (ints widened so nothing overflows)."""
    if values.dtype.kind in "bui":
        if values.dtype.kind == "u" and values.size and int(values.max()) > np.iinfo(np.int64).max:
            raise NotImplementedError("unsigned weights above 2**63-1 do not fit int64")
        values = values.astype(np.int64)
        if not minimum:
            if values.size and int(values.min()) == np.iinfo(np.int64).min:
                raise NotImplementedError("weight -2**63 cannot be negated in int64")
            values = -values
        return values
    if values.dtype.itemsize > 8:
        raise NotImplementedError(f"weights of dtype {values.dtype} are wider than float64")
    return values if minimum else -values


def _keys(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order-preserving uint64 keys and the NaN mask of signed weights."""
    from parmst.order import weight_keys

    if values.dtype.kind == "f":
        nan = np.isnan(values)
        clean = np.where(nan, 0, values) if nan.any() else values
        if clean.dtype == np.float16:
            clean = clean.astype(np.float32)
        return weight_keys(clean).astype(np.uint64), nan
    return weight_keys(values.astype(np.int64)), np.zeros(len(values), dtype=bool)


def _nan_message(snap: NxSnapshot, h: int) -> str:
    u, v = snap.nodes[snap.row[h]], snap.nodes[snap.nbr[h]]
    edge = (u, v, snap.keys[h], snap.dicts[h]) if snap.multigraph else (u, v, snap.dicts[h])
    return f"NaN found as an edge weight. Edge {edge}"


# ---------------------------------------------------------------- the three algorithms
def _kruskal(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    """Chosen half-edges in NetworkX's Kruskal order, and the NaN message if it raises."""
    from parmst.interop._solve import forest_edge_ids

    signed = _signed(snap.weights(weight, half=False), minimum)
    usable = None
    if signed.dtype.kind == "f":
        nan = np.isnan(signed)
        if nan.any():
            if not ignore_nan:
                return np.zeros(0, dtype=np.int64), _nan_message(
                    snap, int(snap.edge_half[np.argmax(nan)]))
            usable = np.flatnonzero(~nan)
    src, dst = snap.src, snap.dst
    if usable is not None:
        src, dst, signed_usable = src[usable], dst[usable], signed[usable]
    else:
        signed_usable = signed
    try:
        graph = Graph.from_edges(src, dst, signed_usable, snap.num_vertices, copy=False)
    except GraphValueError as exc:
        raise NotImplementedError(f"parmst cannot take these weights: {exc}") from exc
    ids = np.sort(forest_edge_ids(graph))
    if usable is not None:
        ids = usable[ids]
    order = np.argsort(signed[ids], kind="stable")  # ids ascend, so ties keep G.edges order
    return snap.edge_half[ids[order]], None


def _prim(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    from parmst.interop._nx_kernels import prim_order

    keys, nan = _keys(_signed(snap.weights(weight, half=True), minimum))
    start = snap._positions(lambda: iter(set(snap.nodes)), snap.num_vertices)
    chosen, count, bad = prim_order(snap.indptr, snap.nbr, keys, nan, ignore_nan, start)
    return chosen[:count], (_nan_message(snap, int(bad)) if bad >= 0 else None)


def _boruvka(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    from parmst.interop._nx_kernels import boruvka_candidates
    from parmst.kernels.unionfind import forest_labels, scan_in_order

    if snap.multigraph:
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    signed = _signed(snap.weights(weight, half=True), minimum)
    keys, nan = _keys(signed)
    loop = snap.nbr == snap.row
    if not ignore_nan and (nan & ~loop).any():
        return np.zeros(0, dtype=np.int64), _nan_message(snap, int(np.argmax(nan & ~loop)))
    # NetworkX keeps a boundary edge only if its signed weight is below float("inf").
    usable = ~nan & (signed != np.inf) if signed.dtype.kind == "f" else ~nan
    n = snap.num_vertices
    label = np.arange(n, dtype=np.int64)
    parent = np.arange(n, dtype=np.int64)
    size = np.ones(n, dtype=np.int64)
    best = np.empty(n, dtype=np.int64)
    tied = np.empty(n, dtype=np.bool_)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    while boruvka_candidates(snap.indptr, snap.row, snap.nbr, keys, usable, label, best, tied):
        for c in np.flatnonzero(tied).tolist():
            best[c] = _set_order_winner(snap, c, label, keys, usable, int(best[c]))
        joins = best[best >= 0]  # by label: components in UnionFind.to_sets order
        count = scan_in_order(joins, snap.row, snap.nbr, parent, size, chosen, count)
        label = forest_labels(snap.row[chosen[:count]], snap.nbr[chosen[:count]], n)
    return chosen[:count], None


def _set_order_winner(snap: NxSnapshot, c: int, label: np.ndarray, keys: np.ndarray,
                      usable: np.ndarray, first: int) -> int:
    """The entry NetworkX's ``best_edge`` picks when several rows of component ``c`` tie.

    NetworkX groups ``UnionFind.parents`` (node order) into Python sets and
    scans ``{n for n in component}``; building the same sets here gives the
    same iteration order.
    """
    members = np.flatnonzero(label == c)
    nodes = snap.nodes
    component = set()
    for p in members.tolist():
        component.add(nodes[p])
    scan = {u for u in component}
    position = dict(zip(map(nodes.__getitem__, members.tolist()), members.tolist()))
    lightest = keys[first]
    for u in scan:
        p = position[u]
        for h in range(int(snap.indptr[p]), int(snap.indptr[p + 1])):
            if usable[h] and keys[h] == lightest and label[snap.nbr[h]] != c:
                return h
    raise AssertionError("tied component lost its lightest entry")  # pragma: no cover


_SOLVE = {"kruskal": _kruskal, "prim": _prim, "boruvka": _boruvka, "borůvka": _boruvka}


# ---------------------------------------------------------------- yielding NetworkX's tuples
def _tuples(snap: NxSnapshot, halves: np.ndarray, keys: bool, data: bool) -> list[tuple]:
    h = halves.tolist()
    nodes = snap.nodes
    u = map(nodes.__getitem__, snap.row[halves].tolist())
    v = map(nodes.__getitem__, snap.nbr[halves].tolist())
    parts = [u, v]
    if snap.multigraph and keys:
        parts.append(map(snap.keys.__getitem__, h))
    if data:
        parts.append(_dicts_of(snap, halves))
    with _gc_paused():
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


def _solve(snap: NxSnapshot, algorithm: str, minimum: bool, weight: Any, ignore_nan: bool):
    """Chosen half-edges in NetworkX's yield order, and the NaN message it would raise."""
    solve = _SOLVE.get(algorithm)
    if solve is None:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    if snap.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    return solve(snap, minimum, weight, ignore_nan)


def _spanning_edges(G: Any, algorithm: str, minimum: bool, weight: Any, keys: bool, data: bool,
                    ignore_nan: bool):
    snap = _snapshot(G)
    halves, error = _solve(snap, algorithm, minimum, weight, ignore_nan)
    return _yield_then_raise(_tuples(snap, halves, keys, data), error)


def _snapshot(G: Any) -> NxSnapshot:
    return G if isinstance(G, NxSnapshot) else NxSnapshot(G)


def _tree(snap: NxSnapshot, algorithm: str, minimum: bool, weight: Any,
          ignore_nan: bool) -> nx.Graph:
    """NetworkX's tree: ``G.__class__()`` with ``G.graph``, every node and its data, the edges.

    NetworkX adds the edges one by one and raises at a NaN edge, discarding
    the tree; raising before building gives the same outcome. For exactly
    ``nx.Graph`` and ``nx.MultiGraph`` the dicts are filled directly, in the
    order ``add_edges_from`` would fill them; subclasses go through their own
    methods.
    """
    halves, error = _solve(snap, algorithm, minimum, weight, ignore_nan)
    if error is not None:
        raise ValueError(error)
    T = snap.graph_class()
    T.graph.update(snap.graph)
    with _gc_paused():
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


class BackendInterface:
    """The object NetworkX loads for ``backend="parmst"`` (entry point ``networkx.backends``)."""

    @staticmethod
    def convert_from_nx(graph, *, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None) -> NxSnapshot:
        """Snapshot ``graph``; attributes are held by reference, so every preserve option holds."""
        return NxSnapshot(graph)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """Results are NetworkX objects already; a snapshot becomes a graph of its class."""
        return obj.to_networkx() if isinstance(obj, NxSnapshot) else obj

    @staticmethod
    def can_run(name: str, args: tuple, kwargs: dict) -> bool | str:
        """True, or why parmst cannot run ``name`` with these arguments."""
        graph = _graph_arg(args, kwargs)
        directed = graph.directed if isinstance(graph, NxSnapshot) else graph.is_directed()
        if directed:
            return "directed graph: spanning trees here are for undirected graphs"
        if name == "kruskal_mst_edges":
            partition = args[6] if len(args) > 6 else kwargs.get("partition")
            if partition is not None:
                return "partition= (edges forced in or out, for SpanningTreeIterator) is not supported"
        return True

    @staticmethod
    def should_run(name: str, args: tuple, kwargs: dict) -> bool | str:
        """True, or why NetworkX's own code is the better choice for this call."""
        m = _edge_count(_graph_arg(args, kwargs))
        if m < MIN_EDGES:
            return f"only {m} edges: below {MIN_EDGES} NetworkX's loop beats converting to arrays"
        return True

    @staticmethod
    def minimum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True,
                               ignore_nan=False):
        return _spanning_edges(G, algorithm, True, weight, keys, data, ignore_nan)

    @staticmethod
    def maximum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True,
                               ignore_nan=False):
        return _spanning_edges(G, algorithm, False, weight, keys, data, ignore_nan)

    @staticmethod
    def minimum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
        return _tree(_snapshot(G), algorithm, True, weight, ignore_nan)

    @staticmethod
    def maximum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
        return _tree(_snapshot(G), algorithm, False, weight, ignore_nan)

    @staticmethod
    def kruskal_mst_edges(G, minimum, weight="weight", keys=True, data=True, ignore_nan=False,
                          partition=None):
        return _spanning_edges(G, "kruskal", minimum, weight, keys, data, ignore_nan)

    @staticmethod
    def prim_mst_edges(G, minimum, weight="weight", keys=True, data=True, ignore_nan=False):
        return _spanning_edges(G, "prim", minimum, weight, keys, data, ignore_nan)

    @staticmethod
    def boruvka_mst_edges(G, minimum=True, weight="weight", keys=False, data=True,
                          ignore_nan=False):
        return _spanning_edges(G, "boruvka", minimum, weight, keys, data, ignore_nan)

    @staticmethod
    def on_start_tests(items) -> None:
        """Mark NetworkX's tests of functions parmst does not offer as expected failures.

        NetworkX's test mode turns a call parmst cannot run into an xfail
        anyway; marking them here (strictly) names the reason and makes an
        unexpected pass visible. See :data:`NOT_OFFERED`.
        """
        import pytest

        for item in items:
            for test, reason in NOT_OFFERED.items():
                if item.nodeid.endswith(test) or f"::{test}::" in item.nodeid:
                    item.add_marker(pytest.mark.xfail(reason=reason, strict=True))


#: NetworkX's spanning-tree tests (``algorithms/tree/tests/test_mst.py``) that
#: exercise functions parmst does not offer, with the reason.
NOT_OFFERED = {
    "TestSpanningTreeIterator": "SpanningTreeIterator calls partition_spanning_tree, "
                                "whose edge partitions parmst does not offer",
    "TestSpanningTreeMultiGraphIterator": "SpanningTreeIterator calls partition_spanning_tree "
                                          "and is_tree, which parmst does not offer",
    "TestNumberSpanningTrees": "number_of_spanning_trees counts trees (Kirchhoff's theorem); "
                               "parmst finds one",
    "test_random_spanning_tree_multiplicative_small": "random_spanning_tree samples trees; "
                                                      "parmst finds the minimum one",
    "test_random_spanning_tree_multiplicative_large": "random_spanning_tree samples trees; "
                                                      "parmst finds the minimum one",
    "test_random_spanning_tree_additive_small": "random_spanning_tree samples trees; "
                                                "parmst finds the minimum one",
    "test_random_spanning_tree_additive_large": "random_spanning_tree samples trees; "
                                                "parmst finds the minimum one",
    "test_random_spanning_tree_empty_graph": "random_spanning_tree samples trees; "
                                             "parmst finds the minimum one",
    "test_random_spanning_tree_single_node_graph": "random_spanning_tree samples trees; "
                                                   "parmst finds the minimum one",
    "test_random_spanning_tree_single_node_loop": "random_spanning_tree samples trees; "
                                                  "parmst finds the minimum one",
}


def convert_from_nx(graph, **options) -> NxSnapshot:
    """Module-level alias of :meth:`BackendInterface.convert_from_nx`."""
    return BackendInterface.convert_from_nx(graph, **options)


def convert_to_nx(obj, **options):
    """Module-level alias of :meth:`BackendInterface.convert_to_nx`."""
    return BackendInterface.convert_to_nx(obj, **options)
