"""Kruskal's algorithm with union-find: the baseline every paper measures against.

Shou and He, sections 2.8 (Listing 2) and 3.1 (Kruskal with a disjoint-set
union); Sousa, Algorithm 2. It is also the project's oracle: every other solver is
checked against it edge id for edge id.
"""

from __future__ import annotations

import numpy as np

from parmst.kernels.unionfind import scan_in_order_ascending, scan_sorted
from parmst.order import canonical_order_or_none
from parmst.stats import Stats


def solve(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by sort-then-scan Kruskal, ascending.

    Where the id order already is the ``(weight, edge_id)`` order (every
    weight equal: an unweighted graph) nothing is sorted and the scan walks
    the edges as they are; few distinct weights take a counting sort
    (:func:`parmst.order.canonical_order_or_none`). The scan stops at
    ``n - 1`` edges; it is not bounded by the number of components, because
    counting them costs a union-find pass of its own, as much as the scan
    saves or more (``docs/decisions.md``).

    The scan keeps edges in key order; they are handed back in id order, the
    order a :class:`~parmst.Forest` reports them in, marked in a byte per edge
    and collected in one pass while the scan's arrays are still in cache
    (:func:`parmst.kernels.unionfind.scan_in_order_ascending`): cheaper than
    sorting the ids when the forest is read.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 2], [1, 1, 1, 0])
    >>> solve(g, parmst.Stats()).tolist()
    [0, 1]
    >>> unweighted = parmst.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], [1, 1, 1, 1])
    >>> solve(unweighted, parmst.Stats()).tolist()
    [0, 1, 3]
    """
    n = graph.num_vertices
    with stats.compute():
        with stats.phase("sort"):
            order = canonical_order_or_none(graph.weight)
        with stats.phase("scan"):
            # One union-find array as narrow as the graph's indices: half the cache misses.
            parent = np.full(n, -1, dtype=graph.src.dtype)
            capacity = max(n - 1, 0)
            if order is None:  # positions are edge ids, taken ascending
                chosen = np.empty(capacity, dtype=np.int64)
                kept = chosen[:scan_sorted(graph.src, graph.dst, parent, chosen, 0)]
            else:
                kept = scan_in_order_ascending(order, graph.src, graph.dst, parent, capacity)
    stats.rounds = 1
    return kept
