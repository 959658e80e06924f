"""ECL-MST on any OpenCL device (Fallin et al., Algs. 1-2 and section 3.2), kernels in ``ecl.cl``.

The same data-driven, edge-centric loop as ``ecl/gpu``: a worklist of
``<v, n, key>`` records; every round each record finds the sets of its
endpoints (dropping itself when they match, storing the sets in place of
the vertices: implicit path compression) and records its packed
``(weight, id)`` key in both sets with a guarded 64-bit ``atom_min``
(``cl_khr_int64_extended_atomics``); then every record that won a set
joins the two sets and enters the forest. A sampled threshold splits the
edges into a light phase and a filtered heavy phase. Each undirected edge
is one record (one direction). Keys and threshold come from the host key
preparation every backend shares (:func:`parmst.order.edge_keys`, packed or
ranks, and :func:`~parmst.solvers.ecl_host.light_threshold`); ``ecl/gpu`` makes
its keys by the same rule on the device.

OpenCL has no portable warp vote, so worklist slots are reserved per
work-group (a local atomic per record, one global atomic per group) where
ECL-MST aggregates per warp. Rounds are launched from the host. A round of at
least :data:`BATCH_BELOW` records reads its worklist size back, as ECL-MST
does, and selects as ``ecl/gpu`` does: by sweeping the vertices while there
are at most :data:`~parmst.solvers.ecl_host.VERTEX_SELECT_RATIO` of them per
record (the sweep clears the minima, so no reset launch follows), else by
records with a reset. Smaller rounds are enqueued :data:`ROUNDS_PER_CHECK` at
a time between reads of the size (the kernels read it on the device). The
filter threshold aims at ``ecl/gpu``'s light-edge count
(:data:`~parmst.solvers.ecl_host.DEVICE_FILTER_TARGET`).
"""

from __future__ import annotations

import time

import numpy as np

from parmst._opencl import runtime as _runtime
from parmst._opencl.runtime import PhaseTimer
from parmst.errors import SolverUnavailable
from parmst.order import edge_keys
from parmst.solvers.ecl_host import DEVICE_FILTER_TARGET, VERTEX_SELECT_RATIO, light_threshold
from parmst.solvers.opencl import BATCH_BELOW
from parmst.stats import Stats

__all__ = ["BATCH_BELOW", "ROUNDS_PER_CHECK", "device_bytes", "limit", "solve"]

ROUNDS_PER_CHECK = 4
"""Rounds enqueued between two reads of the worklist size (each read synchronizes)."""

# Borůvka at least halves the sets that still have edges each round: <= 32 per phase,
# plus up to ROUNDS_PER_CHECK - 1 empty rounds each.
_MAX_ROUNDS = 2 * (32 + ROUNDS_PER_CHECK)
_ROUND_ARGUMENT = 9  # relax's ``round``, the one argument that changes between its launches
# A set's minimum before any record is seen: above every key, packed (< 2**63) or rank.
_NO_EDGE = np.uint64(2**64 - 1)


def device_bytes(n: int, m: int) -> tuple[int, int]:
    """Device memory a solve holds (edge list, two worklists, sets, minima, flags) and the
    largest single buffer (one worklist)."""
    worklist = 16 * max(m, 1)
    return 16 * m + 2 * worklist + 12 * n + m + 8, worklist


def limit(graph) -> bool | str:
    """``True`` when vertex ids and worklist positions fit the kernels' 32-bit words."""
    if graph.num_vertices >= 2**32 or graph.num_edges >= 2**32:
        return "ecl/opencl: 32-bit vertex ids and worklist positions need |V|, |E| < 2**32"
    return True


