"""Rank scaling of the mpi solvers on one many-core machine: 1, 2, 4, 8, 16 ranks.

For one generated graph (written once as ``.npz``, which every rank reads
its slice of): serial Kruskal once and ``ecl/cpu`` with all cores (median of
``--repeats``) as baselines, then for each solver and rank count one
mpiexec launch of ``mpi_worker.py`` (read in parallel, one compiling run,
``--repeats`` timed runs, exact edge ids checked against Kruskal's).
filter-boruvka's local forest uses ``ecl/cpu`` with ``cores // ranks``
threads per rank (ranks are not bound to cores). Writes ``mpi_scaling.json``
and ``mpi_scaling.md`` into ``--out`` after every launch and starts no new
launch after ``--budget`` seconds, so a time-limited run keeps what it got.

Usage::

    PYTHONPATH=src python benchmarks/mpi_scaling.py --graph seed000-sparse:size=large \\
        --ranks 1,2,4,8,16 --budget 300 --machine "device machine: 16 CPU cores"
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import parmst
from parmst.registry import cpu_count
from parmst.solvers.mpi.launch import run_mpi

HERE = Path(__file__).resolve().parent
MiB = 2**20


def _baselines(graph, cores: int, repeats: int) -> tuple[dict, np.ndarray]:
    warm, _ = graph.subgraph_edges(np.arange(graph.num_edges) < 1000)  # same dtypes: compiles
    parmst.minimum_spanning_forest(warm, solver="kruskal/serial")
    start = time.perf_counter()
    reference = parmst.minimum_spanning_forest(graph, solver="kruskal/serial")
    kruskal = time.perf_counter() - start
    parmst.minimum_spanning_forest(graph, solver="ecl/cpu", threads=cores)  # compiles
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        forest = parmst.minimum_spanning_forest(graph, solver="ecl/cpu", threads=cores)
        times.append(time.perf_counter() - start)
        assert np.array_equal(forest.edge_ids, reference.edge_ids)
    return {"kruskal_serial_s": kruskal, "ecl_cpu_s": statistics.median(times),
            "ecl_cpu_threads": cores}, reference.edge_ids


def _table(result: dict) -> str:
    base = result["baselines"]
    lines = [f"# mpi solvers: rank scaling on {result['graph']}", "",
             (f"Machine: {result['machine']}; {result['mpi']}; graph n={result['n']:,} "
              f"m={result['m']:,}; median of {result['repeats']} runs after one compiling run; "
              f"baselines: kruskal/serial {base['kruskal_serial_s']:.2f} s, ecl/cpu "
              f"{base['ecl_cpu_threads']} threads {base['ecl_cpu_s']:.3f} s (end to end, one "
              "process)."), "",
             ("| solver | ranks | read+route s | solve s | self-speedup | vs kruskal/serial | "
              "vs ecl/cpu | comm share | peak RSS/rank MiB (max) | held edges MiB/rank (max) | "
              "exact |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    for run in result["runs"]:
        one = next((r for r in result["runs"] if r["solver"] == run["solver"]
                    and r["ranks"] == 1), None)
        t = run["median_s"]
        comm = max(r["comm_time_s"] for r in run["per_rank"])
        local = max(r["local_time_s"] + r["comm_time_s"] for r in run["per_rank"])
        lines.append(
            f"| {run['solver']} | {run['ranks']} | {run['build_s']:.2f} | {t:.3f} | "
            f"{(one['median_s'] / t) if one else float('nan'):.2f} | "
            f"{base['kruskal_serial_s'] / t:.2f} | {base['ecl_cpu_s'] / t:.2f} | "
            f"{comm / local if local else 0:.0%} | {max(run['peak_memory_bytes']) / MiB:.0f} | "
            f"{max(r['held_bytes'] for r in run['per_rank']) / MiB:.0f} | "
            f"{'yes' if run['exact'] else 'NO'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default="seed000-sparse:size=large")
    parser.add_argument("--ranks", default="1,2,4,8,16")
    parser.add_argument("--solvers", default="filter-boruvka/mpi,boruvka-allreduce/mpi")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=300.0)
    parser.add_argument("--machine", default="unnamed machine")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    started = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cores = cpu_count()
    graph = parmst.generate(args.graph)
    path = Path(os.environ.get("TMPDIR", "/tmp")) / "mpi_scaling_graph.npz"
    graph.write(path)
    baselines, reference = _baselines(graph, cores, args.repeats)
    ids_path = path.with_suffix(".ids.npy")
    np.save(ids_path, reference)
    result = {"graph": args.graph, "n": graph.num_vertices, "m": graph.num_edges,
              "machine": args.machine, "cores": cores, "repeats": args.repeats,
              "baselines": baselines, "runs": [], "skipped": [], "mpi": ""}
    del graph
    for solver in args.solvers.split(","):
        for ranks in (int(r) for r in args.ranks.split(",")):
            if time.perf_counter() - started > args.budget:
                result["skipped"].append(f"{solver} x{ranks}: over the time budget")
                continue
            threads = max(1, cores // ranks)
            options = ["local_solver=ecl/cpu", f"threads={threads}"] \
                if solver == "filter-boruvka/mpi" else []
            env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "PYTHONUNBUFFERED": "1"}
            done = run_mpi(ranks, [str(HERE / "mpi_worker.py"), str(path), str(ids_path),
                                   solver, str(args.repeats), *options],
                           env=env, timeout=max(60, args.budget * 1.5 - (time.perf_counter() - started)),
                           mpiexec_args=["--bind-to", "none"])
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            if done.returncode or not lines:
                result["skipped"].append(f"{solver} x{ranks}: failed with status "
                                         f"{done.returncode} ({done.stderr[-400:]})")
                print(f"{solver} x{ranks}: status {done.returncode}\n{done.stdout[-1500:]}\n"
                      f"{done.stderr[-1500:]}", file=sys.stderr)
                continue
            run = json.loads(lines[-1])
            result["mpi"] = run.pop("mpi")
            result["runs"].append(run)
            print(f"{solver} x{ranks}: {run['median_s']:.3f} s exact={run['exact']}", flush=True)
            (out / "mpi_scaling.json").write_text(json.dumps(result, indent=1))
            (out / "mpi_scaling.md").write_text(_table(result))
    (out / "mpi_scaling.json").write_text(json.dumps(result, indent=1))
    (out / "mpi_scaling.md").write_text(_table(result))
    print(_table(result))
    return 0 if all(r["exact"] for r in result["runs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
