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
def scan_sorted(src, dst, parent, size, chosen, count):
    """Shou and He Listing 2 lines 11-16 on edges already in order: take each unless it closes a cycle.

    Edge ``k`` joins ``src[k]`` and ``dst[k]``; ``chosen`` receives positions
    ``k``. Continues a scan that already holds ``count`` entries in
    ``chosen`` and returns the new count. Stops once ``chosen`` is full:
    ``n - 1`` edges make a spanning tree, nothing can follow.
    """
    capacity = len(chosen)
    for k in range(len(src)):
        if count == capacity:
            break
        ru = find(parent, src[k])
        rv = find(parent, dst[k])
        if ru != rv:
            union_roots(parent, size, ru, rv)
            chosen[count] = k
            count += 1
    return count


@numba.njit(cache=True)
def scan_in_order(order, src, dst, parent, size, chosen, count):
    """:func:`scan_sorted` over the edges ``order`` lists; ``chosen`` receives edge ids.

    The endpoints are gathered in order first: the gather's loads are
    independent and overlap, while inside the scan each one would wait
    behind the previous edge's finds (3-4x faster on a million edges).
    """
    start = count
    count = scan_sorted(src[order], dst[order], parent, size, chosen, count)
    for i in range(start, count):
        chosen[i] = order[chosen[i]]
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
            # Vertex-sized arrays as narrow as the graph's indices: half the cache misses.
            parent = np.arange(n, dtype=graph.src.dtype)
            size = np.ones(n, dtype=graph.src.dtype)
            chosen = np.empty(max(n - 1, 0), dtype=np.int64)
            count = scan_in_order(order, graph.src, graph.dst, parent, size, chosen, 0)
    stats.rounds = 1
    return chosen[:count]
