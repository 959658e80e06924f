"""Kruskal's order: every edge id sorted by ``(weight, edge_id)``, by one sort of packed words."""

from __future__ import annotations

import numba
import numpy as np

from parmst.order.scalar import weight_key
from parmst.order.weights import id_bits

__all__ = ["canonical_order", "canonical_order_or_none"]

# Sorted words per shared-prefix flag in canonical_order: only flagged blocks
# are searched for runs, so one stray run costs a block's scan, not the array's.
_BLOCK = 4096

# Most distinct key values (after the shared low bits) that canonical_order
# orders by a counting sort rather than the sort of packed words.
_COUNTING_SPAN = 1 << 16

# Most distinct keys, fewest edges per distinct key, and fewest edges, for
# which canonical_order counts through a hash table of the keys when their
# span is too wide (measured: docs/decisions.md).
_DISTINCT_KEYS = 1 << 11
_EDGES_PER_KEY = 64
_TABLE_EDGES = 1 << 16
_NO_SLOT = np.zeros(0, dtype=np.uint16)
_NO_RANK = np.zeros(0, dtype=np.int64)


@numba.njit(cache=True)
def _key_bounds(bits, is_float, sign):
    """Smallest and largest order-preserving key of the weights, and their differing bits.

    ``differ`` ORs each key's XOR with the first key: its trailing zeros are
    low bits that every key shares, which the packing can drop exactly.
    """
    first = weight_key(np.uint64(bits[0]), is_float, sign)
    low = first
    high = first
    differ = np.uint64(0)
    for e in range(len(bits)):
        k = weight_key(np.uint64(bits[e]), is_float, sign)
        low = min(low, k)
        high = max(high, k)
        differ |= k ^ first
    return low, high, differ


@numba.njit(cache=True)
def _keys_ascend(bits, is_float, sign):
    """Whether the keys never decrease as the ids grow: then the id order is the order.

    Apart from :func:`_key_bounds` so that loop keeps vectorizing, and this
    one stops at the first descent: on weights in no order that is within
    the first few edges.
    """
    previous = weight_key(np.uint64(bits[0]), is_float, sign)
    for e in range(1, len(bits)):
        k = weight_key(np.uint64(bits[e]), is_float, sign)
        if k < previous:
            return False
        previous = k
    return True


@numba.njit(cache=True, inline="always")
def _home(k, table_bits):
    """First slot of key ``k`` in a table of ``2**table_bits`` slots (Fibonacci hashing).

    The product wraps modulo ``2**64`` by design (without JIT NumPy warns
    about it, with the same result); folding the bits by XOR instead, which
    never wraps, spread the keys worse: up to 30 % slower on 2 M edges.
    """
    return (k * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - table_bits)


@numba.njit(cache=True, inline="always")
def _find_slot(table, used, k, table_bits):
    """Slot holding key ``k``, or the free slot where it goes (linear probing)."""
    s = _home(k, table_bits)
    mask = np.uint64((1 << table_bits) - 1)
    while used[s] and table[s] != k:
        s = (s + np.uint64(1)) & mask
    return s


@numba.njit(cache=True)
def _distinct_keys(bits, is_float, sign, limit, table_bits, table, used, slot):
    """Put each distinct key of the weights in the hash table ``table`` and each edge's slot in
    ``slot``; how many distinct keys there are, or ``-1`` as soon as there are more than
    ``limit``.

    On weights with many values it stops after about ``limit`` edges.
    """
    distinct = 0
    for e in range(len(bits)):
        k = weight_key(np.uint64(bits[e]), is_float, sign)
        s = _find_slot(table, used, k, table_bits)
        if not used[s]:
            if distinct == limit:
                return -1
            used[s] = True
            table[s] = k
            distinct += 1
        slot[e] = s
    return distinct


@numba.njit(cache=True, inline="always")
def _bucket(bits, is_float, sign, e, low, shift, slot, rank):
    """Counting-sort bucket of edge ``e``: its key less ``low``, shifted right by ``shift``; or,
    where ``rank`` is not empty, the rank of its key among the distinct keys."""
    if len(rank) == 0:
        return np.int64((weight_key(np.uint64(bits[e]), is_float, sign) - low) >> shift)
    return rank[slot[e]]


@numba.njit(cache=True)
def _counting_order(bits, is_float, sign, low, shift, slot, rank, span, order):
    """Edge ids into ``order`` by ``(key, edge_id)``, by a counting sort over ``span`` buckets.

    An edge's bucket (:func:`_bucket`) is exact and below ``span``: its key
    less the smallest, without the low bits every key shares, or its key's
    rank among the few distinct keys. One counting pass, a prefix sum, then
    a stable scatter in id order, so equal keys keep ascending ids: no
    comparison at all.
    """
    start = np.zeros(span + 1, dtype=np.int64)
    for e in range(len(bits)):
        start[_bucket(bits, is_float, sign, e, low, shift, slot, rank) + 1] += 1
    for r in range(span):
        start[r + 1] += start[r]
    for e in range(len(bits)):
        r = _bucket(bits, is_float, sign, e, low, shift, slot, rank)
        order[start[r]] = e
        start[r] += 1


