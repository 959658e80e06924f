"""Heaviest forest edge on the forest path between two vertices, for the cycle property.

The forest edges, sorted by key, are linked in a union-by-size tree that
keeps, at each link, the rank of the forest edge that made it. Two vertices
became connected exactly when the heaviest edge of their forest path was
linked, and that rank is the largest link rank on their path in the link
tree, whose height is at most ``log2(n)``. So every query costs
``O(log n)`` and all queries run in parallel: ``O(n log n)`` for the sort of
the forest edges plus ``O(m log n)`` for the queries, in ``O(n)`` extra
memory (binary lifting would need ``O(n log n)``). Keys compare as
``(weight, edge_id)`` directly on the weights, which orders
int32/int64/float32/float64, negatives and ``inf`` correctly and makes
``-0.0 == +0.0``. The forest edges are radix-sorted on
:func:`parmst.order.weight_keys`, and a separate pass confirms, on the
weights themselves, that the order really is sorted.

Examples
--------
>>> import parmst
>>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 3, 5])
>>> tree = link_tree(g, np.array([0, 1]))
>>> rank = connection_rank(tree.link_parent, tree.link_rank, 0, 2)
>>> int(tree.order[rank])  # edge 1 (weight 3) is the heaviest on the path 0-1-2
1
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parmst._prefetch import prefetch
from parmst.errors import ParmstError
from parmst.graph import Graph
from parmst.order import precedes, weight_keys

__all__ = ["LinkTree", "connection_rank", "link_edges", "link_tree"]


@numba.njit(cache=True)
def _first_unsorted(weight, ids, positions):
    """Index ``i`` where edge ``positions[i]`` does not precede edge ``positions[i + 1]``
    by key ``(weight, id)``, or -1."""
    for i in range(len(positions) - 1):
        a, b = positions[i], positions[i + 1]
        if not precedes(weight[a], ids[a], weight[b], ids[b]):
            return i
    return -1


@numba.njit(cache=True)
def _radix_order(keys, ids, keys_buf, ids_buf, counts):
    """``ids`` reordered by ``keys``, stably: LSD radix sort, one byte per pass.

    Stability makes ties keep the order of ``ids``, so ascending ids come out
    in ``(weight, edge_id)`` order. Passes where every key has the same byte
    are skipped. ``counts`` holds 256 entries; the buffers match the inputs.
    All four arrays serve as scratch: the result is one of them.
    """
    n = len(keys)
    src_k, src_i, dst_k, dst_i = keys, ids, keys_buf, ids_buf
    for byte in range(keys.itemsize):
        shift = np.uint64(8 * byte)
        counts[:] = 0
        for i in range(n):
            counts[(np.uint64(src_k[i]) >> shift) & np.uint64(255)] += 1
        if counts.max() == n:
            continue
        total = 0
        for d in range(256):
            c = counts[d]
            counts[d] = total
            total += c
        for i in range(n):
            d = (np.uint64(src_k[i]) >> shift) & np.uint64(255)
            dst_k[counts[d]] = src_k[i]
            dst_i[counts[d]] = src_i[i]
            counts[d] += 1
        src_k, src_i, dst_k, dst_i = dst_k, dst_i, src_k, src_i
    return src_i


@numba.njit(cache=True)
def _climb_to_root(link_parent, v):
    """Root of ``v`` in the link tree: at most ``log2(n)`` steps by union by size."""
    while link_parent[v] != v:
        v = link_parent[v]
    return v


#: How many edges ahead :func:`_link_forest_edges` asks for the parents at the ends. A random
#: spanning tree of 5.6 M vertices linked on one thread (2-core VM): 1.65 s without, 1.25 s
#: at 4 ahead, 1.20 at 8, 1.16 at 16 and 32.
LINK_PREFETCH_DISTANCE = 16


@numba.njit(cache=True)
def _link_forest_edges(ends_u, ends_v, size, link_parent, link_rank, closes_cycle):
    """Link the listed edges into a union-by-size tree in key order; count the links.

    ``ends_u[rank]``, ``ends_v[rank]`` are the ends of the edge of that rank.
    ``link_parent`` is never path-compressed, so the tree keeps height
    ``<= log2(n)`` and ``link_rank[r]`` is the rank (position in key order)
    of the edge that linked root ``r`` below another root. An edge whose ends
    already share a root closes a cycle (Shou and He, section 2.4) and is flagged.
    """
    links = 0
    ahead = len(ends_u) - LINK_PREFETCH_DISTANCE
    for rank in range(len(ends_u)):
        if rank < ahead:  # the parents at a later edge's ends, read while this one links
            prefetch(link_parent, ends_u[rank + LINK_PREFETCH_DISTANCE])
            prefetch(link_parent, ends_v[rank + LINK_PREFETCH_DISTANCE])
        ru = _climb_to_root(link_parent, ends_u[rank])
        rv = _climb_to_root(link_parent, ends_v[rank])
        if ru == rv:
            closes_cycle[rank] = True
            continue
        if size[ru] > size[rv]:
            ru, rv = rv, ru
        link_parent[ru] = rv
        link_rank[ru] = rank
        size[rv] += size[ru]
        links += 1
    return links


@numba.njit(cache=True, parallel=True)
def _tree_roots(link_parent, roots):
    """Root of every vertex's tree in the link tree (read-only climbs, so parallel)."""
    for v in numba.prange(len(link_parent)):
        # Start from the parent, not from v: the prange index is unsigned, and
        # unifying it with the array's signed type would make r a float.
        r = link_parent[v]
        while link_parent[r] != r:
            r = link_parent[r]
        roots[v] = r


