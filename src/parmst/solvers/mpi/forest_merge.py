"""filter-boruvka's forest merge: local forests joined up a binary tree of ranks.

The cycle property holds in any subset of the edges: an edge outside the
minimum spanning forest of a subset that contains it is in no minimum
spanning forest of the whole graph. So

1. every rank computes the minimum spanning forest of the edges it holds for
   the rounds (:func:`~parmst.solvers.mpi.held.holder`: the owner of
   ``src`` for even ids, of ``dst`` for odd ones; they partition the edges,
   and unlike the owners of ``src`` alone they do not pile the edges of
   generators that write the smaller end first on the lowest ranks) with the
   best one-process solver on its threads, over the vertices those edges touch,
   numbered ``0 .. k - 1`` (:mod:`~parmst.solvers.mpi.touched`) (phases
   ``merge-mine``, ``merge-solve``, ``merge-order``, ``merge-ends``);
2. at step ``k`` (``ceil(log2 p)`` steps), each rank ``r`` still holding a
   forest with bit ``k`` set sends it, as global ends, weight key and edge id
   in ``(key, id)`` order, to rank ``r - 2**k``, which keeps the forest of
   the union of the two: one union-find scan (one array, roots holding minus
   their size) over the merge of the two ordered lists, the merge and the
   gather of the kept edges on the rank's threads (``merge-step-k-*``); a
   forest has at most ``n - 1``
   edges, so a merge never reads more than ``2 (n - 1)``;
3. rank 0 then holds the whole forest and sends every rank the ids of its
   primary edges in it: the share :func:`~parmst.solvers.mpi.held.held_share`
   would give.

It pays where the forest is small against the edges (R-MAT, dense graphs):
the owner rounds then touch every edge several times in rounds of
exchanges, where one process's solve of a rank's share is a few passes.
:func:`merge_fits` is the rule ``rounds="auto"`` uses.

Ties: a rank's edges are in increasing global id, so its solver's position
tie-break is the id's, and every forest is then kept in ``(key, edge_id)``
order with the global id: the merges compare both, so equal weights order
exactly as everywhere.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst._mpi.channel import group_order
from parmst.distributed import DistributedGraph
from parmst.graph import Graph, index_dtype_for
from parmst.kernels.unionfind import reset_at, scan_sorted
from parmst.order import canonical_order_or_none, weight_keys
from parmst.solvers.cpu import ecl_compiled
from parmst.solvers.mpi.contract import local_solver_name, solve_locally
from parmst.solvers.mpi.gather import in_id_order
from parmst.solvers.mpi.held import is_given, vertex_labels
from parmst.solvers.mpi.ordered_edges import merge_edges, sort_edges, take_edges
from parmst.solvers.mpi.touched import (
    Numbering,
    mark,
    marked_bitmaps,
    number_of,
    number_touched,
    vertices_of,
)
from parmst.stats import Stats

# rounds="auto" merges forests when 2 (n - 1), the most edges a merge reads, is at most this
# many times m / p, a rank's share of the edges. Measured on 2 cores (docs/mpi.md): at 2 ranks
# the merge was about twice as fast as either kind of rounds on R-MAT graphs up to
# 2 (n - 1) = 2 m / p, even or noisy at 4 m / p, and slower than the filter on a road graph
# (2.9 m / p). Twice the share is also about what a rank holds already where most edges
# cross ranks (each cut edge is held twice), so a merge adds no more than the held edges.
MERGE_SHARE_FACTOR = 2.0


# ecl/cpu's filter on a rank's share of a dense graph: its light run aims at as many light
# edges as vertices, a random graph of average degree 2 whose giant component leaves about a
# fifth of the vertices out, and every heavy edge at those survives the filter. The whole
# graph escapes it by its sample's granularity (the target is below one sampled key of 1,024
# there, about two per vertex are taken); a share's target is sampled more finely. On
# seed000-dense (5 k vertices, 11 M edges) at 4 ranks the four shares (2.75 M edges each) took
# 28, 28, 136 and 30 ms of CPU time with the default target and 23, 21, 23 and 25 ms with 2;
# on R-MAT scale 20 (9.3 edges per touched vertex) a target of 2 cost 15-23 % more on every
# share. So shares with at least DENSE_SHARE_DEGREE edges per touched vertex get the target 2.
DENSE_SHARE_DEGREE = 64
DENSE_SHARE_FILTER_TARGET = 2.0


def merge_fits(num_vertices: int, num_edges: int, ranks: int,
               factor: float = MERGE_SHARE_FACTOR) -> bool:
    """Whether ``rounds="auto"`` merges forests: ``2 (n - 1) <= factor * m / p``.

    A merge's input is two forests, at most ``2 (n - 1)`` edges, so with the
    rule no rank holds more for it than ``factor`` times its share of the
    edges (:data:`MERGE_SHARE_FACTOR` by default).

    Examples
    --------
    >>> merge_fits(5_000, 11_000_000, 16), merge_fits(4_000_000, 8_000_000, 4)
    (True, False)
    """
    return 2 * (num_vertices - 1) <= factor * num_edges / ranks


@numba.njit(parallel=True, cache=True)
def _count_mine(ls, ld, ids, first, stop, src, dst, rows):
    """Per block of held edges, how many this rank merges
    (:func:`~parmst.solvers.mpi.held.is_given`); their ends ``src``, ``dst`` marked in the
    bitmaps ``rows``
    (:func:`~parmst.solvers.mpi.touched.marked_bitmaps`), the blocks cut into one run of
    consecutive blocks per row, each run marking in its own row."""
    blocks = num_blocks(len(ls))
    counts = np.zeros((blocks, 1), dtype=np.int64)
    parts = rows.shape[0]
    for part in numba.prange(parts):
        row = rows[part]
        for b in range(part * blocks // parts, (part + 1) * blocks // parts):
            lo, hi = block_span(b, len(ls))
            for e in range(lo, hi):
                if is_given(ls[e], ld[e], ids[e], first, stop):
                    counts[b, 0] += 1
                    mark(row, src[e])
                    mark(row, dst[e])
    return counts


@numba.njit(parallel=True, cache=True)
def _take_mine(ls, ld, ids, first, stop, starts, src, dst, weight, numbered, bits, before,
               out_src, out_dst, out_weight, out_ids):
    """The held edges this rank merges, in held (so id) order: each block writes its edges'
    ends, weight and id from its offset ``starts[b, 0]``; the ends as numbers of touched
    vertices (:func:`~parmst.solvers.mpi.touched.number_of`) where ``numbered``, else as
    they are."""
    for b in numba.prange(num_blocks(len(ls))):
        lo, hi = block_span(b, len(ls))
        j = starts[b, 0]
        for e in range(lo, hi):
            if is_given(ls[e], ld[e], ids[e], first, stop):
                if numbered:
                    out_src[j] = number_of(bits, before, np.int64(src[e]))
                    out_dst[j] = number_of(bits, before, np.int64(dst[e]))
                else:
                    out_src[j], out_dst[j] = src[e], dst[e]
                out_weight[j], out_ids[j] = weight[e], ids[e]
                j += 1


def _id_dtype(dg: DistributedGraph) -> np.dtype:
    """The edge ids' dtype in the merge: int32 where every id fits, so that taking the
    rank's edges, the messages and the steps' merges move 16 bytes an edge, not 20."""
    return index_dtype_for(dg.num_edges, 0)


def _mine(dg: DistributedGraph) -> tuple[tuple[np.ndarray, ...], Numbering]:
    """The held edges this rank merges (src, dst, weight, id; ids increasing), those whose
    holder end (:func:`~parmst.solvers.mpi.held.holder`) it owns, self-loops left out,
    with their ends numbered ``0 .. k - 1`` over the ``k`` vertices they touch; and that
    :class:`~parmst.solvers.mpi.touched.Numbering`. Two passes on the rank's threads:
    count per block and mark the ends (a bitmap per thread), then write from each
    block's offset.

    The local solver then works over the ``k`` touched vertices, not all ``n``: ecl/cpu's
    per-vertex passes and its filter's target of one light edge per vertex follow the
    vertices (R-MAT scale 20 at 4 ranks, a share of 3.8 M edges touching 408 k of the
    1 M vertices: 144 ms on one thread against 237 ms over all ``n``, for 22 ms of
    numbering; CPU time).
    """
    labels = vertex_labels(dg)
    args = (labels.src, labels.dst, dg.edge_ids, labels.first, labels.stop)
    rows = marked_bitmaps(numba.get_num_threads(), dg.num_vertices)
    starts = exclusive_sums(_count_mine(*args, dg.src, dg.dst, rows))
    numbering = number_touched(rows)
    del rows
    count, k = int(starts[-1, 0]), len(numbering.touched)
    ends = index_dtype_for(k, count)
    out = (np.empty(count, dtype=ends), np.empty(count, dtype=ends),
           np.empty(count, dtype=dg.weight.dtype), np.empty(count, dtype=_id_dtype(dg)))
    # Every vertex touched (dense graphs): the numbers are the ids, and no lookup is made.
    _take_mine(*args, starts, dg.src, dg.dst, dg.weight, k < dg.num_vertices, numbering.bits,
               numbering.before, *out)
    return out, numbering


@numba.njit(cache=True)
def _scan_in_order(order, src, dst, weight, ids, parent, capacity):
    """Kruskal's scan (:func:`~parmst.kernels.unionfind.scan_sorted`) over the edges in
    ``order``: the kept edges' src, dst, weight and id, in that order.

    The ends are gathered in order first, as
    :func:`~parmst.kernels.unionfind.scan_in_order` does, and the kept edges' ends
    are read back from those arrays in sequence; only the weight and id are read at
    random (a share of R-MAT scale 20, 7.8 M edges: 255 -> 248 ms; uniform random,
    3.0 M edges: 178 -> 158 ms, against the scan then a gather of all four fields; CPU
    time, one thread).
    """
    s, t = src[order], dst[order]
    kept = np.empty(capacity, dtype=np.int64)
    count = scan_sorted(s, t, parent, kept, 0)
    out_src, out_dst = np.empty(count, dtype=s.dtype), np.empty(count, dtype=t.dtype)
    out_weight, out_ids = np.empty(count, dtype=weight.dtype), np.empty(count, dtype=ids.dtype)
    for i in range(count):
        j = kept[i]
        e = order[j]
        out_src[i], out_dst[i], out_weight[i], out_ids[i] = s[j], t[j], weight[e], ids[e]
    return out_src, out_dst, out_weight, out_ids


def _kruskal_in_key_order(edges: tuple[np.ndarray, ...], num_vertices: int
                          ) -> tuple[np.ndarray, ...]:
    """Kruskal's forest of ``edges`` (src, dst, weight, id), in the order its scan keeps
    them: the ``(weight, position)`` order, so no ordering pass follows (kruskal/serial
    hands its forest back in position order, which would cost a sort here). One
    union-find array (:func:`~parmst.kernels.unionfind.scan_sorted`)."""
    src, dst, weight, _ = edges
    parent = np.full(num_vertices, -1, dtype=index_dtype_for(num_vertices, 0))
    capacity = max(num_vertices - 1, 0)
    order = canonical_order_or_none(weight)
    if order is None:  # the weights never decrease along the positions
        chosen = np.empty(capacity, dtype=np.int64)
        return take_edges(edges, chosen[:scan_sorted(src, dst, parent, chosen, 0)])
    return _scan_in_order(order, *edges, parent, capacity)


# On two threads the share's shape picks its solver: ecl/cpu from this many edges per touched
# vertex, else kruskal/serial. Measured on 2 cores (docs/mpi.md), the forest in key order,
# median of 7: R-MAT shares of 9.2-14.7 edges per touched vertex ecl/cpu 96-158 ms against
# Kruskal's 115-280 ms; R-MAT shares of 4.2 and 6.0, uniform random of 1.7 and 5.0 and a road
# share of 1.4: Kruskal 1.1-1.9x faster. (The registry's pick follows the host's cores, not
# the rank's threads: Kruskal on this 2-core VM, ecl/cpu on 8 cores or more, for any share.)
# One thread keeps Kruskal, more than two the registry's pick (not measured here).
TWO_THREAD_ECL_DEGREE = 8


def share_solver(graph: Graph, local_solver: str, threads: int) -> str:
    """The one-process solver of a rank's local forest: :data:`TWO_THREAD_ECL_DEGREE`'s rule
    where ``local_solver`` is ``"auto"`` on two threads and ecl/cpu's kernels are compiled
    (else Kruskal's run would end before their compilation), else
    :func:`~parmst.solvers.mpi.contract.local_solver_name`'s pick.

    Examples
    --------
    >>> import numpy as np
    >>> from parmst import Graph
    >>> ring = Graph(np.arange(4), (np.arange(4) + 1) % 4, np.ones(4), 4)
    >>> share_solver(ring, "auto", 2), share_solver(ring, "ecl/cpu", 2)
    ('kruskal/serial', 'ecl/cpu')
    """
    if local_solver != "auto" or threads != 2:
        return local_solver_name(graph, local_solver, threads)
    if graph.num_edges >= TWO_THREAD_ECL_DEGREE * graph.num_vertices and ecl_compiled():
        return "ecl/cpu"
    return "kruskal/serial"


def _local_forest(edges: tuple[np.ndarray, ...], num_vertices: int, local_solver: str,
                  threads: int, stats: Stats | None = None) -> tuple[np.ndarray, ...]:
    """The minimum spanning forest of ``edges`` (src, dst, weight, id; ids increasing) as
    src, dst, weight key (:func:`~parmst.order.weight_keys`) and id, in ``(key, id)`` order.

    Positions follow the ids, so a solver's position tie-break is the id's.
    Kruskal's scan keeps the forest in that order already and takes its fields
    as it goes; another solver's forest (in position order: one check, a sort
    only if it is not) is put in it by
    :func:`~parmst.solvers.mpi.ordered_edges.sort_edges` on the rank's threads,
    its fields taken first in one parallel pass
    (:func:`~parmst.solvers.mpi.ordered_edges.take_edges`). ``stats`` gets the
    phases ``merge-solve`` (the solver) and ``merge-order`` (the rest).
    """
    stats = stats if stats is not None else Stats()
    src, dst, weight, _ = edges
    graph = Graph(src, dst, weight, num_vertices)
    name = share_solver(graph, local_solver, threads)
    if name == "kruskal/serial":
        with stats.phase("merge-solve"):  # the forest's fields taken by the scan
            fields = _kruskal_in_key_order(edges, num_vertices)
        with stats.phase("merge-order"):
            return (*fields[:2], weight_keys(fields[2]), fields[3])
    options = {"filter_target": DENSE_SHARE_FILTER_TARGET} if name == "ecl/cpu" \
        and len(src) >= DENSE_SHARE_DEGREE * num_vertices else {}
    with stats.phase("merge-solve"):
        kept = solve_locally(graph, name, threads, options)
    with stats.phase("merge-order"):
        fields = take_edges(edges, in_id_order(kept, len(src)))
        return sort_edges((*fields[:2], weight_keys(fields[2]), fields[3]))


def _step(dg: DistributedGraph, k: int, forest: tuple[np.ndarray, ...],
          parent: np.ndarray, stats: Stats) -> tuple[np.ndarray, ...] | None:
    """Step ``k`` of the tree: send ``forest`` to ``rank - 2**k`` (returns None), or receive
    from ``rank + 2**k`` and return the forest of both, or keep ``forest`` as it is.

    Both forests come in ``(key, id)`` order, so the forest of their union is
    one union-find scan over their merge, and it comes out in that order too:
    no graph, no key preparation, no sort. The merge and the gather of the
    kept edges run on the rank's threads
    (:mod:`~parmst.solvers.mpi.ordered_edges`); the scan between them is
    serial (Kruskal's, :func:`~parmst.kernels.unionfind.scan_sorted`), but
    reads the ends in sequence. ``parent`` is the solve's one-array union-find
    over the vertices, reset for the step (:func:`_reset_all`). ``stats`` gets the
    step's phases ``merge-step-k-send`` or ``-recv`` (the wait for the partner's
    forest included), ``-merge``, ``-scan`` (the reset included) and ``-gather``.
    """
    channel, rank, bit = dg.channel, dg.rank, 1 << k
    phase = f"merge-step-{k}"
    if rank & bit:
        with stats.phase(f"{phase}-send"):
            channel.send_arrays(forest, rank - bit)
        return None
    if rank + bit >= channel.size:
        return forest
    with stats.phase(f"{phase}-scan"):  # while the partner may still be solving
        filled = _reset_all(parent, 2 * len(forest[0]))
    with stats.phase(f"{phase}-recv"):
        other = channel.recv_arrays(rank + bit, [a.dtype for a in forest])
    with stats.phase(f"{phase}-scan"):
        if not filled:
            for edges in (forest, other):
                reset_at(edges[0], edges[1], parent)
    return forest_of_two(forest, other, parent, stats, phase)


def forest_of_two(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...],
                  parent: np.ndarray, stats: Stats | None = None,
                  phase: str = "merge") -> tuple[np.ndarray, ...]:
    """The minimum spanning forest of two forests' edges (``src, dst, key, id`` each, in
    ``(key, id)`` order, no id in both), in that order: Kruskal's scan over their merge.

    ``parent``, a one-array union-find (:func:`~parmst.kernels.unionfind.find`),
    must hold -1 (a singleton) at every end of both. The scan stays serial on any
    number of threads: Blelloch et al.'s deterministic reservations (exact, parallel)
    and ecl/cpu on the union both cost several times the scan on the merged forests
    (docs/mpi.md). ``stats`` gets the phases ``<phase>-merge``, ``-scan`` and ``-gather``.
    """
    stats = stats if stats is not None else Stats()
    with stats.phase(f"{phase}-merge"):
        merged = merge_edges(a, b)
    with stats.phase(f"{phase}-scan"):
        kept = np.empty(len(merged[0]), dtype=np.int64)
        kept = kept[:scan_sorted(merged[0], merged[1], parent, kept, 0)]
    with stats.phase(f"{phase}-gather"):
        return take_edges(merged, kept)


# A merge step resets its union-find at the two forests' endpoints one by one, or all of
# it in one sequential fill where they touch at least 1 / RESET_ALL_SHARE of the vertices:
# on R-MAT scale 20 (two forests of 360 k edges over 1 M vertices) the endpoint resets took
# 11 ms and the fill 1.9 ms: an edge (two endpoints) costs about eight vertices of the fill.
RESET_ALL_SHARE = 8


@numba.njit(parallel=True, cache=True)
def _singletons(parent):
    """Every vertex a singleton (-1) of the one-array union-find, on the rank's threads."""
    for v in numba.prange(len(parent)):
        parent[v] = -1


