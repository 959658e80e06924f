"""The vertices a rank's edges touch, numbered ``0 .. k - 1`` in id order, on its threads.

A rank's share of the edges touches few of the ``n`` vertices (R-MAT scale 20 at 4
ranks: 408 k of 1 M), but a one-process solver's per-vertex arrays and passes follow
the vertex count it is given. Numbering the touched vertices lets it work over ``k``.

The pass that reads the edges anyway marks where they end, each part of the pass
(one per thread) in a bitmap of its own, one 64-bit word per 64 vertices
(:func:`marked_bitmaps`, :func:`mark`): one byte per vertex shared by all threads
made the threads write the same cache lines at the vertices many edges share, and the
marking cost the count half of its time on two threads (R-MAT scale 20, a share of
11.7 M held edges: the count with bytes 28.5 ms, with a bitmap per part 21.2 ms, on one
thread 41 ms either way). :func:`number_touched` joins the bitmaps and keeps each word's
count of set bits before it (an exclusive sum): a touched vertex's number is its word's
count plus the set bits below it in the word (:func:`number_of`). The lookup reads
``n / 8 + n / 8`` bytes (bitmap and counts, 1 MiB for 4 M vertices: a core's cache)
where a table of numbers would read ``4 n`` at random (on a share of 3.8 M edges,
marking, packing and numbering took 21.7 ms of CPU time on one thread, with a table
27.2 ms; copying the ends alone 4.0 ms).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def popcount(word):
    """Set bits of a uint64 (SWAR)."""
    word = word - ((word >> np.uint64(1)) & np.uint64(0x5555555555555555))
    word = (word & np.uint64(0x3333333333333333)) + ((word >> np.uint64(2))
                                                     & np.uint64(0x3333333333333333))
    word = (word + (word >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((word * np.uint64(0x0101010101010101)) >> np.uint64(56))


class Numbering(NamedTuple):
    """Numbers of the touched vertices: ``bits`` (a bit per vertex), ``before`` (set bits in
    the words before each word) and ``touched`` (the vertex of each number, increasing)."""

    bits: np.ndarray
    before: np.ndarray
    touched: np.ndarray


@numba.njit(cache=True, inline="always")
def number_of(bits, before, v):
    """The number of touched vertex ``v``: set bits before its own in the bitmap."""
    word = v >> 6
    below = bits[word] & ((np.uint64(1) << np.uint64(v & 63)) - np.uint64(1))
    return before[word] + popcount(below)


def marked_bitmaps(parts: int, num_vertices: int) -> np.ndarray:
    """``parts`` empty bitmaps over ``num_vertices`` vertices, one row of words each: the
    marks of a pass cut into that many parts, each part marking in its own row."""
    return np.zeros((parts, (num_vertices + 63) >> 6), dtype=np.uint64)


@numba.njit(cache=True, inline="always")
def mark(row, v):
    """Mark vertex ``v`` in the bitmap ``row`` (a row of :func:`marked_bitmaps` that no
    other thread writes)."""
    row[v >> 6] |= np.uint64(1) << np.uint64(v & 63)


@numba.njit(parallel=True, cache=True)
def _join(rows, bits, counts):
    """The union of the bitmaps ``rows``, and each word's set bits."""
    for w in numba.prange(rows.shape[1]):
        word = np.uint64(0)
        for r in range(rows.shape[0]):
            word |= rows[r, w]
        bits[w] = word
        counts[w] = popcount(word)


@numba.njit(parallel=True, cache=True)
def _list(bits, before, touched):
    """Each touched vertex at its number, one word per iteration."""
    for w in numba.prange(len(bits)):
        word, j = bits[w], before[w]
        while word:
            low = word & (~word + np.uint64(1))  # the lowest set bit
            touched[j] = w * 64 + popcount(low - np.uint64(1))
            word ^= low
            j += 1


def number_touched(rows: np.ndarray) -> Numbering:
    """The :class:`Numbering` of the vertices marked in any of the bitmaps ``rows``
    (:func:`marked_bitmaps`).

    Examples
    --------
    >>> rows = marked_bitmaps(2, 5)
    >>> mark(rows[0], 1); mark(rows[1], 4); mark(rows[1], 2)
    >>> numbering = number_touched(rows)
    >>> numbering.touched.tolist(), int(number_of(numbering.bits, numbering.before, 4))
    ([1, 2, 4], 2)
    """
    words = rows.shape[1]
    bits = np.empty(words, dtype=np.uint64)
    counts = np.empty(words, dtype=np.int64)
    _join(rows, bits, counts)
    before = np.zeros(words, dtype=np.int64)
    np.cumsum(counts[:-1], out=before[1:])
    k = int(before[-1] + counts[-1]) if words else 0
    touched = np.empty(k, dtype=np.int32 if words <= 1 << 25 else np.int64)
    _list(bits, before, touched)
    return Numbering(bits, before, touched)


@numba.njit(parallel=True, cache=True)
def _named(touched, number, out):
    for i in numba.prange(len(number)):
        out[i] = touched[number[i]]


def vertices_of(numbering: Numbering, number: np.ndarray) -> np.ndarray:
    """The vertex of each ``number``, on all threads.

    Examples
    --------
    >>> import numpy as np
    >>> rows = marked_bitmaps(1, 5)
    >>> mark(rows[0], 1); mark(rows[0], 2); mark(rows[0], 4)
    >>> vertices_of(number_touched(rows), np.array([2, 0])).tolist()
    [4, 1]
    """
    out = np.empty(len(number), dtype=numbering.touched.dtype)
    _named(numbering.touched, number, out)
    return out
