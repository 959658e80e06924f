"""Weak scaling: the mpi solvers on graphs that grow with the ranks, generated and verified in parallel.

Distributed users scale this way: more ranks, a proportionally bigger graph.
A weak suite names graph families (:class:`WeakGraph`) and an edge count
per rank ``E``; at ``p`` ranks each family's graph has about ``E * p`` edges.
No process ever holds such a graph whole: each launch of
:mod:`parmst.bench._mpi_worker` generates it in parallel
(:meth:`~parmst.distributed.DistributedGraph.generate`, timed as the
build), solves it, and verifies the last forest in parallel
(:func:`parmst.verify` on the distributed graph) instead of comparing it with
a one-process reference. Ideal weak scaling keeps the time and each rank's
memory flat as ``p`` grows.

Examples
--------
>>> WEAK_GRAPHS["rmat"].spec(2**24)
'rmat:scale=20,edge_factor=16,seed=1'
>>> WEAK_GRAPHS["uniform"].spec(3000)
'seed000-sparse:n=2000,m=3000,seed=1'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parmst.bench.result import GraphInfo, Record
from parmst.bench.specs import Variant

#: Edges per rank of the weak suites unless ``--edges-per-rank`` says otherwise.
EDGES_PER_RANK = 1 << 24

_RMAT_EDGE_FACTOR = 16
_SPARSE_EDGES_PER_VERTEX = 1.5
_ROAD_KEPT = 1 - 0.32  # the road family's default share of grid links kept


@dataclass(frozen=True)
class WeakGraph:
    """A family whose graph is sized by an edge count: ``spec(edges)`` names it."""

    name: str
    spec: Callable[[int], str]
    stands_for: str


def _rmat(edges: int) -> str:
    scale = max(1, round(math.log2(max(edges, 1) / _RMAT_EDGE_FACTOR)))
    return f"rmat:scale={scale},edge_factor={_RMAT_EDGE_FACTOR},seed=1"


def _uniform(edges: int) -> str:
    return (f"seed000-sparse:n={math.ceil(edges / _SPARSE_EDGES_PER_VERTEX)},m={edges},"
            f"seed=1")


def _road(edges: int) -> str:
    side = max(2, round(math.sqrt(edges / (2 * _ROAD_KEPT))))
    return f"road:side={side},seed=1"


WEAK_GRAPHS: dict[str, WeakGraph] = {g.name: g for g in (
    WeakGraph("rmat", _rmat, "R-MAT, edge factor 16 (raw edges; loops and repeats removed)"),
    WeakGraph("uniform", _uniform, "uniform random connected multigraph, 1.5 edges per vertex "
              "(seed000-sparse)"),
    WeakGraph("road", _road, "road-like jittered grid, 68 % of links kept"),
)}


def weak_name(graph: WeakGraph) -> str:
    """The name a weak graph's records and GraphInfo carry."""
    return f"{graph.name}-weak"


def weak_graph_info(graph: WeakGraph, edges_per_rank: int) -> GraphInfo:
    """The series' GraphInfo: the figures of its one-rank graph (per-rank size)."""
    from parmst.generators import describe, generate

    spec = graph.spec(edges_per_rank)
    counts = describe(spec)
    dtype = generate(graph.spec(64)).weight.dtype.name  # the family's weights, drawn small
    return GraphInfo(weak_name(graph), f"{spec} at 1 rank, ~{edges_per_rank:,} edges per rank",
                     counts["n"], counts["m"], dtype,
                     f"{graph.stands_for}; generated and verified in parallel")


def weak_records(graph: WeakGraph, variants: Sequence[Variant], edges_per_rank: int,
                 time_launch: Callable[[Record, Variant, tuple[str, str]], None]
                 ) -> list[Record]:
    """``graph`` at every rank count of the mpi ``variants``, one launch each.

    ``time_launch(record, variant, source)`` runs one launch (the harness's
    :func:`parmst.bench.mpi.time_ranks` within its budget) and fills the record.
    """
    records = []
    for variant in variants:
        spec = graph.spec(edges_per_rank * variant.ranks)
        record = Record(graph=weak_name(graph), solver=variant.solver.name,
                        options=variant.options, variant=variant.variant, ranks=variant.ranks)
        record.extra.update({"weak": True, "spec": spec, "edges_per_rank": edges_per_rank})
        time_launch(record, variant, (f"generate:{spec}", "verify"))
        records.append(record)
    return records
