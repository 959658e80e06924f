"""The host side of ECL-MST on CUDA: one solve's device state and its round loop.

:class:`Run` holds a solve's arrays (from the device pool, after the memory
check), launches the kernels of :mod:`parmst.solvers.gpu._ecl_kernels` and
records the rounds in the solve's statistics.

Launches (ours): every launch goes from a pre-packed parameter block straight to the
driver (:mod:`parmst._cuda.packed`; numba-cuda's dispatcher spends 69-81 µs of host time
per launch on the H100 host), and every copy back leaves the device idle while the host
queues the next kernels, so
the host loop waits as little as the dependencies allow (docs/gpu.md): one launch
resets the work and picks the filter threshold on the device
(:func:`~parmst.solvers.gpu._ecl_kernels.reset_work`);
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

from parmst._cuda import arrays, pool, runtime
from parmst.solvers.ecl_host import VERTEX_SELECT_RATIO
from parmst.solvers.gpu import _device
from parmst.solvers.gpu import _ecl_kernels as kernels
from parmst.solvers.gpu._kernels import WARP_INTRINSICS
from parmst.stats import Stats

WARP_MIN_DEGREE = 4  # Fallin et al. section 3.2: a whole warp for vertices of degree >= 4
_NEVER = 2**62
_MAX_ROUNDS = 64  # Borůvka at least halves the trees that still have edges: <= 32 rounds
# The solve's log on the device, read once at its end: the threshold, the forest's size, then
# per phase the round count and worklist sizes that the host did not read.
_PHASE_LOG = _MAX_ROUNDS + 1
_LOG_SIZE = 2 + 2 * _PHASE_LOG
# launch="batched": rounds queued between two reads of the worklist size (ecl/opencl's loop).
ROUNDS_PER_CHECK = 4
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
# The populates' blocks hold at most this many threads. A populate thread reads an edge, waits
# for it, then for its block's barriers and worklist reservation: a block's life is a chain of
# latencies, so what hides them is how many blocks an SM holds. At 47 registers a thread an
# SM holds two blocks of 512 (1,024 threads) but five of 256 (1,280), and a barrier waits for
# half as many warps: on an H200, RMAT 22's computation went from 6.97 to 6.24 ms and
# random-degree's from 7.70 to 6.87 (docs/gpu.md, "RMAT 22 on the H200, kernel by kernel").
POPULATE_BLOCK_SIZE = 256


@functools.cache
def _resident_blocks(argument_types: tuple, block_size: int) -> int:
    """Blocks of :func:`~parmst.solvers.gpu._ecl_kernels.all_rounds` that fit on the device at
    once (a cooperative grid's limit)."""
    return kernels.all_rounds.compile(argument_types).max_cooperative_grid_blocks(block_size)


def _cooperative_blocks(args: tuple, block_size: int) -> int:
    """Grid size for the persistent kernel: all resident blocks (one under the simulator,
    whose grid barrier spans a single block)."""
    if runtime.simulator_active():
        return 1
    return _resident_blocks(tuple(kernels.all_rounds.typeof_pyval(a) for a in args), block_size)


def _device_bytes(graph, init: str, capacity: int, record_words: int) -> int:
    """Device bytes of one solve, checked before anything is allocated: the graph as the
    populate reads it (edge list and keys, or CSR with keys and ids), both worklists, the sets
    and their minima (and tie-breaking ids), the forest's flags and the counters."""
    n, m = graph.num_vertices, graph.num_edges
    index = graph.index_dtype.itemsize
    graph_bytes = (2 * index + 8) * m if init == "edge" else (n + 1 + 2 * m) * index + 16 * m
    tie_ids = 8 * n if record_words > 2 else 0
    return graph_bytes + 2 * capacity * 8 * record_words + n * (4 + 8) + tie_ids + m + 16


class Run:
    """The device state of one solve: arrays, launch shape, and the round loop.

    The host never waits inside a solve of a graph whose worklists stay below
    ``persistent_below`` records: one launch resets the work and picks the
    filter threshold on the device
    (:func:`~parmst.solvers.gpu._ecl_kernels.reset_work`), each phase is one
    populate launch and one persistent launch that reads the worklist sizes where
    they are, and the solve's log (threshold, rounds, sizes) comes back in one
    copy at the end (:meth:`finish`). Only rounds of at least
    ``persistent_below`` records read their size, one copy each, to size their
    launches: those rounds take milliseconds, the copy tens of microseconds.
    """

    def __init__(self, graph, edges, keys, init, both_directions, block_size, launch,
                 persistent_below, select, plan, stats, lease, batched_min=BATCHED_MIN,
                 fused=False, guard=True, max_registers=None):
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
        self.populate_block_size = min(self.block_size, POPULATE_BLOCK_SIZE)
        self.init = init
        self.both_directions = both_directions
        self.fused = fused
        self.guard = guard
        self.populate_edges, self.populate_csr = kernels.populate_kernels(fused, max_registers)
        self.relax_kernel = kernels.relax_kernel(max_registers)
        # Whether the next round's records had their minima lowered by the populate (fused):
        # that round starts at its select.
        self.relaxed = False
        # Two-pass keys: records carry the edge id, sets a tie-breaking id (empty: packed keys).
        two_pass = keys.mode == "two-pass"
        record_words = 3 if two_pass else 2
        self.capacity = max(1, m * (2 if both_directions else 1))
        needed = _device_bytes(graph, init, self.capacity, record_words)
        stats.extra["device_memory_bytes"] = needed
        # From the device pool: a solve of a graph of these sizes (this one again, or a
        # fresh one) allocates nothing, and kernels.reset_work sets every array it reads.
        self.parent, self.min_edge, self.min_id, self.in_forest, self.wl, self.counts, \
            self.log, no_samples = lease.take_all(
                [(n, np.int32), (n, np.uint64), (n if two_pass else 0, np.uint64),
                 (m, np.uint8), ((2, self.capacity, record_words), np.uint64), (4, np.int64),
                 (_LOG_SIZE, np.uint64), (0, np.int64)],
                check=lambda _: pool.ensure_memory("ecl/gpu", needed))
        # Each phase its own pair of worklist sizes, zeroed by kernels.reset_work: no copy between.
        self.phase_counts = (runtime.part(self.counts, 0, 2), runtime.part(self.counts, 2))
        self.phase_logs = (runtime.part(self.log, 2, 2 + _PHASE_LOG),
                           runtime.part(self.log, 2 + _PHASE_LOG))
        # The forest's size, counted by the selects' links.
        self.forest = runtime.part(self.log, 1, 2)
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
        reset_grid = runtime.streaming_grid(max(n, m), self.block_size)
        runtime.launch(kernels.reset_work, reset_grid, self.parent, self.min_edge,
                       self.min_id, self.in_forest, self.counts, self.log, keys.keys, positions,
                       np.int64(pick))
        self.slot_mask = keys.slot_mask

    def _grid(self, count: int, block_size: int | None = None) -> tuple[int, int]:
        block_size = block_size or self.block_size
        return min(self.max_blocks, runtime.blocks_for(count, block_size)), block_size

    def flatten(self) -> None:
        """Point every vertex at its set's root (:func:`~parmst.solvers.gpu._ecl_kernels.flatten_sets`),
        so that the heavy populate's finds take at most two reads."""
        runtime.launch(kernels.flatten_sets, self._grid(len(self.parent)), self.parent)

    def populate(self, phase: int, heavy: bool) -> None:
        """Fill ``wl[0]`` with the phase's edges, counted in the phase's worklist sizes (and,
        fused, their keys in the sets' minima: the first round starts at its select)."""
        counts = self.phase_counts[phase]
        if self.init == "edge":
            src, dst, keys = self.graph_arrays
            grid = self._grid(len(src), self.populate_block_size)
            runtime.launch(self.populate_edges, grid, src, dst, keys, self.log, heavy,
                           self.both_directions, self.parent, self.wl, counts, self.min_edge,
                           self.guard)
        else:
            indptr, indices, csr_keys, csr_ids = self.graph_arrays
            wide = WARP_MIN_DEGREE if self.init == "hybrid" and WARP_INTRINSICS else _NEVER
            grid = self._grid(len(indptr) - 1, self.populate_block_size)
            runtime.launch(self.populate_csr, grid, indptr, indices, csr_keys,
                           csr_ids, self.log, heavy, self.both_directions, wide, self.parent,
                           self.wl, counts, self.min_edge, self.guard)
        self.relaxed = self.fused

    def rounds(self, phase: int) -> None:
        """Fallin et al. Alg. 2 lines 12-39 from the records that :meth:`populate` put in
        ``wl[0]``.

        While a round holds at least ``persistent_below`` records, ECL-MST's host
        loop as ecl/opencl runs it: the relax launched over the size read last,
        then its output's size read back, so that the select covers exactly what
        it sweeps (the vertices, with no reset after, or the records and a reset),
        the host deciding by the kernel's own rule. The remaining rounds run in one
        cooperative launch (:meth:`_rounds_persistent`), or with
        ``launch="batched"`` as ecl/opencl runs them (:meth:`_rounds_batched`).
        """
        counts = self.phase_counts[phase]
        cur = 0
        bound = self.capacity  # worklists only shrink: the last size read bounds the next
        if bound >= self.persistent_below:
            bound = int(runtime.read(counts)[cur])  # the populate's
        while bound >= self.persistent_below:
            self.read_sizes[phase].append(bound)
            relaxed = self.relaxed
            cur = self._relax(phase, cur, bound, -1)
            if not relaxed:
                bound = int(runtime.read(counts)[cur])
                if not bound:
                    return
            by_vertices = bool(self.vertex_ratio) and \
                len(self.min_edge) <= self.vertex_ratio * bound
            self._select(phase, cur, bound, -1, by_vertices)
        cur, bound = self._rounds_batched(phase, cur, bound)
        if bound:
            self._rounds_persistent(phase, cur)

    def _relax(self, phase: int, cur: int, bound: int, round_: int) -> int:
        """The relax over at most ``bound`` records of ``wl[cur]`` (its size logged at
        ``round_`` where ``round_ >= 0``), unless the populate did it (:attr:`relaxed`).
        Returns the list the round's select reads."""
        if self.relaxed:
            self.relaxed = False
            return cur
        runtime.launch(self.relax_kernel, self._grid(bound), self.wl, self.phase_counts[phase], cur,
                       self.parent, self.min_edge, self.guard, self.phase_logs[phase], round_)
        return 1 - cur

    def _select(self, phase: int, cur: int, bound: int, round_: int,
                by_vertices: bool | None) -> None:
        """(Two-pass keys: settle ties,) select and reset over ``wl[cur]``, which holds at most
        ``bound`` records. ``by_vertices``: what the select will sweep where the host knows
        the size (the launch covers only that, and no reset follows a sweep of the
        vertices), ``None`` where it knows a bound only (the launches cover both, the kernels
        decide). ``round_ >= 0``: the round had no relax, the select logs its size."""
        counts = self.phase_counts[phase]
        if len(self.min_id):
            runtime.launch(kernels.settle_ties, self._grid(bound), self.wl, counts, cur,
                           self.min_edge, self.min_id)
        src, dst = self.graph_arrays[:2]
        vertices = len(self.min_edge) if self.vertex_ratio else 0
        sweep = {None: max(bound, vertices), True: vertices, False: bound}[by_vertices]
        runtime.launch(kernels.select, self._grid(sweep), self.wl, counts, cur, self.parent,
                       self.min_edge, self.min_id, self.in_forest, self.slot_mask, src, dst,
                       self.vertex_ratio, self.forest, self.phase_logs[phase], round_)
        if not by_vertices:
            runtime.launch(kernels.reset, self._grid(bound), self.wl, counts, cur,
                           self.min_edge, self.min_id, self.vertex_ratio)

    def _round(self, phase: int, cur: int, bound: int, round_: int) -> int:
        """One round's launches over at most ``bound`` records of ``wl[cur]``, each reading the
        sizes on the device: :meth:`_relax` and :meth:`_select`. ``round_``: the round's index
        in the phase's log, where its first kernel writes its size. Returns the list the next
        round reads."""
        select_round = round_ if self.relaxed else -1
        cur = self._relax(phase, cur, bound, round_)
        self._select(phase, cur, bound, select_round, None)
        return cur

    def _rounds_batched(self, phase: int, cur: int, bound: int) -> tuple[int, int]:
        """ecl/opencl's loop while the last size read is at least ``batched_min``:
        :data:`ROUNDS_PER_CHECK` rounds queued over that size (a bound: worklists only
        shrink; rounds after the last are empty launches), then one read. Each round is a
        full grid of separate launches where the persistent kernel runs on the resident
        grid. Returns the list that holds the remaining records and a bound on their count
        (0: none left)."""
        while bound and bound >= self.batched_min:
            for _ in range(ROUNDS_PER_CHECK):
                cur = self._round(phase, cur, bound, self.batched_rounds[phase])
                self.batched_rounds[phase] += 1
            bound = int(runtime.read(self.phase_counts[phase])[cur])
        return cur, bound

    def _rounds_persistent(self, phase: int, cur: int) -> None:
        """The remaining rounds in one cooperative launch sized to the resident blocks."""
        # Without vertex selection (ratio 0) the first two graph arrays only fill the slots.
        args = (self.wl, self.phase_counts[phase], cur, self.parent, self.min_edge,
                self.min_id, self.in_forest, self.slot_mask, self.guard,
                runtime.part(self.phase_logs[phase], self._persistent_log(phase)),
                *self.graph_arrays[:2], self.vertex_ratio, self.forest, self.relaxed)
        self.relaxed = False
        if self.cooperative_blocks is None:  # the same argument types in both phases
            self.cooperative_blocks = _cooperative_blocks(args, self.block_size)
        runtime.launch(kernels.all_rounds, (self.cooperative_blocks, self.block_size), *args)
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