class _Run:
    """The device state of one solve and the round loop."""

    def __init__(self, env, graph, keys, guard: bool, batch_below: int):
        import pyopencl as cl

        self.q = env.queue
        self.wg = 256 if not env.device.type & cl.device_type.CPU else 64
        self.timer = PhaseTimer()
        n, m = graph.num_vertices, graph.num_edges
        self.n, self.m = n, m
        self.batch_below = batch_below
        self.vertex_selects = 0
        # Every buffer is written or filled here, so that the device holds it before the
        # timed rounds (drivers may allocate and copy at a buffer's first use). The edges go
        # in slot order, so that a key's slot is also its edge's position (select_vertices).
        src, dst, ordered_keys = graph.src, graph.dst, keys.keys
        if keys.order is not None:
            src, dst, ordered_keys = src[keys.order], dst[keys.order], ordered_keys[keys.order]
        self.edges = tuple(_runtime.to_device(env, a) for a in (
            src.astype(np.uint32), dst.astype(np.uint32), ordered_keys)) if m else None
        self.parent = _runtime.to_device(env, np.arange(max(n, 1), dtype=np.uint32))
        self.min_edge = _runtime.filled(env, n, np.uint64, _NO_EDGE)
        self.in_forest = _runtime.filled(env, m, np.uint8)
        self.wl = [_runtime.filled(env, 2 * m, np.uint64) for _ in range(2)]
        self.counts = _runtime.filled(env, 2, np.uint32)
        self._sizes = np.zeros(_MAX_ROUNDS, np.uint32)
        self.sizes = _runtime.filled(env, _MAX_ROUNDS, np.uint32)
        self.round = 0
        self._count = np.empty(2, np.uint32)
        self._preset_kernels(env.program("ecl.cl", f"-DWG={self.wg}"), keys.slot_mask, guard)

    def _preset_kernels(self, program, slot_mask, guard: bool) -> None:
        """One kernel object per kernel and worklist parity, arguments set once (indexed by
        the list the round reads)."""
        preset, slot_mask = _runtime.preset_kernel, np.uint64(slot_mask)
        self.program = program
        self.relax, self.select, self.reset, self.select_vertices = [], [], [], []
        for cur in (0, 1):
            wl_in, wl_out, c_in, c_out = (self.wl[cur], self.wl[1 - cur], np.uint32(cur),
                                          np.uint32(1 - cur))
            self.relax.append(preset(program, "relax", wl_in, wl_out, self.counts, c_in,
                                     c_out, self.parent, self.min_edge, np.int32(guard),
                                     self.sizes, np.uint32(0)))
            # The select kernels of the round that reads wl[cur] see its output wl[1 - cur].
            self.select.append(preset(program, "select_edges", wl_out, self.counts, c_out,
                                      self.parent, self.min_edge, self.in_forest, slot_mask))
            self.reset.append(preset(program, "reset", wl_out, self.counts, c_out, c_in,
                                     self.min_edge))
            if self.m:
                src, dst, _ = self.edges
                self.select_vertices.append(preset(
                    program, "select_vertices", self.counts, c_in, src, dst, self.parent,
                    self.min_edge, self.in_forest, slot_mask, np.uint32(self.n)))

    def _launch(self, phase: str, kernel, count: int) -> None:
        self.timer.add(phase, _runtime.enqueue(self.q, kernel, count, self.wg))

    def _size(self, slot: int) -> int:
        import pyopencl as cl

        cl.enqueue_copy(self.q, self._count, self.counts)
        return int(self._count[slot])

    def populate(self, threshold, heavy: bool) -> int:
        """Fill worklist 0 with the phase's edges; returns how many."""
        import pyopencl as cl

        if not self.m:
            return 0
        cl.enqueue_fill_buffer(self.q, self.counts, np.zeros(1, np.uint32), 0, 8)
        src, dst, keys = self.edges
        kernel = _runtime.preset_kernel(
            self.program, "populate", src, dst, keys, np.uint32(self.m), np.uint64(threshold),
            np.int32(heavy), self.parent, self.wl[0], self.counts)
        self._launch("populate", kernel, self.m)
        return self._size(0)

    def _relax(self, bound: int, cur: int) -> None:
        """Relax the records of ``wl[cur]`` into ``wl[1 - cur]`` (round number set here)."""
        if self.round == len(self._sizes):
            raise RuntimeError("ecl/opencl: more rounds than Borůvka can take")
        self.relax[cur].set_arg(_ROUND_ARGUMENT, np.uint32(self.round))
        self._launch("relax", self.relax[cur], bound)
        self.round += 1

    def _select_by_records(self, bound: int, cur: int) -> None:
        """Select and reset by the records the round that read ``wl[cur]`` kept."""
        self._launch("select", self.select[cur], bound)
        self._launch("reset", self.reset[cur], bound)

    def rounds(self, size: int) -> None:
        """Fallin et al. Alg. 2 lines 12-39 from worklist 0 holding ``size`` records.

        While a round has at least ``batch_below`` records, ECL-MST's loop:
        the host reads the worklist size after each relax and picks the select
        (by vertices when there are few vertices per record). Smaller rounds:
        the kernels read the sizes on the device, and the host enqueues
        :data:`ROUNDS_PER_CHECK` rounds between reads (rounds after the last are
        empty launches), since each read is a full synchronization.
        """
        cur = 0
        while size and size >= self.batch_below:
            self._relax(size, cur)
            size = self._size(1 - cur)
            if size and self.n <= VERTEX_SELECT_RATIO * size:
                self._launch("select", self.select_vertices[cur], self.n)
                self.vertex_selects += 1
            elif size:
                self._select_by_records(size, cur)
            cur = 1 - cur
        bound = size  # worklists only shrink: the last size read bounds every later one
        while bound:
            for _ in range(ROUNDS_PER_CHECK):
                self._relax(bound, cur)
                self._select_by_records(bound, cur)
                cur = 1 - cur
            bound = self._size(cur)

    def record(self, stats: Stats) -> None:
        """Rounds and per-round worklist sizes, as the kernels recorded them."""
        import pyopencl as cl

        cl.enqueue_copy(self.q, self._sizes, self.sizes)
        sizes = [int(x) for x in self._sizes[:self.round] if x]
        stats.rounds = len(sizes)
        stats.worklist_sizes.extend(sizes)

    def forest_slots(self) -> np.ndarray:
        import pyopencl as cl

        flags = np.empty(self.m, np.uint8)
        if self.m:
            cl.enqueue_copy(self.q, flags, self.in_forest)
        return np.flatnonzero(flags)


