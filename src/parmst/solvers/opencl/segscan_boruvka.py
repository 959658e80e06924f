"""Segmented-scan Borůvka on OpenCL (Sun and Skadron, Algorithm 4), all four steps on the device.

Each round, on the CSR of the current supervertices:

1. **find-min-edge**: one segmented min scan (Sun and Skadron's reduce-then-scan,
   :mod:`parmst.solvers.opencl._scan`) over every vertex's segment of
   unique order-preserving keys, the segment flag in each key's top bit
   (Sun and Skadron section 6's proposal); the segment's last value is its minimum,
   and the entry holding it names the vertex's successor;
2. **remove-cycle**: of two vertices that chose each other (always the same
   edge), the smaller becomes a root; every other choice enters the forest;
3. **merge-vertices**: every vertex follows parents to its tree's root; an
   exclusive sum scan of the root flags numbers the new supervertices;
4. **add-edges-to-new-vertices**: entries whose endpoints now share a
   supervertex are dropped, the rest are counted per new vertex, a sum scan
   gives the new offsets, and a scatter builds the next CSR (each old
   vertex reserves one run of its new vertex's segment, with a sum scan
   ranking the kept entries inside it).

Sun and Skadron moved only step 1 to the GPU; moving the rest is its future work.
The host only reads two counters per round (supervertices and entries left)
to decide termination. Keys come from the host key preparation shared with
``ecl/opencl`` (:func:`parmst.order.edge_keys`): packed ``(weight, id)`` where
it fits, ranks otherwise, so ties go to the smaller edge id and the forest is
the unique one.
"""

from __future__ import annotations

import time

import numpy as np

from parmst._opencl import runtime as _runtime
from parmst._opencl.runtime import PhaseTimer, launch
from parmst.order import edge_keys
from parmst.solvers.opencl._scan import scan_for
from parmst.stats import Stats

__all__ = ["device_bytes", "solve"]

PHASES = ("find-min-edge", "remove-cycle", "merge-vertices", "add-edges-to-new-vertices")


def device_bytes(n: int, m: int) -> tuple[int, int]:
    """Device memory a solve holds, and its largest single buffer."""
    entries = 2 * m
    edge_list = 16 * m
    # two entry sets (src, adj, key), the scan output, keep flags and their ranks
    csr = 2 * 16 * entries + 8 * entries + 8 * entries
    vertices = (n + 1) * 4 * 12 + 8 * n
    return edge_list + csr + vertices + m + 64, 8 * max(entries, 1)


def limit(graph) -> bool | str:
    """``True`` when 32-bit vertex ids and entry offsets suffice."""
    if graph.num_vertices >= 2**31:
        return "segscan-boruvka/opencl: 32-bit vertex ids need |V| < 2**31"
    if 2 * graph.num_edges >= 2**32:
        return "segscan-boruvka/opencl: 32-bit CSR offsets need 2|E| < 2**32"
    return True


class _Buffers:
    """Device arrays of one solve (entries double-buffered for the contraction)."""

    def __init__(self, env, n: int, m: int):
        def alloc(count: int, dtype):
            # Filled now, so that the device memory is taken before the timed rounds.
            return _runtime.filled(env, count, dtype)

        entries = 2 * m
        self.entry_sets = [tuple(alloc(entries, t) for t in (np.uint32, np.uint32, np.uint64))
                           for _ in range(2)]
        self.scanned = alloc(entries, np.uint64)
        self.keep = alloc(entries, np.uint32)
        self.rank = alloc(entries, np.uint32)
        self.indptrs = [alloc(n + 1, np.uint32) for _ in range(2)]
        self.kept = alloc(n, np.uint32)
        self.base = alloc(n, np.uint32)
        self.degree = alloc(n, np.uint32)
        self.fill = alloc(n, np.uint32)
        self.min_key = alloc(n, np.uint64)
        self.succ = alloc(n, np.uint32)
        self.parent = alloc(n, np.uint32)
        self.is_root = alloc(n, np.uint32)
        self.new_id = alloc(n, np.uint32)
        self.label = alloc(n, np.uint32)
        self.totals = alloc(2, np.uint32)
        self.in_forest = alloc(m, np.uint8)


