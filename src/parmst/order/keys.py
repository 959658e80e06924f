"""Per-edge keys for the solvers' kernels: the record, the three modes and the rule that picks one.

Kernels compare edges by ``(weight, edge_id)`` (the tie rule of
:mod:`parmst.order`). Every backend prepares one uint64 per edge in one of
three modes, recorded in :class:`EdgeKeys`:

* ``"packed"``: ``weight_key << id_bits | edge_id``, unique per edge, so one
  comparison (or one atomic minimum, Fallin et al. section 3.2, first
  bullet) settles weight and tie at once; the key's low bits are the edge
  id. Packed keys use at most 63 bits, so the all-ones word stays free to
  mean "no edge recorded".
* ``"two-pass"``: the order-preserving weight key alone; kernels carry the
  edge id beside it and settle ties by comparing ids
  (:func:`parmst.order.precedes`) or by a second atomic minimum on the ids
  among the edges that tied.
* ``"rank"``: each edge's rank in the ``(weight, edge_id)`` order, unique,
  for kernels whose records hold one key word; ``order`` maps a rank (the
  slot) back to its edge id. The only mode that sorts.

The choice (:func:`choose_mode`) is the same on every backend: packed when
the weight key, made as narrow as a cheap transformation allows, and the id
fit in 63 bits together; otherwise the route the solver asks for
(``unpacked``). Nothing is ever truncated. :func:`edge_keys` prepares keys on
the host; the CUDA solvers make the same choice on the device
(:mod:`parmst.solvers.gpu._keys`).

Unlike :func:`parmst.order.canonical_order`, packed and two-pass keys never
sort: a sort would cost as much as Kruskal's whole run, which the parallel
solvers exist to beat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from parmst.order.canonical import canonical_order
from parmst.order.scalar import weight_key
from parmst.order.weights import id_bits

__all__ = ["KEY_MODES", "MAX_KEY", "PACKED_BITS", "UNPACKED_MODES", "EdgeKeys", "choose_mode",
           "edge_keys", "graph_keys"]

KEY_MODES = ("auto", "packed", "two-pass", "rank")
"""What a solver's ``keys`` option may ask for: ``"auto"`` (the choice rule), or one mode."""

UNPACKED_MODES = ("two-pass", "rank")
"""The exact routes for keys that do not pack with their ids."""

PACKED_BITS = 63
"""Packed keys stay below ``2**63``, so :data:`MAX_KEY` can mean "no edge recorded yet"."""

MAX_KEY = np.uint64(2**64 - 1)


@dataclass(frozen=True)
class EdgeKeys:
    """One key per edge and how to read edge ids back from it.

    Attributes
    ----------
    keys : ndarray of uint64 (or a device array)
        ``keys[e]`` for edge id ``e``; see the module for what each mode holds.
        Packed and rank keys are unique and ``keys[a] < keys[b]`` exactly when
        ``(w[a], a) < (w[b], b)``; two-pass keys order the weights alone.
    mode : str
        ``"packed"``, ``"two-pass"`` or ``"rank"``.
    id_bits : int
        Low bits holding the edge id in packed mode (0 otherwise).
    order : ndarray of int64 (or a device array) or None
        Slot -> edge id for rank keys; ``None`` when the slot is the edge id.
    """

    keys: Any
    mode: str
    id_bits: int = 0
    order: Any = None

    @property
    def packed(self) -> bool:
        return self.mode == "packed"

    @property
    def slot_mask(self) -> np.uint64:
        """``key & slot_mask`` is the edge's slot in a per-edge flag array (packed and rank
        keys; two-pass records carry the edge id itself)."""
        return np.uint64((1 << self.id_bits) - 1) if self.packed else MAX_KEY

    def edge_ids(self, slots: np.ndarray) -> np.ndarray:
        """Edge ids (host) of the given slots (host)."""
        slots = np.asarray(slots, dtype=np.int64)
        return slots if self.order is None else self.order[slots]