def solve(graph, stats: Stats, *, filter: bool = True, atomic_guards: bool = True,
          seed: int = 0, batch_below: int = BATCH_BELOW, device=None) -> np.ndarray:
    """Edge ids of the minimum spanning forest by ECL-MST on an OpenCL device.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        ``init_time``: key preparation and host-to-device transfer;
        ``compute_time``: the kernels and worklist-size reads, result on the
        device; ``phases``: device time per kernel (OpenCL profiling);
        ``extra["copy_back_time"]``: reading the forest flags back.
    filter : bool
        Fallin et al.'s sampled-threshold filtering (only at average degree >= 4).
    atomic_guards : bool
        Load before ``atom_min`` (Fallin et al. section 5.3 (1)).
    seed : int
        Seed of the threshold sample.
    batch_below : int
        Worklists at least this large read their size after every relax and may
        select by vertices; smaller ones run :data:`ROUNDS_PER_CHECK` rounds per
        read (0: every round reads).
    device : int, str or pyopencl.Device, optional
        As :func:`parmst.opencl.prefix_scan`'s ``device``.

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "ecl/opencl").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    n = graph.num_vertices
    needed = device_bytes(n, graph.num_edges)
    env = _runtime.solver_env("ecl/opencl", device, graph, needed)
    if not env.int64_atomics:
        raise SolverUnavailable(f"ecl/opencl needs {_runtime.INT64_ATOMICS} (64-bit atom_min), "
                                f"which {env.name} lacks; choose another device= or solver")
    with stats.init():
        keys = edge_keys(graph.weight, unpacked="rank")
        threshold = light_threshold(keys.keys, n, seed, DEVICE_FILTER_TARGET) if filter else None
        run = _Run(env, graph, keys, atomic_guards, batch_below)
        env.queue.finish()
    phases = [(0, True)] if threshold is None else [(threshold, False), (threshold, True)]
    with stats.compute():
        for bound, heavy in phases:
            run.rounds(run.populate(bound, heavy))
        env.queue.finish()
    run.record(stats)
    start = time.perf_counter()
    slots = run.forest_slots()
    stats.extra["copy_back_time"] = time.perf_counter() - start
    stats.phases.update(run.timer.seconds())
    stats.device = env.name
    stats.threads = None
    stats.extra.update(key_method=keys.mode, device_memory_bytes=needed[0],
                       vertex_select_rounds=run.vertex_selects,
                       filter_threshold=None if threshold is None else int(threshold))
    return keys.edge_ids(slots)
