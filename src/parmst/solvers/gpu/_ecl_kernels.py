"""The device side of ECL-MST on CUDA (Fallin et al., Alg. 2 and section 3.2): its kernels.

Each launched kernel is one step of Alg. 2, its docstring naming the lines:

- populate (lines 1-11): ``populate_edges`` from the edge list, one thread
  per edge; ``populate_csr`` from the CSR view with the hybrid thread/warp
  split of section 3.2 (both from :func:`populate_kernels`, per value of
  ``fused`` and register cap);
- one round (lines 12-39): ``relax`` (:func:`relax_kernel`, per register
  cap), :func:`settle_ties` (two-pass keys only), :func:`select` and :func:`reset`, each one launch; or
  :func:`all_rounds`, every round in one cooperative launch with grid-wide
  barriers in their place;
- the starting state and the filter's threshold (section 3.2, filtering):
  :func:`reset_work`, one launch;
- between the phases, with ``compress=True``: :func:`flatten_sets`, one launch.

The populate kernels can also lower the sets' minima as they push
(``fused=True``): the phase's first relax would find every record's sets
unchanged and only copy the list, so the first round starts at its select.

The rounds' per-record steps (relax, settle ties, select and reset over the
worklist) are :mod:`parmst.solvers.gpu._kernels`' device functions, shared
with ``boruvka-edge/gpu``; the host loop that launches these kernels is
:mod:`parmst.solvers.gpu._ecl_rounds`. A shared array's shape is a
module-level constant (:data:`SAMPLE_SLOTS`): numba-cuda compiles no
expression there.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda

from parmst._cuda.runtime import kernel_jit
from parmst.solvers.ecl_host import FILTER_SAMPLES, GPU_FILTER_SAMPLES
from parmst.solvers.gpu._kernels import (
    FULL_MASK,
    NO_EDGE,
    WARP_INTRINSICS,
    block_round,
    find,
    join,
    lower_min,
    pack_pair,
    reserve,
    reserve_in_block,
    reset_items,
    settle_ties_items,
    warp_round,
    worklist_round,
)
from parmst.solvers.gpu._keys import MAX_KEY

# Shared slots of the threshold's samples (8 KiB): the most samples the device can pick from.
SAMPLE_SLOTS = 1024
assert max(FILTER_SAMPLES, GPU_FILTER_SAMPLES) <= SAMPLE_SLOTS


@cuda.jit(device=True, inline=True)
def _in_phase(key, threshold, heavy):
    """Fallin et al. Alg. 2 line 6: the threshold condition (inverted in the heavy phase)."""
    if heavy:
        return key >= threshold
    return key < threshold


@cuda.jit(device=True, inline=True)
def find_pair(parent, a, b):
    """``find`` of both endpoints in one loop (ours; Fallin et al. section 3.2's ``find``, no
    path compression): each trip issues the two parent reads together, so a thread waits for
    the deeper chain's dependent reads, not for both chains one after the other."""
    up_a = parent[a]
    up_b = parent[b]
    while up_a != a or up_b != b:
        if up_a != a:
            a = up_a
            up_a = parent[a]
        if up_b != b:
            b = up_b
            up_b = parent[b]
    return a, b


@cuda.jit(device=True, inline=True)
def _push(wl, pos, p, q, key, edge, min_edge, fused, guard):
    """Record ``<p, q, key>`` at ``wl[0, pos]``, with its edge id where records carry one.

    With ``fused``, also Fallin et al. Alg. 2 lines 21-22 for it: its key lowers the minima of
    both sets (:func:`~parmst.solvers.gpu._kernels.lower_min`), which the phase's first relax
    would otherwise do after reading the record back unchanged (no set joins between the
    populate and that relax, so it keeps every record as it is).
    """
    wl[0, pos, 0] = pack_pair(p, q)
    wl[0, pos, 1] = key
    if wl.shape[2] > 2:
        wl[0, pos, 2] = np.uint64(edge)
    if fused:
        lower_min(min_edge, p, key, guard)
        lower_min(min_edge, q, key, guard)


