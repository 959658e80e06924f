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

import gc
from collections import deque
from collections.abc import Iterator
from itertools import chain, compress, repeat
from operator import setitem
from typing import Any

import networkx as nx
import numpy as np

from parmst._jit import compiled_pays
from parmst.interop._nx_algorithms import solve
from parmst.interop._nx_snapshot import NxSnapshot, gc_paused, snapshot

__all__ = ["spanning_edges", "spanning_tree"]


def _tuples(snap: NxSnapshot, halves: np.ndarray, keys: bool, data: bool) -> np.ndarray:
    """NetworkX's ``(u, v[, key][, data])`` tuples of ``halves``, oriented from row to neighbour.

    The tuples are made in half-edge order, the order in which NetworkX allocated
    the attribute dicts, and each burst of them is put at once in its place in yield
    order: a reference taken to each dict in yield order touches dicts scattered over
    the caller's memory, which on 10^5-edge road and grid graphs cost as much again
    as the rest (72 k tuples: 12 against 23 ms). Placed while the new tuples are
    still in cache, no step walks them in yield order but the caller's (grid 1 M's
    500 k tuples: 147 against 167 ms for making them all first and then taking them
    in yield order, three touches of each in random order). They are returned in
    that object array, in yield order, not copied into a list. The dicts (and keys)
    go from their iterator straight into the tuples. Built in bursts between which the collector
    is paused (:func:`_bursts`): made lazily in the caller's loop instead, the
    surviving tuples would set off collections (full ones among them, which walk
    every dict of the caller's graph) that the bursts avoid.
    """
    count = len(halves)
    picked = np.zeros(len(snap.nbr), dtype=np.bool_)
    picked[halves] = True
    in_memory_order = np.flatnonzero(picked)
    place = np.empty(len(snap.nbr), dtype=np.intp)
    place[halves] = np.arange(count)
    place = place[in_memory_order]  # where each tuple made in memory order goes
    labels = snap.label_array()
    rows, nbrs = snap.row[in_memory_order], snap.nbr[in_memory_order]
    rest = []  # iterators, drawn by zip only after both ends of a tuple
    if snap.multigraph and keys:
        rest.append(_picking(snap.keys, in_memory_order))
    if data:
        rest.append(_dicts_in_memory_order(snap, picked, count))
    # An object array, not a list: the collections between bursts walk only the tuples
    # just made, never those placed before.
    edges = np.empty(count, dtype=object)
    for start, stop in _bursts(count):
        # The labels taken per burst: each is touched again by the tuple while in cache.
        edges[place[start:stop]] = np.fromiter(
            zip(labels[rows[start:stop]].tolist(), labels[nbrs[start:stop]].tolist(), *rest),
            dtype=object, count=stop - start)
    del labels, rest
    return edges


#: Objects made between two collections of the youngest generation (:func:`_bursts`).
CHUNK = 4096


