"""The forest's edges by id range: each rank's share in id order, and the whole on rank 0.

Every rank ends a distributed solve with the forest edges it is responsible
for (its primary edges among those chosen), in no useful order. They are
spread so that rank ``r`` of ``p`` holds the forest edges with ids
``r*m//p .. (r+1)*m//p - 1`` in id order, and rank 0 gathers those shares in
rank order: the whole forest in id order, with no sort on rank 0. With
``gather=False`` the shares stay where they are, and only the forest's
total weight is agreed (:func:`exact_total`), exactly as one rank would sum it.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst.forest import exact_sum
from parmst.solvers.mpi.touched import popcount


@numba.njit(cache=True)
def _merge_positions(held_ids, ids):
    """Positions of the sorted ``ids`` in the sorted ``held_ids`` (each present), by one merge."""
    out = np.empty(len(ids), dtype=np.int64)
    j = 0
    for i in range(len(ids)):
        while held_ids[j] != ids[i]:
            j += 1
        out[i] = j
    return out


def held_positions(held_ids: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Positions of the sorted ``ids`` among this rank's held edge ids (in id order).

    One rank holds every edge, ids ``0..m-1``: then an id is its position, and
    no search is needed.
    """
    if len(held_ids) and int(held_ids[-1]) - int(held_ids[0]) == len(held_ids) - 1:
        return ids - held_ids[0] if held_ids[0] else ids  # a contiguous range of ids
    return _merge_positions(held_ids, ids)


@numba.njit(cache=True, parallel=True)
def sorted_ids(ids, num_edges):
    """The distinct ``ids`` (all below ``num_edges``) in increasing order, on all threads.

    A byte per possible id marks the present ones; each block of ids then
    counts its marks, and after an exclusive sum writes them in order. Linear
    in ``num_edges``: for one rank, whose forest ids are its own edges' (a
    serial ordering of the ten million ids of a forest was a fifth of a
    16-thread solve); :func:`id_order` keeps ``num_edges / 8`` bytes where
    ``num_edges`` counts every rank's edges.
    """
    present = np.zeros(num_edges, dtype=np.bool_)
    for i in numba.prange(len(ids)):
        present[ids[i]] = True
    blocks = num_blocks(num_edges)
    counts = np.zeros((blocks, 1), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, num_edges)
        counts[b, 0] = np.count_nonzero(present[lo:hi])
    offsets = exclusive_sums(counts)
    out = np.empty(offsets[blocks, 0], dtype=ids.dtype)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, num_edges)
        j = offsets[b, 0]
        for x in range(lo, hi):
            if present[x]:
                out[j] = x
                j += 1
    return out


@numba.njit(cache=True, parallel=True)
def _increasing(ids):
    """Whether ``ids`` strictly increase, one block per thread at a time."""
    blocks = num_blocks(len(ids))
    descents = np.zeros((blocks, 1), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, len(ids))
        for i in range(max(lo, 1), hi):
            if ids[i] <= ids[i - 1]:
                descents[b, 0] = 1
                break
    return descents.sum() == 0


def in_id_order(ids: np.ndarray, num_edges: int) -> np.ndarray:
    """The distinct ``ids`` in increasing order: ``ids`` itself where they come so, else
    :func:`sorted_ids`.

    A one-process solver that hands back its forest in id order (ecl/cpu,
    kruskal/serial) leaves one rank's forest in order already; the check reads
    the forest once, where :func:`sorted_ids` writes and reads a byte per edge
    of the graph (on R-MAT scale 18, 3.8 M edges on two threads, 70 ms against
    the forest's 0.3 ms check).
    """
    return ids if _increasing(ids) else sorted_ids(ids, num_edges)


@numba.njit(cache=True, parallel=True)
def take_fields(position, src, dst, weight):
    """``src[position]``, ``dst[position]``, ``weight[position]``, on all threads."""
    out_src = np.empty(len(position), dtype=src.dtype)
    out_dst = np.empty(len(position), dtype=dst.dtype)
    out_weight = np.empty(len(position), dtype=weight.dtype)
    for i in numba.prange(len(position)):
        e = position[i]
        out_src[i], out_dst[i], out_weight[i] = src[e], dst[e], weight[e]
    return out_src, out_dst, out_weight