def choose_mode(key_bits: int, num_edges: int, mode: str = "auto",
                unpacked: str = "two-pass") -> str:
    """The choice rule: ``"packed"`` where ``key_bits`` and the edge ids fit in 63 bits.

    ``mode`` is ``"auto"``, ``"packed"`` (raise ValueError when packing is
    impossible) or ``unpacked`` itself (always; tests use it on small
    graphs); ``unpacked`` is the solver's exact route for keys that do not
    pack, ``"two-pass"`` or ``"rank"``.

    Examples
    --------
    >>> choose_mode(32, 1000), choose_mode(62, 1000), choose_mode(62, 1000, unpacked="rank")
    ('packed', 'two-pass', 'rank')
    """
    if unpacked not in UNPACKED_MODES:
        raise ValueError(f"unpacked must be one of {UNPACKED_MODES}, got {unpacked!r}")
    allowed = ("auto", "packed", unpacked)
    if mode not in allowed:
        raise ValueError(f"keys must be one of {allowed}, got {mode!r}")
    bits = id_bits(num_edges)
    fits = key_bits + bits <= PACKED_BITS
    if mode == "packed" and not fits:
        raise ValueError(f"weight keys need {key_bits} bits and edge ids {bits}: "
                         f"they do not fit in the {PACKED_BITS} bits of a packed key")
    return "packed" if fits and mode != unpacked else unpacked


_BLOCK = 1 << 16
"""Edges per ``prange`` block of the key kernels."""


@numba.njit(parallel=True, cache=True)
def _narrow_to_float32(weight, out):
    """Write ``weight`` (float64) as float32 into ``out``; return whether every value was exact.

    Per-block flags rather than a scalar ``prange`` reduction: Numba's
    reduction analysis fails on this loop under Python 3.12.
    """
    blocks = (len(weight) + _BLOCK - 1) // _BLOCK
    exact = np.empty(blocks, np.bool_)
    for b in numba.prange(blocks):
        same = True
        for e in range(b * _BLOCK, min((b + 1) * _BLOCK, len(weight))):
            narrow = np.float32(weight[e])
            out[e] = narrow
            same &= narrow == weight[e]
        exact[b] = same
    return exact.all()


@numba.njit(parallel=True, cache=True)
def _write_weight_keys(bits, is_float, sign, keys):
    """Fallin et al. section 3.2, first bullet, step 1: order-preserving weight keys into ``keys``.

    Returns the smallest and largest key, so the caller can narrow them
    without another pass.
    """
    blocks = (len(bits) + _BLOCK - 1) // _BLOCK
    lows = np.empty(blocks, np.uint64)
    highs = np.empty(blocks, np.uint64)
    for b in numba.prange(blocks):
        low = np.uint64(np.iinfo(np.uint64).max)
        high = np.uint64(0)
        for e in range(b * _BLOCK, min((b + 1) * _BLOCK, len(bits))):
            k = weight_key(np.uint64(bits[e]), is_float, sign)
            keys[e] = k
            low = min(low, k)
            high = max(high, k)
        lows[b] = low
        highs[b] = high
    low = lows[0]  # loops rather than .min()/.max(): fewer parfors to compile
    high = highs[0]
    for b in range(1, blocks):
        low = min(low, lows[b])
        high = max(high, highs[b])
    return low, high


@numba.njit(parallel=True, cache=True)
def _shift_and_pack(keys, offset, id_bits, with_ids):
    """Fallin et al. section 3.2, first bullet, step 2: ``keys - offset``, then
    ``<< id_bits | edge_id``."""
    for e in numba.prange(len(keys)):
        k = keys[e] - offset
        keys[e] = (k << id_bits) | np.uint64(e) if with_ids else k


