"""Owner rounds: distributed Borůvka in ``O(m/p + k/p)`` work and words per rank per round.

After Sanders and Schimek, "Engineering Massively Parallel MST Algorithms"
(2023), distributed Borůvka: the edges never move; only one message per
component a rank touches does. The components ``0..k-1`` of a round are
owned by ranks in contiguous ranges (``starts``), and every rank holds some
edges between them, each edge on exactly one rank (its *holder*). The rank
numbers the components it owns and the other distinct components its edges
touch ``0..u-1`` (local ids: its own directly, the others by hashing) and
keeps its edges as pairs of local ids (:mod:`parmst.solvers.mpi.local_ids`). One round:

1. **Minima.** The lightest held edge of each local component, in the
   ``(weight, edge_id)`` order; one ``Alltoallv`` sends ``(component, key,
   id, far component)`` per local component to the component's owner, which
   keeps the lightest per component and remembers the rank that sent it.
   (filter-boruvka's first round needs no message here: the filter already
   knows each component's lightest edge, see ``first_minima``.)
2. **Hook.** Each component points at the far end of its lightest edge. Two components
   that chose each other chose the same edge (keys are distinct); one of them becomes a
   root: the smaller for an even edge id, else the larger (always the smaller made the
   lowest ranks own most of the roots, and the later rounds' work, as components
   merged). The others' edges are forest edges. The roots that have an edge are numbered
   by an exclusive prefix sum over the owners. Pointer jumping through the owners (one
   request and reply per jump, only for components whose colour is not yet a root) gives
   every component its root, and the jump that reaches the root brings the root's number
   too (:mod:`parmst.solvers.mpi.hooking`).
3. **Relabel.** Each rank asks the owners for the new label of every other component it
   has a local id for (one request and reply per local id, the first round's included),
   numbers the new labels (finished components get none; the labels are below the
   next round's component count, so a dense table numbers them where that count is at
   most twice theirs), relabels its edges
   through that small table of local ids, drops those inside one component, and, once
   parallel edges are likely, keeps only the lightest of them (by the cycle property
   the others are in no minimum spanning forest), in the relabel's own pass through a
   slot per pair of groups where the groups are few. The edges are rewritten and
   compacted in place.

When at most :data:`FINISH_EDGES` edges are left in all, they are gathered
once on rank 0, which finishes with serial Kruskal. The forest edges chosen
by owners and by rank 0 go back to their holders with one ``Alltoallv``, so
every rank returns ids of edges it holds.

Memory per rank: its edges once (the arrays it is handed are numbered and
compacted in place, never copied), ``O(u)`` for its local components and
``O(k/p)`` for the components it owns; rank 0 adds the last ``FINISH_EDGES``
edges.
"""

from __future__ import annotations

import time
from typing import Any

import numba
import numpy as np

from parmst._blocks import block_span, num_blocks
from parmst._mpi.channel import group_order
from parmst.graph import Graph, index_dtype_for
from parmst.order import id_bits, precedes
from parmst.solvers.mpi.hooking import hook
from parmst.solvers.mpi.local_ids import local_ids, slot, table_bits
from parmst.solvers.mpi.shared_min import lower_min
from parmst.solvers.serial.kruskal import solve as kruskal
from parmst.stats import Stats

# The rounds stop when this many edges or fewer are left on all ranks together; rank 0
# then solves them with serial Kruskal (about 4 ms for 2**16 edges), which is cheaper than
# the collectives of the remaining rounds, each bound by latency at that size.
FINISH_EDGES = 1 << 16

# Heavier twins are dropped when edges x TWIN_DENSITY exceed groups**2, that is when a uniform
# random graph would have more than about 1/16 of its edges in parallel pairs (measured on
# seed000-sparse medium at 2 ranks: rounds below that found under 6 % twins).
TWIN_DENSITY = 16

_SIGN64 = np.uint64(1 << 63)
NO_PACKED = np.uint64(1 << 63)  # above every packed key: they are kept below 63 bits


