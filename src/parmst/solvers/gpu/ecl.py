"""ECL-MST on CUDA through numba-cuda (Fallin et al., Algs. 1-2 and section 3.2).

Kruskal and Borůvka converge to one data-driven, edge-centric loop over a
worklist of ``<v, n, key>`` records: every round each record finds the sets of
its endpoints (dropping itself when they match, and storing the sets in place
of the vertices: implicit path compression), records its packed
``(weight, id)`` key in both sets with a guarded atomicMin, then every record
that won a set joins the two sets and enters the forest. A sampled threshold
splits the edges into a light phase and a filtered heavy phase.

Optimizations of Fallin et al. section 3.2 / 5.3 and where they live:

- packed 64-bit keys with atomicMin and atomic guards: :func:`_relax`
  (keys from :mod:`parmst.solvers.gpu._keys`, exact for every weight dtype);
  where weight key and edge id do not fit in one word (float64 weights over a
  wide range), records carry the edge id in a third word and a set's minimum
  is settled in two passes, atomicMin on the weight key, then atomicMin on the
  id among the records holding that key (:func:`_settle_ties`), as the CPU
  ECL-MST does: no sort of the keys;
- double worklists of 16-byte records, data-driven: ``wl[2, cap, 2]``;
- implicit path compression and no explicit compression: :func:`_relax`;
- one edge direction: the edge list holds each edge once; the CSR
  initialization keeps ``v < n`` (``both_directions=True`` turns it off);
- filtering (20 samples, average degree >= 4): ``filter=True``, aiming at
  ECL-MST's 3|V| light CSR entries, i.e. 1.5|V| edges (``filter_target``); the
  light phase, first, needs no ``find`` (every vertex is still its own set);
- hybrid initialization (thread per vertex of degree < 4, a warp per vertex
  of degree >= 4, ballot/shuffle): ``init="hybrid"``; ``init="thread"`` is
  the ablation, ``init="edge"`` populates edge-centrically from the edge list,
  which needs no CSR at all.

Select (ours): while a round's worklist has at least one record per
:data:`VERTEX_SELECT_RATIO` vertices, the sets join along their minima in one
coalesced sweep over the vertices that also clears the minima, instead of
ECL-MST's select and reset over every record (``select="auto"``).

Launches (ours): every launch goes from a pre-packed parameter block straight to the
driver (:mod:`parmst._cuda.packed`; numba-cuda's dispatcher spends 69-81 µs of host time
per launch on the H100 host), and every copy back leaves the device idle while the host
queues the next kernels, so
the host loop waits as little as the dependencies allow (docs/gpu.md): one launch
resets the work and picks the filter threshold on the device (:func:`_reset_work`);
each phase has its own worklist sizes, zeroed there, so nothing is copied before a
populate; small rounds run inside one persistent cooperative kernel with grid-wide
barriers (``launch="auto"``, the default, below :data:`BATCHED_MIN` records; from there
to ``persistent_below`` as ecl/opencl's batched loop; docs/gpu.md),
which reads the sizes where they are; only rounds of at least ``persistent_below``
records read their size back to size their launches, and there the select picks
vertices or records on the device; the selects count their links (each one a
forest edge), and the threshold, the forest's size and every round's size come
back in one copy when the solve ends. A captured CUDA graph would replay the same
launches without the host, but numba-cuda cannot capture one, and with no wait
left inside a small solve there is little for it to save.
``stats.extra["launches"]`` and ``["host_syncs"]`` count what a solve did.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import cuda

from parmst._cuda import arrays, pool, runtime
from parmst.solvers.ecl_host import DEVICE_FILTER_TARGET as FILTER_TARGET
from parmst.solvers.ecl_host import FILTER_SAMPLES, VERTEX_SELECT_RATIO
from parmst.solvers.gpu import _device
from parmst.solvers.gpu._kernels import (
    FULL_MASK,
    NO_EDGE,
    WARP_INTRINSICS,
    block_round,
    find,
    join,
    pack_pair,
    reserve,
    reserve_in_block,
    reset_items,
    settle_ties_items,
    warp_round,
    worklist_round,
)
from parmst.solvers.gpu._keys import MAX_KEY, graph_keys, threshold_plan
from parmst.stats import Stats

INITS = ("edge", "hybrid", "thread")
WARP_MIN_DEGREE = 4  # Fallin et al. section 3.2: a whole warp for vertices of degree >= 4
_NEVER = 2**62
_MAX_ROUNDS = 64  # Borůvka at least halves the trees that still have edges: <= 32 rounds
# The solve's log on the device, read once at its end: the threshold, the forest's size, then
# per phase the round count and worklist sizes that the host did not read.
_PHASE_LOG = _MAX_ROUNDS + 1
_LOG_SIZE = 2 + 2 * _PHASE_LOG
SAMPLE_SLOTS = 32  # shared slots of the threshold's samples: one warp, the smallest block
assert FILTER_SAMPLES <= SAMPLE_SLOTS
LAUNCHES = ("auto", "persistent", "per-round", "batched")
# launch="batched": rounds queued between two reads of the worklist size (ecl/opencl's loop).
ROUNDS_PER_CHECK = 4
SELECTS = ("auto", "records")
# launch="auto": per-round launches while a round has at least this many records (a full
# grid hides memory latency better than the resident cooperative grid; measured on an H100,
# benchmarks/results/gpu_bench.md), then the persistent kernel for the many small rounds.
PERSISTENT_BELOW = 1 << 22
# launch="auto": rounds below PERSISTENT_BELOW but with at least this many records run as
# ecl/opencl runs them (full grids of separate launches, ROUNDS_PER_CHECK between reads), the
# smaller ones in the persistent kernel. With pre-packed launches a round's three launches
# cost the host tens of microseconds, less than the device spends on a round of half a
# million records, where the full grid's occupancy (the small kernels' 28 registers against
# the persistent kernel's 58, i.e. 100 % against 50 %) pays; below, the persistent kernel's
# barriers are cheaper than launches (docs/gpu.md).
BATCHED_MIN = 1 << 19


@cuda.jit(device=True, inline=True)
def _in_phase(key, threshold, heavy):
    """Fallin et al. Alg. 2 line 6: the threshold condition (inverted in the heavy phase)."""
    if heavy:
        return key >= threshold
    return key < threshold


@cuda.jit(device=True, inline=True)
def _write_record(wl, pos, p, q, key, edge):
    """Record ``<p, q, key>`` at ``wl[0, pos]``, with its edge id where records carry one."""
    wl[0, pos, 0] = pack_pair(p, q)
    wl[0, pos, 1] = key
    if wl.shape[2] > 2:
        wl[0, pos, 2] = np.uint64(edge)


@cuda.jit(cache=True)
def _populate_edges(src, dst, keys, log, heavy, both_directions, parent, wl, counts):
    """Fallin et al. Alg. 2 lines 1-11, edge-centric: one thread per edge of the edge list,
    worklist slots reserved per block (:func:`~parmst.solvers.gpu._kernels.reserve_in_block`).

    Each undirected edge appears once, so one direction comes for free. In
    the heavy phase the endpoints are replaced by their sets and edges inside
    one set are filtered out (section 3.3). The threshold is ``log[0]``, where
    :func:`_reset_work` picked it.
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
            if _in_phase(key, threshold, heavy):
                # The light phase comes first, while every vertex is its own set: no find.
                # Only edges of this phase pay the (random) parent reads.
                p = np.int64(src[e])
                q = np.int64(dst[e])
                if heavy:
                    p = find(parent, p)
                    q = find(parent, q)
                keep = p != q
        pos = reserve_in_block(counts, 0, keep)
        if keep:
            _write_record(wl, pos, p, q, key, e)
        if both_directions:
            pos = reserve_in_block(counts, 0, keep)
            if keep:
                _write_record(wl, pos, q, p, key, e)


