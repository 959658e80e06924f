"""ECL-MST on CUDA through numba-cuda (Fallin et al., Algs. 1-2 and section 3.2).

Kruskal and Borůvka converge to one data-driven, edge-centric loop over a
worklist of ``<v, n, key>`` records: every round each record finds the sets of
its endpoints (dropping itself when they match, and storing the sets in place
of the vertices: implicit path compression), records its packed
``(weight, id)`` key in both sets with a guarded atomicMin, then every record
that won a set joins the two sets and enters the forest. A sampled threshold
splits the edges into a light phase and a filtered heavy phase.

Optimizations of Fallin et al. section 3.2 / 5.3 and where they live:

- packed 64-bit keys with atomicMin and atomic guards:
  :func:`~parmst.solvers.gpu._ecl_kernels.relax_kernel` (keys from
  :mod:`parmst.solvers.gpu._keys`, exact for every weight dtype); where weight
  key and edge id do not fit in one word (float64 weights over a wide range),
  records carry the edge id in a third word and a set's minimum is settled in
  two passes, atomicMin on the weight key, then atomicMin on the id among the
  records holding that key (:func:`~parmst.solvers.gpu._ecl_kernels.settle_ties`),
  as the CPU ECL-MST does: no sort of the keys;
- double worklists of 16-byte records, data-driven: ``wl[2, cap, 2]``;
- implicit path compression and no explicit compression:
  :func:`~parmst.solvers.gpu._ecl_kernels.relax_kernel`;
- one edge direction: the edge list holds each edge once; the CSR
  initialization keeps ``v < n`` (``both_directions=True`` turns it off);
- filtering (average degree >= 4): ``filter=True``; ours: the threshold is
  estimated from :data:`~parmst.solvers.ecl_host.GPU_FILTER_SAMPLES` sampled
  keys (the paper's 20: ``filter_samples=20``), aiming at |V| light edges
  (:data:`~parmst.solvers.ecl_host.GPU_FILTER_TARGET`; ECL-MST's 3|V| light CSR
  entries are ``filter_target=1.5``); the light phase, first, needs no ``find``
  (every vertex is still its own set);
- hybrid initialization (thread per vertex of degree < 4, a warp per vertex
  of degree >= 4, ballot/shuffle): ``init="hybrid"``; ``init="thread"`` is
  the ablation, ``init="edge"`` populates edge-centrically from the edge list,
  which needs no CSR at all.

Populate (ours): ``fused=True`` lowers the sets' minima as the populate
pushes each record, so a phase's first round starts at its select instead of
relaxing a list that cannot have changed; ``compress=True`` points every
vertex at its root between the phases, so the heavy populate's finds take at
most two reads (docs/gpu.md compares both with ecl/opencl's heavy phase). The heavy
populate reads an edge's endpoints with its key and walks both finds in one loop;
``max_registers`` caps the populate's and relax's registers, for occupancy.

Select (ours): while a round's worklist has at least one record per
:data:`~parmst.solvers.ecl_host.VERTEX_SELECT_RATIO` vertices, the sets join
along their minima in one coalesced sweep over the vertices that also clears
the minima, instead of ECL-MST's select and reset over every record
(``select="auto"``).

Launches (ours): the host waits as little as the dependencies allow, with
pre-packed launches, one reset-and-threshold launch, and three tiers of round
launches (per round, batched as ecl/opencl, one persistent cooperative kernel):
:mod:`parmst.solvers.gpu._ecl_rounds` and docs/gpu.md.

The solver's files, one idea each: this module (the registered solver: its
options and :func:`solve`), :mod:`parmst.solvers.gpu._ecl_rounds` (one solve's
device state and its round loop on the host) and
:mod:`parmst.solvers.gpu._ecl_kernels` (the kernels).
"""

from __future__ import annotations

import math

import numpy as np

from parmst._cuda import pool, runtime
from parmst.solvers.ecl_host import FILTER_SAMPLES as FILTER_SAMPLES_PAPER
from parmst.solvers.ecl_host import GPU_FILTER_SAMPLES as FILTER_SAMPLES
from parmst.solvers.ecl_host import GPU_FILTER_TARGET as FILTER_TARGET
from parmst.solvers.gpu import _device
from parmst.solvers.gpu._ecl_kernels import SAMPLE_SLOTS
from parmst.solvers.gpu._ecl_rounds import BATCHED_MIN, PERSISTENT_BELOW, Run
from parmst.solvers.gpu._keys import graph_keys, threshold_plan
from parmst.stats import Stats

INITS = ("edge", "hybrid", "thread")
LAUNCHES = ("auto", "persistent", "per-round", "batched")
SELECTS = ("auto", "records")


#: Edges per sampled key at least, beyond the paper's 20 samples: a small graph's threshold
#: needs no more (and the simulator ranks the samples in Python).
EDGES_PER_SAMPLE = 64


