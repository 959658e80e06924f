"""Edge-centric Borůvka of Shou and He (section 3.3, Listing 7) with its wait-free union-find.

Each round runs the paper's four parallel loops over the live edges, timed
as the phases of its Figures 1-2:

* ``vertex bridges``: every edge offers its key to both endpoints' minimum
  slot with an atomic minimum (lines 4-7);
* ``union``: an edge that is the minimum at either end joins its endpoints
  in the wait-free union-find of Listing 4 and is collected as a forest
  edge at a ticket index (optimization 1b) (lines 9-13);
* ``remap``: endpoints become their set representatives; slots of sets that
  still have crossing edges are reset (lines 15-20);
* ``filter``: edges whose endpoints are now one set are dropped, survivors
  copied to the other edge buffer at ticket indices (optimization 1a,
  lines 22-26).

Keys are ECL's packed ``(weight, edge_id)`` keys (or the two-pass fallback),
so ties go to the smaller edge id. ``path_compression=False`` is the
paper's optimization 3 (``find`` only reads).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.order import edge_keys
from parmst.solvers.cpu._atomics import atomic_add, atomic_store
from parmst.solvers.cpu._common import (
    BLOCK,
    UNSET_ID,
    UNSET_KEY,
    Worklist,
    new_minima,
    offer,
    won,
)
from parmst.solvers.cpu._waitfree_dsu import find, join, make_sets
from parmst.stats import Stats


@numba.njit(parallel=True, cache=True)
def _vertex_bridges(wl, count, min_key):
    """Listing 7 lines 4-7: atomic minimum of each edge's key at both endpoints."""
    src, dst, key = wl[0], wl[1], wl[2]
    for i in numba.prange(count):
        offer(min_key, src[i], key[i])
        offer(min_key, dst[i], key[i])


@numba.njit(parallel=True, cache=True)
def _union(wl, count, min_key, min_id, two_pass, dsu, compress, chosen, chosen_count):
    """Listing 7 lines 9-13: join the endpoints of winning edges; collect them at tickets (1b)."""
    src, dst, key, ids = wl
    for i in numba.prange(count):
        u = src[i]
        v = dst[i]
        if won(min_key, min_id, u, key[i], ids[i], two_pass) or \
                won(min_key, min_id, v, key[i], ids[i], two_pass):
            join(dsu, u, v, compress)
            chosen[atomic_add(chosen_count, 0, 1)] = ids[i]


@numba.njit(parallel=True, cache=True)
def _remap(wl, count, dsu, compress, min_key, min_id, two_pass):
    """Listing 7 lines 15-20: endpoints to representatives; reset slots of crossing edges."""
    src = wl[0]
    dst = wl[1]
    for i in numba.prange(count):
        u = find(dsu, src[i], compress)
        v = find(dsu, dst[i], compress)
        src[i] = u
        dst[i] = v
        if u != v:
            for w in (u, v):
                atomic_store(min_key, w, UNSET_KEY)
                if two_pass:
                    atomic_store(min_id, w, UNSET_ID)


@numba.njit(parallel=True, cache=True)
def _filter(wl, count, out, out_count):
    """Listing 7 lines 22-26 with optimization 1a: keep edges between two sets, at tickets.

    Each block counts its survivors, takes one ticket for all of them, then writes them.
    """
    src, dst, key, ids = wl
    for b in numba.prange((count + BLOCK - 1) // BLOCK):
        lo = b * BLOCK
        hi = min(lo + BLOCK, count)
        kept = 0
        for i in range(lo, hi):
            kept += src[i] != dst[i]
        at = atomic_add(out_count, 0, kept) if kept else 0
        for i in range(lo, hi):
            if src[i] != dst[i]:
                out[0][at] = src[i]
                out[1][at] = dst[i]
                out[2][at] = key[i]
                out[3][at] = ids[i]
                at += 1


def solve(graph, stats: Stats, threads: int | None = None, path_compression: bool = True,
          keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by Shou and He's edge-centric Borůvka.

    Parameters
    ----------
    graph : Graph
    stats : Stats
    threads : int, optional
        Numba threads; all cores when None.
    path_compression : bool
        Halve paths in ``find`` with CAS (False: Shou and He optimization 3).
    keys : {"auto", "packed", "two-pass"}
        Key mode of :func:`parmst.order.edge_keys`.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> f = parmst.minimum_spanning_forest(g, solver="boruvka-edge/cpu", path_compression=False)
    >>> f.edge_ids.tolist()
    [1, 2, 3]
    """
    with using_threads(threads, stats):
        with stats.init():
            prepared = edge_keys(graph.weight, keys)
            two_pass = not prepared.packed
            dsu = make_sets(graph.num_vertices)
            min_key, min_id = new_minima(graph.num_vertices, two_pass)
            chosen = np.empty(max(graph.num_vertices - 1, 0), dtype=np.int64)
            chosen_count = np.zeros(1, dtype=np.int64)
            edges = Worklist(graph.num_edges, graph.index_dtype)
            all_edges = (graph.src, graph.dst, prepared.keys,
                         np.arange(graph.num_edges, dtype=graph.index_dtype))
            _filter(all_edges, graph.num_edges, edges.spare, edges.spare_count)
            edges.swap()
        stats.rounds = 0
        stats.extra["key_mode"] = prepared.mode
        with stats.compute():
            while edges.count:
                stats.rounds += 1
                stats.worklist_sizes.append(edges.count)
                with stats.phase("vertex bridges"):
                    _vertex_bridges(edges.current, edges.count, min_key)
                    if two_pass:
                        edges.settle_ties(min_key, min_id)
                with stats.phase("union"):
                    _union(edges.current, edges.count, min_key, min_id, two_pass, dsu,
                           path_compression, chosen, chosen_count)
                with stats.phase("remap"):
                    _remap(edges.current, edges.count, dsu, path_compression, min_key, min_id,
                           two_pass)
                with stats.phase("filter"):
                    _filter(edges.current, edges.count, edges.spare, edges.spare_count)
                    edges.swap()
    return chosen[:chosen_count[0]].copy()