@cuda.jit(device=True)
def _emit_thread(v, beg, end, indices, csr_keys, csr_ids, threshold, heavy, both_directions,
                 parent, wl, counts):
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
                    _write_record(wl, pos, p, q, key, csr_ids[j])


@cuda.jit(device=True)
def _emit_warp(wide, v, indptr, indices, csr_keys, csr_ids, threshold, heavy, both_directions,
               parent, wl, counts):
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
                    _write_record(wl, pos, p, q, key, csr_ids[j])


@cuda.jit(cache=True)
def _populate_csr(indptr, indices, csr_keys, csr_ids, log, heavy, both_directions,
                  warp_degree, parent, wl, counts):
    """Fallin et al. Alg. 2 lines 1-11 over CSR with the hybrid thread/warp split (section 3.2);
    the threshold is ``log[0]``."""
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
                             both_directions, parent, wl, counts)
        if WARP_INTRINSICS:
            _emit_warp(wide, v, indptr, indices, csr_keys, csr_ids, threshold, heavy,
                       both_directions, parent, wl, counts)


_relax_items, _select_items = worklist_round(find, join)


@cuda.jit(cache=True)
def _relax(wl, counts, cur, parent, min_edge, guard, sizes, round_):
    """One launch of :func:`_relax_items` (``launch="per-round"``, ``"batched"``); the
    worklist size goes to ``sizes[round_ + 1]`` where ``round_ >= 0`` (batched rounds, whose
    sizes the host never reads)."""
    if cuda.grid(1) == 0 and 0 <= round_ < sizes.shape[0] - 1:
        sizes[round_ + 1] = np.uint64(counts[cur])
    _relax_items(wl, counts, cur, parent, min_edge, guard)


