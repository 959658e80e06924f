"""Run under mpiexec by test_threads.py: filter-boruvka/mpi on 1 and 2 threads per rank.

The graphs span many blocks of :mod:`parmst._blocks`, so the parallel
passes (routing, the split, the vertex graph, the owner rounds' minima and
relabels) really divide their work; int64 weights with many ties take the
two-pass minima, float32 weights the packed ones. Rank 0 checks every
forest's edge ids against kruskal/serial's and prints one JSON line.
"""

from __future__ import annotations

import json

import numpy as np

import parmst
from parmst._mpi.channel import Channel
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi import owners
from parmst.solvers.mpi.rank_threads import rank_threads

FINISH_EDGES = owners.FINISH_EDGES
VARIANTS = [{}, {"local_filter": "on", "finish_edges": 0},
            {"local_filter": "off", "finish_edges": 0}, {"rounds": "allreduce"}]


def _graphs():
    rng = np.random.default_rng(7)
    n, m = 15_000, 60_000  # four blocks of parmst._blocks
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    yield "ties-int64", parmst.Graph.from_edges(src, dst, rng.integers(0, 8, m))
    yield "float32", parmst.Graph.from_edges(src, dst, rng.random(m, dtype=np.float32))
    yield "road", parmst.generate("road:side=170,seed=3")


def main() -> None:
    channel = Channel()
    checks, failures = 0, []
    default = rank_threads(channel)
    defaults_seen = set()
    for name, graph in _graphs():
        reference = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
        dg = DistributedGraph.from_graph(graph)
        for options in VARIANTS:
            for threads in (1, 2, None):
                solver_options = dict(options)
                owners.FINISH_EDGES = solver_options.pop("finish_edges", FINISH_EDGES)
                forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi",
                                                        threads=threads, **solver_options)
                if threads is None:
                    defaults_seen.add(forest.stats.threads)
                if channel.rank == 0:
                    checks += 1
                    if forest.edge_ids.tolist() != reference.tolist():
                        failures.append(f"{name} {options} threads={threads}")
    if defaults_seen != {default}:
        failures.append(f"rank {channel.rank}: default threads {defaults_seen} != {default}")
    failures = [f for rank_failures in channel.comm.allgather(failures) for f in rank_failures]
    if channel.rank == 0:
        print(json.dumps({"ranks": channel.size, "checks": checks, "default": default,
                          "failures": failures}), flush=True)


if __name__ == "__main__":
    main()
