"""Kruskal's order by NumPy alone: a stable sort of the weight keys.

The small-graph route (``boruvka/numpy``) takes its order here, so that it
loads no Numba: one key per weight (:func:`~parmst.order.weight_keys`), then
NumPy's stable sort, which keeps equal keys in id order, so ties go to the
smaller edge id. :func:`parmst.order.canonical_order` gives the same order
through compiled counting and packed-word sorts, faster on large graphs once
Numba is loaded.
"""

from __future__ import annotations

import numpy as np

from parmst.order.weights import weight_keys

__all__ = ["stable_order_or_none"]


def stable_order_or_none(weight: np.ndarray) -> np.ndarray | None:
    """Edge ids sorted by ``(weight, edge_id)``, or ``None`` where the id order already is it.

    ``None`` comes back when the keys never decrease as the ids grow (every
    weight equal: an unweighted graph), as from
    :func:`parmst.order.canonical_order_or_none`.

    Examples
    --------
    >>> import numpy as np
    >>> stable_order_or_none(np.array([2.0, 1.0, -0.0, 0.0])).tolist()
    [2, 3, 1, 0]
    >>> stable_order_or_none(np.ones(3, dtype=np.int32)) is None
    True
    """
    keys = weight_keys(np.asarray(weight))
    if len(keys) < 2 or bool((keys[1:] >= keys[:-1]).all()):
        return None
    return np.argsort(keys, kind="stable")
