"""Array primitives on the device, shared by the GPU solvers and device-resident graphs.

Fills, casts, gathers, a reduction's block partials, an exclusive prefix sum,
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

from parmst._cuda import pool, runtime
from parmst.order import weight_key

__all__ = ["block_partials", "carve", "cast", "compact", "exclusive_scan", "fill",
           "fold_partials", "fold_rows", "gather", "group_order", "iota", "key_of", "launch_grid",
           "radix_order", "reduction_grid", "refill", "reiota", "shift", "store_partials"]

#: Threads per block of the scan kernel (its shared buffer needs a compile-time size).
SCAN_THREADS = runtime.WARP_SIZE if runtime.simulator_active() else 1024
#: Bits of one radix-sort digit, and the steps of SCAN_THREADS items in one block's tile of a
#: radix pass (its counts are one per digit and tile, so a longer tile means a shorter scan).
RADIX_BITS = 4
RADIX_STEPS = 2 if runtime.simulator_active() else 8
_BUCKETS = 1 << RADIX_BITS
#: A digit's count among one step's SCAN_THREADS items (at most SCAN_THREADS) fits in a
#: field of this many bits; the fields of several digits share a word of the packed scan
#: that ranks a step's items (63 bits: the sign bit stays clear), and all words of the
#: sixteen digits are scanned together.
_FIELD_BITS = SCAN_THREADS.bit_length()
_DIGITS_PER_WORD = 63 // _FIELD_BITS
_RANK_WORDS = -(-_BUCKETS // _DIGITS_PER_WORD)
_I64_MAX = np.int64(2**63 - 1)
_I64_MIN = np.int64(-(2**63))


def launch_grid(count: int) -> tuple[int, int]:
    """Blocks and threads of a grid-stride launch over ``count`` items."""
    threads, max_blocks = runtime.launch_limits(runtime.DEFAULT_BLOCK_SIZE)
    return min(max_blocks, runtime.blocks_for(count, threads)), threads


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


@cuda.jit(device=True, inline=True)
def start_row(shared, at, low, high):
    """Thread 0 starts one triple of a block's reduction row in shared memory:
    ``shared[at:at + 3] = [low, high, 0]`` (a barrier must follow before any thread folds)."""
    if cuda.threadIdx.x == 0:
        shared[at] = low
        shared[at + 1] = high
        shared[at + 2] = 0


@cuda.jit(device=True, inline=True)
def block_partials(shared, low, high):
    """Start a block's reduction row in shared memory: ``shared = [low, high, 0]``.

    Reductions here end in one row per block (:func:`store_partials`) that the
    host folds (:func:`fold_partials`), so no accumulator on the device needs
    to be set before the launch (no host-to-device copy, no extra launch).
    """
    start_row(shared, 0, low, high)
    cuda.syncthreads()


@cuda.jit(device=True, inline=True)
def fold_into_row(shared, at, low, high, count):
    """Fold this thread's ``low``, ``high`` and ``count`` into the triple of the block's row
    that starts at ``at`` (shared-memory atomics)."""
    cuda.atomic.min(shared, at, low)
    cuda.atomic.max(shared, at + 1, high)
    if count:
        cuda.atomic.add(shared, at + 2, count)


@cuda.jit(device=True, inline=True)
def write_row(shared, partials):
    """Once every thread has folded: the block's row into ``partials[block]``."""
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        for j in range(partials.shape[1]):
            partials[cuda.blockIdx.x, j] = shared[j]


@cuda.jit(device=True, inline=True)
def store_partials(shared, partials, low, high, count):
    """Fold this thread's ``low``, ``high`` and ``count`` into the block's row (shared-memory
    atomics), then write the row to ``partials[block]``."""
    fold_into_row(shared, 0, low, high, count)
    write_row(shared, partials)


def fold_rows(partials: Any) -> list[tuple[int, int, int]]:
    """Per triple of a reduction's rows (``partials[:, 3k:3k + 3]``), the smallest low, the
    largest high and the total count: one copy back for all of them."""
    rows = runtime.read(partials)
    lows, highs, counts = rows.min(axis=0), rows.max(axis=0), rows.sum(axis=0)
    return [(int(lows[at]), int(highs[at + 1]), int(counts[at + 2]))
            for at in range(0, rows.shape[1], 3)]


def fold_partials(partials: Any) -> tuple[int, int, int]:
    """Smallest low, largest high and total count of a reduction's rows (one copy back)."""
    return fold_rows(partials)[0]


