"""One pass over a device graph's edges: its ids' range, its NaN weights, its weights' key range.

:func:`edge_scan` is the check that a graph built from device arrays gets (every vertex id
in range, no NaN weight) and, in the same launch and the same small copy back, the
smallest and largest order-preserving key of its weights (:func:`parmst.order.weight_key`),
which decides how the GPU solvers pack keys and ids into one word, and whether float64
weights are all exactly float32 (then their keys come from the narrowed values, as on the
host). It can copy the arrays in the same pass. The reduction is the block-partials one of
:mod:`parmst._cuda.arrays`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

from parmst._cuda import pool, runtime
from parmst._cuda.arrays import (
    fold_into_row,
    fold_rows,
    key_of,
    start_row,
    write_row,
)

_I64_MAX = np.int64(2**63 - 1)
_I64_MIN = np.int64(-(2**63))

__all__ = ["KEYED_DTYPES", "EdgeScan", "KeyRange", "edge_checks", "edge_scan", "float32_bits",
           "nan_count", "weight_key_of", "weight_key_range"]

_SIGN32 = np.uint64(1 << 31)
_F64_MANTISSA = np.uint64((1 << 52) - 1)
_F32_INF = np.uint64(0x7F800000)


def float32_bits(bits):
    """The float32 bit pattern (in a uint64) of the float64 whose bit pattern is ``bits``
    (uint64), and whether that float64 is exactly a float32 (only then is the pattern the
    same value's; NaN never is). Bits, not values, so one kernel pass both tests and narrows
    without a second array (numba-cuda reinterprets no scalar).

    Examples
    --------
    >>> w = np.array([1.5, -2.0**-140, 0.1])
    >>> [(int(b), bool(x)) for b, x in map(float32_bits, w.view(np.uint64))][:2] == [
    ...     (int(np.float32(v).view(np.uint32)), True) for v in w[:2]]
    True
    >>> bool(float32_bits(w.view(np.uint64)[2])[1])
    False
    """
    sign = (bits >> np.uint64(63)) << np.uint64(31)
    exponent = (bits >> np.uint64(52)) & np.uint64(0x7FF)
    mantissa = bits & _F64_MANTISSA
    if exponent == np.uint64(0x7FF):  # infinity (a NaN carries a mantissa)
        return sign | _F32_INF, mantissa == np.uint64(0)
    if exponent == np.uint64(0):  # zero; float64 subnormals lie below every float32
        return sign, mantissa == np.uint64(0)
    if exponent > np.uint64(1150):  # beyond float32's largest exponent (127 + 1023)
        return sign | _F32_INF, False
    if exponent > np.uint64(896):  # a normal float32: exponent biased by 127, not 1023
        narrow = ((exponent - np.uint64(896)) << np.uint64(23)) | (mantissa >> np.uint64(29))
        return sign | narrow, (mantissa & np.uint64((1 << 29) - 1)) == np.uint64(0)
    # A float32 subnormal: the significand with its leading one, shifted to 2**-149 units.
    shift = np.uint64(926) - exponent
    if shift > np.uint64(53):
        return sign, False
    significand = mantissa | np.uint64(1 << 52)
    return sign | (significand >> shift), \
        (significand & ((np.uint64(1) << shift) - np.uint64(1))) == np.uint64(0)


_float32_bits = cuda.jit(device=True, inline=True)(float32_bits)


@cuda.jit(device=True, inline=True)
def weight_key_of(bits, is_float, sign, narrow):
    """The order-preserving key (:func:`parmst.order.weight_key`) of one weight given by its
    bits; with ``narrow``, of the float32 of a float64 weight that is exactly one."""
    if narrow:
        return key_of(_float32_bits(bits)[0], True, _SIGN32)
    return key_of(bits, is_float, sign)


#: Keys are folded as int64 with their top bit flipped, so that the signed minimum and
#: maximum of a block's row are the unsigned ones of the keys.
_KEY_BIAS = np.uint64(1 << 63)


@cuda.jit(cache=True)
def _edge_checks(src, dst, weight, bits, search_nan, is_float, sign, narrowable, src_out,
                 dst_out, weight_out, partials):
    """:meth:`parmst.Graph.from_edges`'s checks and copies in one pass, with the weights' key
    range: per block, in ``partials[b]``, the smallest and largest vertex id of both arrays
    and (``search_nan``) how many weights are NaN; for the weights' bits ``bits`` (empty: not
    wanted) the smallest and largest weight key (:func:`parmst.order.weight_key`) and
    (``narrowable``: float64 bits) how many weights are not exactly float32, then the
    smallest and largest key of the weights narrowed to float32 (keys biased, see
    :data:`_KEY_BIAS`). Each non-empty ``*_out`` gets its array's values in its own dtype
    (the device-to-device copy, widening or narrowing the ids where the graph's dtype asks
    for it)."""
    shared = cuda.shared.array(9, np.int64)
    for at in range(0, 9, 3):
        start_row(shared, at, _I64_MAX, _I64_MIN)
    cuda.syncthreads()
    low = key_low = narrow_low = _I64_MAX
    high = key_high = narrow_high = _I64_MIN
    nans = inexact = 0
    for e in range(cuda.grid(1), max(src.shape[0], weight.shape[0]), cuda.gridsize(1)):
        if e < src.shape[0]:
            low = min(low, np.int64(src[e]), np.int64(dst[e]))
            high = max(high, np.int64(src[e]), np.int64(dst[e]))
        if e < src_out.shape[0]:
            src_out[e] = src[e]
        if e < dst_out.shape[0]:
            dst_out[e] = dst[e]
        if e < weight.shape[0]:
            if search_nan and weight[e] != weight[e]:
                nans += 1
            if e < weight_out.shape[0]:
                weight_out[e] = weight[e]
        if e < bits.shape[0]:
            b = np.uint64(bits[e])
            k = np.int64(key_of(b, is_float, sign) ^ _KEY_BIAS)
            key_low = min(key_low, k)
            key_high = max(key_high, k)
            if narrowable:
                narrow, exact = _float32_bits(b)
                k = np.int64(key_of(narrow, True, _SIGN32) ^ _KEY_BIAS)
                narrow_low = min(narrow_low, k)
                narrow_high = max(narrow_high, k)
                if not exact:
                    inexact += 1
    fold_into_row(shared, 0, low, high, nans)
    fold_into_row(shared, 3, key_low, key_high, inexact)
    fold_into_row(shared, 6, narrow_low, narrow_high, 0)
    write_row(shared, partials)


class KeyRange(NamedTuple):
    """The smallest and largest order-preserving key (:func:`parmst.order.weight_key`) of a
    weight array, and whether they are the float32 keys of float64 weights that are all
    exactly float32 (then the keys come from the narrowed weights, as on the host:
    :func:`weight_key_of` with ``narrow``)."""

    low: int
    high: int
    narrow: bool


class EdgeScan(NamedTuple):
    """What :func:`edge_scan` found: the smallest and largest vertex id, the NaN count, and
    the weights' :class:`KeyRange` (``None`` where not asked for)."""

    low: int
    high: int
    nans: int
    key_range: KeyRange | None


