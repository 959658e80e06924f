"""Host-side decisions of ECL-MST shared by its CPU and GPU solvers.

ECL-MST (Fallin et al. 2023) makes two decisions before any kernel
runs, and both are plain NumPy work on the host:

* **Key preparation** (Fallin et al. section 3.2, first bullet): the atomic
  minimum runs on one 64-bit value holding the weight in the high bits and
  the edge id in the low bits, so ties go to the smaller id. Our weights may
  be any of int32, int64, float32 or float64, so the
  weight is first mapped to an order-preserving unsigned key
  (:func:`parmst.order.weight_keys`). Packed keys use at most 63 bits, so
  the all-ones word stays free to mean "no edge recorded". When key and id
  do not fit, the kernels run a *second pass* instead: atomic minimum on the
  weight key, then atomic minimum on the id among the edges that tied.
  Nothing is ever truncated.
* **Filtering threshold** (Fallin et al. section 3.2, fourth bullet): sample 20
  edge weights to estimate the weight of the ``c * |V|``-th lightest edge
  (the paper finds ``c`` between 2 and 4 works; we aim at ``c = 3``); process
  the light edges first, drop heavy edges whose endpoints are already joined,
  then process what is left. Only graphs of average degree ``>= 4`` filter,
  as in the paper, whose degree counts CSR entries (both directions): that
  is ``|E| >= 2 |V|`` for our undirected edge count.

Unlike :func:`parmst.order.packed_keys`, :func:`prepare_keys` never sorts:
a sort would cost as much as Kruskal's whole run, which the parallel solvers
exist to beat. It packs whenever a cheap transformation makes the weight key
narrow enough, and otherwise chooses the two-pass comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from parmst.order import canonical_order, id_bits, weight_key

__all__ = ["DEVICE_FILTER_TARGET", "FILTER_DEGREE", "FILTER_SAMPLES", "FILTER_TARGET",
           "NO_THRESHOLD", "VERTEX_SELECT_RATIO", "EdgeKeys",
           "HostSlotKeys", "filter_threshold", "graph_keys", "light_threshold", "prepare_keys",
           "slot_keys"]

FILTER_SAMPLES = 20
"""Number of sampled weights (Fallin et al. section 3.2)."""

FILTER_DEGREE = 2
"""Filter only when ``|E| >= FILTER_DEGREE * |V|``: Fallin et al.'s "average degree at least 4"
counts both directions of each undirected edge, so ``2 |E| / |V| >= 4``."""

FILTER_TARGET = 3
"""``c``: the threshold aims at the ``c |V|``-th lightest edge."""

DEVICE_FILTER_TARGET = 1.5
"""The GPU solvers' ``c`` (``ecl/gpu``, ``ecl/opencl``): Fallin et al.'s filter aims at 3|V|
light CSR entries, i.e. 1.5|V| of our undirected edges."""

VERTEX_SELECT_RATIO = 8
"""The GPU solvers select by sweeping the vertices in a round with at most this many vertices
per worklist record. Selecting and resetting by records costs two 16-byte reads and four
scattered 8-byte accesses per record (~160 bytes of traffic); the sweep reads 8 bytes per
vertex in order, plus a few scattered reads per set that joins."""

NO_THRESHOLD = np.uint64(np.iinfo(np.uint64).max)
"""Threshold meaning "no filtering": every key is light."""

_MODES = ("auto", "packed", "two-pass")
# Packed keys stay below 2**63, so the all-ones word can mean "no edge recorded yet".
_PACKED_BITS = 63


@dataclass(frozen=True)
class EdgeKeys:
    """The per-edge comparison keys a kernel's atomic minimum works on.

    Attributes
    ----------
    keys : ndarray of uint64
        ``packed`` mode: ``weight_key << id_bits | edge_id``, unique per edge,
        so one atomic minimum settles weight and tie at once. ``two-pass``
        mode: the order-preserving weight key alone; the tie between equal
        keys is settled by a second atomic minimum on the edge id.
    packed : bool
        Which of the two modes ``keys`` is in.
    id_bits : int
        Low bits holding the edge id in packed mode (0 in two-pass mode).
    """

    keys: np.ndarray
    packed: bool
    id_bits: int

    @property
    def mode(self) -> str:
        return "packed" if self.packed else "two-pass"


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


def prepare_keys(weight: np.ndarray, mode: str = "auto") -> EdgeKeys:
    """Choose packed 64-bit ``(weight, id)`` keys or the two-pass fallback, without sorting.

    Parameters
    ----------
    weight : ndarray of int32, int64, float32 or float64
        Edge weights (no NaN), indexed by edge id.
    mode : {"auto", "packed", "two-pass"}
        ``"auto"`` packs when weight key and id fit in 63 bits; ``"two-pass"``
        forces the fallback (tests use it on small graphs); ``"packed"``
        raises ValueError when packing is impossible.

    Returns
    -------
    EdgeKeys

    Examples
    --------
    >>> import numpy as np
    >>> k = prepare_keys(np.array([5, 3, 5, 3], dtype=np.int32))
    >>> k.mode, np.argsort(k.keys).tolist()
    ('packed', [1, 3, 0, 2])
    >>> prepare_keys(np.array([0.1, 2.0 ** 60, -1e300])).mode
    'two-pass'
    """
    if mode not in _MODES:
        raise ValueError(f"key mode must be one of {_MODES}, got {mode!r}")
    keys, largest = _narrow_weight_keys(weight)
    m = len(keys)
    bits = id_bits(m)
    key_bits = largest.bit_length()
    fits = key_bits + bits <= _PACKED_BITS
    if mode == "packed" and not fits:
        raise ValueError(f"weight keys need {key_bits} bits and edge ids {bits}: "
                         f"they do not fit in the {_PACKED_BITS} bits of a packed key")
    if fits and mode != "two-pass":
        _shift_and_pack(keys, np.uint64(0), np.uint64(bits), True)
        return EdgeKeys(keys, True, bits)
    return EdgeKeys(keys, False, 0)


def graph_keys(graph: Any, mode: str = "auto") -> EdgeKeys:
    """:func:`prepare_keys` of a host graph's weights, cached on the (immutable) graph per mode.

    A second solve of the same graph then skips the key pass (8 bytes written
    per edge) and its fresh allocation. The cached keys are read-only; a solver
    that reorders keys calls :func:`prepare_keys` for a copy of its own.
    ``graph.clear_cache()`` drops them.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [2.5, 1.0])
    >>> graph_keys(g) is graph_keys(g), graph_keys(g).keys.flags.writeable
    (True, False)
    """
    cached = graph._cache.get(("host-keys", mode))
    if cached is None:
        cached = prepare_keys(graph.weight, mode)
        cached.keys.flags.writeable = False
        graph._cache[("host-keys", mode)] = cached
    return cached


def filter_threshold(keys: np.ndarray, num_vertices: int, *, seed: int = 0,
                     samples: int = FILTER_SAMPLES, degree: float = FILTER_DEGREE,
                     target: float = FILTER_TARGET) -> np.uint64:
    """Key below which an edge is "light" in ECL-MST's filtering, or :data:`NO_THRESHOLD`.

    Fallin et al. section 3.2: sample ``samples`` edge weights at random and take
    the one at the fraction ``target * |V| / |E|`` of the sorted sample as the
    estimated weight of the ``target * |V|``-th lightest edge. Edges with a key
    strictly below it are light; the rest are heavy. Works on either kind of
    :class:`EdgeKeys` ``keys`` (packed or weight keys): light edges then all
    precede heavy ones in the ``(weight, edge_id)`` order, which is what makes
    processing them first exact.

    Parameters
    ----------
    keys : ndarray of uint64
        One key per edge (self-loops included or not; only the count matters).
    num_vertices : int
    seed : int
        Seed of the sampling generator, so runs are reproducible.
    samples : int
        Sample size.
    degree : float
        No filtering when ``|E| < degree * |V|``.
    target : float
        The light set aims at the ``target * |V|`` lightest edges.

    Returns
    -------
    numpy.uint64

    Examples
    --------
    >>> import numpy as np
    >>> keys = np.arange(1000, dtype=np.uint64)
    >>> int(filter_threshold(keys, num_vertices=100)) > 0
    True
    >>> bool(filter_threshold(keys, num_vertices=600) == NO_THRESHOLD)
    True
    """
    m = len(keys)
    if m == 0 or m < degree * num_vertices:
        return NO_THRESHOLD
    rng = np.random.default_rng(seed)
    sample = np.sort(keys[rng.integers(0, m, size=samples)])
    position = min(samples - 1, int(samples * target * num_vertices / m))
    return np.uint64(sample[position])


def light_threshold(keys: np.ndarray, num_vertices: int, seed: int,
                    target: float = FILTER_TARGET) -> np.uint64 | None:
    """:func:`filter_threshold` at Fallin et al.'s degree rule, or ``None`` where it does not filter.

    Fallin et al. count degree over CSR entries (both directions), so "average
    degree >= 4" is ``|E| >= 2 |V|`` for our undirected edge count (the
    default ``FILTER_DEGREE``). ``keys`` is anything :func:`filter_threshold`
    reads: a NumPy array, or an object with ``len`` and indexing by an array of
    positions (the GPU solvers pass a device array's sampler).

    >>> light_threshold(np.arange(10, dtype=np.uint64), num_vertices=10, seed=0) is None
    True
    """
    threshold = filter_threshold(keys, num_vertices, seed=seed, degree=FILTER_DEGREE,
                                 target=target)
    return None if threshold == NO_THRESHOLD else threshold


@dataclass(frozen=True)
class HostSlotKeys:
    """Unique order-preserving keys for one-atomic-minimum kernels, and edge ids back.

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


def slot_keys(weight: np.ndarray, method: str = "auto") -> HostSlotKeys:
    """Keys for kernels that settle weight and tie with one atomic minimum (OpenCL's).

    Packed keys (:func:`prepare_keys`) where weight key and id fit, slot =
    edge id; otherwise (or with ``method="rank"``) each edge's rank in the
    ``(weight, edge_id)`` order, one host sort, slot = rank. ``"packed"``
    raises ValueError where packing is impossible. The CUDA solvers make the
    same keys on the device instead (:mod:`parmst.solvers.gpu._keys`).

    Examples
    --------
    >>> k = slot_keys(np.array([2.5, 1.0, 2.5]))
    >>> np.argsort(k.keys).tolist(), k.method
    ([1, 0, 2], 'packed')
    >>> slot_keys(np.array([0.1, 2.0 ** 60, -1e300])).method
    'rank'
    """
    if method not in ("auto", "packed", "rank"):
        raise ValueError(f"keys must be one of ('auto', 'packed', 'rank'), got {method!r}")
    if method != "rank":
        packed = prepare_keys(weight, method)
        if packed.packed:
            return HostSlotKeys(packed.keys, np.uint64((1 << packed.id_bits) - 1), None, "packed")
    order = canonical_order(weight).astype(np.int64)
    ranks = np.empty(len(order), dtype=np.uint64)
    ranks[order] = np.arange(len(order), dtype=np.uint64)
    return HostSlotKeys(ranks, np.uint64(2**64 - 1), order, "rank")
