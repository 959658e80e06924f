"""filter-boruvka/mpi: the local filter first, then distributed Borůvka rounds.

After Sanders and Schimek, "Engineering Massively Parallel MST Algorithms"
(2023): vertices are owned by ranks and every rank holds all edges incident
to its vertices. Each rank contracts what it can alone (the filter of
:mod:`parmst.solvers.mpi.contract`: its local edges' minimum spanning forest
and a safe contraction), and the rounds solve the contracted graph that is
left: the all-reduce rounds of :mod:`parmst.solvers.mpi.allreduce` while it
has at most :data:`ALLREDUCE_MAX_COMPONENTS` components, the owner rounds of
:mod:`parmst.solvers.mpi.owners` beyond (or GenBoruvka's rounds, on request).

On graphs with locality (roads, grids, meshes, a partition that follows
communities) most vertices are contracted before any communication; on
random graphs with many cut edges the filter contracts little, and
``local_filter="auto"`` skips it: the rounds then start from the vertices
(:mod:`parmst.solvers.mpi.vertex_graph`).

Where the forest is small against the edges (``2 (n - 1) <= 2 m / p``: R-MAT,
dense graphs), neither runs: the ranks' own forests are merged up a binary
tree of ranks instead (:mod:`parmst.solvers.mpi.forest_merge`).
"""

from __future__ import annotations

from contextlib import ExitStack

import numba
import numpy as np

from parmst._blocks import block_span, num_blocks
from parmst._threads import using_threads
from parmst.distributed import DistributedGraph
from parmst.graph import Graph
from parmst.solvers.mpi import genboruvka
from parmst.solvers.mpi.allreduce import allreduce_rounds
from parmst.solvers.mpi.contract import filter_contract, solve_locally
from parmst.solvers.mpi.contracted import Contracted
from parmst.solvers.mpi.forest_merge import merge_fits, merge_held
from parmst.solvers.mpi.held import GIVEN, LOCAL, LOOP, Labels, edge_kind, held_share, vertex_labels
from parmst.solvers.mpi.owners import owner_rounds
from parmst.solvers.mpi.rank_threads import rank_threads
from parmst.solvers.mpi.vertex_graph import vertex_graph
from parmst.stats import Stats

# Above this many components left after the filter, rounds="auto" contracts them with the
# owner rounds (O(m/p + k/p) work and words per rank and round) instead of all-reduce rounds
# (O(k) replicated per rank, with O(k) words reduced each round).
ALLREDUCE_MAX_COMPONENTS = 1 << 16
ROUNDS = ("auto", "merge", "allreduce", "owners", "genboruvka")

# filter-boruvka contracts each rank's local forest first only when the local edges could
# contract at least this fraction of the vertices (sum over ranks of min(local edges, owned
# vertices), against n). Below it the filter costs more than the Borůvka round that replaces
# it: on seed000-sparse large (uniform random, 1.5 edges per vertex) a rank holds both ends
# of a fraction 1/p of its edges, and at 4 ranks the filter took 1.5 s to contract 2 of the
# 10 M vertices, where the first round contracts three quarters of them (10 M to 2.5 M
# components); at 2 ranks (reach 0.75) the rounds from the vertices took 3.96 s, the filter
# first 4.35 s (H200 host, one call).
FILTER_MIN_REACH = 0.9
LOCAL_FILTER = ("auto", "on", "off")


@numba.njit(parallel=True, cache=True)
def _held_counts(src, dst, ids, first, stop):
    """Of the held edges: how many are local, owned self-loops, and non-loop edges this
    rank gives to the rounds (local ones included), one block per thread at a time."""
    blocks = num_blocks(len(src))
    counts = np.zeros((blocks, 5), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, len(src))
        for e in range(lo, hi):
            counts[b, edge_kind(np.int64(src[e]), np.int64(dst[e]), ids[e], first, stop)] += 1
    return counts


def held_counts(labels: Labels, ids: np.ndarray) -> tuple[int, int, int, np.ndarray]:
    """Of the held edges (range ``labels``, global ``ids``): how many non-loop edges have
    both ends owned here, how many self-loops it owns, how many non-loop edges it gives
    to the rounds, and each kind's count per block of :mod:`parmst._blocks` (columns by
    :func:`~parmst.solvers.mpi.held.edge_kind`). One pass serves the filter's choice,
    the allocation of the vertex graph, and the filter's split, which writes each block
    from these counts' offsets."""
    per_block = _held_counts(labels.src, labels.dst, ids, labels.first, labels.stop)
    counts = per_block.sum(axis=0)
    local, loops, given = int(counts[LOCAL]), int(counts[LOOP]), int(counts[GIVEN])
    return local, loops, local + given, per_block


def filter_pays(dg: DistributedGraph, local: int) -> bool:
    """Whether ``local_filter="auto"`` runs the filter, this rank holding ``local`` edges
    with both ends owned: see :data:`FILTER_MIN_REACH`."""
    reach = dg.channel.allreduce_int(min(local, dg.ownership.count(dg.rank)), "sum")
    return reach >= FILTER_MIN_REACH * dg.num_vertices


def _check_options(rounds: str, local_filter: str) -> None:
    if rounds not in ROUNDS:
        raise ValueError(f"rounds must be one of {', '.join(ROUNDS)}, got {rounds!r}")
    if local_filter not in LOCAL_FILTER:
        raise ValueError(f"local_filter must be one of {', '.join(LOCAL_FILTER)}, "
                         f"got {local_filter!r}")


