"""The one tie rule: edges are ordered by ``(weight, edge_id)``.

Under this total order the minimum spanning forest is unique, so every
solver must return the same edge ids. This module
holds the helpers that turn weights into order-preserving unsigned keys, so
that kernels can compare a single integer (or pack weight and id into one
64-bit word for an atomic minimum, Fallin et al. section 3.2).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "canonical_order",
    "id_bits",
    "packed_keys",
    "unpack_edge_ids",
    "weight_keys",
]

_SIGN32 = np.uint32(1 << 31)
_SIGN64 = np.uint64(1 << 63)


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


def canonical_order(weight: np.ndarray) -> np.ndarray:
    """Edge ids sorted by ``(weight, edge_id)``.

    Examples
    --------
    >>> import numpy as np
    >>> canonical_order(np.array([2.0, 1.0, 2.0, 1.0])).tolist()
    [1, 3, 0, 2]
    """
    w = np.asarray(weight)
    keys = weight_keys(w)
    bits = id_bits(len(w))
    if keys.dtype.itemsize * 8 + bits > 64:
        # Ranking 64-bit keys to pack them costs a sort of its own; a stable
        # sort keeps ties in id order directly.
        return np.argsort(keys, kind="stable")
    packed = (keys.astype(np.uint64) << np.uint64(bits)) | np.arange(len(w), dtype=np.uint64)
    return unpack_edge_ids(np.sort(packed), len(w))
