"""Borůvka's algorithm with union-find (Shou and He, section 2.9, Listing 3).

Each round finds the lightest edge leaving every component (its "vertex
bridge"), joins the components along those edges, and drops the edges that
became internal, so the live edge list shrinks round by round. Components
are union-find roots instead of a rebuilt contracted graph, and the lightest
edge is found edge-centrically, one pass over the live edges, as in Shou
and He's section 3.2. Edges are compared by ``(key, edge_id)``, so the bridges of
one round never close a cycle.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.unionfind import find, link_roots
from parmst.order import edge_keys, precedes
from parmst.stats import Stats


@numba.njit(cache=True, inline="always")
def _offer(lightest, lightest_key, root, key, e):
    """Keep ``e`` as ``root``'s lightest outgoing edge if it beats the current one."""
    best = lightest[root]
    if best == -1 or precedes(key, e, lightest_key[root], best):
        lightest[root] = e
        lightest_key[root] = key


@numba.njit(cache=True)
def _lightest_edge_per_component(live, num_live, src, dst, keys, parent, lightest,
                                 lightest_key):
    """Shou and He Listing 3 lines 7-8: the vertex bridge of every component, one pass over edges.

    The winning key is kept next to the edge id (``lightest_key``), so that
    comparing does not read the large ``keys`` array at a random place.
    """
    for k in range(num_live):
        e = live[k]
        key = keys[e]
        ru = find(parent, src[e])
        rv = find(parent, dst[e])
        _offer(lightest, lightest_key, ru, key, e)
        _offer(lightest, lightest_key, rv, key, e)


@numba.njit(cache=True)
def _join_along_bridges(lightest, src, dst, parent, chosen, count):
    """Shou and He Listing 3 lines 9-12: join each bridge's endpoints unless already joined.

    Resets ``lightest`` for the next round; returns the new number of chosen edges.
    """
    for root in range(len(lightest)):
        e = lightest[root]
        if e == -1:
            continue
        lightest[root] = -1
        ru = find(parent, src[e])
        rv = find(parent, dst[e])
        if ru != rv:
            link_roots(parent, ru, rv)
            chosen[count] = e
            count += 1
    return count


@numba.njit(cache=True)
def _drop_internal_edges(live, num_live, src, dst, parent):
    """Shou and He Listing 3 line 16: keep edges between different components; returns how many."""
    kept = 0
    for k in range(num_live):
        e = live[k]
        if find(parent, src[e]) != find(parent, dst[e]):
            live[kept] = e
            kept += 1
    return kept


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Borůvka rounds over a shrinking edge list.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [1, 1, 1, 1])
    >>> stats = parmst.Stats()
    >>> sorted(solve(g, stats).tolist()), stats.worklist_sizes
    ([0, 1, 2], [4])
    """
    n = graph.num_vertices
    src, dst = graph.src, graph.dst
    with stats.compute():
        with stats.phase("keys"):
            keys = edge_keys(graph.weight).keys
        live = np.flatnonzero(src != dst)
        parent = np.full(n, -1, dtype=np.int64)
        lightest = np.full(n, -1, dtype=np.int64)
        lightest_key = np.empty(n, dtype=np.uint64)
        chosen = np.empty(max(n - 1, 0), dtype=np.int64)
        num_live = len(live)
        count = 0
        while num_live > 0:
            stats.worklist_sizes.append(num_live)
            with stats.phase("lightest-edge"):
                _lightest_edge_per_component(live, num_live, src, dst, keys, parent, lightest,
                                             lightest_key)
            with stats.phase("join"):
                count = _join_along_bridges(lightest, src, dst, parent, chosen, count)
            with stats.phase("drop-internal"):
                num_live = _drop_internal_edges(live, num_live, src, dst, parent)
    stats.rounds = len(stats.worklist_sizes)
    return chosen[:count]
