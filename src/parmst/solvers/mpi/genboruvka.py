"""Generic Borůvka over MPI: Sousa's hybrid (section 4.4, Figure 5.7), ranks x Numba threads.

The super-vertices of each round are numbered ``0..k-1`` and block-owned:
rank ``r`` owns the contiguous range ``starts[r] .. starts[r+1]-1`` and holds
their rows of the contracted graph in CSR (neighbour super-vertex, weight
key, global edge id). One round, as in the one-process ``genboruvka/cpu``
(whose lightest-edge kernel it runs, with ``threads`` Numba threads per
rank), with the remote reads made explicit:

1. lightest entry of each owned super-vertex (Algorithm 7, threads);
2. mirrored choices: fetch the successor's choice from its owner; of two
   super-vertices that chose each other the smaller id keeps no edge and
   becomes a root (Algorithm 8); the other choices are forest edges;
3. colours: pointer jumping, each step fetching ``colour[colour[v]]`` from
   the owners, until no rank sees a change (Algorithms 9-10);
4. every entry learns its neighbour's colour; entries between different
   colours are sent, with one ``Alltoallv``, to the owner of their source's
   root; each rank numbers its roots that received entries, an exclusive
   prefix sum (``Exscan``) makes the numbers global (Algorithm 11), entries
   fetch their target's new number, and each rank builds its contracted CSR
   (Algorithms 12-13).

Components without crossing entries are finished and drop out. Memory per
rank: its CSR rows (``O((m + c)/p)`` entries in the first round) and
``O(k/p)`` per-vertex arrays; the forest's edge ids are gathered at the end.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from parmst._mpi.channel import group_order, owner_of
from parmst._threads import using_threads
from parmst.distributed import DistributedGraph
from parmst.solvers.cpu.genboruvka import edge_balanced_blocks, min_edge
from parmst.solvers.mpi.held import edge_keys, held_share, vertex_labels
from parmst.stats import Stats


class _Rows:
    """This rank's super-vertices (ids ``first .. first+count-1``) and their CSR rows."""

    def __init__(self, channel: Any, first: int, count: int, src: np.ndarray, adj: np.ndarray,
                 key: np.ndarray, eid: np.ndarray) -> None:
        """Build the CSR from entries whose ``src`` is a local index (any order)."""
        order = group_order(src, count)
        self.adj, self.key, self.eid = adj[order], key[order], eid[order]
        self.indptr = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=count), out=self.indptr[1:])
        self.first, self.count = first, count
        self.starts = channel.range_starts(count)
        self.ids = np.arange(first, first + count, dtype=np.int64)

    def owner(self, ids: np.ndarray) -> np.ndarray:
        return owner_of(self.starts, ids)

    def fetch(self, channel: Any, ids: np.ndarray, *values: np.ndarray) -> list[np.ndarray]:
        return channel.fetch(ids, None, self.first, values, self.starts)


def _first_rows(dg: DistributedGraph) -> _Rows:
    """Round-one rows: every owned vertex (by its range label), one entry per incident
    non-loop edge end it owns."""
    labels = vertex_labels(dg)
    keys, _ = edge_keys(dg)
    loop = labels.src == labels.dst
    out_src = ~loop & (labels.first <= labels.src) & (labels.src < labels.stop)
    out_dst = ~loop & (labels.first <= labels.dst) & (labels.dst < labels.stop)
    src = np.concatenate([labels.src[out_src], labels.dst[out_dst]]).astype(np.int64)
    adj = np.concatenate([labels.dst[out_src], labels.src[out_dst]]).astype(np.int64)
    key = np.concatenate([keys[out_src], keys[out_dst]])
    eid = np.concatenate([dg.edge_ids[out_src], dg.edge_ids[out_dst]]).astype(np.int64)
    return _Rows(dg.channel, labels.first, labels.stop - labels.first, src - labels.first,
                 adj, key, eid)


def _colours(channel: Any, rows: _Rows, min_pos: np.ndarray, stats: Stats
             ) -> tuple[np.ndarray, np.ndarray]:
    """Steps 2-3: forest edge ids chosen here and the root colour of every owned super-vertex."""
    has = min_pos >= 0
    succ = np.where(has, rows.adj[min_pos] if len(rows.adj) else 0, rows.ids)
    chosen = np.where(has, rows.eid[min_pos] if len(rows.eid) else -1, -1)
    back_succ, back_chosen = rows.fetch(channel, succ, succ, chosen)
    mutual = has & (back_succ == rows.ids) & (back_chosen == chosen)
    root = ~has | (mutual & (rows.ids < succ))
    colour = np.where(root, rows.ids, succ)
    jumps = 0
    while True:
        (jumped,) = rows.fetch(channel, colour, colour)
        changed = channel.allreduce_int(int(np.count_nonzero(jumped != colour)), "sum")
        colour = jumped
        jumps += 1
        if not changed:
            break
    stats.extra["pointer_jumps"] = stats.extra.get("pointer_jumps", 0) + jumps
    return chosen[~root], colour