def _owner_rounds(dg: DistributedGraph, c: Contracted, stats: Stats,
                  threads: int | None) -> np.ndarray:
    """The owner rounds on the contracted graph: the forest ids they give this rank."""
    e, minima = c.edges, c.minima
    starts = dg.channel.range_starts(c.count)
    return owner_rounds(dg.channel, e.cu, e.cv, e.keys, e.ids, starts, stats,
                        (minima.ids, minima.far, minima.holder), c.key_bits, dg.num_edges)


def _allreduce_rounds(dg: DistributedGraph, c: Contracted, stats: Stats,
                      threads: int | None) -> np.ndarray:
    """The all-reduce rounds on the contracted graph: this rank's share of their choice."""
    e = c.edges
    chosen = allreduce_rounds(dg.channel, e.cu, e.cv, e.keys, e.ids, c.num_components,
                              c.key_bits, dg.num_edges, stats)
    return held_share(dg, chosen)


def _genboruvka_rounds(dg: DistributedGraph, c: Contracted, stats: Stats,
                       threads: int | None) -> np.ndarray:
    """GenBoruvka's rounds on the contracted graph: this rank's share of their choice."""
    e = c.edges
    rows = genboruvka.rows_of_contracted(dg.channel, c.first, c.count, e.cu, e.cv, e.keys,
                                         e.ids)
    chosen = dg.channel.allgatherv(genboruvka.rounds(dg.channel, rows, stats, threads))
    return held_share(dg, chosen)


_ROUNDS_BY = {"owners": _owner_rounds, "allreduce": _allreduce_rounds,
              "genboruvka": _genboruvka_rounds}


def filter_boruvka_held(dg: DistributedGraph, stats: Stats, local_solver: str,
                        threads: int | None, rounds: str, local_filter: str) -> np.ndarray:
    """This rank's share of the forest: the edges it contracted and its rounds' choices.

    Every step runs on ``threads`` Numba threads, by default this rank's part
    of its cores (:func:`~parmst.solvers.mpi.rank_threads.rank_threads`).
    ``threads``, ``rounds`` and ``local_filter`` are checked on every rank
    together: a bad value raises the same
    :class:`~parmst._mpi.channel.DistributedError` on every rank.
    """
    count = rank_threads(dg.channel) if threads is None else threads
    with ExitStack() as stack:
        error = None
        try:
            _check_options(rounds, local_filter)
            stack.enter_context(using_threads(count, stats))
        except (TypeError, ValueError) as exc:
            error = exc
        dg.channel.agree(error)
        if dg.channel.size == 1:
            return _one_rank(dg, stats, local_solver, count)
        return _on_ranks(dg, stats, local_solver, count, rounds, local_filter)


def _one_rank(dg: DistributedGraph, stats: Stats, local_solver: str, threads: int
              ) -> np.ndarray:
    """On one rank every edge is local: the local filter's forest is the whole answer, so
    the best one-process solver runs on the held edges as they are, and nothing else."""
    stats.extra["local_filter"] = "on"
    with stats.phase("local-forest"):
        graph = Graph(dg.src, dg.dst, dg.weight, dg.num_vertices)
        positions = solve_locally(graph, local_solver, threads)
        # One rank holds every edge, in id order; not every id (without_nan leaves gaps).
        if len(dg.edge_ids) and dg.edge_ids[-1] == len(dg.edge_ids) - 1:
            return positions  # ids 0 .. m - 1: an edge's id is its position
        return dg.edge_ids[positions]


def _on_ranks(dg: DistributedGraph, stats: Stats, local_solver: str, threads: int,
              rounds: str, local_filter: str) -> np.ndarray:
    """:func:`filter_boruvka_held` on two ranks or more: the ranks' forests merged up a tree
    where the forest is small against the edges (:func:`merge_fits`; a forced
    ``local_filter`` asks for the filter's path), else the filter (or the vertex graph),
    then the rounds."""
    if rounds == "merge" or (rounds == "auto" and local_filter == "auto" and merge_fits(
            dg.num_vertices, dg.num_edges, dg.size)):
        stats.extra["rounds_by"] = "merge"
        stats.extra["local_filter"] = "off"  # the merge replaces the filter and the rounds
        return merge_held(dg, stats, local_solver, threads)
    with stats.phase("held-labels"):
        labels = vertex_labels(dg)
        local, _, held, per_block = held_counts(labels, dg.edge_ids)
    with stats.phase("filter-choice"):  # a collective: its time is the wait for the others
        use_filter = local_filter == "on" or (local_filter == "auto" and filter_pays(dg, local))
    stats.extra["local_filter"] = "on" if use_filter else "off"
    if use_filter:
        contracted = filter_contract(dg, stats, labels, local_solver, threads, per_block)
    else:
        with stats.phase("vertex-graph"):
            contracted = vertex_graph(dg, labels, held)
    del labels
    if contracted.num_components == 0:  # every rank's local forests make the whole forest
        return contracted.forest
    if rounds == "auto":
        rounds = "allreduce" if contracted.num_components <= ALLREDUCE_MAX_COMPONENTS \
            else "owners"
    stats.extra["rounds_by"] = rounds
    chosen = _ROUNDS_BY[rounds](dg, contracted, stats, threads)
    return np.concatenate([contracted.forest, chosen])
