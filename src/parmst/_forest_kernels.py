"""The kernels behind a :class:`~parmst.Forest`: its ids in order and its exact total weight.

Imported only where a forest is large or Numba is already loaded
(:func:`parmst.forest.exact_sum`, :meth:`parmst.Forest.from_edge_ids`), so that a
small solve never loads Numba.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["DIGIT_BITS", "fixed_point_digits", "ids_in_order", "marked_ascending"]

# The exact sum of doubles as a fixed-point integer in units of 2**-1074 (the smallest
# subnormal), held in 32-bit digits: every finite double is a 53-bit integer times
# 2**(exponent - 1075), which lands in three neighbouring digits.
DIGIT_BITS = 32
_DIGITS = 68  # 2**-1074 .. 2**1024 spans 2098 bits, plus room for the carries
_CARRY_EVERY = 1 << 30  # digit-sized additions an int64 digit holds before it must carry
_CHUNK = 1 << 20
"""Values one thread sums into its own digits: each adds less than 2**32 to a digit, so a
chunk never needs a carry on the way."""


@numba.njit(cache=True)
def _carry(digits):
    """Move each digit's excess above 32 bits into the next digit (value unchanged)."""
    for i in range(_DIGITS - 1):
        excess = digits[i] >> DIGIT_BITS  # arithmetic shift: negative digits borrow
        digits[i] -= excess << DIGIT_BITS
        digits[i + 1] += excess


@numba.njit(cache=True, parallel=True)
def fixed_point_digits(values):
    """The exact sum of finite ``values`` as base-2**32 digits in units of 2**-1074.

    Returns ``(digits, finite)``; ``finite`` is False (and the digits
    meaningless) when some value is infinite or NaN. Each value costs a few
    integer operations and three additions, against a loop over all partials
    for the partial-sums method of ``math.fsum``; the rounding happens once,
    on the Python side. Above :data:`_CHUNK` values the chunks are summed on all
    threads, each into digits of its own, and their digits added: the sum is exact,
    so it does not depend on how the values were split.
    """
    bits = values.view(np.uint64)
    m = len(bits)
    chunks = (m + _CHUNK - 1) // _CHUNK
    if chunks <= 1:  # no parallel region for a forest of a million edges or fewer
        digits = np.zeros(_DIGITS, dtype=np.int64)
        return digits, _add_digits(bits, 0, m, digits)
    partial = np.zeros((chunks, _DIGITS), dtype=np.int64)
    finite = np.ones(chunks, dtype=np.bool_)
    for c in numba.prange(chunks):
        finite[c] = _add_digits(bits, c * _CHUNK, min(m, (c + 1) * _CHUNK), partial[c])
    digits = np.zeros(_DIGITS, dtype=np.int64)
    for c in range(chunks):
        _carry(partial[c])  # every digit but the last below 2**32 again
        digits += partial[c]
    _carry(digits)
    return digits, finite.all()


@numba.njit(cache=True)
def _add_digits(bits, lo, hi, digits):
    """Add the doubles whose bits are ``bits[lo:hi]`` to ``digits`` (carrying every
    :data:`_CARRY_EVERY` values); False at the first infinite or NaN one."""
    mask = np.uint64((1 << DIGIT_BITS) - 1)
    for i in range(lo, hi):
        b = bits[i]
        exponent = np.int64((b >> np.uint64(52)) & np.uint64(0x7FF))
        if exponent == 0x7FF:
            return False
        mantissa = b & np.uint64((1 << 52) - 1)
        if exponent == 0:
            exponent = 1  # subnormal: no hidden bit, same scale as the smallest normal
        else:
            mantissa |= np.uint64(1 << 52)
        at = exponent - 1  # bit position of the mantissa's lowest bit, in units of 2**-1074
        digit = at >> 5
        shift = np.uint64(at & 31)
        low = (mantissa << shift) & mask
        rest = mantissa >> (np.uint64(DIGIT_BITS) - shift)
        parts = (np.int64(low), np.int64(rest & mask), np.int64(rest >> np.uint64(DIGIT_BITS)))
        if b >> np.uint64(63):
            digits[digit] -= parts[0]
            digits[digit + 1] -= parts[1]
            digits[digit + 2] -= parts[2]
        else:
            digits[digit] += parts[0]
            digits[digit + 1] += parts[1]
            digits[digit + 2] += parts[2]
        if (i - lo + 1) % _CARRY_EVERY == 0:
            _carry(digits)
    return True