@cuda.jit(device=True)
def _emit_thread(v, beg, end, indices, csr_keys, csr_ids, threshold, heavy, both_directions,
                 parent, wl, counts, min_edge, fused, guard):
    """Fallin et al. Alg. 2 lines 3-10 for a low-degree vertex: one thread walks its neighbours."""
    p = find(parent, v)
    for j in range(beg, end):
        n = np.int64(indices[j])
        if both_directions or v < n:
            key = csr_keys[j]
            if _in_phase(key, threshold, heavy):
                q = find(parent, n)
                if p != q:
                    pos = cuda.atomic.add(counts, 0, np.int64(1))
                    _push(wl, pos, p, q, key, csr_ids[j], min_edge, fused, guard)


@cuda.jit(device=True)
def _emit_warp(wide, v, indptr, indices, csr_keys, csr_ids, threshold, heavy, both_directions,
               parent, wl, counts, min_edge, fused, guard):
    """Fallin et al. section 3.2 hybrid: the warp takes each of its wide vertices in turn.

    The leader's vertex is broadcast with shfl_sync; lanes stride over its
    neighbours and reserve worklist slots together with ballot_sync.
    """
    pending = cuda.ballot_sync(FULL_MASK, wide)
    lane = cuda.laneid
    for leader in range(32):
        if (pending >> leader) & 1:
            u = cuda.shfl_sync(FULL_MASK, v, leader)
            beg = indptr[u]
            end = indptr[u + 1]
            p = find(parent, u)
            for j0 in range(beg, end, 32):
                j = j0 + lane
                keep = False
                q = np.int64(0)
                key = NO_EDGE
                if j < end:
                    n = np.int64(indices[j])
                    key = csr_keys[j]
                    if (both_directions or u < n) and _in_phase(key, threshold, heavy):
                        q = find(parent, n)
                        keep = p != q
                pos = reserve(counts, 0, keep)
                if keep:
                    _push(wl, pos, p, q, key, csr_ids[j], min_edge, fused, guard)


def _jit(max_registers: int | None):
    """:func:`~parmst._cuda.runtime.kernel_jit` for the kernels made per register cap: cached
    only uncapped, where each function has one compiled form."""
    return kernel_jit(max_registers, cache=max_registers is None)


@functools.cache
def populate_kernels(fused: bool, max_registers: int | None = None):
    """The two populate kernels for one value of ``fused`` (see :func:`_push`) and one register
    cap (:func:`_jit`).

    ``fused`` is a constant of each kernel (numba-cuda freezes a closure's
    variables), so the unfused kernels compile without the atomicMins: their
    registers, and so their occupancy, stay what they were. Returns
    ``(populate_edges, populate_csr)``.
    """

    @_jit(max_registers)
    def populate_edges(src, dst, keys, log, heavy, both_directions, parent, wl, counts,
                       min_edge, guard):
        """Fallin et al. Alg. 2 lines 1-11, edge-centric: one thread per edge of the edge list,
        worklist slots reserved per block
        (:func:`~parmst.solvers.gpu._kernels.reserve_in_block`).

        Each undirected edge appears once, so one direction comes for free. In
        the heavy phase the endpoints are replaced by their sets and edges inside
        one set are filtered out (section 3.3). The threshold is ``log[0]``, where
        :func:`reset_work` picked it.
        """
        m = src.shape[0]
        threshold = log[0]
        for e in range(cuda.grid(1), block_round(m), cuda.gridsize(1)):
            keep = False
            p = np.int64(0)
            q = np.int64(0)
            key = NO_EDGE
            if e < m:
                key = keys[e]
                if heavy:
                    # Most edges are heavy: their endpoints are read with the key, not after
                    # it (one memory latency instead of two, as ecl/opencl reads them), and
                    # both finds walk together.
                    p = np.int64(src[e])
                    q = np.int64(dst[e])
                    if key >= threshold:
                        p, q = find_pair(parent, p, q)
                        keep = p != q
                elif key < threshold:
                    # The light phase comes first, while every vertex is its own set: no
                    # find, and only its few edges read their endpoints.
                    p = np.int64(src[e])
                    q = np.int64(dst[e])
                    keep = p != q
            pos = reserve_in_block(counts, 0, keep)
            if keep:
                _push(wl, pos, p, q, key, e, min_edge, fused, guard)
            if both_directions:
                pos = reserve_in_block(counts, 0, keep)
                if keep:
                    _push(wl, pos, q, p, key, e, min_edge, False, guard)

    @_jit(max_registers)
    def populate_csr(indptr, indices, csr_keys, csr_ids, log, heavy, both_directions,
                     warp_degree, parent, wl, counts, min_edge, guard):
        """Fallin et al. Alg. 2 lines 1-11 over CSR with the hybrid thread/warp split
        (section 3.2); the threshold is ``log[0]``."""
        n = indptr.shape[0] - 1
        threshold = log[0]
        for v in range(cuda.grid(1), warp_round(n), cuda.gridsize(1)):
            wide = False
            if v < n:
                beg = indptr[v]
                end = indptr[v + 1]
                wide = end - beg >= warp_degree
                if not wide:
                    _emit_thread(v, beg, end, indices, csr_keys, csr_ids, threshold, heavy,
                                 both_directions, parent, wl, counts, min_edge, fused, guard)
            if WARP_INTRINSICS:
                _emit_warp(wide, v, indptr, indices, csr_keys, csr_ids, threshold, heavy,
                           both_directions, parent, wl, counts, min_edge, fused, guard)

    return populate_edges, populate_csr


