"""Array primitives on the device, shared by the GPU solvers and device-resident graphs.

Fills, casts, gathers, range and NaN checks, an exclusive prefix sum,
stream compaction and a stable least-significant-digit radix sort: the
small steps that keep a graph's data on the device from validation to the
forest's edge ids. Every kernel loops grid-stride, so each one also runs
on numba-cuda's simulator with a grid of two small blocks, and every one
is compiled once per machine (``cache=True``: numba-cuda keeps the compiled
kernels beside this file; the simulator ignores the flag).

The prefix sum is the work-efficient-enough block scan the generic Borůvka
solver needs for its renumbering (Sousa, Appendix A, Algorithms 11-12); the
radix sort is the classic LSD counting sort with a per-tile digit count, one
scan over the digit-major count table, and a stable scatter (each thread
keeps its tile's order, the table keeps the tiles' order). It gives the
exact ``(weight, edge_id)`` order on the device when keys and ids do not
pack into one word, so no weight is ever sorted on the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

from parmst.solvers.gpu import _device

__all__ = ["cast", "compact", "exclusive_scan", "fill", "gather", "iota", "id_range", "launch_grid",
           "nan_count", "radix_order", "reduction_grid", "refill", "reiota", "shift"]

#: Threads per block of the scan kernel (its shared buffer needs a compile-time size).
SCAN_THREADS = _device.WARP_SIZE if _device.simulator_active() else 1024
#: Bits of one radix-sort digit, and the items one thread counts and scatters in order.
RADIX_BITS = 4
RADIX_TILE = 16 if _device.simulator_active() else 64
_BUCKETS = 1 << RADIX_BITS
_U64_MAX = np.uint64(2**64 - 1)


def launch_grid(count: int) -> tuple[int, int]:
    """Blocks and threads of a grid-stride launch over ``count`` items."""
    threads, max_blocks = _device.launch_limits(_device.DEFAULT_BLOCK_SIZE)
    return min(max_blocks, _device.blocks_for(count, threads)), threads


#: Blocks of a reduction launch: every thread folds many items into its own minimum, maximum
#: or count and ends with one atomic on a single address, so fewer threads contend less (a
#: thread per item made 8 million atomics on two words for 2**22 edges: milliseconds).
REDUCTION_BLOCKS = 128


def reduction_grid(count: int) -> tuple[int, int]:
    """:func:`launch_grid` capped at :data:`REDUCTION_BLOCKS` blocks, for kernels that end in
    an atomic on one address."""
    blocks, threads = launch_grid(count)
    return min(blocks, REDUCTION_BLOCKS), threads


@cuda.jit(cache=True)
def _fill(out, value):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = value


@cuda.jit(cache=True)
def _iota(out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = i


@cuda.jit(cache=True)
def _cast(values, out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = values[i]


@cuda.jit(cache=True)
def _gather(values, index, out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = values[index[i]]


@cuda.jit(cache=True)
def _shift(values, amount, out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = values[i] + amount


@cuda.jit(cache=True)
def _id_range(src, dst, bounds):
    """``bounds[0]`` falls to the smallest id in both arrays, ``bounds[1]`` rises to the largest."""
    low = bounds[0]
    high = bounds[1]
    for e in range(cuda.grid(1), src.shape[0], cuda.gridsize(1)):
        low = min(low, np.int64(src[e]), np.int64(dst[e]))
        high = max(high, np.int64(src[e]), np.int64(dst[e]))
    cuda.atomic.min(bounds, 0, low)
    cuda.atomic.max(bounds, 1, high)


@cuda.jit(cache=True)
def _nan_count(weight, count):
    found = 0
    for e in range(cuda.grid(1), weight.shape[0], cuda.gridsize(1)):
        if weight[e] != weight[e]:
            found += 1
    if found:
        cuda.atomic.add(count, 0, found)


def fill(shape: int | tuple[int, ...], value: Any, dtype: Any) -> Any:
    """A new device array filled with ``value`` on the device (no host buffer, no transfer)."""
    return refill(cuda.device_array(shape, dtype=dtype), value)


def refill(out: Any, value: Any) -> Any:
    """Every item of the device array ``out`` set to ``value`` (a reused buffer's reset);
    returns ``out``."""
    flat = out.reshape(out.size) if out.ndim > 1 else out
    if out.size:
        _fill[launch_grid(out.size)](flat, out.dtype.type(value))
    return out


def iota(count: int, dtype: Any = np.int64) -> Any:
    """``0, 1, ..., count - 1`` on the device."""
    return reiota(cuda.device_array(count, dtype=dtype))


def reiota(out: Any) -> Any:
    """``out[i] = i`` for the one-dimensional device array ``out``; returns ``out``."""
    if out.shape[0]:
        _iota[launch_grid(out.shape[0])](out)
    return out


def cast(values: Any, dtype: Any) -> Any:
    """A contiguous device copy of ``values`` as ``dtype`` (also the device-to-device copy)."""
    out = cuda.device_array(values.shape[0], dtype=dtype)
    if values.shape[0]:
        _cast[launch_grid(values.shape[0])](values, out)
    return out


def gather(values: Any, index: Any) -> Any:
    """``values[index]`` on the device."""
    out = cuda.device_array(index.shape[0], dtype=values.dtype)
    if index.shape[0]:
        _gather[launch_grid(index.shape[0])](values, index, out)
    return out


def shift(values: Any, amount: int) -> Any:
    """``values + amount`` as a new int64 device array (a part's ids as ids of the whole graph)."""
    out = cuda.device_array(values.shape[0], dtype=np.int64)
    if values.shape[0]:
        _shift[launch_grid(values.shape[0])](values, np.int64(amount), out)
    return out


def id_range(src: Any, dst: Any) -> tuple[int, int]:
    """Smallest and largest vertex id of two equal-length device arrays (one 16-byte copy back)."""
    bounds = cuda.to_device(np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).min]))
    if src.shape[0]:
        _id_range[reduction_grid(src.shape[0])](src, dst, bounds)
    low, high = bounds.copy_to_host()
    return int(low), int(high)


