"""The one tie rule: edges are ordered by ``(weight, edge_id)``.

Under this total order the minimum spanning forest is unique, so every
solver must return the same edge ids. This module
holds the helpers that turn weights into order-preserving unsigned keys, so
that kernels can compare a single integer (or pack weight and id into one
64-bit word for an atomic minimum, Fallin et al. section 3.2).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "canonical_order",
    "weight_key",
    "id_bits",
    "packed_keys",
    "unpack_edge_ids",
    "weight_keys",
]

_SIGN32 = np.uint32(1 << 31)
_SIGN64 = np.uint64(1 << 63)
# Sorted words per shared-prefix flag in canonical_order: only flagged blocks
# are searched for runs, so one stray run costs a block's scan, not the array's.
_BLOCK = 4096


@numba.njit(cache=True, inline="always")
def weight_key(bits, is_float, sign):
    """:func:`weight_keys` for one weight inside a kernel, given its bit pattern widened to uint64.

    ``sign`` is the weight's sign bit (bit 31 or 63). ``-0.0`` folds into
    ``+0.0`` so equal weights get equal keys.
    """
    if not is_float:
        return bits ^ sign
    # Selects rather than branches, so that loops over the keys vectorize.
    bits = bits if bits != sign else np.uint64(0)
    return bits ^ ((sign | (sign - np.uint64(1))) if bits & sign else sign)


def weight_keys(weight: np.ndarray) -> np.ndarray:
    """Map weights to unsigned integers with the same order.

    Integers flip their sign bit; IEEE floats flip the sign bit of
    non-negatives and all bits of negatives. ``-0.0`` is folded into ``+0.0``
    first so that equal weights get equal keys (their tie then goes to the
    smaller edge id, as everywhere).

    Parameters
    ----------
    weight : ndarray of int32, int64, float32 or float64
        Edge weights without NaN.

    Returns
    -------
    ndarray of uint32 (32-bit weights) or uint64 (64-bit weights)

    Examples
    --------
    >>> import numpy as np
    >>> k = weight_keys(np.array([-2.5, 0.0, -0.0, 3.0]))
    >>> bool(k[0] < k[1] == k[2] < k[3])
    True
    """
    w = np.asarray(weight)
    if w.dtype == np.int32:
        return w.view(np.uint32) ^ _SIGN32
    if w.dtype == np.int64:
        return w.view(np.uint64) ^ _SIGN64
    if w.dtype == np.float32:
        bits = (w + np.float32(0.0)).view(np.uint32)
        negative = (bits >> np.uint32(31)).astype(bool)
        return np.where(negative, ~bits, bits | _SIGN32)
    if w.dtype == np.float64:
        bits = (w + 0.0).view(np.uint64)
        negative = (bits >> np.uint64(63)).astype(bool)
        return np.where(negative, ~bits, bits | _SIGN64)
    raise TypeError(f"unsupported weight dtype {w.dtype}")


def id_bits(num_edges: int) -> int:
    """Bits needed to store any edge id below ``num_edges`` (at least 1)."""
    return max(1, int(num_edges - 1).bit_length())


def packed_keys(weight: np.ndarray) -> np.ndarray | None:
    """Pack ``(weight, edge_id)`` into one uint64 per edge, or ``None``.

    The key is ``weight_key << id_bits | edge_id`` and compares exactly as
    the ``(weight, edge_id)`` order does. When the weight key and the id do
    not fit in 64 bits together, dense ranks of the weights replace the
    weight key; when even those do not fit, ``None`` is returned and the
    caller must use a two-pass comparison.

    Examples
    --------
    >>> import numpy as np
    >>> k = packed_keys(np.array([5, 3, 5, 3], dtype=np.int32))
    >>> np.argsort(k).tolist()
    [1, 3, 0, 2]
    """
    w = np.asarray(weight)
    m = len(w)
    bits = id_bits(m)
    ids = np.arange(m, dtype=np.uint64)
    keys = weight_keys(w)
    if keys.dtype.itemsize * 8 + bits <= 64:
        return (keys.astype(np.uint64) << np.uint64(bits)) | ids
    distinct, ranks = np.unique(keys, return_inverse=True)
    if id_bits(len(distinct)) + bits > 64:
        return None
    return (ranks.astype(np.uint64) << np.uint64(bits)) | ids


def unpack_edge_ids(keys: np.ndarray, num_edges: int) -> np.ndarray:
    """Recover edge ids from keys made by :func:`packed_keys`."""
    mask = np.uint64((1 << id_bits(num_edges)) - 1)
    return (keys & mask).astype(np.int64)


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
    """Edge ids sorted by ``(weight, edge_id)``, by one sort of packed 64-bit words.

    Each word holds the edge's order-preserving weight key, less the
    smallest key and without the low bits that all keys share, above the
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
    w = np.ascontiguousarray(weight)
    m = len(w)
    if w.dtype not in (np.int32, np.int64, np.float32, np.float64):
        raise TypeError(f"unsupported weight dtype {w.dtype}")
    if m == 0:
        return np.empty(0, dtype=np.int64)
    bits = w.view(f"u{w.dtype.itemsize}")
    is_float = w.dtype.kind == "f"
    sign = np.uint64(1 << (8 * w.dtype.itemsize - 1))
    low, high, differ = _key_bounds(bits, is_float, sign)
    shared = (int(differ) & -int(differ)).bit_length() - 1 if differ else 0
    ids = id_bits(m)
    dropped = max(0, ((int(high) - int(low)) >> shared).bit_length() + ids - 64)
    packed = np.empty(m, dtype=np.uint64)
    _pack_prefix(bits, is_float, sign, np.uint64(low), np.uint64(shared + dropped), np.uint64(ids),
                 packed)
    packed.sort()
    order = np.empty(m, dtype=np.int64)
    shared_prefix = np.empty((m + _BLOCK - 1) // _BLOCK, dtype=np.bool_)
    if _unpack_ids(packed, np.uint64(ids), order, shared_prefix) and dropped:
        _refine_runs(packed, np.uint64(ids), shared_prefix, bits, is_float, sign, order)
    return order
