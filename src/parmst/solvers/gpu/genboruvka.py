"""Generic Borůvka with CSR contraction on CUDA (Sousa, section 4.4, Algorithm 5).

The GPU form of :mod:`parmst.solvers.cpu.genboruvka`. Each round runs the
kernels of the thesis's Appendix A on the current contracted graph. Its
entries (both directions of every edge) lie on the device grouped by
vertex in CSR order, as three columns: ``row`` (the vertex, i.e. the CSR
row expanded), ``adj`` (the other end) and ``key`` (the edge's unique
``(weight, edge_id)`` key from :mod:`parmst.solvers.gpu._keys`, whose low
bits name the input edge, so no edge-id column is needed):

1. lightest entry per vertex (Algorithm 7): a guarded ``atomicMin`` of
   every entry's key into its vertex (keys are unique, so the thesis's
   "smallest destination" tie rule becomes the ``(weight, id)`` order); a
   second entry pass turns the winning key into the successor;
2. remove mirrored edges (Algorithm 8): of two vertices that chose each
   other the smaller id drops its choice and becomes the root; the kept
   choices are forest edges;
3. initialize colours (Algorithm 9) and propagate them by pointer jumping
   (Algorithm 10) until a pass changes nothing;
4. new vertex ids (Algorithm 11): an exclusive prefix sum over the flags of
   roots that still have a crossing edge (finished trees of a forest get
   no id, which ends the loop on disconnected graphs);
5. count the crossing entries of each super-vertex with ``atomicAdd``
   (Algorithm 12); a prefix sum over the degrees, in new-id order, gives
   the contracted CSR's segment offsets (``indptr``);
6. insert the crossing entries at slots of their super-vertex's segment
   reserved with ``atomicAdd`` (Algorithm 13), dropping entries inside a
   component; the result is grouped by super-vertex again.

Ours, not the thesis's: it ran a thread per vertex; here the entry kernels
(1, 5, 6) take a thread per entry, because a contracted vertex can own most
of the graph's entries (RMAT hubs, the giant component after a few rounds),
and a warp's entries of one super-vertex share one ``atomicAdd``
(:func:`_reserve_in_run`). The thesis used ModernGPU's scan; CuPy is not
available in CI, so :meth:`_Launcher.exclusive_scan` is the shared block scan
of :func:`parmst._cuda.arrays.exclusive_scan` (shared memory plus a
recursive scan of the block sums), which also runs under numba-cuda's
simulator. Kernels loop grid-stride, so the simulator can run
them on two small blocks.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst._cuda import arrays, pool, runtime
from parmst.solvers.gpu import _device
from parmst.solvers.gpu._kernels import FULL_MASK, WARP_INTRINSICS, lower_min, warp_round
from parmst.solvers.gpu._keys import MAX_KEY, graph_keys
from parmst.stats import Stats

WARP_SIZE = runtime.WARP_SIZE


@cuda.jit(cache=True)
def _reset_vertices(min_key, succ):
    """Round start: no lightest entry and no successor yet for any vertex."""
    for v in range(cuda.grid(1), min_key.shape[0], cuda.gridsize(1)):
        min_key[v] = MAX_KEY
        succ[v] = -1


@cuda.jit(cache=True)
def _zero(counts):
    """Clear a counter array before atomic adds."""
    for i in range(cuda.grid(1), counts.shape[0], cuda.gridsize(1)):
        counts[i] = 0


@cuda.jit(cache=True)
def _min_entry(row, key, min_key):
    """Sousa Algorithm 7, edge-centric: atomicMin of every entry's key into its vertex."""
    for k in range(cuda.grid(1), key.shape[0], cuda.gridsize(1)):
        lower_min(min_key, row[k], key[k], True)


@cuda.jit(cache=True)
def _successor(row, adj, key, min_key, succ):
    """Sousa Algorithm 7 line 11: the unique entry holding its vertex's minimum names the successor."""
    for k in range(cuda.grid(1), key.shape[0], cuda.gridsize(1)):
        if min_key[row[k]] == key[k]:
            succ[row[k]] = adj[k]