_relax_items, _select_items = worklist_round(find, join)


@functools.cache
def relax_kernel(max_registers: int | None = None):
    """The relax kernel for one register cap (:func:`_jit`)."""

    @_jit(max_registers)
    def relax(wl, counts, cur, parent, min_edge, guard, sizes, round_):
        """One launch of :func:`_relax_items` (``launch="per-round"``, ``"batched"``); the
        worklist size goes to ``sizes[round_ + 1]`` where ``round_ >= 0`` (batched rounds, whose
        sizes the host never reads)."""
        if cuda.grid(1) == 0 and 0 <= round_ < sizes.shape[0] - 1:
            sizes[round_ + 1] = np.uint64(counts[cur])
        _relax_items(wl, counts, cur, parent, min_edge, guard)

    return relax


@cuda.jit(cache=True)
def settle_ties(wl, counts, cur, min_edge, min_id):
    """One launch of :func:`~parmst.solvers.gpu._kernels.settle_ties_items` (two-pass keys,
    ``launch="per-round"``)."""
    settle_ties_items(wl, counts, cur, min_edge, min_id)


@cuda.jit(device=True, inline=True)
def _by_vertices(min_edge, counts, cur, vertex_ratio):
    """Whether the round that reads ``wl[cur]`` selects by sweeping the vertices: at most
    ``vertex_ratio`` vertices per record (0: never). Read on the device, so the host never
    needs the worklist size to choose."""
    return min_edge.shape[0] <= vertex_ratio * counts[cur]


@cuda.jit(device=True, inline=True)
def _count_links(forest, linked):
    """Add a thread's links (forest edges) to ``forest[0]``, summed over the warp first so
    that one atomic per warp reaches the counter. Every lane of the warp must call it."""
    if WARP_INTRINSICS:
        offset = 16
        while offset:
            linked += cuda.shfl_down_sync(FULL_MASK, linked, offset)
            offset //= 2
        if cuda.laneid == 0 and linked:
            cuda.atomic.add(forest, 0, np.uint64(linked))
    elif linked:
        cuda.atomic.add(forest, 0, np.uint64(linked))


