"""Local ids of the component labels a rank's edges touch, on all its threads.

The owner rounds (:mod:`parmst.solvers.mpi.owners`) keep a rank's edges as
pairs of local ids ``0..u-1``: the components the rank owns
(``first..first+count-1``) are ``0..count-1`` without a lookup, the others
are numbered from ``count`` on through open-addressing hash tables, linear
time where a sort would not be.

The labels outside the owned range are first split into parts by the top
bits of their hash (a radix partition: one pass that counts, one that
writes each part's labels in position order), then each part is numbered by
one thread with its own table, the labels of a part in the order first
seen. There are enough parts that each part's table stays in a core's
cache (:data:`PART_LABELS`), and at least :data:`PARTS_PER_THREAD` per
thread: one table for all the labels of a rank missed the cache at nearly
every lookup once it held millions of them (the owner rounds' numbering took
31 % of a 64-rank R-MAT solve), where the partition's writes go to a few
hundred places in sequence. A table slot holds the label and its number
side by side, so a probe reads one cache line. The ids of a part follow one
another, so the round's later passes over per-component arrays stream
through a few ranges of ids instead of jumping around as ids in slot order
did (a table filled by all threads at once made the relabel phase 1.5 times
slower).

Where the labels are known to lie below a bound that is not much larger than
their count (:data:`DENSE_LABELS`), no hashing is needed: a table with one
slot per possible label (int32 where the ids fit) marks the labels that
occur, a prefix sum over it numbers them in label order, and a last pass
reads each label's id. Its scattered accesses touch ``bound`` small slots,
not a hash table of 16-byte slots, and the labels are read three times in
sequence instead of partitioned, numbered and scattered back; the owner
rounds know such a bound (the round's number of components) and their
labels repeat (R-MAT's far ends, and every later round's new labels).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing's multiplier

PARTS_PER_THREAD = 4
"""Parts per thread, at least: more parts than threads even out the parts' uneven sizes."""

PART_LABELS = 1 << 15
"""Labels per part, at most about: a part's table (two slots per label, 16 bytes a slot)
is then 1 MiB, within a core's L2 cache. On 16 M labels, one thread, 2**6, 2**8, 2**9 and
2**10 parts took 0.95, 0.79, 0.82 and 0.80 s: flat from 2**8 on."""

DENSE_LABELS = 2
"""The dense table serves labels below a bound of at most this many times their count (at
4 bytes a slot, at most 8 bytes per label, half what the hash parts' positions and labels
take). One thread, 2**24 uniform labels below 2, 1 and 0.1 times their count: 0.63, 0.42
and 0.16 s against the hash parts' 0.72, 0.71 and 0.52 s; below 4 times, 0.76 against
0.72 s: the table's scattered marks and reads then cost more than the parts."""

MAX_PART_BITS = 10
"""At most ``2**10`` parts: the partition's per-block counts (blocks x parts words) and
its write positions stay small."""


@numba.njit(cache=True, inline="always")
def slot(value, shift):
    """Fibonacci hash of a non-negative int64 into a table of ``2**(64 - shift)`` slots."""
    return np.int64((np.uint64(value) * _GOLDEN) >> shift)


@numba.njit(cache=True)
def table_bits(n):
    """Bits of an open-addressing table at most half full with ``n`` entries."""
    bits = 1
    while (1 << bits) < 2 * n:
        bits += 1
    return bits


