"""Run under mpiexec by test_forest_merge.py: filter-boruvka/mpi's forest merge on this many
ranks, and the channel's point-to-point pair it uses.

Checks, each against kruskal/serial's edge ids:

- ``rounds="merge"`` on small R-MAT, dense, uniform random and road graphs, one of them
  with every weight equal (ties decided by the edge id alone), block and cyclic ownership;
- a graph whose vertices are all on rank 0 (the other ranks hold no edge, own no vertex
  or only isolated ones);
- ``gather=False``: each rank's share is the forest's ids in its id range, and the shares
  together are the forest;
- ``rounds="merge"`` with ecl/cpu as the local solver, on the R-MAT and dense graphs;
- ``rounds="auto"`` merges exactly where :func:`merge_fits` says;
- ``Channel.send_arrays`` / ``recv_arrays`` between every pair of neighbouring ranks,
  empty arrays included.

Rank 0 prints one JSON line: the rank count, the number of checks and the failures.
"""

from __future__ import annotations

import json

import numpy as np

import parmst
from parmst._mpi.channel import Channel
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi.forest_merge import merge_fits

GRAPHS = {
    "rmat": "rmat:scale=9,seed=1",
    "dense": "seed000-dense:n=90,m=3000,seed=2",
    "uniform": "seed000-sparse:n=600,m=900,seed=3",
    "road": "road:side=20,seed=4,weights=float",
}

# Also merged from ecl/cpu's local forests (put in key order, not kept so by the scan).
ECL_LOCAL = ("rmat", "dense")


def _equal_weights(graph: parmst.Graph) -> parmst.Graph:
    return parmst.Graph.from_edges(graph.src, graph.dst, np.ones(graph.num_edges, np.int64),
                                   graph.num_vertices)


def _on_rank_zero_only(channel: Channel) -> parmst.Graph:
    """Edges among the vertices rank 0 owns under block ownership; the rest isolated."""
    graph = parmst.generate("rmat:scale=5,seed=5")
    n = 8 * channel.size  # block ownership: rank 0 owns vertices 0..7
    return parmst.Graph.from_edges(graph.src % 8, graph.dst % 8, graph.weight, n)


def _graphs(channel: Channel):
    for name, spec in GRAPHS.items():
        yield name, parmst.generate(spec)
    yield "rmat-equal-weights", _equal_weights(parmst.generate(GRAPHS["rmat"]))
    yield "edges-on-rank-0-only", _on_rank_zero_only(channel)


def _channel_pairs(channel: Channel) -> list[str]:
    """Every rank sends rank - 1 arrays of three dtypes whose values name the sender."""
    failures = []
    for count in (0, 5 + channel.rank):
        if channel.rank > 0:  # send down first, then receive from above: no cycle of waits
            channel.send_arrays([np.full(count, channel.rank, np.int64),
                                 np.full(count, channel.rank, np.float32),
                                 np.full(count, channel.rank, np.uint8)], channel.rank - 1)
        if channel.rank + 1 < channel.size:
            got = channel.recv_arrays(channel.rank + 1, [np.int64, np.float32, np.uint8])
            sender = channel.rank + 1
            want = 0 if count == 0 else 5 + sender
            if [len(a) for a in got] != [want] * 3 or any((a != sender).any() for a in got) \
                    or [a.dtype for a in got] != [np.int64, np.float32, np.uint8]:
                failures.append(f"rank {channel.rank}: recv_arrays from {sender} gave "
                                f"{[a.tolist() for a in got]}")
    return failures


def main() -> None:
    channel = Channel()
    checks, failures = 0, []
    for name, graph in _graphs(channel):
        reference = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
        for ownership in ("block", "cyclic"):
            dg = DistributedGraph.from_graph(graph, channel, ownership=ownership)
            forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi",
                                                    rounds="merge", threads=1)
            steps = {k.split("-")[2] for k in forest.stats.phases
                     if k.startswith("merge-step-")}
            if channel.rank == 0:
                checks += 1
                if forest.edge_ids.tolist() != reference.tolist():
                    failures.append(f"{name} {ownership}: merged forest differs")
                if len(steps) != (channel.size - 1).bit_length():
                    failures.append(f"{name} {ownership}: phases {sorted(forest.stats.phases)}")
            share = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi",
                                                   rounds="merge", threads=1, gather=False)
            lo = channel.rank * graph.num_edges // channel.size
            hi = (channel.rank + 1) * graph.num_edges // channel.size
            mine = reference[(reference >= lo) & (reference < hi)]
            ok = share.edge_ids.tolist() == mine.tolist() and share.weight.tolist() == \
                graph.weight[mine].tolist() and share.total_weight == \
                parmst.minimum_spanning_forest(graph, solver="kruskal/serial").total_weight
            every = channel.comm.gather(ok, root=0)
            if channel.rank == 0:
                checks += 1
                if not all(every):
                    failures.append(f"{name} {ownership}: gather=False shares on ranks "
                                    f"{[r for r, good in enumerate(every) if not good]}")
        dg = DistributedGraph.from_graph(graph, channel)
        if name in ECL_LOCAL:
            by_ecl = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi",
                                                    rounds="merge", local_solver="ecl/cpu",
                                                    threads=1)
            if channel.rank == 0:
                checks += 1
                if by_ecl.edge_ids.tolist() != reference.tolist():
                    failures.append(f"{name}: merged forest with ecl/cpu's local forests differs")
        auto = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi", threads=1)
        if channel.rank == 0:
            checks += 1
            merged = auto.stats.extra.get("rounds_by") == "merge"
            if merged != merge_fits(graph.num_vertices, graph.num_edges, channel.size) or \
                    auto.edge_ids.tolist() != reference.tolist():
                failures.append(f"{name}: auto merged={merged}, exact="
                                f"{auto.edge_ids.tolist() == reference.tolist()}")
    pairs = channel.comm.gather(_channel_pairs(channel), root=0)
    if channel.rank == 0:
        checks += 1
        failures += [f for found in pairs for f in found]
        print(json.dumps({"ranks": channel.size, "checks": checks, "failures": failures}),
              flush=True)


if __name__ == "__main__":
    main()
