"""Per-edge uint64 keys for the GPU kernels, on top of :mod:`parmst.solvers.ecl_host`.

The GPU kernels need one unique key per edge whose low bits name a slot in
a per-edge flag array, so that one ``atomicMin`` settles weight and tie
(Fallin et al. section 3.2). :func:`parmst.solvers.ecl_host.prepare_keys` packs
``weight_key << id_bits | edge_id`` whenever that fits in 63 bits: always for
32-bit weights up to 2**31 edges (32 key bits plus 31 id bits), and for
64-bit weights whose keys it can narrow losslessly (float64 values that are
exact float32 values, or a narrow range of integers). When it cannot, it
offers a two-pass comparison; the GPU kernels take the other exact route
instead: the key is the edge's rank in the ``(weight, edge_id)`` order (one
sort on the host), and the slot is that rank, mapped back to an edge id
afterwards. Never a silent truncation. Every GPU solver takes a ``keys``
option (``"auto"``, ``"packed"``, ``"rank"``) so tests can run either route.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parmst.order import canonical_order
from parmst.solvers import ecl_host

__all__ = ["KEY_METHODS", "MAX_KEY", "SlotKeys", "filter_threshold", "prepare_keys", "rank_keys"]

MAX_KEY = np.uint64(2**64 - 1)
KEY_METHODS = ("auto", "packed", "rank")


@dataclass(frozen=True)
class SlotKeys:
    """Unique order-preserving keys and how to get edge ids back.

    Attributes
    ----------
    keys : ndarray of uint64
        ``keys[e]`` for edge id ``e``: distinct, and ``keys[a] < keys[b]``
        exactly when ``(w[a], a) < (w[b], b)``.
    slot_mask : numpy.uint64
        ``key & slot_mask`` is the edge's slot in a per-edge flag array.
    order : ndarray of int64 or None
        Slot -> edge id for rank keys; ``None`` when the slot is the edge id.
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


def rank_keys(weight: np.ndarray) -> SlotKeys:
    """Keys that are each edge's position in the ``(weight, edge_id)`` order."""
    order = canonical_order(weight).astype(np.int64)
    ranks = np.empty(len(order), dtype=np.uint64)
    ranks[order] = np.arange(len(order), dtype=np.uint64)
    return SlotKeys(ranks, MAX_KEY, order, "rank")


def prepare_keys(weight: np.ndarray, method: str = "auto") -> SlotKeys:
    """Packed keys from :mod:`~parmst.solvers.ecl_host` where they fit, rank keys otherwise.

    ``method`` is ``"auto"`` (pack when weight key and id fit, else rank),
    ``"rank"`` (always; tests use it on small graphs) or ``"packed"`` (raise
    ValueError when packing is impossible); ``weight`` as for
    :func:`parmst.solvers.ecl_host.prepare_keys`.

    Examples
    --------
    >>> import numpy as np
    >>> k = prepare_keys(np.array([2.5, 1.0, 2.5]))
    >>> np.argsort(k.keys).tolist(), k.method
    ([1, 0, 2], 'packed')
    >>> prepare_keys(np.array([0.1, 2.0 ** 60, -1e300])).method
    'rank'
    """
    if method not in KEY_METHODS:
        raise ValueError(f"keys must be one of {KEY_METHODS}, got {method!r}")
    if method == "rank":
        return rank_keys(weight)
    packed = ecl_host.prepare_keys(weight, method)
    if not packed.packed:
        return rank_keys(weight)
    return SlotKeys(packed.keys, np.uint64((1 << packed.id_bits) - 1), None, "packed")


def filter_threshold(keys: np.ndarray, num_vertices: int, seed: int,
                     target: float = ecl_host.FILTER_TARGET) -> np.uint64 | None:
    """Fallin et al.'s sampled filter threshold, or ``None`` below average degree 4.

    Fallin et al. count degree over CSR entries (both directions), so "average
    degree >= 4" is ``|E| >= 2 |V|`` for our undirected edge count; ``target``
    light edges per vertex (ECL-MST's 3|V| CSR entries are 1.5|V| edges).
    """
    threshold = ecl_host.filter_threshold(keys, num_vertices, seed=seed, degree=2,
                                          target=target)
    return None if threshold == ecl_host.NO_THRESHOLD else threshold
