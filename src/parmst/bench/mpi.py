"""The ``ranks`` sweep: mpi solvers timed under one ``mpiexec`` launch per rank count.

The harness writes each graph once as ``.npz`` (with the reference edge ids
beside it); a launch of :mod:`parmst.bench._mpi_worker` on ``ranks``
processes reads it in parallel and solves it once untimed and ``runs``
times timed, each run reading the file again (the whole distributed solve:
read and route, then solve). Runs are not interleaved with the other
solvers' (a launch costs seconds), so on a loaded machine compare rank
counts taken in the same run. Solvers that take ``threads`` get the
machine's cores divided among the ranks (at least one each), unless the
solver spec fixes it; ranks are not bound to cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from parmst.bench.result import Record
from parmst.graph import Graph

__all__ = ["mpi_skip_reason", "time_ranks"]


def mpi_skip_reason() -> str | None:
    """Why no rank sweep can run here (no mpi4py or no mpiexec), or None."""
    from parmst.errors import SolverUnavailable
    from parmst.solvers.mpi import mpi_available
    from parmst.solvers.mpi.launch import find_mpiexec

    ok = mpi_available()
    if ok is not True:
        return ok
    try:
        find_mpiexec()
    except SolverUnavailable as exc:
        return str(exc)
    return None


def graph_file(graph: Graph, name: str, reference: np.ndarray, folder: Path
               ) -> tuple[str, str]:
    """The graph as ``.npz`` and its reference ids as ``.npy`` in ``folder`` (written once):
    the paths, as :func:`time_ranks` takes them."""
    stem = "".join(c if c.isalnum() else "_" for c in name)
    path, ids = folder / f"mpi-{stem}.npz", folder / f"mpi-{stem}.ids.npy"
    if not path.exists():
        graph.write(path)
        np.save(ids, reference)
    return str(path), str(ids)


def _threads_per_rank(solver_options: dict[str, Any], options: dict[str, Any],
                      ranks: int) -> int:
    from parmst.registry import cpu_count

    if "threads" in solver_options and options.get("threads") is None:
        options["threads"] = max(1, cpu_count() // ranks)
    return int(options.get("threads") or 1)


def _launch(ranks: int, args: list[str], env: dict[str, str], timeout: float):
    from parmst.solvers.mpi.launch import find_mpiexec, is_open_mpi, run_mpi

    extra = ["--bind-to", "none"] if is_open_mpi(find_mpiexec()) else []
    return run_mpi(ranks, args, env=env, timeout=timeout, mpiexec_args=extra)


def _fill(record: Record, report: dict[str, Any]) -> list[dict[str, float]]:
    """Copy one launch's figures into ``record``; returns the runs' phases."""
    per_rank = report["per_rank"]
    record.times = report["times"]
    record.init_times = report["init_times"]
    record.compute_times = report["compute_times"]
    record.rounds = report["rounds"]
    growth = [peak - start for start, peak in zip(report["start_memory_bytes"],
                                                   report["peak_memory_bytes"], strict=True)]
    record.extra.update({
        "local_time_max_s": max(r["local_time_s"] for r in per_rank),
        "comm_time_max_s": max(r["comm_time_s"] for r in per_rank),
        "messages": sum(r["messages"] for r in per_rank),
        "bytes_sent": sum(r["bytes_sent"] for r in per_rank),
        "held_bytes_max": max(r["held_bytes"] for r in per_rank),
        "peak_memory_max_bytes": max(report["peak_memory_bytes"]),
        "peak_growth_max_bytes": max(growth),
        # Rank 0 also receives the whole forest (the output, O(n)); the others show the
        # solve's own O(m/p + n/p) share.
        "peak_growth_others_max_bytes": max(growth[1:], default=growth[0]),
        "peak_of_timed_runs": bool(report.get("peak_of_timed_runs", False)),
        "mpi_library": report["mpi"]})
    for key in ("verify_time", "num_vertices", "num_edges"):
        if report.get(key) is not None:
            record.extra[key] = report[key]
    if report.get("components_after_filter") is not None:
        record.extra["components_after_filter"] = report["components_after_filter"]
    return report["phases"]


def time_ranks(record: Record, solver: str, solver_options: dict[str, Any],
               options: dict[str, Any], source: tuple[str, str], runs: int,
               timeout: float) -> list[dict[str, float]]:
    """Time ``solver`` on ``record.ranks`` ranks in one launch; fills ``record``.

    ``source`` is the worker's graph and reference: a graph file and its
    reference ids (:func:`graph_file`), or ``("generate:SPEC", "verify")``
    for a graph generated in parallel and verified in parallel
    (:mod:`parmst.bench.weak`). Returns each timed run's phases (the caller
    selects the reported run).
    A wrong forest makes the record ``"MISMATCH"``; a launch that fails or
    outlives ``timeout`` seconds makes it ``"error"`` or ``"skipped"`` with
    the reason, keeping the end of its output.
    """
    import parmst

    options = dict(options)
    threads = _threads_per_rank(solver_options, options, record.ranks)
    record.threads_used = threads
    record.device = f"mpi x{record.ranks}"
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "PYTHONUNBUFFERED": "1"}
    package_root = str(Path(parmst.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    graph, reference = source
    with tempfile.NamedTemporaryFile(prefix="parmst-ranks-", suffix=".json",
                                     delete=False) as report_file:
        report_path = Path(report_file.name)
    report_path.unlink()
    args = ["-m", "parmst.bench._mpi_worker", graph, reference, solver, str(runs),
            json.dumps(options), str(report_path)]
    try:
        done = _launch(record.ranks, args, env, timeout)
    except subprocess.TimeoutExpired:
        record.status = "skipped"
        record.note = f"over the time budget: {runs + 1} runs took more than {timeout:.0f} s"
        return []
    if done.returncode or not report_path.exists():
        record.status = "error"
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        record.note = f"mpiexec exited with status {done.returncode}: {' / '.join(tail)}"
        return []
    report = json.loads(report_path.read_text())
    report_path.unlink()
    if not report["exact"]:
        record.status = "MISMATCH"
        record.note = ("the forest failed parallel verification" if reference == "verify"
                       else "edge ids differ from the reference on some run")
        return []
    return _fill(record, report)
