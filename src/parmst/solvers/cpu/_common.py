"""Pieces the multi-core solvers share: the lightest-edge kernels and their worklists.

The lightest-edge machinery is the "deterministic reservation" of Fallin et al.
section 3.1 and the vertex-bridge step of Shou and He's Listing 7: every live
edge offers its key to both endpoint sets with an atomic minimum; an edge
is a forest edge when it won at either end. Keys come from
:func:`parmst.order.edge_keys`: in *packed* mode one atomic
minimum settles weight and edge id at once; in *two-pass* mode a second
kernel (:func:`_settle_ties`) takes the minimum edge id among the edges
whose weight key won, so ties still go to the smaller id.

Worklists are struct-of-arrays ``(src, dst, key, edge_id)`` processed in
fixed blocks of :data:`BLOCK` items by ``prange``. A block that keeps some
items takes one *ticket* (an atomic fetch-add on a shared counter) for all
of them at once and copies them to the output worklist (Shou and He
optimization 1a, batched per block so threads do not fight over the counter
for every edge).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.solvers.cpu._atomics import atomic_add, atomic_load, atomic_min

BLOCK = 4096
"""Worklist items per ``prange`` block."""

UNSET_KEY = np.uint64(np.iinfo(np.uint64).max)
UNSET_ID = np.iinfo(np.int64).max


@numba.njit(parallel=True, cache=True)
def clear_minima(min_key, min_id, two_pass):
    """Fallin et al. Alg. 2 lines 34-37: unset every lightest-edge record (ids too if two-pass)."""
    for v in numba.prange(len(min_key)):
        min_key[v] = UNSET_KEY
        if two_pass:
            min_id[v] = UNSET_ID


@numba.njit(parallel=True, cache=True)
def clear_touched_minima(src, dst, count, min_key, min_id, two_pass):
    """Fallin et al. Alg. 2 lines 34-37 per item: unset the records of the ``count`` items' sets.

    Only sets that some item offered to hold a record, so this clears them
    all at the cost of the items, not of the vertices. Each record is read
    before it is written: late rounds have most items in a few large sets,
    and unconditional stores from every thread to those sets' cache lines
    would serialize the threads on them (the first store clears; the rest
    only read).
    """
    for i in numba.prange(count):
        for v in (src[i], dst[i]):
            if min_key[v] != UNSET_KEY:
                min_key[v] = UNSET_KEY
            if two_pass and min_id[v] != UNSET_ID:
                min_id[v] = UNSET_ID


def new_minima(num_vertices: int, two_pass: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-vertex lightest-edge slots, unset (the id slots only matter in two-pass mode)."""
    min_key = np.empty(num_vertices, dtype=np.uint64)
    min_id = np.empty(num_vertices, dtype=np.int64) if two_pass \
        else np.full(1, UNSET_ID, dtype=np.int64)
    clear_minima(min_key, min_id, two_pass)
    return min_key, min_id


@numba.njit(parallel=True, cache=True)
def _write_identity(out):
    for v in numba.prange(len(out)):
        out[v] = v


def singleton_parents(num_vertices: int, dtype: np.dtype) -> np.ndarray:
    """``parent[v] = v`` for every vertex (each its own set), written by all threads.

    Examples
    --------
    >>> singleton_parents(4, np.int32).tolist()
    [0, 1, 2, 3]
    """
    parent = np.empty(num_vertices, dtype=dtype)
    _write_identity(parent)
    return parent


@numba.njit(parallel=True, cache=True)
def _flagged_ids(flags):
    # Plain loops, no NumPy calls: inside a parallel kernel each of those becomes a
    # parfor of its own, which more than doubled this kernel's first-call compile time.
    blocks = (len(flags) + BLOCK - 1) // BLOCK
    starts = np.zeros(blocks + 1, dtype=np.int64)
    for b in numba.prange(blocks):
        count = 0
        for e in range(b * BLOCK, min((b + 1) * BLOCK, len(flags))):
            count += flags[e]
        starts[b + 1] = count
    for b in range(blocks):
        starts[b + 1] += starts[b]
    ids = np.empty(starts[-1], dtype=np.int64)
    for b in numba.prange(blocks):
        at = starts[b]
        for e in range(b * BLOCK, min((b + 1) * BLOCK, len(flags))):
            if flags[e]:
                ids[at] = e
                at += 1
    return ids


