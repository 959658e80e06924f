"""One rank-count launch of the ``ranks`` sweep, run under mpiexec by :mod:`parmst.bench.mpi`.

Arguments: GRAPH_FILE REFERENCE_IDS(.npy) SOLVER RUNS OPTIONS_JSON REPORT_FILE. Every
rank reads its part of the file (timed: the build), then the solver runs
once untimed (compilation, Numba cache loads) and RUNS times timed between
barriers. Rank 0 writes one JSON object to REPORT_FILE (a file, not
standard output, which mpiexec forwards with terminal codes mixed in): times, whether every run's edge ids
equal the reference's, the last run's per-rank figures, and every rank's
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


def main() -> None:
    from mpi4py import MPI

    import parmst
    from parmst._mpi.channel import peak_memory_bytes
    from parmst.distributed import DistributedGraph

    path, reference, solver, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    options, report_path = json.loads(sys.argv[5]), sys.argv[6]
    comm = MPI.COMM_WORLD
    start_memory, windowed = 0, False
    times, builds, computes, phases, exact, forest = [], [], [], [], True, None
    expected = np.load(reference) if comm.rank == 0 else None
    for attempt in range(runs + 1):
        if attempt == 1:
            start_memory = _status_bytes("VmRSS") or 0
            windowed = _reset_peak()
        comm.Barrier()
        start = time.perf_counter()
        dg = DistributedGraph.read(path, comm)
        built = time.perf_counter()
        forest = parmst.minimum_spanning_forest(dg, solver=solver, **options)
        comm.Barrier()
        end = time.perf_counter()
        del dg
        if comm.rank == 0:
            exact = exact and bool(np.array_equal(forest.edge_ids, expected))
        if attempt:  # the first run compiles or loads Numba's cache
            times.append(end - start)
            builds.append(built - start)
            computes.append(end - built)
            phases.append(dict(forest.stats.phases))
    peak = (_status_bytes("VmHWM") if windowed else None) or peak_memory_bytes()
    memory = comm.gather((start_memory, peak, windowed), root=0)
    if comm.rank == 0:
        report = {
            "times": times, "init_times": builds, "compute_times": computes, "phases": phases,
            "exact": exact, "rounds": forest.stats.rounds, "per_rank": forest.stats.extra["ranks"],
            "start_memory_bytes": [m[0] for m in memory],
            "peak_memory_bytes": [m[1] for m in memory],
            "peak_of_timed_runs": all(m[2] for m in memory),
            "components_after_filter": forest.stats.extra.get("components_after_filter"),
            "mpi": MPI.Get_library_version().replace("\x00", "").splitlines()[0].strip()}
        with open(report_path, "w") as f:
            json.dump(report, f)


if __name__ == "__main__":
    main()
