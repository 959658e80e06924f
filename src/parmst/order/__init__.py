"""The one tie rule: edges are ordered by ``(weight, edge_id)``.

Under this total order the minimum spanning forest is unique, so every
solver must return the same edge ids. This package holds everything that
turns the rule into integers, for every backend:

* :mod:`~parmst.order.weights`: order-preserving unsigned keys of the weights
  (:func:`weight_keys`), by NumPy; :mod:`~parmst.order.scalar`: the same for one
  weight inside a kernel (:func:`weight_key`) and the ``(key, edge_id)``
  comparison (:func:`precedes`);
* :mod:`~parmst.order.stable`: every edge id in the order by NumPy's stable sort
  (:func:`stable_order_or_none`), for the small-graph route that loads no Numba;
* :mod:`~parmst.order.canonical`: every edge id in the order (:func:`canonical_order`,
  Kruskal's sort): none where the id order already is the order
  (:func:`canonical_order_or_none`), a counting sort for few distinct
  weights, otherwise one sort of packed words;
* :mod:`~parmst.order.keys`: the per-edge key record of the kernels
  (:class:`EdgeKeys`), its three modes (packed ``(weight, edge_id)`` words
  for one atomic minimum, Fallin et al. section 3.2; two-pass weight keys;
  ranks) and the rule that chooses one (:func:`choose_mode`);
* :mod:`~parmst.order.pairs`: the edge ids of point pairs ``(i, j)`` (their ranks in the
  lexicographic order of pairs) and back, by NumPy; :mod:`~parmst.order.scalar` has the
  same for one pair inside a kernel.
"""

import importlib
from typing import Any

from parmst.order.stable import stable_order_or_none
from parmst.order.weights import id_bits, weight_keys

# The compiled parts load on first use (PEP 562), so that the NumPy keys and order above,
# which ``import parmst`` and the small-graph route need, load no Numba.
_LAZY = {
    "canonical_order": "canonical", "canonical_order_or_none": "canonical",
    "KEY_MODES": "keys", "MAX_KEY": "keys", "PACKED_BITS": "keys", "UNPACKED_MODES": "keys",
    "EdgeKeys": "keys", "choose_mode": "keys", "edge_keys": "keys", "graph_keys": "keys",
    "precedes": "scalar", "weight_key": "scalar",
}

__all__ = ["KEY_MODES", "MAX_KEY", "PACKED_BITS", "UNPACKED_MODES", "EdgeKeys",
           "canonical_order", "canonical_order_or_none", "choose_mode", "edge_keys", "graph_keys",
           "id_bits", "precedes", "stable_order_or_none", "weight_key", "weight_keys"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'parmst.order' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"parmst.order.{_LAZY[name]}"), name)
    globals()[name] = value
    return value
