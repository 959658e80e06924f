"""The tie rule inside a compiled kernel: one weight's key, and ``(key, edge_id)`` comparison.

:func:`weight_key` is :func:`parmst.order.weight_keys` for one weight, and
:func:`precedes` the tie rule for kernels that carry the id beside the key.
Apart from :mod:`parmst.order.weights` so that the NumPy keys load no Numba.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["precedes", "weight_key"]


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
