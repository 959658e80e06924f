"""The tie rule inside a compiled kernel: one weight's key, ``(key, edge_id)`` comparison,
and a point pair's edge id and back.

:func:`weight_key` is :func:`parmst.order.weight_keys` for one weight, and
:func:`precedes` the tie rule for kernels that carry the id beside the key.
Apart from :mod:`parmst.order.weights` so that the NumPy keys load no Numba.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["pair_id", "pair_of_id", "precedes", "weight_key"]


@numba.njit(cache=True, inline="always")
def weight_key(bits, is_float, sign):
    """:func:`~parmst.order.weight_keys` for one weight inside a kernel, given its bit pattern widened to uint64.

    ``sign`` is the weight's sign bit (bit 31 or 63). ``-0.0`` folds into
    ``+0.0`` so equal weights get equal keys.
    """
    if not is_float:
        return bits ^ sign
    # Selects rather than branches, so that loops over the keys vectorize.
    bits = bits if bits != sign else np.uint64(0)
    return bits ^ ((sign | (sign - np.uint64(1))) if bits & sign else sign)


@numba.njit(cache=True, inline="always")
def precedes(key_a, id_a, key_b, id_b):
    """Whether edge ``a`` comes before edge ``b`` in the ``(key, edge_id)`` order.

    Examples
    --------
    >>> precedes(3, 7, 3, 9), precedes(2, 9, 3, 0)
    (True, True)
    """
    return key_a < key_b or (key_a == key_b and id_a < id_b)


@numba.njit(cache=True, inline="always")
def pair_id(i, j, n):
    """Id of the pair ``(min(i, j), max(i, j))`` among ``n`` points, in int64: its rank
    ``i*n - i*(i+1)/2 + (j - i - 1)`` in the lexicographic order of all pairs
    (:mod:`parmst.order.pairs` on whole arrays).

    Examples
    --------
    >>> int(pair_id(2, 4, 5)), tuple(int(v) for v in pair_of_id(8, 5))
    (8, (2, 4))
    """
    a = np.int64(min(i, j))
    b = np.int64(max(i, j))
    return a * np.int64(n) - (a * (a + 1)) // 2 + (b - a - 1)


@numba.njit(cache=True)
def pair_of_id(ident, n):
    """The pair ``(i, j)``, ``i < j``, whose :func:`pair_id` among ``n`` points is
    ``ident``: ``i`` is the largest row whose first id is at most ``ident`` (a root of
    the quadratic, corrected in integers), then ``j`` follows."""
    ident = np.int64(ident)
    n = np.int64(n)
    width = 2.0 * n - 1.0
    i = np.int64((width - np.sqrt(max(width * width - 8.0 * ident, 0.0))) / 2.0)
    i = min(max(i, np.int64(0)), n - 2)
    while i > 0 and i * n - (i * (i + 1)) // 2 > ident:
        i -= 1
    while i < n - 2 and (i + 1) * n - ((i + 1) * (i + 2)) // 2 <= ident:
        i += 1
    return i, ident - (i * n - (i * (i + 1)) // 2) + i + 1
