"""Run under ``mpiexec -n 4`` by test_generation.py: parallel generation on 1, 2, 3 and 4 ranks.

One launch: ``COMM_WORLD`` is split into communicators of the first 1, 2, 3
and 4 ranks, and each generates every spec of :data:`SPECS` with
``DistributedGraph.generate``. Checks, per spec and rank count: the ranks'
primary edges are exactly ``parmst.generate(spec)`` (ids, endpoints,
weights), every held edge agrees with it, no rank was given the whole graph,
and filter-boruvka/mpi returns kruskal/serial's edge ids. Then the errors:
a family that cannot be shared, a bad spec, a bad ownership and a share too
big for memory each end every rank with one DistributedError. World rank 0
prints one JSON line with the counts and failures.
"""

from __future__ import annotations

import json
import os

import numpy as np
from mpi4py import MPI

import parmst
from parmst._mpi.channel import Channel, DistributedError
from parmst.distributed import DistributedGraph
from parmst.generators import FAMILIES, Family
from parmst.generators._params import check_weights, fill_size
from parmst.generators._positional import weights_at
from parmst.generators._sampling import make_graph

_PATH_SIZES = {"small": {"n": 40}}


def path_range(lo, hi, *, n=None, size="small", seed=0, weights="int", max_weight=None):
    """Edges ``lo .. hi - 1`` of a shuffled path: edge ``k`` joins ``k`` and ``k + 1``."""
    n = fill_size("test-path", _PATH_SIZES, size, n=n)["n"]
    kind, max_weight = check_weights(weights, max_weight)
    ids = np.arange(lo, hi, dtype=np.int64)
    return ids, ids + 1, weights_at(lo, hi, max(n - 1, 0), seed, kind, max_weight)


def test_path(*, n=None, size="small", seed=0, weights="int", max_weight=None):
    n = fill_size("test-path", _PATH_SIZES, size, n=n)["n"]
    src, dst, weight = path_range(0, max(n - 1, 0), n=n, seed=seed, weights=weights,
                                  max_weight=max_weight)
    return make_graph(src, dst, weight, n)


# A family with an edge_range, for the generic path whatever the real families offer.
FAMILIES["test-path"] = Family("test-path", test_path, "a path (test)", _PATH_SIZES,
                               lambda p: (p["n"], max(p["n"] - 1, 0), True),
                               edge_range=path_range)

SPECS = [
    ("rmat:scale=9,seed=2", "block"),
    ("rmat:scale=7,edge_factor=4,seed=5,weights=float,max_weight=9", "cyclic"),
    ("kronecker:scale=6,seed=1,weights=unique", "block"),
    ("random-degree:n=700,degree=3,seed=4", "block"),
    ("random-degree:n=2", "block"),
    ("rmat:scale=0", "block"),
    ("test-path:n=300,seed=3,weights=unique", "block"),
    ("test-path:n=2", "cyclic"),
    ("road:side=30,seed=2,weights=float", "block"),
    ("grid2d:side=9,seed=1,weights=unique", "cyclic"),
    ("seed000-sparse:n=400,m=650,seed=3", "block"),
]
ERRORS = [
    ("delaunay:n=50", {}, "'delaunay' cannot be generated in parallel; families that can: "),
    ("rmat:scale=5,colour=3", {}, "rmat has no parameter 'colour'"),
    ("rmat:scale=5", {"ownership": "diagonal"}, "ownership must be one of block, cyclic"),
    ("rmat:scale=12", {"memory": "64K"}, "use more ranks"),
]


def check_spec(channel, spec, ownership, failures):
    serial = parmst.generate(spec)
    dg = DistributedGraph.generate(spec, channel, ownership=ownership)
    where = f"{spec} on {channel.size} ranks"
    if (dg.num_vertices, dg.num_edges) != (serial.num_vertices, serial.num_edges):
        failures.append(f"{where}: counts {dg.num_vertices, dg.num_edges}")
        return
    ids = dg.edge_ids
    if not (np.array_equal(dg.src, serial.src[ids]) and np.array_equal(dg.dst, serial.dst[ids])
            and np.array_equal(dg.weight, serial.weight[ids])
            and dg.weight.dtype == serial.weight.dtype):
        failures.append(f"{where}: rank {channel.rank} holds edges unlike the serial graph")
    if channel.size > 1 and serial.num_edges > 100 and dg.input_edges >= serial.num_edges:
        failures.append(f"{where}: rank {channel.rank} was given the whole graph")
    primary = channel.gatherv(ids[dg.primary])
    if channel.rank == 0 and not np.array_equal(np.sort(primary), np.arange(serial.num_edges)):
        failures.append(f"{where}: primary edges do not cover the ids once each")
    if channel.allreduce_int(len(failures), "max"):
        return  # a solver may not end on a graph that is not one
    forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")
    if channel.rank == 0:
        reference = parmst.minimum_spanning_forest(serial, solver="kruskal/serial")
        if forest.edge_ids.tolist() != reference.edge_ids.tolist():
            failures.append(f"{where}: forest differs from kruskal/serial's")


def check_error(channel, spec, how, expected, failures):
    limit = how.get("memory")
    if limit:
        os.environ["PARMST_MEMORY_LIMIT"] = limit
    try:
        DistributedGraph.generate(spec, channel, ownership=how.get("ownership", "block"))
        failures.append(f"{spec} {how} on {channel.size} ranks: no error")
    except DistributedError as exc:
        if expected not in str(exc):
            failures.append(f"{spec} {how} on {channel.size} ranks: {exc}")
    finally:
        os.environ.pop("PARMST_MEMORY_LIMIT", None)


def main():
    world = MPI.COMM_WORLD
    failures, checks = [], 0
    for size in range(1, world.size + 1):
        sub = world.Split(0 if world.rank < size else MPI.UNDEFINED, world.rank)
        if sub != MPI.COMM_NULL:
            channel = Channel(sub)
            for spec, ownership in SPECS:
                check_spec(channel, spec, ownership, failures)
            for spec, how, expected in ERRORS:
                check_error(channel, spec, how, expected, failures)
            checks += len(SPECS) + len(ERRORS)
            sub.Free()
        world.Barrier()
    everyone = world.gather(failures, root=0)
    if world.rank == 0:
        print(json.dumps({"ranks": world.size, "checks": checks,
                          "failures": [f for mine in everyone for f in mine]}), flush=True)


if __name__ == "__main__":
    main()
