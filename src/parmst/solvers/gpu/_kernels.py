"""Device functions shared by the GPU solvers: union-find, worklist slots, record packing.

Worklist records are two uint64 words, ``(v << 32 | n, key)``: ECL-MST's
4-tuple ``<v, n, weight, id>`` (Fallin et al. section 3.3) with weight and id in
one packed key, 16 bytes per record, both words in one memory segment. Where
weight key and id do not fit in one word, records get a third word, the edge
id, and the minimum of a set is settled in two passes (Fallin et al. section
3.2 for the key, then the smallest id among the edges holding it): a set's
``min_id`` entry is then the tie-breaker, and an empty ``min_id`` array means
the packed key alone decides.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst._cuda.runtime import simulator_active

# The simulator has no warp intrinsics: there every thread reserves its own
# worklist slot. On a GPU a warp reserves all its slots with one atomicAdd.
WARP_INTRINSICS = not simulator_active()
FULL_MASK = 0xFFFFFFFF
LOW32 = np.uint64(0xFFFFFFFF)
SHIFT32 = np.uint64(32)
NO_EDGE = np.uint64(2**64 - 1)


@cuda.jit(device=True, inline=True)
def pack_pair(v, n):
    """Two vertex ids (< 2**32) in one word, ``v`` high."""
    return (np.uint64(v) << SHIFT32) | np.uint64(n)


@cuda.jit(device=True, inline=True)
def unpack_pair(word):
    """Inverse of :func:`pack_pair`."""
    return np.int64(word >> SHIFT32), np.int64(word & LOW32)


@cuda.jit(device=True, inline=True)
def find(parent, v):
    """Fallin et al. section 3.2: follow parents to the root, no explicit path compression."""
    up = parent[v]
    while up != v:
        v = up
        up = parent[v]
    return v


@cuda.jit(device=True, inline=True)
def join(parent, a, b):
    """Fallin et al. (ECL-MST ``join``): lock-free union, the larger root points to the smaller.

    Parents always point to smaller ids, so a failed CAS just moves the
    larger side one step up its tree; it ends when it links two roots or
    finds both sides in one tree. Returns whether it linked: every link makes
    one tree of two, so the links of a solve count its forest's edges.
    """
    while True:
        high = max(a, b)
        low = min(a, b)
        if high == low:
            return False
        seen = cuda.atomic.cas(parent, high, np.int32(high), np.int32(low))
        if seen == high:
            return True
        a = low
        b = np.int64(seen)


@cuda.jit(device=True, inline=True)
def reserve(counts, slot, keep):
    """Index for this thread's record in worklist ``slot``: ECL-MST's atomicAdd, warp-aggregated.

    Every lane of the warp must call it together (loops are warp-uniform).
    Returns garbage where ``keep`` is false.
    """
    if WARP_INTRINSICS:
        ballot = cuda.ballot_sync(FULL_MASK, keep)
        base = np.int64(0)
        if cuda.laneid == 0 and ballot != 0:
            base = cuda.atomic.add(counts, slot, np.int64(cuda.popc(ballot)))
        base = cuda.shfl_sync(FULL_MASK, base, 0)
        below = np.int64(ballot) & ((np.int64(1) << cuda.laneid) - 1)
        return base + cuda.popc(below)
    if keep:
        return cuda.atomic.add(counts, slot, np.int64(1))
    return np.int64(0)


#: Reservation units of a block (warps on a GPU, threads under the simulator, whose blocks
#: are one warp): 1,024 threads make 32 warps.
BLOCK_UNITS = 32
# Shared slots of reserve_in_block: the units' counts, then the base. A module constant, as
# numba-cuda needs a shared array's shape to be a compile-time constant, not an expression.
_BLOCK_SLOTS = BLOCK_UNITS + 1


@cuda.jit(device=True)
def reserve_in_block(counts, slot, keep):
    """Index for this thread's record in worklist ``slot``, one atomicAdd per block: the
    per-work-group reservation of ecl/opencl (``ecl.cl``) for ECL-MST's worklist pushes
    (Fallin et al. Alg. 2 lines 9 and 20).

    Each warp counts its records with a ballot and leaves the count in shared memory; after
    a barrier, every warp sums the counts of the warps before it, thread 0 sums them all and
    makes the block's one global atomicAdd, and after a second barrier every thread reads the
    block's base. A 512-thread block so makes one atomic on the counter where
    :func:`reserve` makes 16, which matters when a round's million records all push to one
    address. Every thread of the block must call it together: loops run to
    :func:`block_round`. Returns garbage where ``keep`` is false.
    """
    shared = cuda.shared.array(_BLOCK_SLOTS, np.int64)
    tid = cuda.threadIdx.x
    if WARP_INTRINSICS:
        ballot = cuda.ballot_sync(FULL_MASK, keep)
        unit = tid // 32
        units = (cuda.blockDim.x + 31) // 32
        rank = cuda.popc(np.int64(ballot) & ((np.int64(1) << cuda.laneid) - 1))
        if cuda.laneid == 0:
            shared[unit] = cuda.popc(ballot)
    else:
        unit = tid
        units = cuda.blockDim.x
        rank = 0
        shared[unit] = 1 if keep else 0
    cuda.syncthreads()
    before = np.int64(0)
    for u in range(unit):
        before += shared[u]
    if tid == 0:
        total = np.int64(0)
        for u in range(units):
            total += shared[u]
        shared[BLOCK_UNITS] = cuda.atomic.add(counts, slot, total) if total else 0
    cuda.syncthreads()
    return shared[BLOCK_UNITS] + before + rank


@cuda.jit(device=True, inline=True)
def lower_min(min_edge, v, key, guard):
    """atomicMin of ``key`` into ``min_edge[v]``; with ``guard``, only if it could lower it.

    Fallin et al. section 5.3 (1), "atomic guards": a plain load first, since most
    atomicMins find no new minimum.
    """
    if not guard or min_edge[v] > key:
        cuda.atomic.min(min_edge, v, key)


@cuda.jit(device=True, inline=True)
def won(min_edge, min_id, v, key, edge):
    """Whether the record ``(key, edge)`` is set ``v``'s minimum: its packed key alone, or, in
    two-pass mode (``min_id`` not empty), its weight key and then its edge id."""
    return min_edge[v] == key and (min_id.shape[0] == 0 or min_id[v] == edge)


@cuda.jit(device=True, inline=True)
def record_slot(wl, cur, i, key, slot_mask):
    """The per-edge flag slot of record ``i``: its third word (the edge id) in two-pass mode,
    else the low bits of its packed key."""
    if wl.shape[2] > 2:
        return wl[cur, i, 2]
    return key & slot_mask


@cuda.jit(device=True)
def settle_ties_items(wl, counts, cur, min_edge, min_id):
    """Two-pass mode's second pass: among the records of ``wl[cur]`` whose weight key is their
    set's minimum, the smallest edge id wins (atomicMin, guarded like the first pass)."""
    for i in range(cuda.grid(1), counts[cur], cuda.gridsize(1)):
        v, n = unpack_pair(wl[cur, i, 0])
        key = wl[cur, i, 1]
        edge = wl[cur, i, 2]
        if min_edge[v] == key:
            lower_min(min_id, v, edge, True)
        if min_edge[n] == key:
            lower_min(min_id, n, edge, True)