def _few_distinct_order(bits, is_float, sign, m, order):
    """:func:`_counting_order` by rank among the distinct keys, if they are few; whether it ran.

    At most ``_DISTINCT_KEYS`` distinct keys, and no more than one per
    ``_EDGES_PER_KEY`` edges, so that the probe that gives up costs a small
    fraction of the sort it would have spared; below ``_TABLE_EDGES`` edges
    the table's allocations alone would.
    """
    if m < _TABLE_EDGES:
        return False
    limit = min(_DISTINCT_KEYS, m // _EDGES_PER_KEY)
    table_bits = (2 * limit - 1).bit_length()  # at most half full
    table = np.empty(1 << table_bits, dtype=np.uint64)
    used = np.zeros(1 << table_bits, dtype=np.bool_)
    slot = np.empty(m, dtype=np.uint16)
    distinct = _distinct_keys(bits, is_float, sign, limit, table_bits, table, used, slot)
    if distinct < 0:
        return False
    slots = np.flatnonzero(used)
    rank = np.zeros(1 << table_bits, dtype=np.int64)
    rank[slots[np.argsort(table[slots])]] = np.arange(distinct)
    _counting_order(bits, is_float, sign, np.uint64(0), np.uint64(0), slot, rank, distinct, order)
    return True


@numba.njit(cache=True)
def _pack_prefix(bits, is_float, sign, low, shift, id_bits_, packed):
    """``packed[e] = (key[e] - low) >> shift << id_bits | e``: key bits that matter, then the id.

    The keys are recomputed from the weights' bits rather than stored: one
    array of ``m`` words less to write and read back.
    """
    for e in range(len(bits)):
        k = weight_key(np.uint64(bits[e]), is_float, sign)
        packed[e] = (((k - low) >> shift) << id_bits_) | np.uint64(e)


@numba.njit(cache=True)
def _refine_run(order, start, end, bits, is_float, sign):
    """Put ``order[start:end]`` (ascending ids) in full ``(key, id)`` order, if it is not already.

    Runs whose keys already ascend (equal weights, the usual case) are
    left as they are after one check; others get a stable sort by the full
    key, which keeps equal keys in id order.
    """
    previous = weight_key(np.uint64(bits[order[start]]), is_float, sign)
    for j in range(start + 1, end):
        k = weight_key(np.uint64(bits[order[j]]), is_float, sign)
        if k < previous:
            break
        previous = k
    else:
        return
    run = order[start:end].copy()
    keys = np.empty(end - start, dtype=np.uint64)
    for j in range(end - start):
        keys[j] = weight_key(np.uint64(bits[run[j]]), is_float, sign)
    ranked = np.argsort(keys, kind="mergesort")
    for j in range(end - start):
        order[start + j] = run[ranked[j]]


@numba.njit(cache=True)
def _unpack_ids(packed, id_bits_, order, shared_prefix):
    """Edge ids from the sorted ``packed`` words into ``order``; whether neighbours share a prefix.

    ``shared_prefix[b]`` tells whether some word of block ``b`` (``_BLOCK``
    words) shares its prefix with the word before it. Both loops run over
    slices from index 0 and the check is a branch-free OR, so both
    vectorize whether or not the caller needs the flags.
    """
    id_mask = (np.uint64(1) << id_bits_) - np.uint64(1)
    any_shared = False
    for b in range(len(shared_prefix)):
        lo = b * _BLOCK
        words = packed[lo:lo + _BLOCK]
        ids = order[lo:lo + _BLOCK]
        for k in range(len(words)):
            ids[k] = np.int64(words[k] & id_mask)
        first = max(lo, 1)  # the very first word has no neighbour before it
        current = packed[first:lo + _BLOCK]
        previous = packed[first - 1:lo + _BLOCK - 1]
        shared = False
        for k in range(len(current)):
            shared |= (current[k] ^ previous[k]) <= id_mask
        shared_prefix[b] = shared
        any_shared |= shared
    return any_shared


@numba.njit(cache=True)
def _refine_runs(packed, id_bits_, shared_prefix, bits, is_float, sign, order):
    """Put each run of equal prefixes of the sorted ``packed`` in full-key order.

    Only the blocks that :func:`_unpack_ids` flagged are searched; a run may
    reach into the blocks beside them.
    """
    id_mask = (np.uint64(1) << id_bits_) - np.uint64(1)
    done = 0  # every run that ends at or before this position is refined
    for b in range(len(shared_prefix)):
        if not shared_prefix[b]:
            continue
        for i in range(max(done, b * _BLOCK, 1), min((b + 1) * _BLOCK, len(packed))):
            if i < done or (packed[i] ^ packed[i - 1]) > id_mask:
                continue
            start = i - 1
            while start > 0 and (packed[start] ^ packed[start - 1]) <= id_mask:
                start -= 1
            end = i + 1
            while end < len(packed) and (packed[end] ^ packed[end - 1]) <= id_mask:
                end += 1
            _refine_run(order, start, end, bits, is_float, sign)
            done = end


def canonical_order(weight: np.ndarray) -> np.ndarray:
    """Edge ids sorted by ``(weight, edge_id)``: the id order itself, a counting sort, or one sort
    of packed 64-bit words.

    Keys that never decrease (every weight equal, or weights given sorted;
    a check that stops at the first descent) need no sort: the order is the
    id order. Otherwise one pass finds the keys' range. Keys that span few
    values (at most ``_COUNTING_SPAN`` after dropping the low bits every key
    shares, and no more than the edges) go through a counting sort; so do
    keys of wide span but few distinct values (at most ``_DISTINCT_KEYS``,
    found by a hash table that gives up as soon as there are more), counted
    by their rank among the distinct keys.

    Otherwise each word holds the edge's order-preserving weight key, less
    the smallest key and without the low bits that all keys share, above the
    edge id, so a plain sort of the words orders by ``(key, edge_id)``.
    Every weight dtype takes this one path. When key and id still do not
    fit in 64 bits together (wide float64 or int64 weights on many edges),
    the key's low bits are dropped as well; the pass that unpacks the ids
    notes which blocks hold neighbours that share a prefix, and only there
    are the runs of equal prefixes checked, and if need be ordered, by the
    full key. Such runs are rare unless the weights crowd into narrow
    bands. Ties never need a second sort or ranks: they come out in id
    order from the sort itself.

    Examples
    --------
    >>> import numpy as np
    >>> canonical_order(np.array([2.0, 1.0, 2.0, 1.0])).tolist()
    [1, 3, 0, 2]
    >>> canonical_order(np.array([1e300, -1e-300, 1e300 * (1 - 2**-52), -1e-300])).tolist()
    [1, 3, 2, 0]
    """
    order = canonical_order_or_none(weight)
    return np.arange(len(weight), dtype=np.int64) if order is None else order


def canonical_order_or_none(weight: np.ndarray) -> np.ndarray | None:
    """:func:`canonical_order`, or ``None`` where the id order already is the order.

    ``None`` comes back when the weights never decrease as the ids grow
    (every weight equal: an unweighted graph), so that a scan can walk the
    edges as they are, without an order array or a gather.

    Examples
    --------
    >>> import numpy as np
    >>> canonical_order_or_none(np.ones(4)) is None
    True
    >>> canonical_order_or_none(np.array([3, 1, 2, 1], dtype=np.int32)).tolist()
    [1, 3, 2, 0]
    """
    w = np.ascontiguousarray(weight)
    m = len(w)
    if w.dtype not in (np.int32, np.int64, np.float32, np.float64):
        raise TypeError(f"unsupported weight dtype {w.dtype}")
    if m == 0:
        return None
    bits = w.view(f"u{w.dtype.itemsize}")
    is_float = w.dtype.kind == "f"
    sign = np.uint64(1 << (8 * w.dtype.itemsize - 1))
    if _keys_ascend(bits, is_float, sign):
        return None
    low, high, differ = _key_bounds(bits, is_float, sign)
    shared = (int(differ) & -int(differ)).bit_length() - 1 if differ else 0
    order = np.empty(m, dtype=np.int64)
    span = ((int(high) - int(low)) >> shared) + 1
    if span <= min(_COUNTING_SPAN, m):
        _counting_order(bits, is_float, sign, np.uint64(low), np.uint64(shared), _NO_SLOT,
                        _NO_RANK, span, order)
        return order
    if _few_distinct_order(bits, is_float, sign, m, order):
        return order
    ids = id_bits(m)
    dropped = max(0, ((int(high) - int(low)) >> shared).bit_length() + ids - 64)
    packed = np.empty(m, dtype=np.uint64)
    _pack_prefix(bits, is_float, sign, np.uint64(low), np.uint64(shared + dropped), np.uint64(ids),
                 packed)
    packed.sort()
    shared_prefix = np.empty((m + _BLOCK - 1) // _BLOCK, dtype=np.bool_)
    if _unpack_ids(packed, np.uint64(ids), order, shared_prefix) and dropped:
        _refine_runs(packed, np.uint64(ids), shared_prefix, bits, is_float, sign, order)
    return order