# ---------------------------------------------------------------------------- local kernels
@numba.njit(parallel=True, cache=True)
def _relabel_in_place(lu, lv, key, eid, remap):
    """Relabel edge ends by ``remap`` (smaller end first) and drop self-loops, in place.

    Each block of edges (:mod:`parmst._blocks`) compacts its kept edges to its
    own start, then the blocks move down in order (a block's new place ends
    before the next block's old one), so the kept edges keep their order and
    no second set of edge arrays is allocated: a rank's peak memory is its
    edges once, not twice. Returns how many edges are kept.
    """
    n = len(lu)
    blocks = num_blocks(n)
    kept = np.zeros(blocks, dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        j = lo
        for e in range(lo, hi):
            a, b = remap[lu[e]], remap[lv[e]]
            if a == b:
                continue
            if a > b:
                a, b = b, a
            lu[j], lv[j], key[j], eid[j] = a, b, key[e], eid[e]
            j += 1
        kept[blk] = j - lo
    j = 0
    for blk in range(blocks):
        lo, _ = block_span(blk, n)
        if j != lo:
            for i in range(kept[blk]):
                lu[j + i], lv[j + i], key[j + i], eid[j + i] = lu[lo + i], lv[lo + i], \
                    key[lo + i], eid[lo + i]
        j += kept[blk]
    return j


@numba.njit(cache=True)
def _drop_heavier_twins(lu, lv, key, eid, groups, table):
    """Keep only the lightest edge of each pair of ends (ends ``0..groups-1``, smaller first).

    Compacts the four arrays in place and returns how many edges are kept.
    ``table``: ``2**table_bits(len(lu))`` slots filled with -1, int32 where the
    positions fit (half the cache lines of int64 slots for its scattered probes).
    """
    bits = table_bits(len(lu))
    mask = (1 << bits) - 1
    shift = np.uint64(64 - bits)
    kept = 0
    for e in range(len(lu)):
        a, b = lu[e], lv[e]
        h = slot(a * groups + b, shift)
        while table[h] >= 0 and (lu[table[h]] != a or lv[table[h]] != b):
            h = (h + 1) & mask
        s = table[h]
        if s < 0:
            table[h] = kept
            lu[kept], lv[kept], key[kept], eid[kept] = a, b, key[e], eid[e]
            kept += 1
        elif precedes(key[e], eid[e], key[s], eid[s]):
            key[s], eid[s] = key[e], eid[e]
    return kept


@numba.njit(cache=True)
def _relabel_keeping_lightest_twins(lu, lv, key, eid, remap, groups, table):
    """:func:`_relabel_in_place` and :func:`_drop_heavier_twins` in one pass, for few groups.

    Each pair of groups ``a < b`` has its own slot of ``table`` (``groups * (groups -
    1) / 2`` slots filled with -1, the triangle's row ``a`` then column ``b``): the
    position of its kept edge, found without hashing, probing or reading the kept
    edges' ends. Compacts the four arrays in place (a kept edge moves down only) and
    returns how many edges are kept. The step that keeps or lowers a pair's edge is
    written out here as in :func:`_drop_heavier_twins`: shared as a jitted helper, it
    made this pass two to three times slower (2.9 M edges: 0.054 s, 0.11 s inlined, 0.16
    s called).
    """
    kept = 0
    for e in range(len(lu)):
        a, b = remap[lu[e]], remap[lv[e]]
        if a == b:
            continue
        if a > b:
            a, b = b, a
        pair = np.int64(a) * (2 * groups - a - 1) // 2 + (b - a - 1)
        s = table[pair]
        if s < 0:
            table[pair] = kept
            lu[kept], lv[kept], key[kept], eid[kept] = a, b, key[e], eid[e]
            kept += 1
        elif precedes(key[e], eid[e], key[s], eid[s]):
            key[s], eid[s] = key[e], eid[e]
    return kept


@numba.njit(parallel=True, cache=True)
def _lightest_packed(lu, lv, key, eid, groups, shift, shared):
    """Step 1's local minima (Listing 8's local kernel) with ``key << shift | id`` in one word.

    One comparison and one table read per edge end where the unpacked pair
    needs two: the tables of a round's first local components miss the cache
    on almost every read, so this halves the kernel. Every thread offers its
    blocks' edges by an atomic minimum behind a guard (Fallin et al. section
    5.3); a second pass finds the far end of each winner (keys are
    distinct). ``shared``: more than one thread runs (one thread needs no
    locked instruction). Returns each local component's lightest key and id
    (-1: no edge) and the local id at that edge's far end.
    """
    best = np.full(groups, NO_PACKED, dtype=np.uint64)
    n = len(lu)
    blocks = num_blocks(n)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for e in range(lo, hi):
            packed = (key[e] << shift) | np.uint64(eid[e])
            lower_min(best, lu[e], packed, shared)
            lower_min(best, lv[e], packed, shared)
    far = np.empty(groups, dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for e in range(lo, hi):
            packed = (key[e] << shift) | np.uint64(eid[e])
            a, b = lu[e], lv[e]
            if best[a] == packed:
                far[a] = b
            if best[b] == packed:
                far[b] = a
    best_key = np.empty(groups, dtype=np.uint64)
    best_id = np.full(groups, -1, dtype=np.int64)
    low = (np.uint64(1) << shift) - np.uint64(1)
    for c in numba.prange(groups):
        if best[c] != NO_PACKED:
            best_key[c], best_id[c] = best[c] >> shift, np.int64(best[c] & low)
    return best_key, best_id, far


@numba.njit(cache=True)
def _lightest_pairs(lu, lv, key, eid, groups):
    """:func:`_lightest_packed` for keys too wide to share a word with the ids."""
    best_key = np.zeros(groups, dtype=key.dtype)
    best_id = np.full(groups, -1, dtype=np.int64)
    far = np.empty(groups, dtype=np.int64)
    for e in range(len(lu)):
        a, b = lu[e], lv[e]
        if best_id[a] < 0 or precedes(key[e], eid[e], best_key[a], best_id[a]):
            best_key[a], best_id[a], far[a] = key[e], eid[e], b
        if best_id[b] < 0 or precedes(key[e], eid[e], best_key[b], best_id[b]):
            best_key[b], best_id[b], far[b] = key[e], eid[e], a
    return best_key, best_id, far


@numba.njit(cache=True)
def _minimum_records(best_key, best_id, far, comp, starts, size):
    """Step 1's send side: one ``(component, key, id, far component)`` row per local
    component with an edge, grouped by the component's owner, and the rows per rank.

    The minima tables are read in sequence, so this pass costs little
    beside the minima themselves.
    """
    to = np.empty(len(comp), dtype=np.int64)
    counts = np.zeros(size, dtype=np.int64)
    for c in range(len(comp)):
        if best_id[c] >= 0:
            owner = 0
            while starts[owner + 1] <= comp[c]:
                owner += 1
            to[c] = owner
            counts[owner] += 1
    fill = np.zeros(size, dtype=np.int64)
    for r in range(1, size):
        fill[r] = fill[r - 1] + counts[r - 1]
    rows = np.empty((fill[size - 1] + counts[size - 1], 4), dtype=np.int64)
    for c in range(len(comp)):
        if best_id[c] < 0:
            continue
        j = fill[to[c]]
        fill[to[c]] += 1
        rows[j, 0], rows[j, 1], rows[j, 2] = comp[c], np.int64(best_key[c]), best_id[c]
        rows[j, 3] = comp[far[c]]
    return rows, counts


@numba.njit(cache=True)
def _keep_lightest(at, key, eid, far, sender, best_key, best_id, best_far, best_sender):
    """At the owner: the lightest of the minima received for each owned component."""
    for i in range(len(at)):
        c = at[i]
        if best_id[c] < 0 or precedes(key[i], eid[i], best_key[c], best_id[c]):
            best_key[c], best_id[c] = key[i], eid[i]
            best_far[c], best_sender[c] = far[i], sender[i]


# ---------------------------------------------------------------------------- one rank's state
def _position_dtype(n: int) -> type:
    """Edge positions below ``n`` as int32 where they fit: half the cache lines of int64 slots
    for a table's scattered probes."""
    return np.int32 if n < (1 << 31) else np.int64


class _Edges:
    """This rank's edges as local-id pairs, and the global component of each local id.

    ``cu`` must be components this rank owns (``first .. first + count - 1``);
    every label is below ``bound`` (the round's number of components).
    The four arrays are taken over: the local ids are written over ``cu`` and
    ``cv``, and every round compacts all four in place, so the rounds never
    hold a second copy of the rank's edges.
    """

    def __init__(self, cu: np.ndarray, cv: np.ndarray, key: np.ndarray, eid: np.ndarray,
                 first: int, count: int, bound: int):
        self.lu = np.subtract(cu, first, out=cu) if cu.dtype == np.int64 \
            else (cu - first).astype(np.int64)
        cv = cv if cv.dtype == np.int64 else cv.astype(np.int64)
        self.lv, self.comp = local_ids(cv, first, count, in_place=True, bound=bound)
        self.key, self.eid = key, eid.astype(np.int64, copy=False)
        self.size = len(cu)

    def contract(self, remap: np.ndarray, groups: int, record: dict | None = None) -> None:
        """Local ids become ``remap[local id]`` (``0..groups-1``); loops go, and heavier twins.

        Twins (edges with the same two ends) are looked for only when there
        are enough edges per pair of groups for many to exist: the hash table
        that finds them cost more than it saved in early rounds. Where a slot
        per pair of groups takes no more room than that hash table, the twins
        are dropped in the relabel's own pass, through that slot
        (:func:`_relabel_keeping_lightest_twins`). ``record`` (optional) gets the
        edges kept (``edges_out``) and the seconds of relabelling (``relabel_s``)
        and of a separate twin drop (``twins_s``).
        """
        record = {} if record is None else record
        start = time.perf_counter()
        twins = self.size * TWIN_DENSITY > groups * groups
        pairs = groups * (groups - 1) // 2
        if twins and pairs <= (1 << int(table_bits(self.size))):
            slots = np.full(pairs, -1, dtype=_position_dtype(self.size))
            self.size = _relabel_keeping_lightest_twins(*self.arrays(), remap, groups, slots)
            twins = False
        else:
            self.size = _relabel_in_place(*self.arrays(), remap)
        record["relabel_s"] = time.perf_counter() - start
        if twins:
            start = time.perf_counter()
            lu, lv, key, eid = self.arrays()
            slots = np.full(1 << int(table_bits(len(lu))), -1, dtype=_position_dtype(len(lu)))
            self.size = _drop_heavier_twins(lu, lv, key, eid, groups, slots)
            record["twins_s"] = time.perf_counter() - start
        record["edges_out"] = self.size

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The live edges: local ids of both ends, weight keys, global ids."""
        n = self.size
        return self.lu[:n], self.lv[:n], self.key[:n], self.eid[:n]


# ---------------------------------------------------------------------------- round steps
def _minima(channel: Any, edges: _Edges, starts: np.ndarray, pack_shift: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 1: per owned component, the lightest edge's id (-1: none), far component, holder.

    ``pack_shift`` is the id width when keys and ids share one word, else 0.
    """
    lu, lv, key, eid = edges.arrays()
    groups = len(edges.comp)
    if pack_shift:
        minima = _lightest_packed(lu, lv, key, eid, groups, np.uint64(pack_shift),
                                  numba.get_num_threads() > 1)
    else:
        minima = _lightest_pairs(lu, lv, key, eid, groups)
    rows, counts = _minimum_records(*minima, edges.comp, starts, channel.size)
    (rows,), received = channel.alltoallv([rows], counts)
    at, k, i, f = rows[:, 0], rows[:, 1].view(key.dtype), rows[:, 2], rows[:, 3]
    first = int(starts[channel.rank])
    count = int(starts[channel.rank + 1]) - first
    best_key = np.zeros(count, dtype=key.dtype)
    best_id = np.full(count, -1, dtype=np.int64)
    best_far = np.zeros(count, dtype=np.int64)
    best_sender = np.zeros(count, dtype=np.int64)
    sender = np.repeat(np.arange(channel.size, dtype=np.int64), received)
    _keep_lightest(at - first, k, i, f, sender, best_key, best_id, best_far, best_sender)
    return best_id, best_far, best_sender


def _relabel(channel: Any, edges: _Edges, starts: np.ndarray, label: np.ndarray, count: int,
             new_first: int, stats: Stats) -> np.ndarray:
    """Step 3: the edges relabelled (owned components' ``label`` from
    :func:`~parmst.solvers.mpi.hooking.hook`, the others' fetched from their owners);
    returns the next round's ``starts``.

    Phases: ``relabel-fetch`` (the request and reply), ``local-ids`` (numbering the
    new labels, below the next round's number of components: a dense table where that is at
    most twice their count), ``relabel``
    (rewriting the edges). ``stats.extra["owner_rounds"]`` gets one record per round: the
    edges and local ids at its start (``edges_in``, ``ids_in``), the local ids after it
    (``groups``), the edges kept (``edges_out``), and seconds (``local_ids_s``,
    ``relabel_s``, ``twins_s`` for a separate twin drop).

    Every local id asks, whether or not an edge still touches it: a local id is a
    component of this round (the numbering gives none to a finished one), so its owner
    answers, and a pass over the edges to find the touched ones (two scattered writes
    per edge) cost more than the few idle ids it spared (in the first round, none).
    """
    first = int(starts[channel.rank])
    record = {"edges_in": edges.size, "ids_in": len(edges.comp)}
    with stats.phase("relabel-fetch"):
        # Local ids below len(label) are owned here: their labels need no message.
        (far_label,) = channel.fetch(edges.comp[len(label):], None, first, [label], starts)
    with stats.phase("rounds-sync"):
        new_starts = channel.range_starts(count)
    with stats.phase("local-ids"):
        start = time.perf_counter()
        # A finished component (label -1) gets no local id: no edge is left at it.
        remap, edges.comp = local_ids(np.concatenate([label, far_label]), new_first, count,
                                      in_place=True, bound=int(new_starts[-1]))
        record["local_ids_s"] = time.perf_counter() - start
    record["groups"] = len(edges.comp)
    with stats.phase("relabel"):
        edges.contract(narrow_ids(remap, len(edges.comp)), len(edges.comp), record)
    stats.extra.setdefault("owner_rounds", []).append(record)
    return new_starts


def _edges_left(channel: Any, edges: _Edges, stats: Stats) -> int:
    """The edges left on all ranks, at the start of a round (phase ``rounds-sync``: this
    collective and the next round's ranges carry no data to speak of, so their time is
    the wait for the slowest rank, the rounds' imbalance)."""
    with stats.phase("rounds-sync"):
        return channel.allreduce_int(edges.size, "sum")


def _hook_and_choose(channel: Any, starts: np.ndarray,
                     minima: tuple[np.ndarray, np.ndarray, np.ndarray], chosen: list,
                     holders: list) -> tuple[np.ndarray, int, int]:
    """Step 2 on the owned components' minima ``(id, far component, holder)``: the forest
    edges it picks are appended to ``chosen`` and their holders to ``holders``; returns
    :func:`~parmst.solvers.mpi.hooking.hook`'s labels, count and first label."""
    best_id, best_far, best_sender = minima
    root, label, count, new_first = hook(channel, starts, best_id, best_far)
    forest = ~root & (best_id >= 0)
    chosen.append(best_id[forest])
    holders.append(best_sender[forest])
    return label, count, new_first


def _finish(channel: Any, edges: _Edges, num_components: int) -> tuple[np.ndarray, np.ndarray]:
    """The last edges, gathered once, solved by serial Kruskal on rank 0: ids and holders."""
    lu, lv, key, eid = edges.arrays()
    held = channel.allgather_int(len(lu))
    u = channel.gatherv(edges.comp[lu])
    v = channel.gatherv(edges.comp[lv])
    keys = channel.gatherv(key.astype(np.uint64))
    ids = channel.gatherv(eid)
    if channel.rank != 0 or not len(ids):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    holder = np.repeat(np.arange(channel.size, dtype=np.int64), held)
    # Positions in id order break weight ties as the ids do; flipping the keys' sign bit
    # gives int64 weights in the keys' order.
    order = np.argsort(ids, kind="stable")
    idx = index_dtype_for(num_components, len(ids))
    graph = Graph(u[order].astype(idx), v[order].astype(idx),
                  (keys[order] ^ _SIGN64).view(np.int64), num_components)
    taken = order[np.sort(kruskal(graph, Stats()))]
    return ids[taken], holder[taken]


def narrow_ids(ids: np.ndarray, bound: int) -> np.ndarray:
    """``ids`` (all below ``bound``) as int32 where they fit: the relabel's two scattered
    reads per edge then touch half the cache lines.

    Examples
    --------
    >>> narrow_ids(np.array([3, -1, 0]), 4).dtype, narrow_ids(np.array([3]), 1 << 40).dtype
    (dtype('int32'), dtype('int64'))
    """
    return ids.astype(np.int32) if bound < (1 << 31) else ids


def owner_rounds(channel: Any, cu: np.ndarray, cv: np.ndarray, keys: np.ndarray,
                 ids: np.ndarray, starts: np.ndarray, stats: Stats,
                 first_minima: tuple[np.ndarray, np.ndarray, np.ndarray], key_bits: int = 64,
                 num_edges: int = 1 << 63) -> np.ndarray:
    """Forest edge ids among this rank's edges ``(cu, cv)`` between components.

    Component labels are owned in the contiguous ranges ``starts`` (``p + 1``
    bounds); each ``cu`` is a component this rank owns; ``keys`` are
    order-preserving uint64 weight keys of ``key_bits`` bits and ``ids``
    global edge ids below ``num_edges``. All four are handed over: the rounds
    write local ids over ``cu`` and ``cv`` and compact all four in place.
    Every edge is given by exactly one rank, which is then its holder.
    ``first_minima`` are the first round's step 1 for the components this
    rank owns (lightest edge id, far component, holder rank), known without a
    message (a rank holds every edge at its components): that round sends no
    minima. Returns the ids of the forest edges this rank holds.
    """
    shift = id_bits(num_edges)
    pack_shift = shift if key_bits + shift < 64 else 0
    chosen, holders = [], []
    rounds = 0
    with stats.phase("local-ids"):
        # The owned ends need no table; the far ends are numbered in place.
        edges = _Edges(cu, cv, keys, ids, int(starts[channel.rank]),
                       int(starts[channel.rank + 1] - starts[channel.rank]), int(starts[-1]))
    minima = first_minima
    while _edges_left(channel, edges, stats) > FINISH_EDGES:
        stats.worklist_sizes.append(int(starts[-1]))
        if minima is None:
            with stats.phase("minima"):
                minima = _minima(channel, edges, starts, pack_shift)
        with stats.phase("hook"):
            label, count, new_first = _hook_and_choose(channel, starts, minima, chosen, holders)
        minima = None
        starts = _relabel(channel, edges, starts, label, count, new_first, stats)
        rounds += 1
    with stats.phase("finish"):
        last, last_holders = _finish(channel, edges, int(starts[-1]))
        chosen.append(last)
        holders.append(last_holders)
        chosen, holders = np.concatenate(chosen), np.concatenate(holders)
        order = group_order(holders, channel.size)
        (mine,), _ = channel.alltoallv([chosen[order]],
                                       np.bincount(holders, minlength=channel.size))
    stats.rounds = (stats.rounds or 0) + rounds + 1
    return mine