@cuda.jit(cache=True)
def _drop_mirrored_and_colour(succ, min_key, colour, in_forest, slot_mask):
    """Sousa Algorithms 8-9: of two vertices that chose each other the smaller drops the
    edge; every vertex takes its successor as colour (itself when it has none); kept edges
    enter the forest."""
    for v in range(cuda.grid(1), succ.shape[0], cuda.gridsize(1)):
        s = succ[v]
        colour[v] = v
        if s < 0 or (succ[s] == v and v < s):
            continue
        colour[v] = s
        in_forest[min_key[v] & slot_mask] = 1


@cuda.jit(cache=True)
def _propagate_colours(colour, changed):
    """Sousa Algorithm 10, one pass: a colour becomes its colour's colour.

    In place: a concurrent reader sees the old or the new colour, both on
    the path to the root, so passes still converge to the root.
    """
    for v in range(cuda.grid(1), colour.shape[0], cuda.gridsize(1)):
        up = colour[v]
        upper = colour[up]
        if up != upper:
            colour[v] = upper
            changed[0] = 1


@cuda.jit(device=True, inline=True)
def _reserve_in_run(counter, target):
    """This lane's slot in ``counter[target]`` (nothing where ``target < 0``), warp-aggregated.

    Lanes with equal targets side by side form a run (entries are grouped by
    vertex, so runs are long); the run's first lane reserves the whole run
    with one atomicAdd and shares the base. Every lane of the warp must call
    it together; under the simulator each lane adds its own one.
    """
    if not WARP_INTRINSICS:
        if target >= 0:
            return cuda.atomic.add(counter, target, np.int64(1))
        return np.int64(0)
    lane = cuda.laneid
    before = cuda.shfl_up_sync(FULL_MASK, target, 1)  # outside the `or`: every lane shuffles
    head = lane == 0 or before != target
    heads = np.int64(cuda.ballot_sync(FULL_MASK, head)) & np.int64(FULL_MASK)
    start = np.int32(lane) if head else np.int32(0)
    step = 1
    while step < WARP_SIZE:
        lower = cuda.shfl_up_sync(FULL_MASK, start, step)
        if lane >= step:
            start = max(start, lower)
        step *= 2
    base = np.int64(0)
    if head and target >= 0:
        above = heads >> (lane + 1)
        run = np.int64(cuda.ffs(above)) if above else np.int64(WARP_SIZE - lane)
        base = cuda.atomic.add(counter, target, run)
    return cuda.shfl_sync(FULL_MASK, base, start) + (lane - start)


@cuda.jit(cache=True)
def _count_crossing(row, adj, colour, degree):
    """Sousa Algorithm 12, edge-centric: each crossing entry adds one to its colour's degree.

    The thesis ran a thread per vertex; a contracted vertex can hold most
    of the graph's entries, so here a thread takes an entry and a warp's
    entries of one colour share one atomicAdd.
    """
    size = row.shape[0]
    for k in range(cuda.grid(1), warp_round(size), cuda.gridsize(1)):
        target = np.int64(-1)
        if k < size:
            mine = colour[row[k]]
            if colour[adj[k]] != mine:
                target = np.int64(mine)
        _reserve_in_run(degree, target)


@cuda.jit(cache=True)
def _representative_flags(colour, degree, flag):
    """Sousa Algorithm 11: 1 for a component root that still has crossing edges."""
    for v in range(cuda.grid(1), colour.shape[0], cuda.gridsize(1)):
        flag[v] = 1 if colour[v] == v and degree[v] > 0 else 0


@cuda.jit(cache=True)
def _compact_degrees(colour, degree, new_id, new_degree):
    """Sousa step "assign edge segments": super-vertex degrees in new-id order, for the scan."""
    for v in range(cuda.grid(1), colour.shape[0], cuda.gridsize(1)):
        if colour[v] == v and degree[v] > 0:
            new_degree[new_id[v]] = degree[v]