def _reset_all(parent: np.ndarray, edges: int) -> bool:
    """Make every vertex of the union-find ``parent`` a singleton where a step of about
    ``edges`` edges would reset at least :data:`RESET_ALL_SHARE` of them at its endpoints;
    whether it did. The receiver guesses ``edges`` as twice its own forest, so that the
    fill runs before the partner's forest arrives."""
    if RESET_ALL_SHARE * edges >= len(parent):
        _singletons(parent)
        return True
    return False


def _shares(dg: DistributedGraph, forest: tuple[np.ndarray, ...] | None) -> np.ndarray:
    """Rank 0's whole ``forest`` handed out: each rank gets the ids of its primary edges in
    it (the owner of their ``src``), sorted to increasing order."""
    channel = dg.channel
    if channel.rank == 0:
        src, ids = forest[0], forest[3]
        owner = dg.ownership.owner(src)
        ids = ids[group_order(owner, channel.size)]
        counts = np.bincount(owner, minlength=channel.size)
    else:
        ids = np.zeros(0, dtype=_id_dtype(dg))
        counts = np.zeros(channel.size, dtype=np.int64)
    (mine,), _ = channel.alltoallv([ids], counts)
    return np.sort(mine).astype(np.int64, copy=False)  # the forest came in key order


def merge_held(dg: DistributedGraph, stats: Stats, local_solver: str, threads: int
               ) -> np.ndarray:
    """This rank's share of the forest by merging the ranks' local forests (module doc).

    Parameters
    ----------
    dg : DistributedGraph
    stats : Stats
        Gets the phases of the local forest, ``merge-mine`` (taking the rank's edges
        and numbering their ends), ``merge-solve`` (the local solver), ``merge-order``
        (the forest's fields in ``(key, id)`` order) and ``merge-ends`` (its ends back
        to vertex ids); of each tree step ``k`` that the rank takes part in,
        ``merge-step-k-send`` or ``merge-step-k-recv``, ``-merge``, ``-scan`` and
        ``-gather`` (:func:`_step`); and ``merge-shares``.
    local_solver : str
        The one-process solver of the rank's local forest (see
        :func:`~parmst.solvers.mpi.contract.solve_locally`); the merge steps need
        none.
    threads : int
        Numba threads of this rank.

    Returns
    -------
    ndarray
        The forest's ids among this rank's primary edges, increasing.
    """
    with stats.phase("merge-mine"):
        edges, numbering = _mine(dg)
    forest = _local_forest(edges, len(numbering.touched), local_solver, threads, stats)
    del edges
    with stats.phase("merge-ends"):
        forest = (vertices_of(numbering, forest[0]), vertices_of(numbering, forest[1]),
                  *forest[2:])
    stats.extra["merge_touched_vertices"] = len(numbering.touched)
    # The steps' union-find over all the vertices, allocated once; each step resets it.
    parent = np.empty(dg.num_vertices, dtype=index_dtype_for(dg.num_vertices, 0))
    for k in range(max(0, (dg.size - 1).bit_length())):
        if forest is not None:
            forest = _step(dg, k, forest, parent, stats)
    with stats.phase("merge-shares"):
        return _shares(dg, forest)
