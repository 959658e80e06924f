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


@numba.njit(cache=True, inline="always")
def weight_key(bits, is_float, sign):
    """:func:`weight_keys` for one weight inside a kernel, given its bit pattern widened to uint64.

    ``sign`` is the weight's sign bit (bit 31 or 63). ``-0.0`` folds into
    ``+0.0`` so equal weights get equal keys.
    """
    if not is_float:
        return bits ^ sign
    if bits == sign:
        return sign
    if bits & sign:
        return ~bits & (sign | (sign - np.uint64(1)))
    return bits | sign


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
def _offset_keys(bits, is_float, sign, keys):
    """Order-preserving keys of all weights less the smallest, into ``keys``; returns the largest.

    Subtracting the minimum leaves only the bits in which the weights
    differ, so narrow ranges pack with their ids whatever their offset.
    """
    low = np.uint64(np.iinfo(np.uint64).max)
    for e in range(len(bits)):
        k = weight_key(np.uint64(bits[e]), is_float, sign)
        keys[e] = k
        low = min(low, k)
    high = np.uint64(0)
    for e in range(len(keys)):
        keys[e] -= low
        high = max(high, keys[e])
    return high


@numba.njit(cache=True)
def _pack_prefix(keys, dropped_bits, id_bits_, packed):
    """``packed[e] = (keys[e] >> dropped_bits) << id_bits | e``: the key's top bits, then the id."""
    for e in range(len(keys)):
        packed[e] = ((keys[e] >> dropped_bits) << id_bits_) | np.uint64(e)


@numba.njit(cache=True)
def _unpack_and_refine(packed, keys, id_bits_, order):
    """Edge ids from ``packed`` sorted, with each run of equal key prefixes put in full-key order.

    Edges in one run share the key's top bits and ascend by id; a stable
    sort of the run by the full key leaves ties among equal keys in id
    order, so the result is the exact ``(weight, edge_id)`` order.
    """
    id_mask = (np.uint64(1) << id_bits_) - np.uint64(1)
    m = len(packed)
    for i in range(m):
        order[i] = np.int64(packed[i] & id_mask)
    start = 0
    while start < m:
        prefix = packed[start] >> id_bits_
        end = start + 1
        while end < m and packed[end] >> id_bits_ == prefix:
            end += 1
        if end - start > 1:
            run = order[start:end].copy()
            ranked = np.argsort(keys[run], kind="mergesort")
            for j in range(end - start):
                order[start + j] = run[ranked[j]]
        start = end


def canonical_order(weight: np.ndarray) -> np.ndarray:
    """Edge ids sorted by ``(weight, edge_id)``, by one sort of packed 64-bit words.

    Each word holds the top bits of the edge's order-preserving weight key
    (less the smallest key) above the edge id, so a plain sort of the words
    orders by ``(key prefix, edge_id)``. When key and id do not fit in 64
    bits together (wide float64 or int64 weights on many edges), the key's
    low bits are dropped and runs of equal prefixes are then ordered by the
    full key; such runs are short unless the weights crowd into a few
    narrow bands. Ties never need a second sort or ranks: they come out in
    id order from the sort itself.

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
    width = 8 * w.dtype.itemsize
    keys = np.empty(m, dtype=np.uint64)
    largest = _offset_keys(w.view(f"u{w.dtype.itemsize}"), w.dtype.kind == "f",
                           np.uint64(1 << (width - 1)), keys)
    bits = id_bits(m)
    dropped = max(0, int(largest).bit_length() + bits - 64)
    packed = np.empty(m, dtype=np.uint64)
    _pack_prefix(keys, np.uint64(dropped), np.uint64(bits), packed)
    packed.sort()
    order = np.empty(m, dtype=np.int64)
    if dropped:
        _unpack_and_refine(packed, keys, np.uint64(bits), order)
    else:
        order[:] = packed & np.uint64((1 << bits) - 1)
    return order