@cuda.jit(cache=True)
def _settle_ties(wl, counts, cur, min_edge, min_id):
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
def _select(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask, src, dst,
            vertex_ratio, forest):
    """Fallin et al. Alg. 2 lines 27-33, one launch (``launch="per-round"``): by the vertices
    (:func:`_select_vertices`) or by the records (:func:`_select_items`), as
    :func:`_by_vertices` decides from the size on the device, the links counted in
    ``forest[0]``. The launch covers the larger of both (loops are grid-stride)."""
    if _by_vertices(min_edge, counts, cur, vertex_ratio):
        linked = _select_vertices(counts, cur, src, dst, parent, min_edge, min_id, in_forest,
                                  slot_mask)
    else:
        linked = _select_items(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask)
    _count_links(forest, linked)


@cuda.jit(cache=True)
def _reset(wl, counts, cur, min_edge, min_id, vertex_ratio):
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
def _all_rounds(wl, counts, cur, parent, min_edge, min_id, in_forest, slot_mask, guard, sizes,
                src, dst, vertex_ratio, forest):
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
    """
    grid = cuda.cg.this_grid()
    rounds = 0
    linked = 0
    while counts[cur] != 0:
        if cuda.grid(1) == 0 and rounds + 1 < sizes.shape[0]:
            sizes[rounds + 1] = np.uint64(counts[cur])
        rounds += 1
        _relax_items(wl, counts, cur, parent, min_edge, guard)
        grid.sync()
        if counts[1 - cur] == 0:
            break
        cur = 1 - cur
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
    sampled ``positions`` (a sort of the few samples by counting, ties in sample order, as
    NumPy's stable sort) into ``log[0]``; 0 (every edge heavy) without samples. One block
    runs it: the samples meet in its shared memory."""
    sample = cuda.shared.array(SAMPLE_SLOTS, np.uint64)
    t = cuda.threadIdx.x
    k = positions.shape[0]
    if t < k:
        sample[t] = keys[positions[t]]
    cuda.syncthreads()
    if t < k:
        rank = 0
        for j in range(k):
            if sample[j] < sample[t] or (sample[j] == sample[t] and j < t):
                rank += 1
        if rank == pick:
            log[0] = sample[t]
    if k == 0 and t == 0:
        log[0] = 0


@cuda.jit(cache=True)
def _reset_work(parent, min_edge, min_id, in_forest, counts, log, keys, positions, pick):
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


@functools.cache
def _resident_blocks(argument_types: tuple, block_size: int) -> int:
    """Blocks of :func:`_all_rounds` that fit on the device at once (a cooperative grid's limit)."""
    return _all_rounds.compile(argument_types).max_cooperative_grid_blocks(block_size)


def _cooperative_blocks(args: tuple, block_size: int) -> int:
    """Grid size for the persistent kernel: all resident blocks (one under the simulator,
    whose grid barrier spans a single block)."""
    if runtime.simulator_active():
        return 1
    return _resident_blocks(tuple(_all_rounds.typeof_pyval(a) for a in args), block_size)


