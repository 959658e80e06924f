"""What every mpi solver does around its rounds: agree, time, count, gather, report.

A solver gives the driver one callable, ``held_forest(stats)``, which runs
the solver on this rank and returns this rank's share of the forest's edge
ids (the chosen edges among its primary ones, see
:func:`~parmst.solvers.mpi.held.held_share`). The driver checks the input on
every rank together, times the solve and its communication, puts the shares
in id order, spreads and gathers them (:mod:`parmst.solvers.mpi.gather`),
sums the weight and returns the :class:`~parmst.forest.Forest`. With
``gather=False`` nothing is gathered: every rank, rank 0 included, keeps
its share.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from parmst._mpi.channel import peak_memory_bytes
from parmst.distributed import DistributedGraph
from parmst.forest import Forest, exact_sum
from parmst.solvers.mpi.gather import (
    exact_total,
    gather_forest,
    held_positions,
    id_order,
    in_id_order,
    spread_forest,
    take_fields,
)
from parmst.stats import Stats

# Per-rank figures a solver leaves in stats.extra that belong in the per-rank table.
PER_RANK_EXTRA = ("local_edges", "cut_edges_held", "contracted_edges", "owner_rounds")


def solve_distributed(dg: DistributedGraph, name: str,
                      held_forest: Callable[[Stats], np.ndarray], gather: bool = True) -> Forest:
    """Run the mpi solver ``name`` on every rank; the complete Forest on rank 0.

    ``held_forest(stats)`` returns this rank's share of the chosen edge ids.
    On rank 0 the result is the whole minimum spanning forest. On every other
    rank it is that rank's share: ``edge_ids``, ``src``, ``dst``, ``weight``
    are the forest edges whose ids fall in its range (rank ``r`` of ``p``:
    ids ``r*m//p`` up to ``(r+1)*m//p - 1``), in id order, so the shares are
    disjoint and together make the forest; while ``num_vertices``,
    ``num_components`` and ``total_weight`` are the global figures.
    ``gather=False`` gives rank 0 its share too: no rank ever holds the
    whole forest (``stats.extra["gathered"]`` says which it is); the
    forest's edge count is ``num_vertices - num_components``.
    ``stats.extra["ranks"]`` (rank 0) lists every rank's building (read and
    route) time, and for the solve itself its local time, communication
    time, collectives, messages and bytes sent, plus the edges it held and
    its peak memory.

    Raises
    ------
    DistributedError
        On every rank, if any rank holds a NaN weight.
    """
    channel = dg.channel
    stats = Stats(device=f"mpi x{channel.size}", threads=channel.size, init_time=dg.build_time)
    before = channel.counters()
    start = time.perf_counter()
    error = None
    if dg.weight.dtype.kind == "f" and len(dg.weight) and np.isnan(dg.weight).any():
        error = ValueError("a NaN weight: the mpi solvers reject NaN (drop those edges first)")
    channel.agree(error)
    mine = held_forest(stats)
    stats.compute_time = time.perf_counter() - start
    counters = {k: v - before[k] for k, v in channel.counters().items()}
    if channel.size == 1:  # the whole forest, on every core of the one process
        mine = in_id_order(mine, dg.num_edges)
        position = held_positions(dg.edge_ids, mine)
        src, dst, weights = take_fields(position, dg.src, dg.dst, dg.weight)
    else:  # a share, on a rank that shares its host's cores with the others
        mine = mine[id_order(mine, dg.num_edges)]
        position = held_positions(dg.edge_ids, mine)
        src, dst, weights = dg.src[position], dg.dst[position], dg.weight[position]
    per_rank = {"rank": channel.rank, "init_time_s": dg.build_time,
                "local_time_s": stats.compute_time - counters["comm_time_s"], **counters,
                "held_edges": len(dg.src), "held_bytes": dg.nbytes,
                "peak_memory_bytes": peak_memory_bytes(),
                **{k: stats.extra.pop(k) for k in PER_RANK_EXTRA if k in stats.extra}}
    ranks = channel.gather_object(per_rank)
    ids = mine
    if channel.size > 1 and not gather:
        ids, src, dst, weights = spread_forest(channel, dg.num_edges, ids, src, dst, weights)
    elif channel.size > 1:  # on one rank its share, in id order already, is the forest
        share, whole = gather_forest(channel, dg.num_edges, ids, src, dst, weights)
        ids, src, dst, weights = whole if channel.rank == 0 else share
    if gather:
        total_weight = channel.bcast_object(exact_sum(weights) if channel.rank == 0 else None)
    else:
        total_weight = exact_total(channel, weights)
    forest_edges = channel.allreduce_int(len(mine), "sum")
    stats.rounds = stats.rounds or 0
    stats.extra["rank"] = channel.rank
    stats.extra["gathered"] = gather
    if channel.rank == 0:
        stats.extra["ranks"] = ranks
    return Forest(edge_ids=ids.astype(np.int64, copy=False), src=src, dst=dst, weight=weights,
                  num_vertices=dg.num_vertices,
                  num_components=dg.num_vertices - forest_edges,
                  total_weight=total_weight, solver=name, stats=stats)
