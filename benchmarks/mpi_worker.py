"""One benchmark launch, run under mpiexec by mpi_scaling.py: read, solve repeatedly, report.

Arguments: GRAPH_FILE REFERENCE_IDS(.npy) SOLVER REPEATS [KEY=VALUE solver options].
Every rank reads its part of the file (timed as building), then the solver
runs once to compile and REPEATS times timed between barriers. Rank 0
checks the edge ids against the reference and prints one JSON line.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI

import parmst
from parmst.cli import _parse_options
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi._comm import peak_memory_bytes


def main() -> None:
    path, reference, solver, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    options = _parse_options(sys.argv[5:])
    comm = MPI.COMM_WORLD
    comm.Barrier()
    start = time.perf_counter()
    dg = DistributedGraph.read(path, comm)
    comm.Barrier()
    build = time.perf_counter() - start
    times, forest = [], None
    for attempt in range(repeats + 1):
        comm.Barrier()
        start = time.perf_counter()
        forest = parmst.minimum_spanning_forest(dg, solver=solver, **options)
        comm.Barrier()
        if attempt:  # the first run compiles
            times.append(time.perf_counter() - start)
    peaks = comm.gather(peak_memory_bytes(), root=0)
    if comm.rank == 0:
        expected = np.load(reference)
        print(json.dumps({
            "solver": solver, "ranks": comm.size, "options": options, "build_s": build,
            "times_s": times, "median_s": statistics.median(times),
            "exact": bool(np.array_equal(forest.edge_ids, expected)),
            "rounds": forest.stats.rounds, "per_rank": forest.stats.extra["ranks"],
            "peak_memory_bytes": peaks,
            "components_after_filter": forest.stats.extra.get("components_after_filter"),
            "mpi": MPI.Get_library_version().replace("\x00", "").splitlines()[0].strip()}),
              flush=True)


if __name__ == "__main__":
    main()