def _check_options(init: str, block_size: int, launch: str, persistent_below: int,
                   select: str = "auto", filter_target: float = FILTER_TARGET) -> None:
    if select not in SELECTS:
        raise ValueError(f"ecl/gpu: select must be one of {SELECTS}, got {select!r}")
    if not (isinstance(filter_target, (int, float)) and 0 < filter_target < math.inf):
        raise ValueError(f"ecl/gpu: filter_target must be a positive number, "
                         f"got {filter_target!r}")
    if init not in INITS:
        raise ValueError(f"ecl/gpu: init must be one of {INITS}, got {init!r}")
    if launch not in LAUNCHES:
        raise ValueError(f"ecl/gpu: launch must be one of {LAUNCHES}, got {launch!r}")
    if block_size % 32 or not 32 <= block_size <= 1024:
        raise ValueError(f"ecl/gpu: block_size must be a multiple of 32 in 32..1024, "
                         f"got {block_size}")
    if int(persistent_below) != persistent_below or persistent_below < 1:
        raise ValueError(f"ecl/gpu: persistent_below must be an integer of at least 1, "
                         f"got {persistent_below!r}")


def _device_bytes(graph, init: str, capacity: int, record_words: int) -> int:
    n, m = graph.num_vertices, graph.num_edges
    index = graph.index_dtype.itemsize
    graph_bytes = (2 * index + 8) * m if init == "edge" else (n + 1 + 2 * m) * index + 16 * m
    tie_ids = 8 * n if record_words > 2 else 0
    return graph_bytes + 2 * capacity * 8 * record_words + n * (4 + 8) + tie_ids + m + 16