def _contract(channel: Any, rows: _Rows, colour: np.ndarray) -> _Rows:
    """Step 4: crossing entries to their root's owner, new global ids, the new CSR."""
    degree = np.diff(rows.indptr)
    src_colour = np.repeat(colour, degree)
    (dst_colour,) = rows.fetch(channel, rows.adj, colour)
    cross = src_colour != dst_colour
    to = rows.owner(src_colour[cross])
    order = group_order(to, channel.size)
    counts = np.bincount(to, minlength=channel.size).astype(np.int64)
    (rs, rd, rk, re), _ = channel.alltoallv(
        [src_colour[cross][order], dst_colour[cross][order], rows.key[cross][order],
         rows.eid[cross][order]], counts)
    # This rank's roots with crossing entries are the next super-vertices, numbered in order.
    is_root = np.zeros(rows.count, dtype=np.bool_)
    is_root[rs - rows.first] = True
    count = int(np.count_nonzero(is_root))
    first = channel.exscan_int(count)
    local_of = np.cumsum(is_root) - 1
    new_id = np.where(is_root, first + local_of, -1)
    (target,) = rows.fetch(channel, rd, new_id)
    return _Rows(channel, first, count, local_of[rs - rows.first], target, rk, re)


def rows_of_contracted(channel: Any, first: int, count: int, cu: np.ndarray, cv: np.ndarray,
                       keys: np.ndarray, ids: np.ndarray) -> _Rows:
    """Rows of a graph whose super-vertices ``first .. first+count-1`` are this rank's.

    Every edge ``(cu, cv)`` is given once, by the owner of ``cu``; its mirror
    entry goes to the owner of ``cv`` with one ``Alltoallv``.
    """
    starts = channel.range_starts(count)
    to = owner_of(starts, cv)
    order = group_order(to, channel.size)
    counts = np.bincount(to, minlength=channel.size).astype(np.int64)
    (ms, md, mk, me), _ = channel.alltoallv([cv[order], cu[order], keys[order], ids[order]],
                                            counts)
    return _Rows(channel, first, count, np.concatenate([cu, ms]) - first,
                 np.concatenate([cv, md]), np.concatenate([keys, mk]),
                 np.concatenate([ids, me]))


def genboruvka_held(dg: DistributedGraph, stats: Stats, threads: int | None) -> np.ndarray:
    """This rank's share of the forest (:func:`~parmst.solvers.mpi.held.held_share`): the
    edge ids every rank's super-vertices chose, over all rounds, gathered on every rank."""
    chosen = rounds(dg.channel, _first_rows(dg), stats, threads)
    return held_share(dg, dg.channel.allgatherv(chosen))


def rounds(channel: Any, rows: _Rows, stats: Stats, threads: int | None) -> np.ndarray:
    """Steps 1-4 until no super-vertex has an edge; the edge ids chosen by this rank's."""
    chosen_parts = []
    with using_threads(threads, stats) as count:
        while rows.starts[-1] > 0:
            stats.worklist_sizes.append(int(rows.starts[-1]))
            t0 = time.perf_counter()
            min_pos = np.empty(rows.count, dtype=np.int64)
            min_edge(edge_balanced_blocks(rows.indptr, count), rows.indptr, rows.key,
                      rows.eid, min_pos)
            stats.phases["min-edge"] = stats.phases.get("min-edge", 0.0) + \
                time.perf_counter() - t0
            t0 = time.perf_counter()
            chosen, colour = _colours(channel, rows, min_pos, stats)
            chosen_parts.append(chosen)
            stats.phases["colours"] = stats.phases.get("colours", 0.0) + \
                time.perf_counter() - t0
            t0 = time.perf_counter()
            rows = _contract(channel, rows, colour)
            stats.phases["contract"] = stats.phases.get("contract", 0.0) + \
                time.perf_counter() - t0
    stats.rounds = (stats.rounds or 0) + len(chosen_parts)
    return np.concatenate(chosen_parts) if chosen_parts else np.zeros(0, dtype=np.int64)
