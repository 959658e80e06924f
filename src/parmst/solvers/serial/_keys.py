"""Edge keys for the serial solvers: one uint64 per edge plus the edge id.

The heap, partition and lightest-edge kernels compare edges by the pair
``(key[e], e)``. When the weight key and the edge id fit in 64 bits together
(32-bit weights, fewer than 2**32 edges) the key is the packed
``weight_key << id_bits | edge_id`` of :func:`parmst.order.packed_keys`: it
alone decides and the id comparison is never reached. Otherwise (64-bit
weights) the key is the order-preserving weight key and the id breaks ties.
Packing 64-bit weights would need their dense ranks, i.e. a full sort of the
weights, which costs more than some of these solvers' whole computation (a
sort is what Filter-Kruskal exists to avoid), so the two-key comparison is
used instead. One code path serves both, so the tie rule of
:mod:`parmst.order` holds whichever key the driver built.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.order import id_bits, packed_keys, weight_keys


def packs_with_ids(weight: np.ndarray) -> bool:
    """Whether :func:`edge_keys` packs the edge id into the key (32-bit weights).

    Examples
    --------
    >>> import numpy as np
    >>> packs_with_ids(np.zeros(3, dtype=np.float32)), packs_with_ids(np.zeros(3))
    (True, False)
    """
    w = np.asarray(weight)
    return w.dtype.itemsize * 8 + id_bits(len(w)) <= 64


def edge_keys(weight: np.ndarray) -> np.ndarray:
    """uint64 keys that, paired with edge ids, order edges by ``(weight, edge_id)``.

    Packed ``(weight, edge_id)`` keys when weight key and id fit in 64 bits
    without ranking the weights, otherwise the plain order-preserving weight
    keys (ties then go to :func:`precedes`'s id comparison).

    Examples
    --------
    >>> import numpy as np
    >>> keys = edge_keys(np.array([2.0, 1.0, 2.0]))
    >>> sorted(range(3), key=lambda e: (keys[e], e))
    [1, 0, 2]
    """
    if packs_with_ids(weight):
        return packed_keys(weight)
    return weight_keys(weight).astype(np.uint64)


@numba.njit(cache=True, inline="always")
def precedes(key_a, id_a, key_b, id_b):
    """Whether edge ``a`` comes before edge ``b`` in the ``(key, edge_id)`` order."""
    return key_a < key_b or (key_a == key_b and id_a < id_b)
