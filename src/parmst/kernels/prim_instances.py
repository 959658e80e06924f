"""Local forests of a vertex partition's parts, grown by one Prim instance per part.

Sousa section 4.3.2 (partitioned Prim): every part grows the minimum
spanning forest of its own edges, ignoring the edges that cross parts, with
Prim's heap (:mod:`parmst.kernels.heap`); the parts run in parallel on the
current Numba threads, on the whole graph's CSR view, with no copy of a
part. This is the CPU's per-part solve of the local-forest filter
(:mod:`parmst.kernels.local_forest` gives the argument): the partitioned
Prims (``prim-union/cpu``, ``prim-bmv/cpu``) then work on these forests and
the crossing edges, and :func:`prim_instance_forest` solves the filter's
shares with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numba
import numpy as np

from parmst.kernels.heap import offer, pop_min
from parmst.order import edge_keys
from parmst.partition import check_part

if TYPE_CHECKING:
    from parmst.graph import Graph

__all__ = ["LocalForests", "local_forests", "prim_instance_forest"]


class LocalForests(NamedTuple):
    """The local forests of a partition, as grown by :func:`local_forests`.

    ``order[starts[p]:starts[p+1]]`` lists part ``p``'s vertices in the order
    its Prim instance took them, so each vertex comes after the vertex it
    was reached from; ``via[v]`` is the edge that brought ``v`` into its
    local tree (``-1`` for the vertex a tree started from).
    """

    order: np.ndarray
    starts: np.ndarray
    via: np.ndarray


@numba.njit(cache=True)
def _group_by_part(part, parts):
    """Counting sort of the vertices by part: start offsets and members in vertex order."""
    starts = np.zeros(parts + 1, dtype=np.int64)
    for v in range(len(part)):
        starts[part[v] + 1] += 1
    for p in range(parts):
        starts[p + 1] += starts[p]
    members = np.empty(len(part), dtype=np.int64)
    cursor = starts[:-1].copy()
    for v in range(len(part)):
        members[cursor[part[v]]] = v
        cursor[part[v]] += 1
    return starts, members


@numba.njit(cache=True)
def _relax_within_part(v, p, indptr, indices, edge_ids, keys, label, heap_key, heap_edge,
                       heap_vertex, position, size):
    """Seed 003 section 4.3.2: offer ``v``'s edges to vertices of its own part outside the
    tree (``label`` is the part id until a vertex joins a tree, then -1); crossing edges
    are ignored."""
    for k in range(indptr[v], indptr[v + 1]):
        t = indices[k]
        if label[t] == p:
            e = edge_ids[k]
            size = offer(heap_key, heap_edge, heap_vertex, position, size, keys[e], e, t)
    return size


@numba.njit(cache=True)
def _grow_part(p, lo, hi, members, indptr, indices, edge_ids, keys, label, heap_key,
               heap_edge, heap_vertex, position, order, via):
    """One part's Prim instance (Sousa Alg. 4), restarted from each member not yet reached.

    The heap lives in slots ``lo..hi`` of the shared heap arrays: a part
    never holds more vertices than it has.
    """
    hk = heap_key[lo:hi]
    he = heap_edge[lo:hi]
    hv = heap_vertex[lo:hi]
    count = lo
    for j in range(lo, hi):
        v = members[j]
        if label[v] != p:
            continue
        via[v] = -1
        size = 0
        while True:
            label[v] = -1
            order[count] = v
            count += 1
            size = _relax_within_part(v, p, indptr, indices, edge_ids, keys, label, hk, he, hv,
                                      position, size)
            if size == 0:
                break
            v = hv[0]
            via[v] = he[0]
            size = pop_min(hk, he, hv, position, size)


@numba.njit(parallel=True, cache=True)
def _grow_parts_in_parallel(starts, members, indptr, indices, edge_ids, keys, label, order, via):
    n = len(label)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_edge = np.empty(n, dtype=edge_ids.dtype)
    heap_vertex = np.empty(n, dtype=indices.dtype)
    position = np.full(n, -1, dtype=np.int64)
    for p in numba.prange(len(starts) - 1):
        _grow_part(p, starts[p], starts[p + 1], members, indptr, indices, edge_ids, keys, label,
                   heap_key, heap_edge, heap_vertex, position, order, via)


def local_forests(graph: Graph, part: np.ndarray, keys: np.ndarray | None = None) -> LocalForests:
    """Grow the minimum spanning forest of each part's own edges, one Prim instance per part.

    Seed 003 section 4.3.2: every instance ignores the edges that cross
    parts. The parts run in parallel on the current Numba threads; the
    result does not depend on how many.

    Parameters
    ----------
    graph : Graph
    part : ndarray of int
        One part id per vertex (see :func:`partition`).
    keys : ndarray of uint64, optional
        :func:`parmst.order.edge_keys` of the weights (``.keys``), if the
        caller has them already.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> forests = local_forests(g, np.array([0, 0, 1, 1]))
    >>> forests.via.tolist()
    [-1, 0, -1, 2]
    """
    part, parts = check_part(graph, part)
    csr = graph.csr()
    if keys is None:
        keys = edge_keys(graph.weight).keys
    starts, members = _group_by_part(part, parts)
    label = part.astype(np.int64)
    order = np.empty(graph.num_vertices, dtype=np.int64)
    via = np.empty(graph.num_vertices, dtype=np.int64)
    _grow_parts_in_parallel(starts, members, csr.indptr, csr.indices, csr.edge_ids, keys, label,
                            order, via)
    return LocalForests(order, starts, via)


def prim_instance_forest(graph: Graph) -> np.ndarray:
    """Edge ids (ascending) of ``graph``'s minimum spanning forest, by one Prim instance.

    The per-part solve that :func:`parmst.kernels.local_forest.local_forest_filter`
    takes, on the CPU.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> prim_instance_forest(g).tolist()
    [1, 2, 3]
    """
    via = local_forests(graph, np.zeros(graph.num_vertices, dtype=np.int32)).via
    return np.sort(via[via >= 0])