key_of = cuda.jit(device=True, inline=True)(weight_key.py_func)
def fill(shape: int | tuple[int, ...], value: Any, dtype: Any) -> Any:
    """A new device array filled with ``value`` on the device (no host buffer, no transfer)."""
    return refill(runtime.device_array(shape, dtype), value)


#: Where :func:`carve` starts each array in its allocation (cuMemAlloc's own alignment).
CARVE_ALIGN = 256


def carve(specs: list[tuple[int, Any]]) -> list[Any]:
    """New one-dimensional device arrays of the given ``(count, dtype)``, all carved from one
    buffer lent by the device pool (:func:`parmst._cuda.pool.lend`; each array starting on a
    :data:`CARVE_ALIGN`-byte boundary), so that several arrays made together cost at most
    one allocation's host time (44 µs each on the H100 host), and none where the pool holds a
    buffer of that size. They hold the buffer together: it goes back to the pool when the
    last of them is gone."""
    offsets, total = [], 0
    for count, dtype in specs:
        offsets.append(total)
        total += -(-int(count) * np.dtype(dtype).itemsize // CARVE_ALIGN) * CARVE_ALIGN
    whole = pool.lend(total, np.uint8) if total else None
    return [whole[at:at + count * np.dtype(dtype).itemsize].view(dtype) if count
            else runtime.empty(dtype) for at, (count, dtype) in zip(offsets, specs)]


def refill(out: Any, value: Any) -> Any:
    """Every item of the device array ``out`` set to ``value`` (a reused buffer's reset);
    returns ``out``."""
    flat = out.reshape(out.size) if out.ndim > 1 else out
    if out.size:
        runtime.launch(_fill, launch_grid(out.size), flat, out.dtype.type(value))
    return out


def iota(count: int, dtype: Any = np.int64) -> Any:
    """``0, 1, ..., count - 1`` on the device."""
    return reiota(runtime.device_array(count, dtype=dtype))


def reiota(out: Any) -> Any:
    """``out[i] = i`` for the one-dimensional device array ``out``; returns ``out``."""
    if out.shape[0]:
        runtime.launch(_iota, launch_grid(out.shape[0]), out)
    return out


def cast(values: Any, dtype: Any) -> Any:
    """A contiguous device copy of ``values`` as ``dtype`` (also the device-to-device copy)."""
    out = runtime.device_array(values.shape[0], dtype=dtype)
    if values.shape[0]:
        runtime.launch(_cast, launch_grid(values.shape[0]), values, out)
    return out


def gather(values: Any, index: Any, out: Any | None = None) -> Any:
    """``values[index]`` on the device, into ``out`` where given (converted to its type; else
    a new array)."""
    if out is None:
        out = runtime.device_array(index.shape[0], dtype=values.dtype)
    if index.shape[0]:
        runtime.launch(_gather, launch_grid(index.shape[0]), values, index, out)
    return out


def shift(values: Any, amount: int) -> Any:
    """``values + amount`` as a new int64 device array (a part's ids as ids of the whole graph)."""
    out = runtime.device_array(values.shape[0], dtype=np.int64)
    if values.shape[0]:
        runtime.launch(_shift, launch_grid(values.shape[0]), values, np.int64(amount), out)
    return out


@cuda.jit(device=True, inline=True)
def _scan_shared(buf, tid, mine):
    """Inclusive Hillis-Steele scan of the block's values in shared memory: thread ``tid``
    puts ``mine`` in ``buf[tid]`` and finds the sum of ``buf[:tid + 1]`` there (every thread
    of the block must call it)."""
    buf[tid] = mine
    cuda.syncthreads()
    step = 1
    while step < SCAN_THREADS:
        below = buf[tid - step] if tid >= step else np.int64(0)
        cuda.syncthreads()
        buf[tid] += below
        cuda.syncthreads()
        step *= 2


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
        _scan_shared(buf, tid, mine)
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
    launch limit of :func:`parmst._cuda.runtime.launch_limits`).
    """
    if max_blocks is None:
        max_blocks = runtime.launch_limits(runtime.DEFAULT_BLOCK_SIZE)[1]
    blocks = runtime.blocks_for(count + 1, SCAN_THREADS)
    block_sums = runtime.device_array(blocks, dtype=np.int64)
    runtime.launch(_block_scan, (min(max_blocks, blocks), SCAN_THREADS), values, count, out,
                   block_sums)
    if blocks > 1:
        offsets = runtime.device_array(blocks + 1, dtype=np.int64)
        exclusive_scan(block_sums, blocks, offsets, max_blocks)
        runtime.launch(_add_block_offsets, launch_grid(count + 1), out[:count + 1], offsets)


#: Blocks of a compaction: each takes one contiguous tile of the flags, so its offset in
#: the output is the sum of the tiles before it (few enough to sum in every block).
COMPACT_BLOCKS = 2 if runtime.simulator_active() else 512
#: One-byte flags a compaction reads at once, as one 32-bit word.
FLAGS_PER_WORD = 4
_BYTE_LOW_BITS = np.uint32(0x01010101)


@cuda.jit(device=True, inline=True)
def _flag_bits(flags, words, w):
    """Flags ``4w .. 4w + 3`` as bits ``0, 8, 16, 24`` (set where the flag is not zero): one
    load of ``words[w]`` (the flags as 32-bit words) where it holds them, else the bytes
    one by one (the last, partial word, or flags that do not start on a word)."""
    if w < words.shape[0]:
        x = words[w]
        x |= x >> 4  # each byte's bits folded into its lowest, within the byte
        x |= x >> 2
        x |= x >> 1
        return x & _BYTE_LOW_BITS
    x = np.uint32(0)
    for k in range(FLAGS_PER_WORD):
        i = w * FLAGS_PER_WORD + k
        if i < flags.shape[0] and flags[i]:
            x |= np.uint32(1) << (8 * k)
    return x


@cuda.jit(cache=True)
def _count_flagged(flags, words, tile, partials):
    """Stream compaction, pass 1: ``partials[b, 2]`` = flagged items of block ``b``'s tile
    of words ``b * tile .. (b + 1) * tile - 1`` (:func:`_flag_bits`)."""
    shared = cuda.shared.array(3, np.int64)
    block_partials(shared, 0, 0)
    start = cuda.blockIdx.x * tile
    end = min((flags.shape[0] + FLAGS_PER_WORD - 1) // FLAGS_PER_WORD, start + tile)
    found = 0
    for w in range(start + cuda.threadIdx.x, end, cuda.blockDim.x):
        found += cuda.popc(_flag_bits(flags, words, w))
    store_partials(shared, partials, 0, 0, found)


#: Consecutive words one thread of a compaction's scatter takes: one block scan per
#: SCAN_THREADS * COMPACT_WORDS words rather than per SCAN_THREADS flags (each scan is ten
#: rounds of barriers over 1,024 threads).
COMPACT_WORDS = 16


@cuda.jit(cache=True)
def _scatter_tiles(flags, words, values, tile, partials, out):
    """Stream compaction, pass 2: block ``b`` writes its tile's flagged items (or their
    indices) in order from the sum of the tiles before it. The tile goes in chunks of
    SCAN_THREADS * COMPACT_WORDS words: each thread counts the flags of its COMPACT_WORDS
    consecutive words, one block scan of the counts gives each thread its first place, and
    the thread writes its flagged items from there."""
    buf = cuda.shared.array(SCAN_THREADS, np.int64)
    base = cuda.shared.array(1, np.int64)
    tid = cuda.threadIdx.x
    if tid == 0:
        base[0] = 0
    cuda.syncthreads()
    before = np.int64(0)
    for b in range(tid, cuda.blockIdx.x, SCAN_THREADS):
        before += partials[b, 2]
    cuda.atomic.add(base, 0, before)
    cuda.syncthreads()
    offset = base[0]
    start = cuda.blockIdx.x * tile
    end = min((flags.shape[0] + FLAGS_PER_WORD - 1) // FLAGS_PER_WORD, start + tile)
    for chunk in range(start, end, SCAN_THREADS * COMPACT_WORDS):
        first = chunk + tid * COMPACT_WORDS
        last = min(end, first + COMPACT_WORDS)
        mine = np.int64(0)
        for w in range(first, last):
            mine += cuda.popc(_flag_bits(flags, words, w))
        _scan_shared(buf, tid, mine)
        at = offset + buf[tid] - mine
        for w in range(first, last):
            bits = _flag_bits(flags, words, w)
            for k in range(FLAGS_PER_WORD):
                if (bits >> (8 * k)) & 1:
                    i = w * FLAGS_PER_WORD + k
                    if at < out.shape[0]:  # a caller's size never lets a write land outside
                        out[at] = values[i] if values.shape[0] else i
                    at += 1
        offset += buf[SCAN_THREADS - 1]
        cuda.syncthreads()


def _flag_words(flags: Any) -> Any:
    """``flags`` (one byte each) as 32-bit words, as far as whole words go, where they start on
    a word (a pooled buffer or a view of its start does); else an empty array."""
    whole = flags.shape[0] // FLAGS_PER_WORD * FLAGS_PER_WORD
    if not whole or not runtime.word_aligned(flags):
        return runtime.empty(np.uint32)
    return runtime.part(flags, 0, whole).view(np.uint32)


def compact(flags: Any, values: Any | None = None, size: int | None = None,
            out: Any | None = None) -> Any:
    """``values[flags != 0]`` (or the flagged indices, ascending) as a new int64 device array,
    or into ``out``; ``flags`` are one byte each, read four at a time.

    Two launches, a count per tile and an ordered scatter, and one small copy back (the
    tiles' counts, for the result's length) unless the caller knows ``size``, the number of
    flagged items, or gives ``out``: an int64 device array at least as long as that count,
    written from its start (returned whole, or its first ``size`` items where ``size`` is
    given); the scratch comes from the device pool.
    """
    if np.dtype(flags.dtype).itemsize != 1:
        raise ValueError(f"compact takes one-byte flags, got dtype {flags.dtype}")
    words = _flag_words(flags)
    num_words = -(-flags.shape[0] // FLAGS_PER_WORD)
    blocks = max(1, min(COMPACT_BLOCKS, -(-num_words // SCAN_THREADS)))
    tile = -(-num_words // blocks)
    with pool.lease() as lease:
        partials = lease.take((blocks, 3), np.int64)
        runtime.launch(_count_flagged, (blocks, SCAN_THREADS), flags, words, np.int64(tile),
                       partials)
        if out is None:
            if size is None:
                size = fold_partials(partials)[2]
            out = runtime.device_array(size, np.int64)
        elif size is not None:
            out = out[:size]
        if out.shape[0]:
            picked = values if values is not None else runtime.empty(np.int64)
            runtime.launch(_scatter_tiles, (blocks, SCAN_THREADS), flags, words, picked,
                           np.int64(tile), partials, out)
    return out


# ---------------------------------------------------------------- grouping by a small key
@cuda.jit(cache=True)
def _count_keys(keys, counts):
    """``counts[k]`` += the items holding key ``k`` (``counts`` comes zeroed)."""
    for e in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(counts, keys[e], 1)


@cuda.jit(cache=True)
def _place_in_groups(keys, starts, counts, order):
    """Each item's position into its key's run of ``order``: the run starts at ``starts[k]``
    and the item takes the slot that taking one off ``counts[k]`` names (so ``counts`` ends
    zeroed, and the order within a run is the atomics' order)."""
    for e in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        k = keys[e]
        order[starts[k] + cuda.atomic.add(counts, k, -1) - 1] = e


def group_order(keys: Any, num_keys: int) -> tuple[Any, Any]:
    """Positions of the device array ``keys`` (integers in ``0 .. num_keys - 1``) grouped by
    key, keys ascending: a counting sort, three launches whatever the keys' bit length.

    Within a group the positions come in no fixed order (the caller orders the groups it
    needs ordered). Returns ``(order, starts)``: an int64 device array of positions, and
    the ``num_keys + 1`` starts of the groups in it (``starts[k] .. starts[k + 1] - 1`` hold
    key ``k``).
    """
    m = keys.shape[0]
    counts = fill(num_keys, 0, np.int64)
    starts = runtime.device_array(num_keys + 1, dtype=np.int64)
    order = runtime.device_array(m, dtype=np.int64)
    if m:
        runtime.launch(_count_keys, launch_grid(m), keys, counts)
    exclusive_scan(counts, num_keys, starts)
    if m:
        runtime.launch(_place_in_groups, launch_grid(m), keys, starts, counts, order)
    return order, starts


# ---------------------------------------------------------------- stable radix sort
@cuda.jit(cache=True)
def _digit_counts(keys, shift, counts):
    """Per tile of ``SCAN_THREADS * RADIX_STEPS`` items, how many have each digit
    (``counts[digit * tiles + tile]``): a block a tile, its threads reading consecutive
    items and counting in shared memory."""
    hist = cuda.shared.array(_BUCKETS, np.int32)
    tid = cuda.threadIdx.x
    m = keys.shape[0]
    tile_size = SCAN_THREADS * RADIX_STEPS
    tiles = (m + tile_size - 1) // tile_size
    mask = np.uint64(_BUCKETS - 1)
    for tile in range(cuda.blockIdx.x, tiles, cuda.gridDim.x):
        if tid < _BUCKETS:
            hist[tid] = 0
        cuda.syncthreads()
        for e in range(tile * tile_size + tid, min(m, (tile + 1) * tile_size), SCAN_THREADS):
            cuda.atomic.add(hist, np.int64((keys[e] >> shift) & mask), 1)
        cuda.syncthreads()
        if tid < _BUCKETS:
            counts[tid * tiles + tile] = hist[tid]
        cuda.syncthreads()


@cuda.jit(cache=True)
def _scatter_digits(keys, values, shift, offsets, keys_out, values_out):
    """Stable scatter of one LSD pass: a block takes a tile in steps of SCAN_THREADS
    consecutive items; an item's place is its digit's next free place in the tile's range
    (``offsets``) plus the number of items of the same digit before it in the step, found
    by one block scan (Hillis-Steele, all :data:`_RANK_WORDS` words at once) of per-digit
    counts packed :data:`_DIGITS_PER_WORD` to a word. Reads and writes are consecutive per
    digit, where one thread walking a tile alone read strided."""
    buf = cuda.shared.array((_RANK_WORDS, SCAN_THREADS), np.int64)
    base = cuda.shared.array(_BUCKETS, np.int64)
    below = cuda.local.array(_RANK_WORDS, np.int64)
    tid = cuda.threadIdx.x
    m = keys.shape[0]
    tile_size = SCAN_THREADS * RADIX_STEPS
    tiles = (m + tile_size - 1) // tile_size
    mask = np.uint64(_BUCKETS - 1)
    field = np.int64((1 << _FIELD_BITS) - 1)
    for tile in range(cuda.blockIdx.x, tiles, cuda.gridDim.x):
        if tid < _BUCKETS:
            base[tid] = offsets[tid * tiles + tile]
        for step in range(RADIX_STEPS):
            e = tile * tile_size + step * SCAN_THREADS + tid
            here = e < m
            digit = np.int64((keys[e] >> shift) & mask) if here else np.int64(-1)
            word = digit // _DIGITS_PER_WORD
            at = (digit % _DIGITS_PER_WORD) * _FIELD_BITS
            mine = np.int64(1) << at
            for w in range(_RANK_WORDS):
                buf[w, tid] = mine if w == word else np.int64(0)
            cuda.syncthreads()
            reach = 1
            while reach < SCAN_THREADS:
                for w in range(_RANK_WORDS):
                    below[w] = buf[w, tid - reach] if tid >= reach else np.int64(0)
                cuda.syncthreads()
                for w in range(_RANK_WORDS):
                    buf[w, tid] += below[w]
                cuda.syncthreads()
                reach *= 2
            place = np.int64(0)
            if here:
                place = base[digit] + (((buf[word, tid] - mine) >> at) & field)
            step_total = np.int64(0)
            if tid < _BUCKETS:
                step_total = (buf[tid // _DIGITS_PER_WORD, SCAN_THREADS - 1]
                              >> ((tid % _DIGITS_PER_WORD) * _FIELD_BITS)) & field
            cuda.syncthreads()  # every thread has read buf and base
            if tid < _BUCKETS:
                base[tid] += step_total
            if here:
                keys_out[place] = keys[e]
                values_out[place] = values[e]


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
    tiles = -(-m // (SCAN_THREADS * RADIX_STEPS))
    grid = (min(tiles, runtime.launch_limits(SCAN_THREADS)[1]), SCAN_THREADS)
    counts = runtime.device_array(_BUCKETS * tiles, dtype=np.int32)
    offsets = runtime.device_array(_BUCKETS * tiles + 1, dtype=np.int64)
    current, spare = cast(keys, np.uint64), runtime.device_array(m, dtype=np.uint64)
    spare_order = runtime.device_array(m, dtype=np.int64)
    for shift in range(0, bits, RADIX_BITS):
        runtime.launch(_digit_counts, grid, current, np.uint64(shift), counts)
        exclusive_scan(counts, _BUCKETS * tiles, offsets)
        runtime.launch(_scatter_digits, grid, current, order, np.uint64(shift), offsets, spare,
                       spare_order)
        current, spare = spare, current
        order, spare_order = spare_order, order
    return order