@cuda.jit(cache=True)
def _insert_crossing(row, adj, key, colour, new_id, new_indptr, filled, new_row, new_adj,
                     new_key):
    """Sousa Algorithm 13, edge-centric: each crossing entry goes to a slot of its
    super-vertex's segment reserved by atomicAdd, renamed to new vertex ids."""
    size = row.shape[0]
    for k in range(cuda.grid(1), warp_round(size), cuda.gridsize(1)):
        target = np.int64(-1)
        other = 0
        if k < size:
            mine = colour[row[k]]
            other = colour[adj[k]]
            if other != mine:
                target = new_id[mine]
        at = _reserve_in_run(filled, target)
        if target >= 0:
            at += new_indptr[target]
            new_row[at] = target
            new_adj[at] = new_id[other]
            new_key[at] = key[k]


class _Launcher:
    """Grid shapes for the solver's grid-stride kernels, and the scan built from them."""

    def __init__(self, block_size: int) -> None:
        self.threads, self.max_blocks = runtime.launch_limits(block_size)

    def __call__(self, count: int) -> tuple[int, int]:
        return min(self.max_blocks, runtime.blocks_for(count, self.threads)), self.threads

    def exclusive_scan(self, values, count: int, out) -> int:
        """``out[:count + 1]`` = exclusive prefix sums of ``values[:count]``; returns the total."""
        arrays.exclusive_scan(values, count, out, self.max_blocks)
        return int(out[count:count + 1].copy_to_host()[0])


def _initial_entries(graph, keys, stats):
    """The first round's entries on the device: both directions of every non-loop edge,
    grouped by vertex (the CSR's order), as host ``row`` and ``adj`` columns and the
    device ``key`` column gathered from the device keys."""
    csr = graph.csr()
    row = np.repeat(np.arange(graph.num_vertices, dtype=np.int32), np.diff(csr.indptr))
    edge_ids = _device.device_csr(graph, stats)[2]
    return row, csr.indices.astype(np.int32), arrays.gather(keys.keys, edge_ids)


def _colour(launch, graph, buffers, in_forest, slot_mask) -> int:
    """Steps 1-3: forest edges marked, ``buffers["colour"]`` the root of every vertex.

    Returns the number of pointer-jumping passes.
    """
    n, (row, adj, key) = graph
    min_key, succ, colour = (buffers[name][:n] for name in ("min_key", "succ", "colour"))
    _reset_vertices[launch(n)](min_key, succ)
    _min_entry[launch(len(key))](row, key, min_key)
    _successor[launch(len(key))](row, adj, key, min_key, succ)
    _drop_mirrored_and_colour[launch(n)](succ, min_key, colour, in_forest, slot_mask)
    changed = buffers["changed"]
    passes = 0
    while True:
        passes += 1
        _zero[1, 1](changed)
        _propagate_colours[launch(n)](colour, changed)
        if not changed.copy_to_host()[0]:
            return passes


def _contract(launch, graph, buffers, target):
    """Steps 4-6: the contracted graph over the components that still have crossing edges.

    Returns the new vertex count and entries (views into ``target``), grouped
    by super-vertex in the segments of ``buffers["indptr"]``.
    """
    n, (row, adj, key) = graph
    colour, degree, flag, new_id, new_degree, filled, new_indptr = (
        buffers[name] for name in ("colour", "degree", "flag", "new_id", "new_degree",
                                   "filled", "indptr"))
    colour = colour[:n]
    _zero[launch(n)](degree[:n])
    _count_crossing[launch(len(row))](row, adj, colour, degree)
    _representative_flags[launch(n)](colour, degree, flag)
    new_n = launch.exclusive_scan(flag, n, new_id)
    new_row, new_adj, new_key = target
    if new_n == 0:
        return 0, (new_row[:0], new_adj[:0], new_key[:0])
    _compact_degrees[launch(n)](colour, degree, new_id, new_degree)
    entries = launch.exclusive_scan(new_degree, new_n, new_indptr)
    _zero[launch(new_n)](filled[:new_n])
    new_row, new_adj, new_key = (array[:entries] for array in target)
    _insert_crossing[launch(len(row))](row, adj, key, colour, new_id, new_indptr, filled,
                                       new_row, new_adj, new_key)
    return new_n, (new_row, new_adj, new_key)


