"""NetworkX's three spanning-tree algorithms on a :class:`NxSnapshot`, with NetworkX's tie rules.

- ``kruskal``: NetworkX sorts ``G.edges`` stably by weight, which is parmst's
  ``(weight, edge_id)`` rule with edge ids in ``G.edges`` order, so
  Kruskal's scan in that order (:func:`parmst.order.canonical_order_or_none`)
  finds NetworkX's forest in NetworkX's yield order.
- ``prim`` and ``boruvka``: NetworkX breaks ties by its own traversal order
  (a heap's push count; the iteration order of Python sets), so
  :mod:`parmst.interop._nx_kernels` replays those rules on arrays.

Each returns the chosen half-edges in NetworkX's yield order and the
message of the ``ValueError`` NetworkX raises at a NaN edge, if it does.
Weights that parmst cannot order exactly raise ``NotImplementedError``,
so that NetworkX runs its own code.

Examples
--------
>>> import networkx as nx
>>> from parmst.interop._nx_snapshot import NxSnapshot
>>> G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 3})])
>>> halves, error = solve(NxSnapshot(G), "prim", True, "weight", False)
>>> halves.tolist(), error
([0, 3], None)
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from parmst._jit import compiled_pays
from parmst.interop._nx_snapshot import NxSnapshot

__all__ = ["solve"]


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


def _kruskal(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    """Chosen half-edges in NetworkX's Kruskal order, and the NaN message if it raises.

    NetworkX yields its forest in the order its Kruskal scans ``G.edges``
    sorted stably by weight: the ``(weight, edge_id)`` order, ids in
    ``G.edges`` order. Kruskal's own scan (Shou and He, Listing 2) over
    :func:`parmst.order.canonical_order_or_none` takes the forest in exactly
    that order, so no second sort puts it there (a solver's ids come in no
    set order), and the scan stops at ``n - 1`` edges. Small graphs, while
    Numba is not loaded, take :func:`_forest_in_order` instead, which loads none.
    """
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
        src, dst, signed = src[usable], dst[usable], signed[usable]
    if signed.dtype == np.float16:
        signed = signed.astype(np.float32)
    if compiled_pays(len(src)):
        ids = _kruskal_scan(src, dst, signed, snap.num_vertices)
    else:
        ids = _forest_in_order(src, dst, signed, snap.num_vertices)
    if usable is not None:
        ids = usable[ids]
    return snap.edge_half[ids], None


def _kruskal_scan(src: np.ndarray, dst: np.ndarray, signed: np.ndarray, n: int) -> np.ndarray:
    """Edge ids of the minimum spanning forest in ``(weight, edge_id)`` order (no NaN).

    The scan runs on int32 vertex ids where they fit, as ``kruskal/serial``
    does: half the cache misses (a third faster on a million edges).
    """
    from parmst._edge_input import index_dtype_for
    from parmst.kernels.unionfind import scan_in_order, scan_sorted
    from parmst.order import canonical_order_or_none

    order = canonical_order_or_none(signed)
    idx = index_dtype_for(n, len(src))
    src, dst = src.astype(idx, copy=False), dst.astype(idx, copy=False)
    parent = np.full(n, -1, dtype=idx)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    if order is None:  # the weights never decrease: positions are the order
        count = scan_sorted(src, dst, parent, chosen, 0)
    else:
        count = scan_in_order(order, src, dst, parent, chosen, 0)
    return chosen[:count]


def _forest_in_order(src: np.ndarray, dst: np.ndarray, signed: np.ndarray,
                     n: int) -> np.ndarray:
    """:func:`_kruskal_scan`'s answer without compiled kernels, for small graphs while Numba
    is not loaded (:func:`parmst._jit.compiled_pays`).

    The forest comes from the solver "auto" picks (``boruvka-numpy/serial`` for a
    process's first small solve); under a total order the forest is unique, so only
    its order is left to set: its ids sorted by ``(weight, edge_id)``, the order in
    which Kruskal's scan takes them.
    """
    from parmst._edge_input import index_dtype_for
    from parmst.graph import Graph
    from parmst.interop._solve import forest_edge_ids
    from parmst.order import weight_keys

    idx = index_dtype_for(n, len(src))
    # Copies: a Graph marks its arrays read-only, and these may be the snapshot's own.
    ids = np.sort(forest_edge_ids(Graph(src.astype(idx), dst.astype(idx), signed.copy(), n)))
    return ids[np.argsort(weight_keys(signed[ids]), kind="stable")]


def _prim(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    from parmst.interop._nx_kernels import prim_order

    keys, nan = _keys(_signed(snap.weights(weight, half=True), minimum))
    start = snap._positions(lambda: iter(set(snap.nodes)), snap.num_vertices)
    chosen, count, bad = prim_order(snap.indptr, snap.nbr, keys, nan, ignore_nan, start)
    return chosen[:count], (_nan_message(snap, int(bad)) if bad >= 0 else None)


def _boruvka(snap: NxSnapshot, minimum: bool, weight: Any, ignore_nan: bool):
    from parmst._labels import smallest_vertex_labels
    from parmst.interop._nx_kernels import boruvka_candidates
    from parmst.kernels.unionfind import scan_in_order

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
    parent = np.full(n, -1, dtype=np.int64)
    best = np.empty(n, dtype=np.int64)
    tied = np.empty(n, dtype=np.bool_)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    while boruvka_candidates(snap.indptr, snap.row, snap.nbr, keys, usable, label, best, tied):
        for c in np.flatnonzero(tied).tolist():
            best[c] = _set_order_winner(snap, c, label, keys, usable, int(best[c]))
        joins = best[best >= 0]  # by label: components in UnionFind.to_sets order
        count = scan_in_order(joins, snap.row, snap.nbr, parent, chosen, count)
        label = smallest_vertex_labels(snap.row[chosen[:count]], snap.nbr[chosen[:count]], n)
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


def solve(snap: NxSnapshot, algorithm: str, minimum: bool, weight: Any, ignore_nan: bool):
    """Chosen half-edges in NetworkX's yield order, and the NaN message it would raise."""
    run = _SOLVE.get(algorithm)
    if run is None:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    if snap.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    return run(snap, minimum, weight, ignore_nan)