class _Run:
    """The device state of one solve: arrays, launch shape, and the round loop.

    The host never waits inside a solve of a graph whose worklists stay below
    ``persistent_below`` records: one launch resets the work and picks the
    filter threshold on the device (:func:`_reset_work`), each phase is one
    populate launch and one persistent launch that reads the worklist sizes where
    they are, and the solve's log (threshold, rounds, sizes) comes back in one
    copy at the end (:meth:`finish`). Only rounds of at least
    ``persistent_below`` records read their size, one copy each, to size their
    launches: those rounds take milliseconds, the copy tens of microseconds.
    """

    def __init__(self, graph, edges, keys, init, both_directions, block_size, launch,
                 persistent_below, select, plan, stats, lease, batched_min=BATCHED_MIN):
        n, m = graph.num_vertices, graph.num_edges
        # Rounds with at least this many records run per-round launches.
        self.persistent_below = {"auto": int(persistent_below), "persistent": math.inf,
                                 "per-round": 1, "batched": int(persistent_below)}[launch]
        # Rounds of at least this many records (below persistent_below) run batched.
        self.batched_min = {"auto": int(batched_min), "persistent": math.inf,
                            "per-round": math.inf, "batched": 0}[launch]
        # Selecting by vertices needs each slot's endpoints: the edge list.
        by_vertices = select == "auto" and init == "edge"
        self.vertex_ratio = VERTEX_SELECT_RATIO if by_vertices else 0
        self.block_size, self.max_blocks = runtime.launch_limits(block_size)
        self.init = init
        self.both_directions = both_directions
        # Two-pass keys: records carry the edge id, sets a tie-breaking id (empty: packed keys).
        two_pass = keys.mode == "two-pass"
        record_words = 3 if two_pass else 2
        self.capacity = max(1, m * (2 if both_directions else 1))
        needed = _device_bytes(graph, init, self.capacity, record_words)
        stats.extra["device_memory_bytes"] = needed
        # From the device pool: a solve of a graph of these sizes (this one again, or a
        # fresh one) allocates nothing, and _reset_work sets every array it reads.
        self.parent, self.min_edge, self.min_id, self.in_forest, self.wl, self.counts, \
            self.log, no_samples = lease.take_all(
                [(n, np.int32), (n, np.uint64), (n if two_pass else 0, np.uint64),
                 (m, np.uint8), ((2, self.capacity, record_words), np.uint64), (4, np.int64),
                 (_LOG_SIZE, np.uint64), (0, np.int64)],
                check=lambda _: pool.ensure_memory("ecl/gpu", needed))
        # Each phase its own pair of worklist sizes, zeroed by _reset_work: no copy between.
        self.phase_counts = (self.counts[:2], self.counts[2:])
        self.phase_logs = (self.log[2:2 + _PHASE_LOG], self.log[2 + _PHASE_LOG:])
        self.forest = self.log[1:2]  # the forest's size, counted by the selects' links
        self.read_sizes = ([], [])  # sizes of the rounds that read them, per phase
        self.persistent = [False, False]
        self.batched_rounds = [0, 0]  # rounds queued between reads, per phase
        self.cooperative_blocks = None
        if init == "edge":
            self.graph_arrays = (edges.src, edges.dst, keys.keys)
        else:
            indptr, indices, edge_ids = _device.device_csr(graph, stats)
            self.graph_arrays = (indptr, indices, arrays.gather(keys.keys, edge_ids), edge_ids)
        positions, pick = (no_samples, 0) if plan is None else plan
        runtime.launch(_reset_work, self._grid(max(n, m)), self.parent, self.min_edge,
                       self.min_id, self.in_forest, self.counts, self.log, keys.keys, positions,
                       np.int64(pick))
        self.slot_mask = keys.slot_mask

    def _grid(self, count: int) -> tuple[int, int]:
        return min(self.max_blocks, runtime.blocks_for(count, self.block_size)), self.block_size

    def populate(self, phase: int, heavy: bool) -> None:
        """Fill ``wl[0]`` with the phase's edges, counted in the phase's worklist sizes."""
        counts = self.phase_counts[phase]
        if self.init == "edge":
            src, dst, keys = self.graph_arrays
            runtime.launch(_populate_edges, self._grid(len(src)), src, dst, keys, self.log,
                           heavy, self.both_directions, self.parent, self.wl, counts)
        else:
            indptr, indices, csr_keys, csr_ids = self.graph_arrays
            wide = WARP_MIN_DEGREE if self.init == "hybrid" and WARP_INTRINSICS else _NEVER
            runtime.launch(_populate_csr, self._grid(len(indptr) - 1), indptr, indices,
                           csr_keys, csr_ids, self.log, heavy, self.both_directions, wide,
                           self.parent, self.wl, counts)

    def rounds(self, phase: int, guard: bool) -> None:
        """Fallin et al. Alg. 2 lines 12-39 from the records that :meth:`populate` put in
        ``wl[0]``.

        While a round may hold at least ``persistent_below`` records, ECL-MST's
        host loop: the size read back, then relax, (two-pass keys: settle ties),
        select and reset launched over it; the kernels read the sizes on the
        device, and the select picks vertices or records there. The remaining
        rounds run in one cooperative launch (:meth:`_rounds_persistent`), or with
        ``launch="batched"`` as ecl/opencl runs them (:meth:`_rounds_batched`).
        """
        counts = self.phase_counts[phase]
        bound = self.capacity  # worklists only shrink: the last size read bounds the next
        cur = 0
        while bound >= self.persistent_below:
            size = int(runtime.read(counts)[cur])
            if not size:
                return
            if size < self.persistent_below:
                bound = size
                break
            self.read_sizes[phase].append(size)
            self._round(phase, cur, size, guard, -1)
            cur = 1 - cur
            bound = size
        cur, bound = self._rounds_batched(phase, cur, bound, guard)
        if bound:
            self._rounds_persistent(phase, cur, guard)

    def _round(self, phase: int, cur: int, bound: int, guard: bool, round_: int) -> None:
        """One round's launches over at most ``bound`` records of ``wl[cur]``: relax, (two-pass
        keys: settle ties), select and reset, each reading the sizes on the device."""
        counts = self.phase_counts[phase]
        runtime.launch(_relax, self._grid(bound), self.wl, counts, cur, self.parent,
                       self.min_edge, guard, self.phase_logs[phase], round_)
        cur = 1 - cur
        if len(self.min_id):
            runtime.launch(_settle_ties, self._grid(bound), self.wl, counts, cur,
                           self.min_edge, self.min_id)
        src, dst = self.graph_arrays[:2]
        vertices = len(self.min_edge) if self.vertex_ratio else 0
        runtime.launch(_select, self._grid(max(bound, vertices)), self.wl, counts, cur,
                       self.parent, self.min_edge, self.min_id, self.in_forest, self.slot_mask,
                       src, dst, self.vertex_ratio, self.forest)
        runtime.launch(_reset, self._grid(bound), self.wl, counts, cur, self.min_edge,
                       self.min_id, self.vertex_ratio)

    def _rounds_batched(self, phase: int, cur: int, bound: int, guard: bool) -> tuple[int, int]:
        """ecl/opencl's loop while the last size read is at least ``batched_min``:
        :data:`ROUNDS_PER_CHECK` rounds queued over that size (a bound: worklists only
        shrink; rounds after the last are empty launches), then one read. Each round is a
        full grid of separate launches where the persistent kernel runs on the resident
        grid. Returns the list that holds the remaining records and a bound on their count
        (0: none left)."""
        while bound and bound >= self.batched_min:
            for _ in range(ROUNDS_PER_CHECK):
                self._round(phase, cur, bound, guard, self.batched_rounds[phase])
                self.batched_rounds[phase] += 1
                cur = 1 - cur
            bound = int(runtime.read(self.phase_counts[phase])[cur])
        return cur, bound

    def _rounds_persistent(self, phase: int, cur: int, guard: bool) -> None:
        """The remaining rounds in one cooperative launch sized to the resident blocks."""
        # Without vertex selection (ratio 0) the first two graph arrays only fill the slots.
        args = (self.wl, self.phase_counts[phase], cur, self.parent, self.min_edge,
                self.min_id, self.in_forest, self.slot_mask, guard,
                self.phase_logs[phase][self._persistent_log(phase):],
                *self.graph_arrays[:2], self.vertex_ratio, self.forest)
        if self.cooperative_blocks is None:  # the same argument types in both phases
            self.cooperative_blocks = _cooperative_blocks(args, self.block_size)
        runtime.launch(_all_rounds, (self.cooperative_blocks, self.block_size), *args)
        self.persistent[phase] = True

    def finish(self) -> np.ndarray:
        """The solve's log, copied back once the kernels are done (the solve's one wait)."""
        return runtime.read(self.log)

    def _persistent_log(self, phase: int) -> int:
        """Where the persistent kernel's part of a phase's log starts: after the sizes of the
        phase's batched rounds (``launch="auto"`` runs both kinds in one phase)."""
        batched = self.batched_rounds[phase]
        return min(batched + 1, _PHASE_LOG - 2) if batched else 0

    def record(self, log: np.ndarray, stats: Stats) -> None:
        """Rounds and worklist sizes of both phases, from the host's reads and the log."""
        sizes = []
        persistent_rounds = 0
        for phase in (0, 1):
            sizes += self.read_sizes[phase]
            start = 2 + phase * _PHASE_LOG
            if self.batched_rounds[phase]:
                logged = log[start + 1:start + 1 + min(self.batched_rounds[phase], _MAX_ROUNDS)]
                sizes += [int(x) for x in logged if x]
            if self.persistent[phase]:
                start += self._persistent_log(phase)
                rounds = int(log[start])
                persistent_rounds += rounds
                sizes += [int(x) for x in log[start + 1:start + 1 + rounds]]
        if any(self.persistent):
            stats.extra["persistent_rounds"] = persistent_rounds
        stats.rounds = (stats.rounds or 0) + len(sizes)
        stats.worklist_sizes.extend(sizes)


