"""The one tie rule: edges are ordered by ``(weight, edge_id)``.

Under this total order the minimum spanning forest is unique, so every
solver must return the same edge ids. This package holds everything that
turns the rule into integers, for every backend:

* :mod:`~parmst.order.weights`: order-preserving unsigned keys of the weights
  (:func:`weight_keys`, :func:`weight_key` inside kernels) and the
  ``(key, edge_id)`` comparison (:func:`precedes`);
* :mod:`~parmst.order.canonical`: every edge id in the order (:func:`canonical_order`,
  Kruskal's sort): none where the id order already is the order
  (:func:`canonical_order_or_none`), a counting sort for few distinct
  weights, otherwise one sort of packed words;
* :mod:`~parmst.order.keys`: the per-edge key record of the kernels
  (:class:`EdgeKeys`), its three modes (packed ``(weight, edge_id)`` words
  for one atomic minimum, Fallin et al. section 3.2; two-pass weight keys;
  ranks) and the rule that chooses one (:func:`choose_mode`).
"""

from parmst.order.canonical import canonical_order, canonical_order_or_none
from parmst.order.keys import (
    KEY_MODES,
    MAX_KEY,
    PACKED_BITS,
    UNPACKED_MODES,
    EdgeKeys,
    choose_mode,
    edge_keys,
    graph_keys,
)
from parmst.order.weights import id_bits, precedes, weight_key, weight_keys

__all__ = ["KEY_MODES", "MAX_KEY", "PACKED_BITS", "UNPACKED_MODES", "EdgeKeys",
           "canonical_order", "canonical_order_or_none", "choose_mode", "edge_keys", "graph_keys",
           "id_bits", "precedes", "weight_key", "weight_keys"]