def sample_count(filter_samples: int, num_edges: int) -> int:
    """Keys the threshold is estimated from: ``filter_samples``, but no more than one per
    :data:`EDGES_PER_SAMPLE` edges where that is above Fallin et al.'s 20.

    >>> sample_count(1024, 64_000_000), sample_count(1024, 3000), sample_count(5, 3000)
    (1024, 46, 5)
    """
    return min(filter_samples, max(FILTER_SAMPLES_PAPER, num_edges // EDGES_PER_SAMPLE))


def _check_options(init: str, block_size: int, launch: str, persistent_below: int,
                   select: str = "auto", filter_target: float = FILTER_TARGET,
                   filter_samples: int = FILTER_SAMPLES,
                   max_registers: int | None = None) -> None:
    if max_registers is not None and (isinstance(max_registers, bool)
                                      or not isinstance(max_registers, int)
                                      or not 16 <= max_registers <= 255):
        raise ValueError(f"ecl/gpu: max_registers must be None or an integer in 16..255, "
                         f"got {max_registers!r}")
    if isinstance(filter_samples, bool) or not isinstance(filter_samples, int) \
            or not 1 <= filter_samples <= SAMPLE_SLOTS:
        raise ValueError(f"ecl/gpu: filter_samples must be an integer in 1..{SAMPLE_SLOTS}, "
                         f"got {filter_samples!r}")
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


def solve(graph, stats: Stats, *, init: str = "edge", filter: bool = True,
          atomic_guards: bool = True, both_directions: bool = False,
          block_size: int = runtime.DEFAULT_BLOCK_SIZE, launch: str = "auto",
          persistent_below: int = PERSISTENT_BELOW, batched_min: int = BATCHED_MIN,
          seed: int = 0,
          keys: str = "auto", select: str = "auto",
          filter_target: float = FILTER_TARGET, filter_samples: int = FILTER_SAMPLES,
          fused: bool = True, compress: bool = True,
          max_registers: int | None = None) -> np.ndarray:
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
        as a device array, queued with no wait (its ``copy_back_time`` is the
        host time of queueing the compaction). ``phases``: ``keys`` (where
        prepared), ``light`` and ``heavy`` in device time. ``extra``: the
        launches, waits and allocations the solve made (``launches``,
        ``dispatched``, ``host_syncs``, ``allocations``;
        :func:`parmst._cuda.runtime.tally`).
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
        Threads per block, a multiple of 32; the populates take at most
        :data:`~parmst.solvers.gpu._ecl_rounds.POPULATE_BLOCK_SIZE`.
    launch : {"auto", "persistent", "per-round", "batched"}
        ``"per-round"``: ECL-MST's three launches and a worklist-size copy per
        round; ``"persistent"``: all rounds in one cooperative kernel with
        grid-wide barriers; ``"auto"``: per-round while a round has at least
        ``persistent_below`` records, persistent after; ``"batched"``: as
        ``"auto"``, but every smaller round as ecl/opencl runs them, a full grid
        of launches per round,
        :data:`~parmst.solvers.gpu._ecl_rounds.ROUNDS_PER_CHECK` rounds between
        reads of the worklist size (docs/gpu.md); ``"auto"`` runs its rounds of
        at least ``batched_min`` records (below ``persistent_below``) so, the
        rest in the persistent kernel.
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
        instead while there are at most
        :data:`~parmst.solvers.ecl_host.VERTEX_SELECT_RATIO` vertices per record
        (edge-list initialization only).
    filter_target : float
        Light edges aimed at, per vertex (default :data:`FILTER_TARGET`, |V| light
        edges; Fallin et al.'s 3|V| CSR entries are 1.5).
    filter_samples : int
        Sampled keys the threshold is estimated from, at most
        :data:`~parmst.solvers.gpu._ecl_kernels.SAMPLE_SLOTS` (default
        :data:`FILTER_SAMPLES`; Fallin et al. sample 20), and no more than
        :func:`sample_count` allows for the graph's size.
    fused : bool
        The populate lowers the sets' minima as it pushes each record, so each phase's
        first round starts at its select: one pass over the phase's list fewer (default
        on, with ``compress``: the fastest on six of the seven families measured on an
        H100, docs/gpu.md).
    compress : bool
        Point every vertex at its set's root between the light and the heavy phase (one
        launch), so the heavy populate's finds take at most two reads (default on).
    max_registers : int, optional
        Registers per thread the populate and relax kernels may use (ptxas spills the
        rest to local memory), so that more threads fit on a multiprocessor: those kernels
        wait on memory, and 32 lets four 512-thread blocks share one (docs/gpu.md). ``None``:
        no cap.

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "ecl/gpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    _check_options(init, block_size, launch, persistent_below, select, filter_target,
                   filter_samples, max_registers)
    if int(batched_min) != batched_min or batched_min < 1:
        raise ValueError(f"ecl/gpu: batched_min must be an integer of at least 1, "
                         f"got {batched_min!r}")
    phases = runtime.DevicePhases()  # device time, booked after the solve's one wait
    with runtime.tally() as tally, pool.lease() as lease:
        with stats.init():
            edges = _device.device_graph(graph, stats)
            keys = graph_keys(graph, keys, stats, unpacked="two-pass", phases=phases)
            plan = threshold_plan(graph.num_edges, graph.num_vertices, seed, filter_target,
                                  sample_count(filter_samples, graph.num_edges)) \
                if filter else None
            run = Run(graph, edges, keys, init, both_directions, block_size, launch,
                      persistent_below, select, plan, stats, lease, batched_min, fused,
                      atomic_guards, max_registers)
        heavy_phases = (True,) if plan is None else (False, True)
        with stats.compute():
            for phase, heavy in enumerate(heavy_phases):
                with phases.phase(("light", "heavy")[phase]):
                    if compress and phase:
                        run.flatten()
                    run.populate(phase, heavy)
                    run.rounds(phase)
            log = run.finish()
        phases.book(stats)
        run.record(log, stats)
        stats.extra.update(key_method=keys.mode, init=init,
                           filter_threshold=None if plan is None else int(log[0]))
        edge_ids = _device.result_ids(graph, keys, run.in_forest, stats, int(log[1]))
    stats.extra.update(tally)
    _device.record_device(stats, stats.extra["device_memory_bytes"])
    return edge_ids