@numba.njit(cache=True)
def id_order(ids, num_edges):
    """``np.argsort(ids)`` for distinct ids below ``num_edges``, in linear time.

    A bitmap of the ids and each word's count of smaller ids give every id
    its rank: ``num_edges / 4`` bytes, where an argsort of the ten million
    ids of a forest took a second on the rank that gathers them.
    """
    words = (num_edges + 63) >> 6
    bits = np.zeros(words, dtype=np.uint64)
    for x in ids:
        bits[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    before = np.empty(words, dtype=np.int64)
    total = 0
    for w in range(words):
        before[w] = total
        total += popcount(bits[w])
    order = np.empty(len(ids), dtype=np.int64)
    for i in range(len(ids)):
        x = ids[i]
        below = bits[x >> 6] & ((np.uint64(1) << np.uint64(x & 63)) - np.uint64(1))
        order[before[x >> 6] + popcount(below)] = i
    return order


def _id_range_starts(num_edges: int, size: int) -> np.ndarray:
    """Bounds of the id ranges the forest is spread over: rank ``r`` gets ids
    ``starts[r] .. starts[r + 1] - 1`` (near-equal ranges)."""
    return np.array([r * num_edges // size for r in range(size + 1)], dtype=np.int64)


def spread_forest(channel: Any, num_edges: int, ids: np.ndarray, *columns: np.ndarray
                  ) -> list[np.ndarray]:
    """The forest edges by id range: rank ``r`` ends with those in its range of
    :func:`_id_range_starts`, in id order, ``(ids, *columns)``.

    ``ids`` (distinct, increasing) and ``columns`` are this rank's forest edges.
    One ``Alltoallv`` (each rank's edges are grouped by range already, being
    sorted), then each rank orders the runs it received in linear time, so
    the ranks' shares concatenated in rank order are the forest in id order.
    """
    starts = _id_range_starts(num_edges, channel.size)
    counts = np.diff(np.searchsorted(ids, starts))
    received, _ = channel.alltoallv([ids, *columns], counts)
    first = int(starts[channel.rank])
    order = id_order(received[0] - first, int(starts[channel.rank + 1]) - first)
    return [array[order] for array in received]


def gather_forest(channel: Any, num_edges: int, ids: np.ndarray, *columns: np.ndarray
                  ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """This rank's share of the forest (:func:`spread_forest`) and, on rank 0, the whole
    forest ``(ids, *columns)`` in id order (``None`` elsewhere).

    Rank 0 only receives the shares in rank order: sorting the 10 million
    gathered ids of seed000-sparse large's forest on rank 0 had cost a fifth of
    the 16-rank solve while the other ranks waited.
    """
    share = spread_forest(channel, num_edges, ids, *columns)
    return share, [channel.gatherv(array) for array in share]


def _exact_parts(weights: np.ndarray) -> list[int | float]:
    """Numbers whose exact sum is the exact sum of ``weights``.

    Integers: their sum (a Python int, exact). Floats: the correctly rounded
    sum, then the correctly rounded rest of the exact sum after it, and so
    on until nothing is left (each rest is far below the last one's ulp, so
    a few suffice); or the one non-finite sum where a weight is inf or NaN.
    """
    parts = [exact_sum(weights)]
    if weights.dtype.kind != "f":
        return parts
    while math.isfinite(parts[-1]) and parts[-1] != 0:
        rest = exact_sum(np.concatenate([weights.astype(np.float64), -np.array(parts)]))
        if rest == 0:
            break
        parts.append(rest)
    return parts


def exact_total(channel: Any, weights: np.ndarray) -> int | float:
    """The forest's total weight from every rank's ``weights``, agreed on every rank (collective).

    Equal to :func:`parmst.forest.exact_sum` of all the weights together:
    each rank sends a few numbers whose exact sum is its own, and rank 0 sums
    those exactly, so no rank needs the others' weights.
    """
    gathered = channel.gather_object(_exact_parts(weights))
    total = None
    if channel.rank == 0:
        numbers = [x for parts in gathered for x in parts]
        total = (exact_sum(np.array(numbers, dtype=np.float64)) if weights.dtype.kind == "f"
                 else sum(numbers))
    return channel.bcast_object(total)