def _narrow_weight_keys(weight: np.ndarray) -> tuple[np.ndarray, int]:
    """Order-preserving uint64 keys using as few significant bits as cheaply possible, and the
    largest of them.

    float64 weights that are all exact float32 values (integers, data that
    came from float32) use float32 keys. 64-bit keys are then shifted down by
    their minimum, so a narrow integer range needs few bits whatever its
    offset. Parallel over the current Numba threads.
    """
    w = np.ascontiguousarray(weight)
    if w.dtype == np.float64 and len(w):
        narrow = np.empty(len(w), np.float32)
        if _narrow_to_float32(w, narrow):
            w = narrow
    if w.dtype not in (np.int32, np.int64, np.float32, np.float64):
        raise TypeError(f"unsupported weight dtype {w.dtype}")
    width = 8 * w.dtype.itemsize
    keys = np.empty(len(w), np.uint64)
    if not len(w):
        return keys, 0
    low, high = _write_weight_keys(w.view(f"u{w.dtype.itemsize}"), w.dtype.kind == "f",
                                   np.uint64(1 << (width - 1)), keys)
    if width == 32:
        return keys, int(high)
    _shift_and_pack(keys, np.uint64(low), np.uint64(0), False)
    return keys, int(high) - int(low)


def edge_keys(weight: np.ndarray, mode: str = "auto", unpacked: str = "two-pass") -> EdgeKeys:
    """The host's keys of ``weight``: packed where they fit, the ``unpacked`` route otherwise.

    Parameters
    ----------
    weight : ndarray of int32, int64, float32 or float64
        Edge weights (no NaN), indexed by edge id.
    mode : {"auto", "packed", "two-pass", "rank"}
        See :func:`choose_mode`; ``"two-pass"`` and ``"rank"`` only where
        they are ``unpacked``.
    unpacked : {"two-pass", "rank"}
        The route where keys do not pack: weight keys alone (no sort), or
        ranks from :func:`parmst.order.canonical_order` (one sort).

    Returns
    -------
    EdgeKeys

    Examples
    --------
    >>> import numpy as np
    >>> k = edge_keys(np.array([5, 3, 5, 3], dtype=np.int32))
    >>> k.mode, np.argsort(k.keys).tolist()
    ('packed', [1, 3, 0, 2])
    >>> wide = np.array([0.1, 2.0 ** 60, -1e300])
    >>> edge_keys(wide).mode, edge_keys(wide, unpacked="rank").keys.tolist()
    ('two-pass', [1, 2, 0])
    """
    if mode == "rank" and unpacked == "rank":  # ranks whatever the width: no key pass needed
        chosen, keys, bits = "rank", None, 0
    else:
        keys, largest = _narrow_weight_keys(weight)
        chosen = choose_mode(largest.bit_length(), len(keys), mode, unpacked)
        bits = id_bits(len(keys))
    if chosen == "packed":
        _shift_and_pack(keys, np.uint64(0), np.uint64(bits), True)
        return EdgeKeys(keys, "packed", bits)
    if chosen == "two-pass":
        return EdgeKeys(keys, "two-pass")
    order = canonical_order(weight).astype(np.int64)
    ranks = np.empty(len(order), dtype=np.uint64)
    ranks[order] = np.arange(len(order), dtype=np.uint64)
    return EdgeKeys(ranks, "rank", 0, order)


def graph_keys(graph: Any, mode: str = "auto", unpacked: str = "two-pass") -> EdgeKeys:
    """:func:`edge_keys` of a host graph's weights, cached on the (immutable) graph.

    A second solve of the same graph then skips the key pass (8 bytes written
    per edge) and its fresh allocation. The cached keys are read-only; a solver
    that reorders keys calls :func:`edge_keys` for a copy of its own.
    ``graph.clear_cache()`` drops them.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [2.5, 1.0])
    >>> graph_keys(g) is graph_keys(g), graph_keys(g).keys.flags.writeable
    (True, False)
    """
    cache_key = ("host-keys", mode, unpacked)
    cached = graph._cache.get(cache_key)
    if cached is None:
        cached = edge_keys(graph.weight, mode, unpacked)
        cached.keys.flags.writeable = False
        graph._cache[cache_key] = cached
    return cached