def solve(graph, stats: Stats, *, init: str = "edge", filter: bool = True,
          atomic_guards: bool = True, both_directions: bool = False,
          block_size: int = runtime.DEFAULT_BLOCK_SIZE, launch: str = "auto",
          persistent_below: int = PERSISTENT_BELOW, batched_min: int = BATCHED_MIN,
          seed: int = 0,
          keys: str = "auto", select: str = "auto",
          filter_target: float = FILTER_TARGET) -> np.ndarray:
    """Edge ids of the minimum spanning forest by ECL-MST on the GPU.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        ``compute_time`` covers the kernels with the graph already on the
        device and the result left there (ECL-MST's own timer);
        ``init_time`` the host-to-device transfer (none for a graph on the
        device or a host graph's cached copy) and the key preparation on the
        device (cached on the graph too); ``extra["end_to_end_time"]`` adds
        the compaction of the forest's ids and, for a host graph, their
        copy-back ("ECL-MST memcpy"). A graph on the device gets its ids back
        as a device array.
    init : {"edge", "hybrid", "thread"}
        How the first worklist is populated: from the edge list, one thread
        per edge; or from the CSR view, Fallin et al.'s hybrid thread/warp split,
        or one thread per vertex (the "Thread-Based" ablation).
    filter : bool
        Fallin et al.'s single sampled-threshold filtering step (used only at
        average degree >= 4).
    atomic_guards : bool
        Load before atomicMin (Fallin et al. section 5.3 (1)).
    both_directions : bool
        Process each edge in both directions (ablation (5); off by default).
    block_size : int
        Threads per block, a multiple of 32.
    launch : {"auto", "persistent", "per-round", "batched"}
        ``"per-round"``: ECL-MST's three launches and a worklist-size copy per
        round; ``"persistent"``: all rounds in one cooperative kernel with
        grid-wide barriers; ``"auto"``: per-round while a round has at least
        ``persistent_below`` records, persistent after; ``"batched"``: as
        ``"auto"``, but every smaller round as ecl/opencl runs them, a full grid
        of launches per round, :data:`ROUNDS_PER_CHECK` rounds between reads of
        the worklist size (docs/gpu.md); ``"auto"`` runs its rounds of at
        least ``batched_min`` records (below ``persistent_below``) so, the rest
        in the persistent kernel.
    persistent_below : int
        ``launch="auto"``'s hand-over size (default :data:`PERSISTENT_BELOW`,
        measured on an H100); tests lower it to run both launch modes in one
        solve on a small graph.
    batched_min : int
        ``launch="auto"``'s smallest round run as separate launches rather than
        in the persistent kernel (default :data:`BATCHED_MIN`; at least
        ``persistent_below`` keeps every smaller round persistent).
    seed : int
        Seed of the threshold sample.
    keys : {"auto", "packed", "two-pass"}
        Key method of :func:`parmst.solvers.gpu._keys.device_keys`: packed
        ``(weight, edge_id)`` keys where they fit (``"auto"``), or the
        weight keys with the edge id carried in each record and ties settled
        by a second atomicMin (``"two-pass"``, the route for weights that do
        not pack; no sort).
    select : {"auto", "records"}
        How a round picks the edges that join sets: ``"records"`` as ECL-MST
        (every record checks whether it is the minimum of either set, then
        every record clears its sets' minima); ``"auto"`` sweeps the vertices
        instead while there are at most :data:`VERTEX_SELECT_RATIO` vertices
        per record (edge-list initialization only).
    filter_target : float
        Light edges aimed at, per vertex (default :data:`FILTER_TARGET`,
        Fallin et al.'s 3|V| CSR entries).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "ecl/gpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    _check_options(init, block_size, launch, persistent_below, select, filter_target)
    if int(batched_min) != batched_min or batched_min < 1:
        raise ValueError(f"ecl/gpu: batched_min must be an integer of at least 1, "
                         f"got {batched_min!r}")
    with runtime.tally() as tally, pool.lease() as lease:
        with stats.init():
            edges = _device.device_graph(graph, stats)
            keys = graph_keys(graph, keys, stats, unpacked="two-pass")
            plan = threshold_plan(graph.num_edges, graph.num_vertices, seed,
                                  filter_target) if filter else None
            run = _Run(graph, edges, keys, init, both_directions, block_size, launch,
                       persistent_below, select, plan, stats, lease, batched_min)
        heavy_phases = (True,) if plan is None else (False, True)
        with stats.compute():
            marks = [runtime.mark()]
            for phase, heavy in enumerate(heavy_phases):
                run.populate(phase, heavy)
                run.rounds(phase, atomic_guards)
                marks.append(runtime.mark())
            log = run.finish()
        # Device time per phase: the host queues a phase's kernels without waiting for them.
        for name, start, end in zip(("light", "heavy"), marks, marks[1:]):
            stats.phases[name] = stats.phases.get(name, 0.0) + runtime.elapsed(start, end)
        run.record(log, stats)
        stats.extra.update(key_method=keys.mode, init=init,
                           filter_threshold=None if plan is None else int(log[0]))
        edge_ids = _device.result_ids(graph, keys, run.in_forest, stats, int(log[1]))
    stats.extra.update(tally)
    _device.record_device(stats, stats.extra["device_memory_bytes"])
    return edge_ids