def _device_buffers(n: int, entries: int) -> dict:
    """Every device array of the rounds, allocated once: two entry buffers, vertex arrays."""
    def entry_buffer():
        return (cuda.device_array(entries, np.int32), cuda.device_array(entries, np.int32),
                cuda.device_array(entries, np.uint64))

    vertex = {"min_key": np.uint64, "succ": np.int32, "colour": np.int32,
              "degree": np.int64, "flag": np.int32, "new_id": np.int64,
              "new_degree": np.int64, "filled": np.int64, "indptr": np.int64}
    buffers = {name: cuda.device_array(n + 1, dtype) for name, dtype in vertex.items()}
    buffers["changed"] = cuda.device_array(1, np.int32)
    buffers["entries"] = (entry_buffer(), entry_buffer())
    return buffers


def device_bytes(n: int, m: int) -> int:
    """Device memory the solver holds for ``n`` vertices and ``m`` edges (2m entries, twice)."""
    return 2 * 2 * m * 16 + (n + 1) * 60 + m


def solve(graph, stats: Stats, *, block_size: int = runtime.DEFAULT_BLOCK_SIZE,
          keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by Sousa's generic Borůvka on the GPU.

    Parameters
    ----------
    graph : Graph
    stats : Stats
        ``init_time``: keys, entry arrays and host-to-device copies;
        ``compute_time``: the rounds on the device (result left there);
        ``extra["end_to_end_time"]`` adds the copy-back. ``worklist_sizes``:
        undirected edges (including parallel ones) of each round's graph.
    block_size : int
        Threads per block of the vertex and entry kernels.
    keys : {"auto", "packed", "rank"}
        Key method of :func:`parmst.solvers.gpu._keys.device_keys`: packed
        ``(weight, edge_id)`` keys where they fit (``"auto"``), or the edges'
        ranks in that order from a sort on the device (``"rank"``, the route
        for weights that do not pack).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "genboruvka/gpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    if block_size % 32 or not 32 <= block_size <= 1024:
        raise ValueError(f"genboruvka/gpu: block_size must be a multiple of 32 in 32..1024, "
                         f"got {block_size}")
    n, m = graph.num_vertices, graph.num_edges
    launch = _Launcher(block_size)
    with stats.init():
        keys = graph_keys(graph, keys, stats)
        first_entries = _initial_entries(graph, keys, stats)
        entries = len(first_entries[0])
        needed = device_bytes(n, m)
        pool.ensure_memory("genboruvka/gpu", needed)
        with runtime.timed_transfer(stats, "transfer_time"):
            buffers = _device_buffers(n, max(entries, 1))
            current = tuple(array[:entries] for array in buffers["entries"][0])
            if entries:
                for device_array, column in zip(current, first_entries):
                    device_array.copy_to_device(column)
        in_forest = arrays.fill(max(m, 1), 0, np.uint8)
    stats.extra["key_method"] = keys.mode
    stats.rounds = 0
    passes = []
    with stats.compute():
        graph_now = (n, current)
        while entries:
            stats.rounds += 1
            stats.worklist_sizes.append(entries // 2)
            passes.append(_colour(launch, graph_now, buffers, in_forest, keys.slot_mask))
            target = buffers["entries"][stats.rounds % 2]
            graph_now = _contract(launch, graph_now, buffers, target)
            entries = len(graph_now[1][0])
        runtime.synchronize()
    stats.extra["colour_passes"] = passes
    edge_ids = _device.result_ids(graph, keys, in_forest, stats)
    _device.record_device(stats, needed)
    return edge_ids
