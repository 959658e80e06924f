"""Kruskal's algorithm with union-find: the baseline every paper measures against.

Shou and He, sections 2.8 (Listing 2) and 3.1 (Kruskal with a disjoint-set
union); Sousa, Algorithm 2. It is also the project's oracle: every other solver is
checked against it edge id for edge id.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.order import canonical_order
from parmst.solvers.serial._unionfind import find, union_roots
from parmst.stats import Stats


@numba.njit(cache=True)
def scan_in_order(order, src, dst, parent, size, chosen, count):
    """Shou and He Listing 2 lines 11-16: take each edge in order unless it closes a cycle.

    Continues a scan that already holds ``count`` edges in ``chosen`` (as
    Filter-Kruskal's base cases do) and returns the new count. Stops once
    ``chosen`` is full: ``n - 1`` edges make a spanning tree, nothing can follow.
    """
    capacity = len(chosen)
    for k in range(len(order)):
        if count == capacity:
            break
        e = order[k]
        ru = find(parent, src[e])
        rv = find(parent, dst[e])
        if ru != rv:
            union_roots(parent, size, ru, rv)
            chosen[count] = e
            count += 1
    return count


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by sort-then-scan Kruskal.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 2], [1, 1, 1, 0])
    >>> solve(g, parmst.Stats()).tolist()
    [0, 1]
    """
    n = graph.num_vertices
    with stats.compute():
        with stats.phase("sort"):
            order = canonical_order(graph.weight)
        with stats.phase("scan"):
            parent = np.arange(n)
            size = np.ones(n, dtype=np.int64)
            chosen = np.empty(max(n - 1, 0), dtype=np.int64)
            count = scan_in_order(order, graph.src, graph.dst, parent, size, chosen, 0)
    stats.rounds = 1
    return chosen[:count]
