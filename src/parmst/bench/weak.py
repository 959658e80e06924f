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

Beside each run on ``p > 1`` ranks, one more launch of ``p`` ranks runs the
one-rank job ``p`` times at once: every rank generates, solves and verifies
a graph of the one-rank size alone (its own seed, ``MPI.COMM_SELF``), with no
message between ranks (:func:`alone_spec`). Its time is what the host itself
allows: ``p`` copies of the same work share the memory system, so even they
take longer than one copy alone, and no weak-scaling run on that host can
beat them.

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


#: What an "alone" record's variant adds to its run's (see the module's docstring).
ALONE = "each rank alone"


def alone_spec(spec: str, rank: int) -> str:
    """The graph rank ``rank`` generates in an "alone" launch: ``spec`` with seed
    ``seed + rank`` (``seed=1`` where ``spec`` names none).

    Examples
    --------
    >>> alone_spec("rmat:scale=20,edge_factor=16,seed=1", 3)
    'rmat:scale=20,edge_factor=16,seed=4'
    >>> alone_spec("grid2d:side=8", 0)
    'grid2d:side=8,seed=1'
    """
    family, _, params = spec.partition(":")
    pairs = [item.split("=", 1) for item in params.split(",") if item]
    seed = next((int(value) for key, value in pairs if key == "seed"), 1)
    kept = [f"{key}={value}" for key, value in pairs if key != "seed"]
    return f"{family}:{','.join(kept + [f'seed={seed + rank}'])}"


def launches_per_series(variants: Sequence[Variant]) -> int:
    """Launches one weak series takes: one per variant, and its "alone" launch beside
    each that runs on more than one rank."""
    return sum(2 if variant.ranks > 1 else 1 for variant in variants)


def weak_records(graph: WeakGraph, variants: Sequence[Variant], edges_per_rank: int,
                 time_launch: Callable[[Record, Variant, tuple[str, str]], None]
                 ) -> list[Record]:
    """``graph`` at every rank count of the mpi ``variants``, one launch each, and beside
    each on more than one rank the one-rank job run by every rank alone at once
    (``extra["alone"]``; its variant ends in :data:`ALONE`).

    ``time_launch(record, variant, source)`` runs one launch (the harness's
    :func:`parmst.bench.mpi.time_ranks` within its budget) and fills the record.
    """
    records = []
    one_rank = graph.spec(edges_per_rank)
    for variant in variants:
        spec = graph.spec(edges_per_rank * variant.ranks)
        runs = [(spec, variant.variant, f"generate:{spec}")]
        if variant.ranks > 1:
            runs.append((one_rank, f"{variant.variant}; {ALONE}" if variant.variant else ALONE,
                         f"alone:{one_rank}"))
        for run_spec, name, source in runs:
            record = Record(graph=weak_name(graph), solver=variant.solver.name,
                            options=variant.options, variant=name, ranks=variant.ranks)
            record.extra.update({"weak": True, "spec": run_spec,
                                 "edges_per_rank": edges_per_rank})
            if source.startswith("alone:"):
                record.extra.update({"alone": True, "alone_of": variant.variant})
            time_launch(record, variant, (source, "verify"))
            records.append(record)
    return records