@cuda.jit(cache=True)
def select(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask, src, dst,
            vertex_ratio, forest, sizes, round_):
    """Fallin et al. Alg. 2 lines 27-33, one launch (``launch="per-round"``): by the vertices
    (:func:`_select_vertices`) or by the records (:func:`_select_items`), as
    :func:`_by_vertices` decides from the size on the device, the links counted in
    ``forest[0]``. The launch covers what the host knows the select sweeps, or the larger
    of both where it knows a bound only (loops are grid-stride). Where
    ``round_ >= 0`` the round had no relax (the populate did it, ``fused=True``) and the
    select logs its size in the relax's place."""
    if cuda.grid(1) == 0 and 0 <= round_ < sizes.shape[0] - 1:
        sizes[round_ + 1] = np.uint64(counts[cur])
    if _by_vertices(min_edge, counts, cur, vertex_ratio):
        linked = _select_vertices(counts, cur, src, dst, parent, min_edge, min_id, in_forest,
                                  slot_mask)
    else:
        linked = _select_items(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask)
    _count_links(forest, linked)


@cuda.jit(cache=True)
def reset(wl, counts, cur, min_edge, min_id, vertex_ratio):
    """Fallin et al. Alg. 2 lines 34-37, one launch (``launch="per-round"``):
    :func:`~parmst.solvers.gpu._kernels.reset_items`, nothing where the select swept the
    vertices (it cleared the minima as it read them)."""
    if not _by_vertices(min_edge, counts, cur, vertex_ratio):
        reset_items(wl, counts, cur, min_edge, min_id)


@cuda.jit(device=True)
def _select_vertices(counts, cur, src, dst, parent, min_edge, min_id, in_forest, slot_mask):
    """Fallin et al. Alg. 2 lines 27-37 from the sets' side: each set joins along its minimum.

    The records' select takes an edge when it is the minimum of either of its
    sets; a sweep over ``min_edge`` finds the same edges, one per set that
    recorded a minimum, and clears each minimum as it reads it (no other thread
    reads it here), so the reset comes free. The slot of a packed key is the
    edge id (in two-pass mode ``min_id`` holds it), whose endpoints
    ``src``/``dst`` give the two sets. Also empties the drained list for
    reuse, as :func:`reset_items` does. Returns how many of this thread's joins
    linked two trees.
    """
    if cuda.grid(1) == 0:
        counts[1 - cur] = 0
    two_pass = min_id.shape[0] != 0
    linked = 0
    for v in range(cuda.grid(1), min_edge.shape[0], cuda.gridsize(1)):
        # Two-pass weight keys may reach NO_EDGE themselves: there the id tells.
        e = min_id[v] if two_pass else min_edge[v]
        if e != NO_EDGE:
            min_edge[v] = NO_EDGE
            if two_pass:
                min_id[v] = NO_EDGE
            else:
                e &= slot_mask
            if join(parent, find(parent, np.int64(src[e])), find(parent, np.int64(dst[e]))):
                linked += 1
            in_forest[e] = 1
    return linked


@cuda.jit(cache=True)
def all_rounds(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask, guard, sizes,
                src, dst, vertex_ratio, forest, relaxed):
    """Fallin et al. Alg. 2 lines 12-39 in one cooperative launch (``launch="persistent"``).

    Grid-wide barriers stand in for the kernel boundaries and for the host's
    worklist-size checks, so a round costs three barriers instead of three
    launches and a copy. It starts from the records in ``wl[cur]``.
    ``sizes[0]`` gets the round count, ``sizes[1:]`` the worklist size of each
    round. Every exit test reads values written before the last barrier, so the
    whole grid leaves the loop together. Rounds with at most ``vertex_ratio``
    vertices per record select by sweeping the vertices (0: never). Two-pass
    keys (``min_id`` not empty) settle ties after the relax, one barrier more.
    ``sizes`` is a slice of the solve's log, read once when the solve ends;
    the links (forest edges) are counted into ``forest[0]`` as the kernel ends.
    ``relaxed``: the populate lowered the minima of ``wl[cur]``'s records (``fused=True``),
    so the first round starts at its select.
    """
    grid = cuda.cg.this_grid()
    rounds = 0
    linked = 0
    while counts[cur] != 0:
        if cuda.grid(1) == 0 and rounds + 1 < sizes.shape[0]:
            sizes[rounds + 1] = np.uint64(counts[cur])
        rounds += 1
        if not relaxed:
            _relax_items(wl, counts, cur, parent, min_edge, guard)
            grid.sync()
            if counts[1 - cur] == 0:
                break
            cur = 1 - cur
        relaxed = False
        if min_id.shape[0]:
            settle_ties_items(wl, counts, cur, min_edge, min_id)
            grid.sync()
        if _by_vertices(min_edge, counts, cur, vertex_ratio):
            linked += _select_vertices(counts, cur, src, dst, parent, min_edge, min_id,
                                       in_forest, slot_mask)
        else:
            linked += _select_items(wl, counts, cur, parent, min_edge, min_id, in_forest,
                                    slot_mask)
            grid.sync()
            reset_items(wl, counts, cur, min_edge, min_id)
        grid.sync()
    if cuda.grid(1) == 0:
        sizes[0] = np.uint64(rounds)
    _count_links(forest, linked)