def _bursts(count: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of the bursts of :data:`CHUNK` in which ``count`` objects are made.

    The collector is paused during each burst; where the caller had it running, its
    youngest generation is collected after each burst, while the new objects are
    still in the processor's cache. That collection is the one the collector would
    make anyway once it resumes: it walks each new container once and moves it to
    the next generation (untracking tuples of ints alone; a tuple holding a dict
    stays tracked, as NetworkX's own do). Walked in one collection after the last burst
    instead, the 72 k tuples of road 100 k's forest cost 18 against 10.5 ms (tuples
    and collections, CPU time, the caller's previous result freed in its yield order
    as a caller's loop frees it; bursts of 2048 to 8192 objects within 0.7 ms of
    each other). What holds the objects made should be an object array, whose
    references the collector does not see, so that no collection walks them twice.
    """
    collect = gc.isenabled()
    with gc_paused():
        for start in range(0, count, CHUNK):
            yield start, min(start + CHUNK, count)
            if collect:
                gc.collect(0)


def _then_raise(edges: np.ndarray, error: str | None) -> Iterator:
    """An iterator of ``edges`` that then raises ``ValueError(error)`` if ``error`` is set.

    The iterator walks the object array itself: copied into a list first, each
    tuple would be touched twice more in yield order, the list's reference taken
    and dropped (on road 1 M, a caller's ``list()`` of the 727 k tuples and freeing
    what held them: 39 against 55 ms). ``chain`` hands the tuples out in C, where a
    generator would resume a Python frame for each.
    """
    return iter(edges) if error is None else chain(edges, _raises(error))


def _raises(error: str) -> Iterator:
    raise ValueError(error)
    yield  # makes this a generator: it raises when iteration reaches it


def spanning_edges(G: Any, algorithm: str, minimum: bool, weight: Any, keys: bool, data: bool,
                   ignore_nan: bool):
    """NetworkX's ``*_spanning_edges``: an iterator of its tuples, raising where NetworkX would.

    The forest is found when this is called; the iterator yields the tuples
    NetworkX would yield, then raises NetworkX's ``ValueError`` where
    NetworkX would have met a NaN edge.
    """
    snap = snapshot(G)
    halves, error = solve(snap, algorithm, minimum, weight, ignore_nan)
    return _then_raise(_tuples(snap, halves, keys, data), error)


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
    if snap.graph_class is nx.Graph or snap.graph_class is nx.MultiGraph:
        _fill_graph(T, snap, halves)
    else:
        with gc_paused():  # the helpers' temporaries are gone when the collector resumes
            T.add_nodes_from(snap.node_data.items())
            T.add_edges_from(_tuples(snap, halves, True, True))
    return T


def _picking(items: list, at: np.ndarray) -> Iterator:
    """``items[i] for i in at``, the loop in C."""
    return map(items.__getitem__, at.tolist())


def _fill_graph(T: nx.Graph, snap: NxSnapshot, halves: np.ndarray) -> None:
    """Fill the empty ``T`` with the snapshot's nodes, their data copied, and the edges ``halves``."""
    n = len(snap.node_data)
    with gc_paused():
        T._node.update(zip(snap.node_data, map(dict, snap.node_data.values())))
        # dict.copy of {} costs a quarter of dict(()); an object array lets numpy's take
        # hand every entry its row.
        rows = np.fromiter(map(dict.copy, repeat({}, n)), dtype=object, count=n)
        T._adj.update(zip(snap.node_data, rows.tolist()))
    _fill_rows(rows, snap, halves)


def _fill_rows(rows: np.ndarray, snap: NxSnapshot, halves: np.ndarray) -> None:
    """Insert the tree edges into the adjacency ``rows`` (node order) as ``add_edges_from`` would.

    Each row gets its entries in yield order, both directions of every edge
    (entry ``2k`` is edge ``k`` seen from its row, ``2k+1`` from its
    neighbour). Memory is walked in order, not at random, which on large
    graphs more than halves the time: the attribute dicts are copied in
    half-edge order (the order NetworkX allocated them), and the entries are
    inserted row by row (:func:`_grouped_by_row` keeps yield order within a
    row). One ``map`` of ``operator.setitem`` (a C function; ``dict.__setitem__``
    is a slot wrapper, a quarter slower) does every insertion; its rows,
    keys and values are lists taken from arrays by numpy (a ``repeat`` per
    row chained together cost as much as the insertions).
    """
    with gc_paused():  # many new dicts: no collection until the rows are filled
        picked = np.zeros(len(snap.nbr), dtype=np.bool_)
        picked[halves] = True
        in_memory_order = np.flatnonzero(picked)
        # dict.copy makes what NetworkX's factory-then-update makes from a plain dict, a plain
        # dict of the same items, a sixth faster than dict() on one-attribute dicts.
        copies = map(dict.copy if snap.plain_dicts else dict,
                     _dicts_in_memory_order(snap, picked, len(in_memory_order)))
        if snap.multigraph:  # a multigraph's row maps each neighbour to {key: data}
            copies = [{k: d} for k, d in zip(_picking(snap.keys, in_memory_order), copies)]
        copies = np.fromiter(copies, dtype=object, count=len(in_memory_order))
        copy_of = np.empty(len(snap.nbr), dtype=np.int64)
        copy_of[in_memory_order] = np.arange(len(in_memory_order))
        copy_of = copy_of[halves]
        ends = np.empty(2 * len(halves), dtype=np.int64)
        ends[0::2] = snap.row[halves]
        ends[1::2] = snap.nbr[halves]
        by_row = _grouped_by_row(ends, len(rows))
        columns = [rows[ends[by_row]], snap.label_array()[ends[by_row ^ 1]], copies[copy_of[by_row >> 1]]]
        del copies
    # In bursts (:func:`_bursts`): each collection walks the rows just filled, which
    # the collector tracks from their first entry on.
    for start, stop in _bursts(len(by_row)):
        deque(map(setitem, *(c[start:stop].tolist() for c in columns)), maxlen=0)


def _dicts_in_memory_order(snap: NxSnapshot, picked: np.ndarray, count: int) -> Iterator:
    """Attribute dicts of the ``count`` half-edges marked in ``picked``, in half-edge order.

    One ``itertools.compress`` with the marks as bytes walks the dicts in C: over the
    edges' dicts when every marked half is an edge (Kruskal's forest), else over every
    half-edge's. (Picking by index took a list of indices and a call per dict: a third
    more on 10^5-edge road and grid graphs: 15.5 against 11.7 ms, 12.7 against 9.9.)
    """
    as_edges = picked[snap.edge_half]
    if np.count_nonzero(as_edges) == count:
        return compress(snap.edge_dicts, as_edges.view(np.uint8).tobytes())
    return compress(snap.dicts, picked.view(np.uint8).tobytes())


def _grouped_by_row(owner: np.ndarray, n: int) -> np.ndarray:
    """Entries grouped by owning row, each row's in their given order: a stable sort by row.

    Large trees, or any once Numba is loaded (:func:`parmst._jit.compiled_pays`), take
    the compiled counting sort :func:`parmst.interop._nx_kernels.group_by_row` (linear
    time); small ones NumPy's stable argsort, the same order, which loads no Numba.
    """
    if not compiled_pays(len(owner)):
        return np.argsort(owner, kind="stable")
    from parmst.interop._nx_kernels import group_by_row

    return group_by_row(owner, n)
