"""Partitioned Prim with boundary marked vertices (Sousa section 4.3.2, prim_omp_bmv).

APPROXIMATE, as the thesis shows (its Figures 4.4-4.5); registered with
``exact=False``, so "auto" never picks it.

1. One Prim instance per part grows the local forest of the part's own
   edges (as prim-union/cpu).
2. Boundary vertices (those with a crossing edge) are marked. Each part, in
   parallel and knowing nothing of the others, revisits only the *marked*
   edges: its local tree edges at a boundary vertex and its crossing edges.
   It runs Kruskal over them on top of its unmarked tree edges, which it
   keeps as they are, and sees each vertex of another part as a lone
   vertex. This repairs the thesis's Figure 4.3 (a tree edge between two
   boundary vertices displaced by a path through another part) but never
   an edge inside a part (Figure 4.4): the result can be heavier than the
   minimum.
3. Parts decide their crossing edges independently, so the crossing edges
   they keep can close cycles through other parts' trees (Figure 4.5). They
   are broken, not returned: the kept crossing edges are taken in
   ``(weight, edge_id)`` order over the pieces the kept tree edges form,
   dropping each that closes a cycle; ``stats.extra["cycles_broken"]``
   counts them.

The result is always a spanning forest (one tree per component): every edge
a part drops joins two vertices that the part's kept edges already join.
``measure_error=True`` also solves exactly and reports the excess weight.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.forest import exact_sum
from parmst.kernels.unionfind import scan_in_order
from parmst.solvers.cpu._common import flagged_ids
from parmst.solvers.cpu._parts import other_end, partitioned_start
from parmst.solvers.serial import kruskal
from parmst.stats import Stats


@numba.njit(cache=True, inline="always")
def _marked(v, e, src, dst, boundary):
    """Whether tree edge ``e`` (that brought ``v`` into its tree) touches a boundary vertex."""
    return boundary[v] or boundary[other_end(e, v, src, dst)]


@numba.njit(cache=True)
def _marked_edges(p, lo, hi, order, via, src, dst, part, boundary, indptr, indices, edge_ids,
                  local, piece):
    """Part ``p``'s marked edges: tree edges at a boundary vertex, then crossing edges.

    Returns ``(ids, a, b, tree_count, slots)`` with endpoints as private
    indices: an own vertex is its piece's ``local`` index, other parts'
    vertices get one slot each after those (``slots`` in all).
    """
    tree_count = 0
    cross_count = 0
    for j in range(lo, hi):
        v = order[j]
        if via[v] >= 0 and _marked(v, via[v], src, dst, boundary):
            tree_count += 1
        if boundary[v]:
            for k in range(indptr[v], indptr[v + 1]):
                cross_count += part[indices[k]] != p
    total = tree_count + cross_count
    ids = np.empty(total, dtype=np.int64)
    a = np.empty(total, dtype=np.int64)
    b = np.empty(total, dtype=np.int64)
    i = 0
    c = tree_count
    for j in range(lo, hi):
        v = order[j]
        e = via[v]
        if e >= 0 and _marked(v, e, src, dst, boundary):
            ids[i], a[i], b[i] = e, local[piece[v]], local[piece[other_end(e, v, src, dst)]]
            i += 1
        if boundary[v]:
            for k in range(indptr[v], indptr[v + 1]):
                if part[indices[k]] != p:
                    ids[c], a[c], b[c] = edge_ids[k], local[piece[v]], indices[k]
                    c += 1
    slots = hi - lo
    previous = -1
    for i in np.argsort(b[tree_count:]) + tree_count:
        if b[i] != previous:
            previous = b[i]
            slots += 1
        b[i] = slots - 1
    return ids, a, b, tree_count, slots


@numba.njit(cache=True)
def _kruskal_in_order(ids, a, b, keys, parent, accepted):
    """Kruskal's scan (:func:`~parmst.kernels.unionfind.scan_in_order`) over the candidates
    in ``(key, id)`` order, marking the ones it takes."""
    by_id = np.argsort(ids)
    order = by_id[np.argsort(keys[ids[by_id]], kind="mergesort")]
    chosen = np.empty(max(len(parent) - 1, 0), dtype=np.int64)
    for i in chosen[:scan_in_order(order, a, b, parent, chosen, 0)]:
        accepted[i] = True


@numba.njit(cache=True)
def _pieces(lo, hi, order, via, src, dst, keep, piece):
    """Label each vertex by the top vertex of its piece: its local tree less the edges not
    kept (``order`` puts parents first, so one pass suffices)."""
    for j in range(lo, hi):
        v = order[j]
        e = via[v]
        piece[v] = piece[other_end(e, v, src, dst)] if e >= 0 and keep[e] else v


@numba.njit(cache=True)
def _revisit_part(p, lo, hi, order, via, src, dst, part, boundary, indptr, indices, edge_ids,
                  keys, local, keep, crossing_kept, piece):
    """Step 2 for part ``p``; leaves each of its vertices labelled by its final piece."""
    for j in range(lo, hi):
        local[order[j]] = j - lo
        e = via[order[j]]
        if e >= 0 and not _marked(order[j], e, src, dst, boundary):
            keep[e] = True
    _pieces(lo, hi, order, via, src, dst, keep, piece)
    ids, a, b, tree_count, slots = _marked_edges(p, lo, hi, order, via, src, dst, part, boundary,
                                                 indptr, indices, edge_ids, local, piece)
    accepted = np.zeros(len(ids), dtype=np.bool_)
    _kruskal_in_order(ids, a, b, keys, np.full(slots, -1, dtype=np.int64), accepted)
    for i in range(len(ids)):
        if accepted[i]:
            if i < tree_count:
                keep[ids[i]] = True
            else:
                crossing_kept[ids[i]] = True  # both parts may write True: same value
    _pieces(lo, hi, order, via, src, dst, keep, piece)


@numba.njit(parallel=True, cache=True)
def _revisit_boundaries(starts, order, via, src, dst, part, boundary, indptr, indices, edge_ids,
                        keys, keep, crossing_kept, piece):
    local = np.empty(len(order), dtype=np.int64)
    for p in numba.prange(len(starts) - 1):
        _revisit_part(p, starts[p], starts[p + 1], order, via, src, dst, part, boundary, indptr,
                      indices, edge_ids, keys, local, keep, crossing_kept, piece)


def _break_cycles(graph, keys, crossing_kept, piece, keep):
    """Step 3: keep each crossing edge, in order, unless it closes a cycle; returns the count
    of cycles broken."""
    crossing = flagged_ids(crossing_kept)
    order = np.lexsort((crossing, keys[crossing]))
    parent = np.full(graph.num_vertices, -1, dtype=np.int64)
    chosen = np.empty(len(crossing), dtype=np.int64)
    count = scan_in_order(order, piece[graph.src[crossing]], piece[graph.dst[crossing]],
                          parent, chosen, 0)
    keep[crossing[chosen[:count]]] = True
    return len(crossing) - count


def _error(graph, chosen: np.ndarray) -> dict:
    """Excess weight over the exact forest (kruskal/serial), absolute and in percent."""
    exact = kruskal.solve(graph, Stats())
    optimum = exact_sum(graph.weight[exact])
    excess = exact_sum(graph.weight[chosen]) - optimum
    percent = 100.0 * excess / abs(optimum) if optimum else (float("inf") if excess else 0.0)
    return {"excess_weight": excess, "excess_percent": percent,
            "edges_not_in_minimum": len(np.setdiff1d(chosen, exact))}


def solve(graph, stats: Stats, threads: int | None = None, parts: int | None = None,
          partition: str | np.ndarray = "bfs", measure_error: bool = False) -> np.ndarray:
    """Edge ids of a spanning forest close to the minimum, by boundary marked vertices.

    ``parts`` (default: one per thread) and ``partition`` (a
    :func:`parmst.partition` method, or an array of one part id per
    vertex) choose the parts; the result depends on
    them. ``measure_error=True`` adds ``excess_weight``, ``excess_percent``
    and ``edges_not_in_minimum`` to ``stats.extra`` (not timed).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> f = parmst.minimum_spanning_forest(g, solver="prim-bmv/cpu", parts=2, measure_error=True)
    >>> f.edge_ids.tolist(), f.stats.extra["excess_weight"]
    ([1, 2, 3], 0)
    """
    with using_threads(threads, stats) as count:
        part, keys, forests, boundary = partitioned_start(graph, stats, count, parts, partition)
        csr = graph.csr()
        with stats.compute():
            with stats.phase("revisit boundary"):
                keep = np.zeros(graph.num_edges, dtype=np.bool_)
                crossing_kept = np.zeros(graph.num_edges, dtype=np.bool_)
                piece = np.empty(graph.num_vertices, dtype=np.int64)
                _revisit_boundaries(forests.starts, forests.order, forests.via, graph.src,
                                    graph.dst, part, boundary, csr.indptr, csr.indices,
                                    csr.edge_ids, keys, keep, crossing_kept, piece)
            with stats.phase("break cycles"):
                stats.extra["cycles_broken"] = _break_cycles(graph, keys, crossing_kept, piece,
                                                             keep)
            chosen = flagged_ids(keep)
    stats.rounds = 1
    if measure_error:
        stats.extra.update(_error(graph, chosen))
    return chosen