def nan_count(weight: Any) -> int:
    """How many float weights on the device are NaN."""
    count = cuda.to_device(np.zeros(1, np.int64))
    if weight.shape[0]:
        _nan_count[reduction_grid(weight.shape[0])](weight, count)
    return int(count.copy_to_host()[0])


# ---------------------------------------------------------------- prefix sum and compaction
@cuda.jit(cache=True)
def _block_scan(values, count, out, block_sums):
    """Exclusive scan of ``values[:count]`` (then one zero) per block of SCAN_THREADS items.

    Hillis-Steele in shared memory; ``out[i]`` is the sum of the block's items
    before ``i`` and ``block_sums[b]`` the block's total. Blocks are visited
    grid-stride; every thread runs the same trips, so the barriers line up.
    """
    buf = cuda.shared.array(SCAN_THREADS, np.int64)
    tid = cuda.threadIdx.x
    for block in range(cuda.blockIdx.x, block_sums.shape[0], cuda.gridDim.x):
        i = block * SCAN_THREADS + tid
        mine = np.int64(values[i]) if i < count else np.int64(0)
        buf[tid] = mine
        cuda.syncthreads()
        step = 1
        while step < SCAN_THREADS:
            below = buf[tid - step] if tid >= step else np.int64(0)
            cuda.syncthreads()
            buf[tid] += below
            cuda.syncthreads()
            step *= 2
        if i <= count:
            out[i] = buf[tid] - mine
        if tid == SCAN_THREADS - 1:
            block_sums[block] = buf[tid]
        cuda.syncthreads()


@cuda.jit(cache=True)
def _add_block_offsets(out, offsets):
    """Second half of the scan: every item adds the sum of the blocks before its own."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] += offsets[i // SCAN_THREADS]


def exclusive_scan(values: Any, count: int, out: Any, max_blocks: int | None = None) -> None:
    """``out[:count + 1]`` = exclusive prefix sums of ``values[:count]`` (int64), on the device.

    The total is ``out[count]``; it stays on the device (read it only where
    the host needs it). ``max_blocks`` caps the scan's grid (default: the
    launch limit of :func:`parmst.solvers.gpu._device.launch_limits`).
    """
    if max_blocks is None:
        max_blocks = _device.launch_limits(_device.DEFAULT_BLOCK_SIZE)[1]
    blocks = _device.blocks_for(count + 1, SCAN_THREADS)
    block_sums = cuda.device_array(blocks, dtype=np.int64)
    _block_scan[min(max_blocks, blocks), SCAN_THREADS](values, count, out, block_sums)
    if blocks > 1:
        offsets = cuda.device_array(blocks + 1, dtype=np.int64)
        exclusive_scan(block_sums, blocks, offsets, max_blocks)
        _add_block_offsets[launch_grid(count + 1)](out[:count + 1], offsets)


@cuda.jit(cache=True)
def _scatter_flagged(flags, positions, values, out):
    """Stream compaction's scatter: a flagged item goes to its prefix-sum position."""
    for i in range(cuda.grid(1), flags.shape[0], cuda.gridsize(1)):
        if flags[i]:
            out[positions[i]] = values[i] if values.shape[0] else i