def part_bits_for(n: int, threads: int) -> int:
    """Bits of the part number for ``n`` labels on ``threads`` threads: enough parts for
    :data:`PARTS_PER_THREAD` per thread (none on one thread) and for at most about
    :data:`PART_LABELS` labels per part, at most :data:`MAX_PART_BITS`.

    Examples
    --------
    >>> part_bits_for(1000, 1), part_bits_for(1000, 4), part_bits_for(1 << 22, 1)
    (0, 4, 7)
    """
    by_threads = 0 if threads == 1 else int(threads * PARTS_PER_THREAD - 1).bit_length()
    by_size = max(0, int((n - 1) // PART_LABELS).bit_length())
    return min(MAX_PART_BITS, max(by_threads, by_size))


@numba.njit(cache=True, inline="always")
def _part(value, part_bits):
    """The part of an outside label: the top ``part_bits`` bits of its hash (0: one part)."""
    if part_bits == 0:
        return 0
    return slot(value, np.uint64(64 - part_bits))


@numba.njit(cache=True, inline="always")
def _part_slot(value, part_bits, bits):
    """A label's slot in its part's table of ``2**bits`` slots: the hash bits after the part's."""
    return np.int64(((np.uint64(value) * _GOLDEN) << np.uint64(part_bits))
                    >> np.uint64(64 - bits))


@numba.njit(parallel=True, cache=True)
def _group_by_part(values, first, count, part_bits, group):
    """Owned values' local ids (``value - first``; -1 for a negative value) written to
    ``group``; the outside labels grouped by hash part (part ``p`` at ``part_start[p] ..
    part_start[p + 1] - 1``, each part in position order): their positions ``members``
    and the labels themselves ``grouped``, so that numbering a part reads in sequence."""
    n = len(values)
    parts = 1 << part_bits
    blocks = num_blocks(n)
    counts = np.zeros((blocks, parts), dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for i in range(lo, hi):
            x = values[i]
            if x >= 0 and not first <= x < first + count:
                counts[blk, _part(x, part_bits)] += 1
    offsets = exclusive_sums(counts)
    part_start = np.zeros(parts + 1, dtype=np.int64)
    for p in range(parts):
        part_start[p + 1] = part_start[p] + offsets[blocks, p]
    members = np.empty(part_start[parts], dtype=np.int64)
    grouped = np.empty(part_start[parts], dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        fill = offsets[blk] + part_start[:parts]
        for i in range(lo, hi):
            x = values[i]
            if x < 0:
                group[i] = -1
            elif first <= x < first + count:
                group[i] = x - first
            else:
                p = _part(x, part_bits)
                members[fill[p]], grouped[fill[p]] = i, x
                fill[p] += 1
    return members, grouped, part_start


@numba.njit(parallel=True, cache=True)
def _number_each_part(grouped, part_start, part_bits):
    """Each part's distinct labels numbered in the order first seen, one thread a part with
    its own table of ``(label, number)`` slots: each label of ``grouped`` is replaced by
    its number within its part, the distinct labels go to ``found`` (part ``p``'s at
    ``part_start[p]`` on); returns ``found`` and how many each part has."""
    parts = len(part_start) - 1
    found = np.empty(part_start[parts], dtype=np.int64)
    distinct = np.zeros(parts, dtype=np.int64)
    for p in numba.prange(parts):
        lo, hi = part_start[p], part_start[p + 1]
        bits = table_bits(hi - lo)
        mask = (1 << bits) - 1
        table = np.full(2 << bits, -1, dtype=np.int64)  # label, number; label -1: empty
        k = 0
        for j in range(lo, hi):
            x = grouped[j]
            h = _part_slot(x, part_bits, bits)
            while table[2 * h] >= 0 and table[2 * h] != x:
                h = (h + 1) & mask
            if table[2 * h] < 0:
                table[2 * h], table[2 * h + 1] = x, k
                found[lo + k] = x
                k += 1
            grouped[j] = table[2 * h + 1]
        distinct[p] = k
    return found, distinct


@numba.njit(parallel=True, cache=True)
def _offset_parts(members, numbers, part_start, found, distinct, count, group):
    """Each outside label's local id (``count`` on, part after part) written to ``group`` at
    its position; returns the outside labels in local-id order."""
    parts = len(distinct)
    id_start = np.zeros(parts + 1, dtype=np.int64)
    for p in range(parts):
        id_start[p + 1] = id_start[p] + distinct[p]
    others = np.empty(id_start[parts], dtype=np.int64)
    for p in numba.prange(parts):
        lo, hi = part_start[p], part_start[p + 1]
        offset = count + id_start[p]
        for j in range(lo, hi):
            group[members[j]] = numbers[j] + offset
        others[id_start[p]:id_start[p + 1]] = found[lo:lo + distinct[p]]
    return others


@numba.njit(parallel=True, cache=True)
def _number_dense(values, first, count, table, group):
    """Local ids through ``table`` (zeros, one slot per label below its length): the outside
    labels are marked, numbered from ``count`` on in label order by a blockwise prefix sum
    over the table, and each position's id is written to ``group`` (which may be
    ``values``: a position is read before it is written). Returns the outside labels in
    id order."""
    n, bound = len(values), len(table)
    blocks, slot_blocks = num_blocks(n), num_blocks(bound)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for i in range(lo, hi):
            x = values[i]
            if x >= 0 and not first <= x < first + count:
                table[x] = 1  # every writer writes the same value
    marked = np.zeros((slot_blocks, 1), dtype=np.int64)
    for blk in numba.prange(slot_blocks):
        lo, hi = block_span(blk, bound)
        for x in range(lo, hi):
            marked[blk, 0] += table[x]
    offsets = exclusive_sums(marked)
    others = np.empty(offsets[slot_blocks, 0], dtype=np.int64)
    for blk in numba.prange(slot_blocks):
        lo, hi = block_span(blk, bound)
        k = offsets[blk, 0]
        for x in range(lo, hi):
            if table[x]:
                table[x], others[k] = count + k, x
                k += 1
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for i in range(lo, hi):
            x = values[i]
            if x < 0:
                group[i] = -1
            elif first <= x < first + count:
                group[i] = x - first
            else:
                group[i] = table[x]
    return others


def _number_in_parts(values, first, count, part_bits, group):
    """Local ids of ``values`` (owned: ``value - first``; negative: -1; others: ``count``
    on, part by part, each part in the order first seen) written to ``group``, and the
    outside labels in id order.

    ``group`` may be ``values`` itself: the grouping pass reads each value before it
    writes that position (owned and negative ones), and copies the others, whose
    positions are written only after every value has been read.
    """
    members, grouped, part_start = _group_by_part(values, first, count, part_bits, group)
    found, distinct = _number_each_part(grouped, part_start, part_bits)
    return _offset_parts(members, grouped, part_start, found, distinct, count, group)


def local_ids(labels: np.ndarray, first: int, count: int, in_place: bool = False,
              bound: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Local id of each component label, and the label of each local id.

    The owned labels ``first..first+count-1`` are local ids ``0..count-1``;
    the others are numbered from ``count`` on, in hash parts, or in label
    order through a dense table when every label is below ``bound`` and
    ``bound`` is at most :data:`DENSE_LABELS` times their count (module
    docstring); a negative label (a finished component) gets -1 and no id.
    ``in_place`` writes the ids over ``labels`` (int64) and returns it: no
    second array of the labels' size.

    Examples
    --------
    >>> group, comp = local_ids(np.array([7, 2, -1, 7, 3]), 2, 2)
    >>> group.tolist(), comp.tolist()
    ([2, 0, -1, 2, 1], [2, 3, 7])
    >>> local_ids(np.array([7, 2, -1, 9, 3, 7]), 2, 2, bound=10)[1].tolist()
    [2, 3, 7, 9]
    """
    group = labels if in_place else np.empty(len(labels), dtype=np.int64)
    if bound is not None and bound <= DENSE_LABELS * len(labels):
        table = np.zeros(bound, dtype=np.int32 if count + bound < (1 << 31) else np.int64)
        others = _number_dense(labels, first, count, table, group)
    else:
        part_bits = part_bits_for(len(labels), numba.get_num_threads())
        others = _number_in_parts(labels, first, count, part_bits, group)
    return group, np.concatenate([np.arange(first, first + count, dtype=np.int64), others])
