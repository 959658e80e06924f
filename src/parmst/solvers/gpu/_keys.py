"""Host-side key preparation for the GPU solvers: one unique uint64 key per edge.

ECL-MST (seed 001, section 3.2) packs the weight into the high bits and the
edge id into the low bits of one 64-bit word, so that a single ``atomicMin``
finds the lightest edge and breaks ties by id. Its weights are int32 and its
ids fit 32 bits; ours may be 64-bit weights and ids beyond 2**31, so this
module picks, per graph, the cheapest exact key:

1. ``"packed"``: :func:`parmst.order.packed_keys` (weight key, or dense weight
   rank, above the id bits) after narrowing the weights losslessly when we can
   (float64 weights that are all float32 values, integer weights whose range is
   small): one O(m) pass.
2. ``"rank"``: when even dense ranks and ids do not fit 64 bits together, the
   key is the edge's position in the ``(weight, edge_id)`` order, and the id is
   looked up through that order afterwards. Never a silent truncation.

Filter threshold sampling (seed 001 section 3.2, 5.4) lives here too.

This is the GPU copy of the shared host logic planned for
``parmst.solvers.ecl_host``; it should merge there once that module exists.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parmst.order import canonical_order, id_bits, packed_keys

__all__ = ["EdgeKeys", "prepare_keys", "filter_threshold", "MAX_KEY"]

MAX_KEY = np.uint64(2**64 - 1)
FILTER_SAMPLES = 20          # seed 001 section 3.2: "we randomly sample 20 edge weights"
FILTER_TARGET_PER_VERTEX = 3  # seed 001 section 5.4: aim for 3 |V| edges in the first phase
FILTER_MIN_DEGREE = 4         # seed 001 section 3.2: no filtering below average degree 4


@dataclass(frozen=True)
class EdgeKeys:
    """Unique order-preserving keys and how to get edge ids back.

    Attributes
    ----------
    keys : ndarray of uint64
        ``keys[e]`` for edge id ``e``; distinct edges have distinct keys and
        ``keys[a] < keys[b]`` exactly when ``(w[a], a) < (w[b], b)``.
    slot_mask : numpy.uint64
        ``key & slot_mask`` is the edge's slot in a per-edge flag array.
    order : ndarray of int64 or None
        For ``method == "rank"``: slot -> edge id. ``None`` when slot == edge id.
    method : str
        ``"packed"`` or ``"rank"``.
    """

    keys: np.ndarray
    slot_mask: np.uint64
    order: np.ndarray | None
    method: str

    def edge_ids(self, slots: np.ndarray) -> np.ndarray:
        """Edge ids of the flagged slots."""
        slots = np.asarray(slots, dtype=np.int64)
        return slots if self.order is None else self.order[slots]


def _narrowed(weight: np.ndarray) -> np.ndarray:
    """Same order and ties in fewer bits, when that is exact; else ``weight`` itself."""
    if weight.dtype == np.float64:
        as32 = weight.astype(np.float32)
        if np.array_equal(as32, weight):
            return as32
    elif weight.dtype == np.int64 and len(weight):
        low, high = int(weight.min()), int(weight.max())
        if high - low < 2**31:
            return (weight - low - 2**31).astype(np.int32)
    return weight


def prepare_keys(weight: np.ndarray) -> EdgeKeys:
    """The cheapest exact 64-bit key per edge for ``weight`` (see module doc).

    Examples
    --------
    >>> import numpy as np
    >>> k = prepare_keys(np.array([2.5, 1.0, 2.5]))
    >>> np.argsort(k.keys).tolist(), k.method
    ([1, 0, 2], 'packed')
    """
    w = np.asarray(weight)
    m = len(w)
    keys = packed_keys(_narrowed(w))
    if keys is not None:
        return EdgeKeys(keys, np.uint64((1 << id_bits(m)) - 1), None, "packed")
    order = canonical_order(w).astype(np.int64)
    ranks = np.empty(m, dtype=np.uint64)
    ranks[order] = np.arange(m, dtype=np.uint64)
    return EdgeKeys(ranks, MAX_KEY, order, "rank")


def filter_threshold(keys: np.ndarray, num_vertices: int, seed: int) -> np.uint64 | None:
    """Seed 001's one-shot filter threshold, or ``None`` when filtering does not pay.

    Samples :data:`FILTER_SAMPLES` keys and returns the one expected to have
    about ``3 |V|`` lighter edges; edges below it go in the first phase,
    the rest only if they still connect two trees afterwards.

    Examples
    --------
    >>> import numpy as np
    >>> keys = np.arange(1000, dtype=np.uint64)
    >>> int(filter_threshold(keys, 100, seed=1)) < 1000
    True
    >>> filter_threshold(keys, 1000, seed=1) is None
    True
    """
    m = len(keys)
    if num_vertices == 0 or 2 * m < FILTER_MIN_DEGREE * num_vertices:
        return None
    fraction = FILTER_TARGET_PER_VERTEX * num_vertices / m
    if fraction >= 1.0:
        return None
    rng = np.random.default_rng(seed)
    sample = np.sort(keys[rng.integers(0, m, size=FILTER_SAMPLES)])
    return np.uint64(sample[int(FILTER_SAMPLES * fraction)])
