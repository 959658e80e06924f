"""Local ids of the component labels a rank's edges touch, on all its threads.

The owner rounds (:mod:`parmst.solvers.mpi.owners`) keep a rank's edges as
pairs of local ids ``0..u-1``: the components the rank owns
(``first..first+count-1``) are ``0..count-1`` without a lookup, the others
are numbered from ``count`` on through open-addressing hash tables, linear
time where a sort would not be.

On more than one thread the labels outside the owned range are split into
parts by the top bits of their hash; each part is numbered by one thread
with its own table, the labels of a part in the order first seen. The ids
of a part follow one another, so the round's later passes over
per-component arrays stream through a few ranges of ids instead of jumping
around as ids in slot order did (a table filled by all threads at once made
the relabel phase 1.5 times slower), and each part's table is small enough
to miss the cache less than one table for all. On one thread there is one
part: the labels are numbered in the order first seen.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing's multiplier

PARTS_PER_THREAD = 4
"""Parts per thread: more parts than threads even out the parts' uneven sizes."""


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
    """Owned values' local ids (``value - first``) written to ``group``; the positions of the
    outside labels grouped by hash part (``members``, part ``p`` at
    ``part_start[p] .. part_start[p + 1] - 1``, each part in position order)."""
    n = len(values)
    parts = 1 << part_bits
    blocks = num_blocks(n)
    counts = np.zeros((blocks, parts), dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        for i in range(lo, hi):
            if not first <= values[i] < first + count:
                counts[blk, _part(values[i], part_bits)] += 1
    offsets = exclusive_sums(counts)
    part_start = np.zeros(parts + 1, dtype=np.int64)
    for p in range(parts):
        part_start[p + 1] = part_start[p] + offsets[blocks, p]
    members = np.empty(part_start[parts], dtype=np.int64)
    for blk in numba.prange(blocks):
        lo, hi = block_span(blk, n)
        fill = offsets[blk] + part_start[:parts]
        for i in range(lo, hi):
            if first <= values[i] < first + count:
                group[i] = values[i] - first
            else:
                p = _part(values[i], part_bits)
                members[fill[p]] = i
                fill[p] += 1
    return members, part_start


@numba.njit(parallel=True, cache=True)
def _number_each_part(values, members, part_start, part_bits, group):
    """Each part's distinct outside labels numbered in the order first seen, one thread a
    part with its own hash table: the number written to ``group``, the labels to ``found``
    (part ``p``'s at ``part_start[p]`` on), and how many each part has."""
    parts = len(part_start) - 1
    found = np.empty(part_start[parts], dtype=np.int64)
    distinct = np.zeros(parts, dtype=np.int64)
    for p in numba.prange(parts):
        lo, hi = part_start[p], part_start[p + 1]
        bits = table_bits(hi - lo)
        mask = (1 << bits) - 1
        table = np.full(1 << bits, -1, dtype=np.int64)
        k = 0
        for j in range(lo, hi):
            i = members[j]
            h = _part_slot(values[i], part_bits, bits)
            while table[h] >= 0 and found[lo + table[h]] != values[i]:
                h = (h + 1) & mask
            if table[h] < 0:
                table[h] = k
                found[lo + k] = values[i]
                k += 1
            group[i] = table[h]
        distinct[p] = k
    return found, distinct


@numba.njit(parallel=True, cache=True)
def _offset_parts(members, part_start, found, distinct, count, group):
    """The parts' numbers shifted to local ids (``count`` on, part after part); returns the
    outside labels in local-id order."""
    parts = len(distinct)
    id_start = np.zeros(parts + 1, dtype=np.int64)
    for p in range(parts):
        id_start[p + 1] = id_start[p] + distinct[p]
    others = np.empty(id_start[parts], dtype=np.int64)
    for p in numba.prange(parts):
        lo, hi = part_start[p], part_start[p + 1]
        for j in range(lo, hi):
            group[members[j]] += count + id_start[p]
        others[id_start[p]:id_start[p + 1]] = found[lo:lo + distinct[p]]
    return others


def _number_in_parts(values, first, count, part_bits, group):
    """Local ids of ``values`` (owned: ``value - first``; others: ``count`` on, part by
    part, each part in the order first seen) written to ``group``, and the outside labels
    in id order.

    ``group`` may be ``values`` itself: each value is read for the last time in the pass
    that writes its id (the owned ones while grouping, the others while numbering), and no
    other pass reads it afterwards.
    """
    members, part_start = _group_by_part(values, first, count, part_bits, group)
    found, distinct = _number_each_part(values, members, part_start, part_bits, group)
    return _offset_parts(members, part_start, found, distinct, count, group)


def local_ids(labels: np.ndarray, first: int, count: int, in_place: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """Local id of each component label, and the label of each local id.

    The owned labels ``first..first+count-1`` are local ids ``0..count-1``;
    the others are numbered from ``count`` on, in parts of the rank's
    threads (module docstring). ``in_place`` writes the ids over ``labels``
    (int64) and returns it: no second array of the labels' size.

    Examples
    --------
    >>> group, comp = local_ids(np.array([7, 2, 7, 3]), 2, 2)
    >>> group.tolist(), comp.tolist()
    ([2, 0, 2, 1], [2, 3, 7])
    """
    threads = numba.get_num_threads()
    part_bits = 0 if threads == 1 else int(threads * PARTS_PER_THREAD - 1).bit_length()
    group = labels if in_place else np.empty(len(labels), dtype=np.int64)
    others = _number_in_parts(labels, first, count, part_bits, group)
    return group, np.concatenate([np.arange(first, first + count, dtype=np.int64), others])
