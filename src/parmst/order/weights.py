"""The tie rule in integers: order-preserving weight keys, and ``(key, edge_id)`` comparison.

Kernels compare one unsigned integer per weight instead of the weight
itself: :func:`weight_keys` maps every supported dtype to unsigned words with
the same order, with NumPy alone; its one-weight form inside a kernel and the
``(key, edge_id)`` comparison are in :mod:`parmst.order.scalar`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["id_bits", "weight_keys"]

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
    """Bits needed to store any edge id below ``num_edges`` (at least 1).

    Examples
    --------
    >>> id_bits(0), id_bits(2), id_bits(1000)
    (1, 1, 10)
    """
    return max(1, int(num_edges - 1).bit_length())
