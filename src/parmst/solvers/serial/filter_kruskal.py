"""Filter-Kruskal (Osipov, Sanders, Singler 2009), cited by Fallin et al. section 2.

Quicksort-style: partition the edges around a pivot, solve the light part
first, then drop from the heavy part every edge whose endpoints the light
part already joined, and only then solve (partition, sort) what is left.
Edges that close cycles are filtered with two finds instead of being
sorted, which is what makes it fast on dense graphs.

The recursion runs as an explicit stack inside one compiled loop. Edges are
compared by ``(key, edge_id)`` (keys of :func:`parmst.order.edge_keys`).
Partitions and filters are stable, so within every segment the edge ids
stay ascending and a stable sort by key alone orders a base case by
``(key, edge_id)`` when keys are not packed; packed keys are unique and
carry their id, so a base case just sorts them.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.selection import median_of_three
from parmst.kernels.unionfind import find, sort_and_scan
from parmst.order import edge_keys, precedes
from parmst.stats import Stats


@numba.njit(cache=True)
def _stable_partition(keys, ids, lo, hi, pivot_key, pivot_id, spare_keys, spare_ids):
    """Osipov et al. Alg. 1 (partition): edges up to the pivot first, heavier ones after.

    Both parts keep their input order; returns the first heavy position.
    """
    light = lo
    heavy = 0
    for k in range(lo, hi):
        if precedes(pivot_key, pivot_id, keys[k], ids[k]):
            spare_keys[heavy] = keys[k]
            spare_ids[heavy] = ids[k]
            heavy += 1
        else:
            keys[light] = keys[k]
            ids[light] = ids[k]
            light += 1
    keys[light:hi] = spare_keys[:heavy]
    ids[light:hi] = spare_ids[:heavy]
    return light


@numba.njit(cache=True)
def _drop_cycle_edges(keys, ids, lo, hi, src, dst, parent):
    """Osipov et al. Alg. 1 (filter): keep edges whose endpoints are still apart; returns new end."""
    keep = lo
    for k in range(lo, hi):
        e = ids[k]
        if find(parent, src[e]) != find(parent, dst[e]):
            keys[keep] = keys[k]
            ids[keep] = e
            keep += 1
    return keep


@numba.njit(cache=True)
def _filter_kruskal(keys, ids, id_mask, src, dst, num_vertices, base_case):
    """Osipov et al. Alg. 1 with the recursion on an explicit stack (light part on top).

    Returns the chosen edge ids and counters: segments handled, partitions,
    edges filtered out.
    """
    parent = np.full(num_vertices, -1, dtype=np.int64)
    chosen = np.empty(max(num_vertices - 1, 0), dtype=np.int64)
    spare_keys = np.empty_like(keys)
    spare_ids = np.empty_like(ids)
    count = 0
    segments = partitions = filtered = 0
    stack = [(0, len(ids), False)]
    while len(stack) > 0 and count < len(chosen):
        lo, hi, is_heavy = stack.pop()
        segments += 1
        if is_heavy:
            kept = _drop_cycle_edges(keys, ids, lo, hi, src, dst, parent)
            filtered += hi - kept
            hi = kept
        if hi - lo <= base_case:
            count = sort_and_scan(keys, ids, lo, hi, src, dst, parent, chosen, count, id_mask)
            continue
        p = median_of_three(keys, ids, lo, hi)
        mid = _stable_partition(keys, ids, lo, hi, keys[p], ids[p], spare_keys, spare_ids)
        partitions += 1
        stack.append((mid, hi, True))
        stack.append((lo, mid, False))
    return chosen[:count], segments, partitions, filtered


def solve(graph, stats: Stats, *, base_case: int = 1 << 14) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Filter-Kruskal.

    Parameters
    ----------
    graph : Graph
    stats : Stats
    base_case : int
        Segments of at most this many edges are sorted and scanned directly
        (at least 2, so that a median-of-three pivot always splits).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2, 3], [1, 2, 2, 3, 0], [2, 2, 2, 1, 5])
    >>> sorted(solve(g, parmst.Stats(), base_case=2).tolist())
    [0, 1, 3]
    """
    if int(base_case) != base_case or base_case < 2:
        raise ValueError(f"base_case must be an integer of at least 2, got {base_case!r}")
    with stats.compute():
        with stats.phase("keys"):
            prepared = edge_keys(graph.weight)  # a fresh array: ours to reorder
            keys = prepared.keys
            ids = np.arange(graph.num_edges, dtype=np.int64)
            id_mask = prepared.slot_mask if prepared.packed else np.uint64(0)
        with stats.phase("partition-filter-sort-scan"):
            chosen, segments, partitions, filtered = _filter_kruskal(
                keys, ids, id_mask, graph.src, graph.dst, graph.num_vertices, int(base_case))
    stats.rounds = segments
    stats.extra.update(partitions=partitions, filtered_edges=filtered)
    return chosen