@numba.njit(cache=True)
def connection_rank(link_parent, link_rank, u, v):
    """Rank of the heaviest forest edge on the forest path ``u .. v``, or -1 if none.

    That rank is the largest link rank on the link-tree path ``u .. v``. Ranks grow towards the root and roots hold a sentinel above every rank,
    so always climbing from the end with the smaller rank meets at the
    lowest common ancestor, and the last rank climbed is the path maximum.
    """
    heaviest = -1
    while u != v:
        if link_rank[u] < link_rank[v]:
            heaviest = link_rank[u]
            u = link_parent[u]
        elif link_parent[v] == v:
            return -1
        else:
            heaviest = link_rank[v]
            v = link_parent[v]
    return heaviest


@dataclass
class LinkTree:
    """The listed edges linked in key order, with what the checks read from them."""

    order: np.ndarray         # valid listed edge ids sorted by key; ranks index it
    order_weight: np.ndarray  # their weights, in the same order
    link_parent: np.ndarray   # union-by-size tree, never compressed
    link_rank: np.ndarray     # rank of the edge that linked v below its parent
    roots: np.ndarray         # tree root of every vertex
    cycle_edges: np.ndarray   # listed edges that close a cycle, in key order
    num_trees: int


def _key_order(weight: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Positions of the listed edges sorted by key, confirmed sorted by a separate pass.

    ``ids`` ascend and ``weight`` is aligned with them. Radix-sorts the
    order-preserving keys of :func:`parmst.order.weight_keys` (several times
    faster than a comparison sort here); the confirmation compares the
    weights themselves, so a wrong key mapping cannot pass.
    """
    keys = weight_keys(weight)
    positions = np.arange(len(ids), dtype=np.int64)
    order = _radix_order(keys, positions, np.empty_like(keys), np.empty_like(positions),
                         np.zeros(256, dtype=np.int64))
    bad = _first_unsorted(weight, ids, order)
    if bad >= 0:
        raise ParmstError(
            f"parmst.order.weight_keys is broken: edge {ids[order[bad]]} sorts before edge "
            f"{ids[order[bad + 1]]} but does not precede it in (weight, edge_id) order")
    return order


def link_edges(num_vertices: int, ids: np.ndarray, src: np.ndarray, dst: np.ndarray,
               weight: np.ndarray, index_dtype: np.dtype) -> LinkTree:
    """Link listed edges in key order: ``ids`` (valid, unique, ascending int64) with their
    ends and weights at the same positions.

    The edges need not come from a whole :class:`~parmst.Graph`: a rank of a
    distributed graph passes the forest edges it gathered (O(n) memory).
    """
    order = _key_order(weight, ids)
    link_parent = np.arange(num_vertices, dtype=index_dtype)
    link_rank = np.full(num_vertices, len(order), dtype=index_dtype)  # sentinel above every rank
    size = np.ones(num_vertices, dtype=index_dtype)
    closes_cycle = np.zeros(len(order), dtype=np.bool_)
    # Gathering the ends first keeps the scattered reads out of the serial loop.
    links = _link_forest_edges(src[order], dst[order], size, link_parent, link_rank,
                               closes_cycle)
    roots = np.empty(num_vertices, dtype=index_dtype)
    _tree_roots(link_parent, roots)
    by_key = ids[order]
    return LinkTree(by_key, weight[order], link_parent, link_rank, roots, by_key[closes_cycle],
                    num_vertices - links)


def link_tree(graph: Graph, ids: np.ndarray) -> LinkTree:
    """Link the valid, unique listed edges ``ids`` (sorted int64) of ``graph`` in key order."""
    return link_edges(graph.num_vertices, ids, graph.src[ids], graph.dst[ids], graph.weight[ids],
                      graph.index_dtype)
