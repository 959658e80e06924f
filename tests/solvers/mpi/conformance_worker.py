"""Run under mpiexec by test_mpi_runs.py: the whole conformance catalogue on this many ranks.

Every rank builds each catalogue graph, keeps an uneven (often empty) slice
of its edges and builds the distributed graph from those slices with
``DistributedGraph.from_local_edges`` (on odd cases the slices go to the
ranks in reverse order, so id ranges do not follow rank order). Every mpi
solver then runs with block and cyclic ownership; rank 0 checks each forest
against kruskal/serial's edge ids, total weight and component count, and
with ``parmst.verify``, and prints one JSON line with the counts and failures.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/, for conformance.cases

import parmst
from conformance.cases import CASES, GENERATOR_SPECS
from parmst import registry
from parmst._mpi.channel import Channel
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi import owners

FINISH_EDGES = owners.FINISH_EDGES

MPI_SOLVERS = [name for name, s in registry.solvers().items() if s.backend == "mpi"]
# Every solver with its defaults, the ranks' forests merged up a tree of ranks (which "auto"
# takes where 2 (n - 1) <= m / p), and filter-boruvka's distributed rounds, which "auto"
# takes only past 65,536 components (never on these small cases). The owner rounds run
# twice: as shipped (these cases are under owners.FINISH_EDGES, so rank 0 finishes them
# at once) and with every round distributed (FINISH_EDGES = 0, set by the variant).
# local_filter "auto" decides per graph; "on" and "off" force the filter and the rounds
# from the vertices on every case, with each kind of rounds.
VARIANTS = [(name, {}) for name in MPI_SOLVERS] + [
    ("filter-boruvka/mpi", {"rounds": "merge"}),
    ("filter-boruvka/mpi", {"rounds": "genboruvka"}),
    ("filter-boruvka/mpi", {"rounds": "owners"}),
    ("filter-boruvka/mpi", {"rounds": "owners", "finish_edges": 0}),
    ("filter-boruvka/mpi", {"local_filter": "on"}),
    ("filter-boruvka/mpi", {"local_filter": "off"}),
    ("filter-boruvka/mpi", {"local_filter": "off", "rounds": "genboruvka"}),
    ("filter-boruvka/mpi", {"local_filter": "off", "rounds": "owners", "finish_edges": 0})]


def _graphs():
    for name, build in CASES.items():
        yield name, build()
    for name, spec in GENERATOR_SPECS.items():
        yield name, parmst.generate(spec)


def _slice(graph, channel, case_number):
    rng = np.random.default_rng(case_number)
    cuts = np.sort(rng.integers(0, graph.num_edges + 1, channel.size - 1))
    bounds = np.concatenate(([0], cuts, [graph.num_edges]))
    piece = channel.size - 1 - channel.rank if case_number % 2 else channel.rank
    return int(bounds[piece]), int(bounds[piece + 1])


def main() -> None:
    channel = Channel()
    checks, failures = 0, []
    for number, (name, graph) in enumerate(_graphs()):
        reference = parmst.minimum_spanning_forest(graph, solver="kruskal/serial")
        lo, hi = _slice(graph, channel, number)
        for solver, options in VARIANTS:
            for ownership in ("block", "cyclic"):
                dg = DistributedGraph.from_local_edges(
                    graph.src[lo:hi], graph.dst[lo:hi], graph.weight[lo:hi], lo,
                    graph.num_vertices, channel, ownership=ownership)
                solver_options = dict(options)
                owners.FINISH_EDGES = solver_options.pop("finish_edges", FINISH_EDGES)
                forest = parmst.minimum_spanning_forest(dg, solver=solver, **solver_options)
                if channel.rank != 0:
                    continue
                checks += 1
                problems = []
                if forest.edge_ids.tolist() != reference.edge_ids.tolist():
                    problems.append("edge ids differ")
                if forest.num_components != reference.num_components:
                    problems.append("component count differs")
                if forest.total_weight != reference.total_weight and not (
                        isinstance(reference.total_weight, float)
                        and math.isnan(reference.total_weight)):
                    problems.append("total weight differs")
                # Equal ids make verify's verdict the same for both ownerships; check the
                # gathered edges (endpoints, weights) once per solver.
                if ownership == "block" and not parmst.verify(graph, forest):
                    problems.append("verify failed")
                if problems:
                    failures.append(f"{name} {solver}{options or ''} {ownership}: "
                                    f"{', '.join(problems)}")
    if channel.rank == 0:
        print(json.dumps({"ranks": channel.size, "solvers": MPI_SOLVERS,
                          "variants": len(VARIANTS), "checks": checks,
                          "cases": number + 1, "failures": failures}), flush=True)


if __name__ == "__main__":
    main()
