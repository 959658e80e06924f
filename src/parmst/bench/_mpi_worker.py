"""One rank-count launch of the ``ranks`` sweep, run under mpiexec by :mod:`parmst.bench.mpi`.

Arguments: GRAPH REFERENCE SOLVER RUNS OPTIONS_JSON REPORT_FILE. GRAPH is a
file, of which every rank reads its part, or ``generate:SPEC``, of which
every rank generates its share (:meth:`DistributedGraph.generate`); either
is timed as the build. Then the solver runs once untimed (compilation,
Numba cache loads) and RUNS times timed between barriers. REFERENCE is an
``.npy`` file of the reference edge ids, compared on rank 0 after every
run, or ``verify``: the last run's forest is verified in parallel
(:func:`parmst.verify` on the distributed graph, untimed, after the peak
memory is taken), for graphs too big for any one process to solve. Rank 0
writes one JSON object to REPORT_FILE (a file, not standard output, which
mpiexec forwards with terminal codes mixed in): times, whether every run's
forest is exact, the last run's per-rank figures, and every rank's
resident memory before the timed runs and at its peak during them (Linux
resets the peak through ``/proc/self/clear_refs`` after the untimed run, so
compilation and cache loading stay out of it; elsewhere the peak is the
process's whole life).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np


def _status_bytes(field: str) -> int | None:
    """``VmRSS`` or ``VmHWM`` (peak) of this process from /proc/self/status, None elsewhere."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _reset_peak() -> bool:
    """Start a new peak-memory window (Linux 4.0+); False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _build(distributed_graph, graph: str, comm):
    """This rank's share of the graph: generated for ``generate:SPEC``, else read from the
    file; for ``alone:SPEC`` a whole graph of its own on ``MPI.COMM_SELF``
    (:func:`parmst.bench.weak.alone_spec`), so the ranks run one-rank jobs side by side."""
    if graph.startswith("alone:"):
        from mpi4py import MPI

        from parmst.bench.weak import alone_spec

        return distributed_graph.generate(alone_spec(graph.removeprefix("alone:"), comm.rank),
                                          MPI.COMM_SELF)
    if graph.startswith("generate:"):
        return distributed_graph.generate(graph.removeprefix("generate:"), comm)
    return distributed_graph.read(graph, comm)


def main() -> None:
    from mpi4py import MPI

    import parmst
    from parmst._mpi.channel import peak_memory_bytes
    from parmst.distributed import DistributedGraph

    graph, reference, solver, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    options, report_path = json.loads(sys.argv[5]), sys.argv[6]
    comm = MPI.COMM_WORLD
    start_memory, windowed = 0, False
    times, builds, computes, phases, exact, forest = [], [], [], [], True, None
    verifying = reference == "verify"
    expected = np.load(reference) if comm.rank == 0 and not verifying else None
    dg = None
    for attempt in range(runs + 1):
        if attempt == 1:
            start_memory = _status_bytes("VmRSS") or 0
            windowed = _reset_peak()
        del dg, forest  # the last run's graph and forest go before this one is built
        comm.Barrier()
        start = time.perf_counter()
        dg = _build(DistributedGraph, graph, comm)
        built = time.perf_counter()
        forest = parmst.minimum_spanning_forest(dg, solver=solver, **options)
        comm.Barrier()
        end = time.perf_counter()
        if comm.rank == 0 and not verifying:
            exact = exact and bool(np.array_equal(forest.edge_ids, expected))
        if attempt:  # the first run compiles or loads Numba's cache
            times.append(end - start)
            builds.append(built - start)
            computes.append(end - built)
            phases.append(dict(forest.stats.phases))
    peak = (_status_bytes("VmHWM") if windowed else None) or peak_memory_bytes()
    verify_time = None
    if verifying:
        start = time.perf_counter()
        exact = parmst.verify(dg, forest).ok
        verify_time = time.perf_counter() - start
        exact = comm.allreduce(exact, op=MPI.LAND)  # "alone" ranks verify their own graphs
    memory = comm.gather((start_memory, peak, windowed), root=0)
    if comm.rank == 0:
        report = {
            "times": times, "init_times": builds, "compute_times": computes, "phases": phases,
            "exact": exact, "verify_time": verify_time, "num_vertices": dg.num_vertices,
            "num_edges": dg.num_edges,
            "rounds": forest.stats.rounds, "per_rank": forest.stats.extra["ranks"],
            "start_memory_bytes": [m[0] for m in memory],
            "peak_memory_bytes": [m[1] for m in memory],
            "peak_of_timed_runs": all(m[2] for m in memory),
            "components_after_filter": forest.stats.extra.get("components_after_filter"),
            "mpi": MPI.Get_library_version().replace("\x00", "").splitlines()[0].strip()}
        with open(report_path, "w") as f:
            json.dump(report, f)


if __name__ == "__main__":
    main()