def flagged_ids(flags: np.ndarray) -> np.ndarray:
    """``np.flatnonzero(flags)`` by all threads: count per block, prefix sum, write.

    The forest's edge ids come out of a flag per edge; on tens of millions
    of edges a serial scan of the flags would be a visible share of a
    parallel solver's time.

    Examples
    --------
    >>> flagged_ids(np.array([False, True, True, False, True])).tolist()
    [1, 2, 4]
    """
    return _flagged_ids(flags)


@numba.njit(cache=True, inline="always")
def offer(min_key, vertex, key):
    """Atomic minimum of ``key`` into ``min_key[vertex]`` behind an atomic guard (Fallin 5.3)."""
    if key < atomic_load(min_key, vertex):
        atomic_min(min_key, vertex, key)


@numba.njit(cache=True, inline="always")
def won(min_key, min_id, vertex, key, edge_id, two_pass):
    """Whether the edge ``(key, edge_id)`` is the recorded lightest edge of ``vertex``."""
    return min_key[vertex] == key and (not two_pass or min_id[vertex] == edge_id)


@numba.njit(parallel=True, cache=True)
def _settle_ties(src, dst, key, ids, count, min_key, min_id):
    """Two-pass mode, second pass: smallest edge id among the edges whose weight key won."""
    for i in numba.prange(count):
        k = key[i]
        e = ids[i]
        for v in (src[i], dst[i]):
            if k == min_key[v] and e < atomic_load(min_id, v):
                atomic_min(min_id, v, e)


@numba.njit(cache=True, inline="always")
def ticket_copy(lo, kept, src, dst, key, ids, out_src, out_dst, out_key, out_ids, out_count):
    """Copy items ``lo..kept`` (a block's survivors) to the output worklist at a fresh ticket."""
    n = kept - lo
    if n == 0:
        return
    start = atomic_add(out_count, 0, n)
    for j in range(n):  # a loop, not slice copies: those become parfors, slow to compile
        out_src[start + j] = src[lo + j]
        out_dst[start + j] = dst[lo + j]
        out_key[start + j] = key[lo + j]
        if len(out_ids):  # a worklist without ids (see Worklist) skips them
            out_ids[start + j] = ids[lo + j]


class Worklist:
    """Two buffers of ``(src, dst, key, edge_id)`` items, drained and filled alternately.

    Fallin et al. section 3.2 ("it alternates between two worklists"). ``current``
    holds ``count`` live items; kernels write survivors to ``spare`` through
    ``spare_count`` (a one-slot ticket counter), then :meth:`swap`. With
    ``with_ids=False`` the id arrays are empty: packed keys hold the id in their
    low bits, and every item then moves 16 bytes instead of 20 (int32 indices).
    """

    def __init__(self, capacity: int, index_dtype: np.dtype, with_ids: bool = True) -> None:
        def buffer() -> tuple[np.ndarray, ...]:
            return (np.empty(capacity, index_dtype), np.empty(capacity, index_dtype),
                    np.empty(capacity, np.uint64),
                    np.empty(capacity if with_ids else 0, index_dtype))

        self.current = buffer()
        self.spare = buffer()
        self.count = 0
        self.spare_count = np.zeros(1, dtype=np.int64)

    def swap(self) -> None:
        """Make the filled spare buffer current and empty the other."""
        self.current, self.spare = self.spare, self.current
        self.count = int(self.spare_count[0])
        self.spare_count[0] = 0

    def settle_ties(self, min_key: np.ndarray, min_id: np.ndarray) -> None:
        """Run the two-pass mode's id pass over the current items."""
        src, dst, key, ids = self.current
        _settle_ties(src, dst, key, ids, self.count, min_key, min_id)