@cuda.jit(device=True)
def _pick_threshold(keys, positions, pick, log):
    """Fallin et al. section 3.2, filtering: the key of rank ``pick`` among the keys at the
    sampled ``positions`` (at most :data:`SAMPLE_SLOTS`; a sort of the samples by counting,
    ties in sample order, as NumPy's stable sort) into ``log[0]``; 0 (every edge heavy)
    without samples. One block runs it, each thread ranking every ``blockDim``-th sample:
    the samples meet in its shared memory."""
    sample = cuda.shared.array(SAMPLE_SLOTS, np.uint64)
    k = positions.shape[0]
    for t in range(cuda.threadIdx.x, k, cuda.blockDim.x):
        sample[t] = keys[positions[t]]
    cuda.syncthreads()
    for t in range(cuda.threadIdx.x, k, cuda.blockDim.x):
        rank = 0
        for j in range(k):
            if sample[j] < sample[t] or (sample[j] == sample[t] and j < t):
                rank += 1
        if rank == pick:
            log[0] = sample[t]
    if k == 0 and cuda.threadIdx.x == 0:
        log[0] = 0


@cuda.jit(cache=True)
def reset_work(parent, min_edge, min_id, in_forest, counts, log, keys, positions, pick):
    """Fallin et al. Alg. 2's starting state and the filter threshold in one launch.

    Every vertex its own set, no minimum recorded (nor tie-breaking id), no
    edge in the forest, empty worklists and an empty log (reused buffers hold
    whatever the previous solve left); block 0 also picks the threshold
    (:func:`_pick_threshold`), which the populate kernels read from ``log[0]``.
    """
    n = parent.shape[0]
    for i in range(cuda.grid(1), max(max(n, in_forest.shape[0]), log.shape[0]),
                   cuda.gridsize(1)):
        if i < n:
            parent[i] = i
            min_edge[i] = MAX_KEY
        if i < min_id.shape[0]:
            min_id[i] = NO_EDGE
        if i < in_forest.shape[0]:
            in_forest[i] = 0
        if i < counts.shape[0]:
            counts[i] = 0
        if 0 < i < log.shape[0]:
            log[i] = 0
    if cuda.blockIdx.x == 0:
        _pick_threshold(keys, positions, pick, log)


@cuda.jit(cache=True)
def flatten_sets(parent):
    """Point every vertex straight at its set's root, between the light and the heavy phase
    (``compress=True``; ours: Fallin et al. compress paths only implicitly, in the records).

    The light phase's joins leave chains (each link points a root at a smaller one), and the
    heavy populate runs ``find`` from both endpoints of every heavy edge, a dependent read per
    link. One pass over the vertices makes every later ``find`` at most two reads. No join
    runs alongside, so a thread that reads a pointer another thread has just flattened still
    reaches the same root, and parents keep pointing at smaller ids.
    """
    for v in range(cuda.grid(1), parent.shape[0], cuda.gridsize(1)):
        root = find(parent, np.int64(v))
        if root != v:
            parent[v] = np.int32(root)
