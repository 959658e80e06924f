"""Partitioned Prim, union of local forests (Sousa section 4.3.2, prim_omp_union).

1. One Prim instance per part grows the local forest of the part's own
   edges, ignoring crossing edges (:func:`parmst.kernels.prim_instances.local_forests`).
   The local forests and the crossing edges hold the whole global forest
   (the local-forest filter, cycle property).
2. The final stage is targeted, not a full solver run on the near-tree: the
   thesis's Figure 5.3 found that run dominating. A local tree edge can
   only be displaced if it lies on the tree's paths between boundary
   vertices (its *Steiner tree*): any other edge is a bridge of the union.
   Along a Steiner path whose inner vertices are neither boundary vertices
   nor branch points, only the path's heaviest edge can be displaced: every
   cycle through one of its edges runs along the whole path. So each local
   tree shrinks, in parallel per part, to its boundary and branch vertices
   joined by one edge per path, carrying the path's heaviest edge id.
3. Kruskal runs on those path edges and the crossing edges only.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.kernels.unionfind import scan_in_order
from parmst.order import precedes
from parmst.partition import crossing_mask
from parmst.solvers.cpu._common import flagged_ids
from parmst.solvers.cpu._parts import other_end, partitioned_start
from parmst.stats import Stats


@numba.njit(cache=True)
def _count_boundary_below(lo, hi, order, via, src, dst, boundary, below):
    """Boundary vertices in each vertex's subtree (``order`` puts children after parents)."""
    for j in range(hi - 1, lo - 1, -1):
        v = order[j]
        below[v] += boundary[v]
        if via[v] >= 0:
            below[other_end(via[v], v, src, dst)] += below[v]


@numba.njit(cache=True)
def _mark_steiner(lo, hi, order, via, src, dst, below, total, steiner, degree):
    """Edge (v, parent) is on a path between boundary vertices iff both of its sides hold one;
    ``degree`` counts such edges per vertex."""
    for j in range(lo, hi):
        v = order[j]
        e = via[v]
        if e < 0:
            total[v] = below[v]
            continue
        u = other_end(e, v, src, dst)
        total[v] = total[u]
        steiner[v] = 0 < below[v] < total[v]
        if steiner[v]:
            degree[v] += 1
            degree[u] += 1


@numba.njit(cache=True, inline="always")
def _path_end(v, boundary, steiner, degree):
    """Whether a Steiner path stops at ``v``: a boundary vertex, a branch or leaf, or the top
    of the Steiner tree (no Steiner edge to its parent)."""
    return boundary[v] or degree[v] != 2 or not steiner[v]


@numba.njit(cache=True)
def _compress_paths(lo, hi, order, via, src, dst, keys, boundary, steiner, degree, in_forest,
                    path_edge, path_end):
    """Settle the edges that cannot be displaced; one (heaviest edge, far end) per Steiner path,
    recorded at the path's lower end (``path_edge`` -1 elsewhere)."""
    for j in range(lo, hi):
        v = order[j]
        e = via[v]
        path_edge[v] = -1
        if e < 0:
            continue
        if not steiner[v]:
            in_forest[e] = True
            continue
        if not _path_end(v, boundary, steiner, degree):
            continue
        heaviest = e
        u = other_end(e, v, src, dst)
        while not _path_end(u, boundary, steiner, degree):
            f = via[u]
            if precedes(keys[heaviest], heaviest, keys[f], f):
                in_forest[heaviest] = True
                heaviest = f
            else:
                in_forest[f] = True
            u = other_end(f, u, src, dst)
        path_edge[v] = heaviest
        path_end[v] = u


@numba.njit(parallel=True, cache=True)
def _shrink_local_trees(starts, order, via, src, dst, keys, boundary, in_forest, path_edge,
                        path_end):
    """Step 2 for every part in parallel."""
    n = len(order)
    below = np.zeros(n, dtype=np.int64)
    total = np.empty(n, dtype=np.int64)
    steiner = np.zeros(n, dtype=np.bool_)
    degree = np.zeros(n, dtype=np.int32)
    for p in numba.prange(len(starts) - 1):
        lo, hi = starts[p], starts[p + 1]
        _count_boundary_below(lo, hi, order, via, src, dst, boundary, below)
        _mark_steiner(lo, hi, order, via, src, dst, below, total, steiner, degree)
        _compress_paths(lo, hi, order, via, src, dst, keys, boundary, steiner, degree, in_forest,
                        path_edge, path_end)


def _kruskal_on_paths_and_crossing(graph, keys, path_edge, path_end, crossing, in_forest):
    """Step 3: Kruskal over the path edges and crossing edges; returns how many it sorted."""
    lower = np.flatnonzero(path_edge >= 0)
    ids = np.concatenate([path_edge[lower], crossing])
    a = np.concatenate([lower, graph.src[crossing]])
    b = np.concatenate([path_end[lower], graph.dst[crossing]])
    order = np.lexsort((ids, keys[ids]))
    parent = np.full(graph.num_vertices, -1, dtype=np.int64)
    chosen = np.empty(len(ids), dtype=np.int64)
    count = scan_in_order(order, a, b, parent, chosen, 0)
    in_forest[ids[chosen[:count]]] = True
    return len(ids)


def solve(graph, stats: Stats, threads: int | None = None, parts: int | None = None,
          partition: str | np.ndarray = "bfs") -> np.ndarray:
    """Edge ids of the minimum spanning forest by partitioned Prim and a targeted final stage.

    ``parts`` (default: one per thread) and ``partition`` (a
    :func:`parmst.partition` method, or an array of one part id per
    vertex) choose the parts; the answer does not
    depend on them.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="prim-union/cpu", parts=2).edge_ids.tolist()
    [1, 2, 3]
    """
    with using_threads(threads, stats) as count:
        part, keys, forests, boundary = partitioned_start(graph, stats, count, parts, partition)
        with stats.compute():
            with stats.phase("compress"):
                in_forest = np.zeros(graph.num_edges, dtype=np.bool_)
                path_edge = np.empty(graph.num_vertices, dtype=np.int64)
                path_end = np.empty(graph.num_vertices, dtype=np.int64)
                _shrink_local_trees(forests.starts, forests.order, forests.via, graph.src,
                                    graph.dst, keys, boundary, in_forest, path_edge, path_end)
            with stats.phase("final"):
                crossing = flagged_ids(crossing_mask(graph, part))
                stats.extra["final_edges"] = _kruskal_on_paths_and_crossing(
                    graph, keys, path_edge, path_end, crossing, in_forest)
            chosen = flagged_ids(in_forest)
    stats.rounds = 1
    return chosen