class _Run:
    def __init__(self, env, graph, keys, timer: PhaseTimer):
        self.env = env
        self.q = env.queue
        self.k = env.kernels("boruvka.cl")
        self.min_scan = scan_for(env, np.uint64, "min", "top-bit")
        self.sum_scan = scan_for(env, np.uint32, "add")
        self.timer = timer
        self.slot_mask = np.uint64(keys.slot_mask)
        self.n = graph.num_vertices
        self.b = _Buffers(env, self.n, graph.num_edges)

    def _zero(self, buffer, count: int, dtype):
        import pyopencl as cl

        return cl.enqueue_fill_buffer(self.q, buffer, np.zeros(1, dtype), 0,
                                      max(1, count) * np.dtype(dtype).itemsize)

    def load(self, graph, keys) -> int:
        """Copy the edge list, expand it to both directions, and build the first CSR."""
        m = graph.num_edges
        if m == 0:
            return 0
        src, dst, key = (_runtime.to_device(self.env, a) for a in (
            graph.src.astype(np.uint32), graph.dst.astype(np.uint32), keys.keys))
        k, b = self.k, self.b
        esrc, eadj, ekey = b.entry_sets[0]
        launch(k.expand_edges, self.q, 2 * m, src, dst, key, np.uint64(m), esrc, eadj, ekey)
        launch(k.identity_labels, self.q, self.n, b.label, np.uint32(self.n))
        self.current = 0
        return self.add_edges(self.n, 2 * m, "initialization")[1]

    def add_edges(self, n: int, entries: int, phase: str) -> tuple[int, int]:
        """Step 4: keep entries between different supervertices, grouped by new source vertex.

        The first call (``phase="initialization"``) groups the unsorted edge list,
        reserving a slot per entry; later calls move whole runs of old vertices.
        Returns ``(supervertices, entries)`` of the new graph: the round's one host read.
        """
        import pyopencl as cl

        k, b, q = self.k, self.b, self.q
        esrc, eadj, ekey = b.entry_sets[self.current]
        out = b.entry_sets[1 - self.current]
        indptr, new_indptr = b.indptrs[self.current], b.indptrs[1 - self.current]
        e32, n32 = np.uint32(entries), np.uint32(n)
        events = [self._zero(b.degree, n, np.uint32), self._zero(b.fill, n, np.uint32)]
        first = phase == "initialization"
        if first:
            events.append(launch(k.count_entries, q, entries, esrc, eadj, e32, b.label, b.degree))
        else:
            events.append(launch(k.keep_entries, q, entries, esrc, eadj, e32, b.label, b.keep))
            events += self.sum_scan.run(b.keep, b.rank, entries, exclusive=True)
            events.append(launch(k.count_kept, q, n, indptr, b.keep, b.rank, n32, b.label,
                                 b.kept, b.degree))
        events += self.sum_scan.run(b.degree, new_indptr, n, exclusive=True)
        events.append(launch(k.close_indptr, q, 1, new_indptr, b.degree, n32, b.totals))
        if first:
            events.append(launch(k.scatter_entries, q, entries, esrc, eadj, ekey, e32, b.label,
                                 new_indptr, b.fill, *out))
        else:
            events += [launch(k.reserve_runs, q, n, b.kept, n32, b.label, new_indptr, b.fill,
                              b.base),
                       launch(k.scatter_runs, q, entries, esrc, eadj, ekey, e32, b.keep, b.rank,
                              indptr, b.base, b.label, new_indptr, *out)]
        self.timer.add(phase, *events)
        self.current = 1 - self.current
        totals = np.empty(2, np.uint32)
        cl.enqueue_copy(q, totals, b.totals)
        return n if first else int(totals[0]), int(totals[1])

    def round(self, n: int, entries: int) -> tuple[int, int]:
        """Algorithm 4 lines 4-7 once; returns the next round's vertex and entry counts."""
        k, b, q, t = self.k, self.b, self.q, self.timer
        esrc, eadj, ekey = b.entry_sets[self.current]
        n32 = np.uint32(n)
        events = self.min_scan.run(ekey, b.scanned, entries, exclusive=False)
        indptr = b.indptrs[self.current]
        events += [launch(k.segment_minimum, q, n, indptr, b.scanned, n32, b.min_key, b.succ),
                   launch(k.successor, q, entries, esrc, eadj, ekey, np.uint32(entries),
                          b.min_key, b.succ)]
        t.add("find-min-edge", *events)
        t.add("remove-cycle", launch(k.remove_cycles, q, n, b.succ, b.min_key, n32,
                                     self.slot_mask, b.parent, b.in_forest))
        events = [launch(k.find_roots, q, n, b.parent, n32, b.is_root)]
        events += self.sum_scan.run(b.is_root, b.new_id, n, exclusive=True)
        events.append(launch(k.relabel, q, n, b.parent, b.new_id, b.is_root, n32, b.label,
                             b.totals))
        t.add("merge-vertices", *events)
        return self.add_edges(n, entries, "add-edges-to-new-vertices")

    def forest_slots(self, m: int) -> np.ndarray:
        import pyopencl as cl

        flags = np.empty(m, np.uint8)
        if m:
            cl.enqueue_copy(self.q, flags, self.b.in_forest)
        return np.flatnonzero(flags)


def solve(graph, stats: Stats, *, device=None) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Sun and Skadron's segmented-scan Borůvka.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        ``init_time``: key preparation, transfer, and building the first CSR
        on the device; ``compute_time``: the rounds, result on the device;
        ``extra["copy_back_time"]``: reading the forest flags back; ``phases``: device time
        of each of Algorithm 4's four steps (OpenCL profiling), plus
        ``initialization``; ``worklist_sizes``: directed entries per round.
    device : int, str or pyopencl.Device, optional
        As :func:`parmst.opencl.prefix_scan`'s ``device``.

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> f = parmst.minimum_spanning_forest(g, "segscan-boruvka/opencl")  # doctest: +SKIP
    >>> f.edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    n, m = graph.num_vertices, graph.num_edges
    needed = device_bytes(n, m)
    env = _runtime.solver_env("segscan-boruvka/opencl", device, graph, needed)
    timer = PhaseTimer()
    with stats.init():
        keys = edge_keys(graph.weight, unpacked="rank")
        run = _Run(env, graph, keys, timer)
        entries = run.load(graph, keys)
    stats.rounds = 0
    with stats.compute():
        while entries:
            stats.worklist_sizes.append(entries)
            stats.rounds += 1
            n, entries = run.round(n, entries)
        env.queue.finish()
    start = time.perf_counter()
    slots = run.forest_slots(m)
    stats.extra["copy_back_time"] = time.perf_counter() - start
    stats.phases.update(timer.seconds())
    stats.device = env.name
    stats.threads = None
    stats.extra.update(key_method=keys.mode, device_memory_bytes=needed[0])
    return keys.edge_ids(slots)