_DE_BRUIJN = 0x03F79D71B4CB0A89
"""A de Bruijn sequence: each power of two times it has a distinct top 6 bits."""
_BIT_AT = np.zeros(64, dtype=np.int64)
_BIT_AT[[((1 << b) * _DE_BRUIJN % 2**64) >> 58 for b in range(64)]] = np.arange(64)
"""The position of a word's lowest set bit, by the top 6 bits of that bit times ``_DE_BRUIJN``."""

_SORT_BELOW = 256
"""A forest of fewer than one edge in this many sorts faster than it is collected from bits."""


@numba.njit(cache=True)
def _ascends(ids):
    """Whether ``ids`` strictly ascend; the check stops after the block of the first descent.

    Descents are counted per block over two offset slices rather than branched on
    one by one: that form the compiler vectorises, four times faster.
    """
    last = len(ids) - 1
    for start in range(0, last, 1024):
        stop = min(start + 1024, last)
        before, after = ids[start:stop], ids[start + 1:stop + 1]
        descents = 0
        for i in range(len(before)):
            descents += np.int64(after[i] <= before[i])
        if descents:
            return False
    return True


_BYTES_FROM = 3
"""A forest of at least one edge in this many is collected from a byte per edge instead of
a bit: one branch-free pass over the bytes beats the bit search once set bits are common
(road and grid forests keep three edges in four: 8 against 13 us at 10^4 edges)."""


@numba.njit(cache=True)
def ids_in_order(ids, num_edges):
    """``(ascending, complete)``: ``ids`` sorted through a mark per edge, one pass to set
    the marks and one to collect them; ``complete`` False where they must go through a
    sort instead.

    Ids that already ascend (the GPU solvers compact them in order) come back as they
    are. A forest of at least one edge in ``_BYTES_FROM`` marks a byte per edge and
    collects them without a branch (:func:`_collect_bytes`); a sparser one marks a bit
    per edge, whose collection reads 64 edges per word and costs a few operations per
    forest edge (:func:`_collect_bits`), so only a forest of under one edge in
    ``_SORT_BELOW`` sorts faster. Repeated or out-of-range ids (a solver bug the
    verifier must see) would collapse or not fit in the marks.
    """
    if _ascends(ids):
        return ids, True
    if len(ids) * _SORT_BELOW < num_edges:
        return ids, False
    if len(ids) * _BYTES_FROM >= num_edges:
        return _collect_bytes(ids, num_edges)
    return _collect_bits(ids, num_edges)


@numba.njit(cache=True)
def _collect_bytes(ids, num_edges):
    """:func:`ids_in_order` through a byte per edge: every position is written and the
    count advances by its mark, so the collection never branches."""
    marks = np.zeros(num_edges, dtype=np.uint8)
    limit = np.uint64(num_edges)
    for j in range(len(ids)):
        i = np.uint64(ids[j])  # unsigned: a negative id is out of range too, one comparison
        if i >= limit:
            return ids, False
        marks[i] = 1
    ascending = marked_ascending(marks, len(ids))  # fewer where repeats collapsed into one mark
    return ascending, len(ascending) == len(ids)


@numba.njit(cache=True)
def marked_ascending(marks, count):
    """The positions of the nonzero bytes of ``marks`` (at most ``count`` of them), ascending.

    Every position is written and the count advances by its mark, so the pass
    never branches: on a forest of a third of the edges or more, cheaper than a
    sort of the ids.
    """
    ascending = np.empty(count + 1, dtype=np.int64)  # one spare slot for the last write
    taken = 0
    for i in range(len(marks)):
        ascending[taken] = i
        taken += marks[i]
    return ascending[:taken]


@numba.njit(cache=True)
def _collect_bits(ids, num_edges):
    """:func:`ids_in_order` through a bit per edge, each set bit found by a de Bruijn
    multiply."""
    words = np.zeros((num_edges + 63) >> 6, dtype=np.uint64)
    limit = np.uint64(num_edges)
    for j in range(len(ids)):
        i = np.uint64(ids[j])  # unsigned: a negative id is out of range too, one comparison
        if i >= limit:
            return ids, False
        words[i >> np.uint64(6)] |= np.uint64(1) << (i & np.uint64(63))
    ascending = np.empty(len(ids), dtype=np.int64)
    count = 0  # fewer than len(ids) at the end where repeats collapsed into one bit
    for w in range(len(words)):
        word = words[w]
        while word:
            lowest = word & (~word + np.uint64(1))
            ascending[count] = (w << 6) + _BIT_AT[(lowest * np.uint64(_DE_BRUIJN)) >> np.uint64(58)]
            count += 1
            word ^= lowest
    return ascending[:count], count == len(ids)
