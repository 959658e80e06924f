"""Kruskal's algorithm with union-find: the baseline every paper measures against.

Seed 000, section 2.2 (Kruskal with a disjoint-set union); seed 003,
Algorithm 3. It is also the project's oracle: every other solver is
checked against it edge id for edge id.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.order import canonical_order
from parmst.solvers.serial._unionfind import find, union_roots
from parmst.stats import Stats


@numba.njit(cache=True)
def _scan_sorted_edges(order, src, dst, num_vertices):
    """Seed 000 Listing 2 lines 9-15: take each edge in order unless it closes a cycle."""
    parent = np.arange(num_vertices)
    size = np.ones(num_vertices, dtype=np.int64)
    chosen = np.empty(max(num_vertices - 1, 0), dtype=np.int64)
    count = 0
    for k in range(len(order)):
        if count == num_vertices - 1:
            break
        e = order[k]
        ru = find(parent, src[e])
        rv = find(parent, dst[e])
        if ru != rv:
            union_roots(parent, size, ru, rv)
            chosen[count] = e
            count += 1
    return chosen[:count]


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by sort-then-scan Kruskal."""
    with stats.compute():
        with stats.phase("sort"):
            order = canonical_order(graph.weight)
        with stats.phase("scan"):
            chosen = _scan_sorted_edges(order, graph.src, graph.dst, graph.num_vertices)
    stats.rounds = 1
    return chosen
