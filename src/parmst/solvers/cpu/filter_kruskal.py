"""Parallel Filter-Kruskal (Osipov, Sanders, Singler 2009, as cited by Fallin et al. section 2).

The recursion of :mod:`parmst.solvers.serial.filter_kruskal` with its two
data-parallel steps spread over threads:

* **partition** around a median-of-three pivot: each block flags and counts
  its heavy edges, an exclusive prefix sum over the block counts gives
  every block its output ranges, and the blocks scatter in parallel. The
  split is stable, so edge ids stay ascending inside every segment and a
  stable sort by key alone orders a base case by ``(weight, edge_id)``;
* **filter** of a heavy segment once the light part is solved: each block
  flags edges whose endpoints already share a root (read-only ``find``:
  the union-find is only written by the serial scans between filters) and
  the survivors are compacted the same stable way.

Small segments (``base_case``) are sorted and scanned serially with the
serial solver's kernel. Keys come from
:func:`parmst.order.edge_keys`; in two-pass mode the id
comparison settles ties.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.kernels.selection import median_of_three
from parmst.kernels.unionfind import find_read_only, sort_and_scan
from parmst.order import EdgeKeys, edge_keys, precedes
from parmst.solvers.cpu._common import BLOCK
from parmst.stats import Stats


@numba.njit(parallel=True, cache=True)
def _flag_heavy(keys, ids, lo, hi, pivot_key, pivot_id, flags, counts):
    """Partition step 1: flag edges after the pivot; count them per block."""
    for b in numba.prange(len(counts)):
        count = 0
        for k in range(lo + b * BLOCK, min(lo + (b + 1) * BLOCK, hi)):
            heavy = precedes(pivot_key, pivot_id, keys[k], ids[k])
            flags[k - lo] = heavy
            count += heavy
        counts[b] = count


@numba.njit(parallel=True, cache=True)
def _flag_cycle_edges(ids, lo, hi, src, dst, parent, flags, counts):
    """Filter step 1: flag edges whose endpoints already share a root; count them per block."""
    for b in numba.prange(len(counts)):
        count = 0
        for k in range(lo + b * BLOCK, min(lo + (b + 1) * BLOCK, hi)):
            e = ids[k]
            cycle = find_read_only(parent, src[e]) == find_read_only(parent, dst[e])
            flags[k - lo] = cycle
            count += cycle
        counts[b] = count


@numba.njit(parallel=True, cache=True)
def _stable_scatter(keys, ids, lo, hi, flags, zero_at, one_at, keep_ones, out_keys, out_ids):
    """Step 2: every block writes its unflagged edges from ``zero_at[b]`` and, if
    ``keep_ones``, its flagged ones from ``one_at[b]``, in input order."""
    for b in numba.prange(len(zero_at)):
        zero = zero_at[b]
        one = one_at[b]
        for k in range(lo + b * BLOCK, min(lo + (b + 1) * BLOCK, hi)):
            if not flags[k - lo]:
                out_keys[zero] = keys[k]
                out_ids[zero] = ids[k]
                zero += 1
            elif keep_ones:
                out_keys[one] = keys[k]
                out_ids[one] = ids[k]
                one += 1


class _Edges:
    """Keys and ids of the edges being sorted, with scratch space for stable splits."""

    def __init__(self, prepared: EdgeKeys, num_edges: int) -> None:
        self.keys = prepared.keys  # fresh from edge_keys: ours to reorder
        # Packed keys carry the id in their low bits: base cases then sort keys alone.
        self.id_mask = np.uint64((1 << prepared.id_bits) - 1 if prepared.packed else 0)
        self.ids = np.arange(num_edges, dtype=np.int64)
        self.spare_keys = np.empty_like(self.keys)
        self.spare_ids = np.empty_like(self.ids)
        self.flags = np.empty(num_edges, dtype=np.bool_)

    def split(self, lo: int, hi: int, counts: np.ndarray, keep_ones: bool) -> int:
        """Stable split of ``lo..hi`` by ``flags``: unflagged first, then flagged ones
        (or dropped). Returns where the flagged part starts (or the new end)."""
        sizes = np.minimum(BLOCK, hi - lo - BLOCK * np.arange(len(counts)))
        zeros = sizes - counts
        zero_at = lo + np.concatenate(([0], np.cumsum(zeros)[:-1]))
        middle = lo + int(zeros.sum())
        one_at = middle + np.concatenate(([0], np.cumsum(counts)[:-1]))
        _stable_scatter(self.keys, self.ids, lo, hi, self.flags, zero_at, one_at, keep_ones,
                        self.spare_keys, self.spare_ids)
        end = hi if keep_ones else middle
        self.keys[lo:end] = self.spare_keys[lo:end]
        self.ids[lo:end] = self.spare_ids[lo:end]
        return middle


def _block_counts(lo: int, hi: int) -> np.ndarray:
    return np.empty((hi - lo + BLOCK - 1) // BLOCK, dtype=np.int64)


def _filter_kruskal(edges: _Edges, graph, base_case: int, stats: Stats) -> np.ndarray:
    """Osipov et al. Alg. 1 on an explicit stack; light segments are solved first."""
    n = graph.num_vertices
    parent = np.full(n, -1, dtype=np.int64)
    chosen = np.empty(max(n - 1, 0), dtype=np.int64)
    count = 0
    stack = [(0, graph.num_edges, False)]
    while stack and count < len(chosen):
        lo, hi, is_heavy = stack.pop()
        stats.rounds += 1
        if is_heavy and hi > lo:
            with stats.phase("filter"):
                counts = _block_counts(lo, hi)
                _flag_cycle_edges(edges.ids, lo, hi, graph.src, graph.dst, parent, edges.flags,
                                  counts)
                hi = edges.split(lo, hi, counts, keep_ones=False)
        if hi - lo <= base_case:
            with stats.phase("sort and scan"):
                count = sort_and_scan(edges.keys, edges.ids, lo, hi, graph.src, graph.dst,
                                      parent, chosen, count, edges.id_mask)
            continue
        with stats.phase("partition"):
            p = median_of_three(edges.keys, edges.ids, lo, hi)
            counts = _block_counts(lo, hi)
            _flag_heavy(edges.keys, edges.ids, lo, hi, edges.keys[p], edges.ids[p], edges.flags,
                        counts)
            mid = edges.split(lo, hi, counts, keep_ones=True)
        stack.append((mid, hi, True))
        stack.append((lo, mid, False))
    return chosen[:count]


def solve(graph, stats: Stats, threads: int | None = None, base_case: int = 1 << 16,
          keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by Filter-Kruskal with parallel partition and filter.

    Parameters
    ----------
    graph : Graph
    stats : Stats
    threads : int, optional
        Numba threads; all cores when None.
    base_case : int
        Segments of at most this many edges are sorted and scanned serially (at least 2).
    keys : {"auto", "packed", "two-pass"}
        Key mode of :func:`parmst.order.edge_keys`.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="filter-kruskal/cpu").edge_ids.tolist()
    [1, 2, 3]
    """
    if int(base_case) != base_case or base_case < 2:
        raise ValueError(f"base_case must be an integer of at least 2, got {base_case!r}")
    with using_threads(threads, stats):
        with stats.init():
            prepared = edge_keys(graph.weight, keys)
            edges = _Edges(prepared, graph.num_edges)
        stats.rounds = 0
        stats.extra["key_mode"] = prepared.mode
        with stats.compute():
            chosen = _filter_kruskal(edges, graph, int(base_case), stats)
    return chosen