def compact(flags: Any, values: Any | None = None) -> Any:
    """``values[flags != 0]`` (or the flagged indices, ascending) as a new int64 device array.

    One scan and one scatter; one 8-byte copy back for the result's length.
    """
    m = flags.shape[0]
    positions = cuda.device_array(m + 1, dtype=np.int64)
    exclusive_scan(flags, m, positions)
    size = int(positions[m:m + 1].copy_to_host()[0])
    out = cuda.device_array(size, dtype=np.int64)
    if size:
        picked = values if values is not None else cuda.device_array(0, dtype=np.int64)
        _scatter_flagged[launch_grid(m)](flags, positions, picked, out)
    return out


# ---------------------------------------------------------------- stable radix sort
@cuda.jit(cache=True)
def _digit_counts(keys, shift, counts):
    """Per tile of RADIX_TILE items, how many have each digit; ``counts[digit * tiles + tile]``."""
    m = keys.shape[0]
    tiles = (m + RADIX_TILE - 1) // RADIX_TILE
    mask = np.uint64(_BUCKETS - 1)
    for tile in range(cuda.grid(1), tiles, cuda.gridsize(1)):
        local = cuda.local.array(_BUCKETS, np.int32)
        for d in range(_BUCKETS):
            local[d] = 0
        for e in range(tile * RADIX_TILE, min(m, (tile + 1) * RADIX_TILE)):
            local[np.int64((keys[e] >> shift) & mask)] += 1
        for d in range(_BUCKETS):
            counts[d * tiles + tile] = local[d]


@cuda.jit(cache=True)
def _scatter_digits(keys, values, shift, offsets, keys_out, values_out):
    """Stable scatter of one LSD pass: a tile's items keep their order within each digit."""
    m = keys.shape[0]
    tiles = (m + RADIX_TILE - 1) // RADIX_TILE
    mask = np.uint64(_BUCKETS - 1)
    for tile in range(cuda.grid(1), tiles, cuda.gridsize(1)):
        local = cuda.local.array(_BUCKETS, np.int64)
        for d in range(_BUCKETS):
            local[d] = offsets[d * tiles + tile]
        for e in range(tile * RADIX_TILE, min(m, (tile + 1) * RADIX_TILE)):
            d = np.int64((keys[e] >> shift) & mask)
            keys_out[local[d]] = keys[e]
            values_out[local[d]] = values[e]
            local[d] += 1


def radix_order(keys: Any, bits: int) -> Any:
    """Indices that sort the uint64 device array ``keys`` stably (ties in index order).

    Only the low ``bits`` bits are sorted on (callers pass keys less their
    minimum, so ``bits`` is what actually varies). ``keys`` is left as it
    was. Returns an int64 device array: the positions in ``(key, index)``
    order.
    """
    m = keys.shape[0]
    order = iota(m)
    if m < 2 or bits <= 0:
        return order
    tiles = -(-m // RADIX_TILE)
    counts = cuda.device_array(_BUCKETS * tiles, dtype=np.int32)
    offsets = cuda.device_array(_BUCKETS * tiles + 1, dtype=np.int64)
    current, spare = cast(keys, np.uint64), cuda.device_array(m, dtype=np.uint64)
    spare_order = cuda.device_array(m, dtype=np.int64)
    for shift in range(0, bits, RADIX_BITS):
        _digit_counts[launch_grid(tiles)](current, np.uint64(shift), counts)
        exclusive_scan(counts, _BUCKETS * tiles, offsets)
        _scatter_digits[launch_grid(tiles)](current, order, np.uint64(shift), offsets, spare,
                                      spare_order)
        current, spare = spare, current
        order, spare_order = spare_order, order
    return order