@cuda.jit(device=True, inline=True)
def warp_round(count):
    """``count`` rounded up to whole warps: loops run whole warps, so ballots see every lane."""
    return (count + 31) // 32 * 32


@cuda.jit(device=True, inline=True)
def block_round(count):
    """``count`` rounded up to whole blocks: a grid-stride loop to it runs the same trips in
    every thread of a block, as :func:`reserve_in_block`'s barriers need (grids are whole
    blocks, so a block's threads pass the bound together)."""
    size = cuda.blockDim.x
    return (count + size - 1) // size * size


def worklist_round(find_set, join_sets):
    """The relax and select steps of one Borůvka round over an edge worklist, for one union-find.

    Shou and He Listing 6 (lines 22-27 and 35-40) and Fallin et al. Alg. 2 (lines
    13-23 and 27-33) run the same two steps and differ only in their
    union-find; numba-cuda device functions take no function arguments, so
    each solver builds its pair from its own ``find_set(sets, v)`` and
    ``join_sets(sets, a, b)``. Returns ``(relax_items, select_items)``.
    """

    @cuda.jit(device=True)
    def relax_items(wl, counts, cur, sets, min_edge, guard):
        """Find both sets, drop internal edges, keep the rest with their sets, atomicMin.

        Records of ``wl[cur]`` that still join two sets go to ``wl[1 - cur]``
        with the sets in place of the endpoints (implicit path compression), and
        with their edge id where records carry one (two-pass mode), their slots
        reserved per block (:func:`reserve_in_block`): every thread of a block calls it.
        """
        size = counts[cur]
        out = 1 - cur
        for i in range(cuda.grid(1), block_round(size), cuda.gridsize(1)):
            keep = False
            p = np.int64(0)
            q = np.int64(0)
            key = NO_EDGE
            if i < size:
                v, n = unpack_pair(wl[cur, i, 0])
                key = wl[cur, i, 1]
                p = find_set(sets, v)
                q = find_set(sets, n)
                keep = p != q
            pos = reserve_in_block(counts, out, keep)
            if keep:
                wl[out, pos, 0] = pack_pair(p, q)
                wl[out, pos, 1] = key
                if wl.shape[2] > 2:
                    wl[out, pos, 2] = wl[cur, i, 2]
                lower_min(min_edge, p, key, guard)
                lower_min(min_edge, q, key, guard)

    @cuda.jit(device=True)
    def select_items(wl, counts, cur, sets, min_edge, min_id, in_forest, slot_mask):
        """A record that is the minimum of either of its sets joins them and enters the forest
        (``min_id``: see :func:`won`). Returns how many of this thread's joins linked two
        trees (``join_sets`` returns whether it did)."""
        linked = 0
        for i in range(cuda.grid(1), counts[cur], cuda.gridsize(1)):
            v, n = unpack_pair(wl[cur, i, 0])
            key = wl[cur, i, 1]
            slot = record_slot(wl, cur, i, key, slot_mask)
            if won(min_edge, min_id, v, key, slot) or won(min_edge, min_id, n, key, slot):
                if join_sets(sets, v, n):
                    linked += 1
                in_forest[slot] = 1
        return linked

    return relax_items, select_items


@cuda.jit(device=True)
def reset_items(wl, counts, cur, min_edge, min_id):
    """Fallin et al. Alg. 2 lines 34-37 (Shou and He Listing 6 lines 43-45): clear the minima of the
    worklist's sets (and their tie-breaking ids, in two-pass mode); also empty the drained list
    for reuse."""
    size = counts[cur]
    if cuda.grid(1) == 0:
        counts[1 - cur] = 0
    for i in range(cuda.grid(1), size, cuda.gridsize(1)):
        v, n = unpack_pair(wl[cur, i, 0])
        min_edge[v] = NO_EDGE
        min_edge[n] = NO_EDGE
        if min_id.shape[0]:
            min_id[v] = NO_EDGE
            min_id[n] = NO_EDGE