#: Weight dtypes whose keys the edge scan ranges (a graph's weights are always one of them).
KEYED_DTYPES = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32),
                np.dtype(np.float64))


def edge_scan(src: Any, dst: Any, weight: Any | None, *, search_nan: bool = True,
              copies: tuple[Any, Any, Any] | None = None, key_range: bool = False) -> EdgeScan:
    """Smallest and largest vertex id of two equal-length device arrays, the NaN count of
    ``weight`` (``None`` or ``search_nan=False``: not searched) and, with ``key_range``, the
    weights' :class:`KeyRange` (weights of a :data:`KEYED_DTYPES` dtype), in one launch and
    one small copy back; ``copies``: device arrays that get ``src``, ``dst`` and ``weight``
    in the same pass, each in its own dtype (an empty one is left out)."""
    empty = runtime.empty(src.dtype)
    if weight is None:
        weight, search_nan = empty, False
    count = max(src.shape[0], weight.shape[0])
    src_out, dst_out, weight_out = copies if copies is not None else (empty, empty, empty)
    dtype = np.dtype(weight.dtype)
    keyed = key_range and dtype in KEYED_DTYPES
    bits = weight.view(f"u{dtype.itemsize}") if keyed else empty
    narrowable = keyed and dtype == np.float64
    # One row of partials per block, folded on the host, so the grid may fill the device:
    # RMAT 22's edges in 0.60 ms on an H200, where 128 blocks took 1.09 ms.
    grid = runtime.streaming_grid(count)
    with pool.lease() as lease:
        partials = lease.take((grid[0], 9), np.int64)
        runtime.launch(_edge_checks, grid, src, dst, weight, bits, bool(search_nan),
                       dtype.kind == "f", np.uint64(1 << (8 * dtype.itemsize - 1)),
                       bool(narrowable), src_out, dst_out, weight_out, partials)
        (low, high, nans), (key_low, key_high, inexact), (narrow_low, narrow_high, _) = \
            fold_rows(partials)
    keys = None
    if keyed:
        narrow = narrowable and not inexact
        keys = KeyRange(*(k + 2**63 for k in ((narrow_low, narrow_high) if narrow
                                               else (key_low, key_high))), narrow)
    return EdgeScan(low, high, nans, keys)


def edge_checks(src: Any, dst: Any, weight: Any | None, *, search_nan: bool = True,
                copies: tuple[Any, Any, Any] | None = None) -> tuple[int, int, int]:
    """:func:`edge_scan`'s smallest and largest vertex id and NaN count."""
    return edge_scan(src, dst, weight, search_nan=search_nan, copies=copies)[:3]


def nan_count(weight: Any) -> int:
    """How many float weights on the device are NaN."""
    no_edges = runtime.empty(weight.dtype)
    return edge_checks(no_edges, no_edges, weight)[2]


def weight_key_range(weight: Any) -> KeyRange:
    """The :class:`KeyRange` of a device weight array (int32, int64, float32 or float64, no
    NaN): one launch and one small copy back."""
    no_edges = runtime.empty(weight.dtype)
    return edge_scan(no_edges, no_edges, weight, search_nan=False, key_range=True).key_range


# ---------------------------------------------------------------- prefix sum and compaction
