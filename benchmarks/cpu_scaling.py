"""Thread scaling of the multi-core solvers: 1, 2, 4, 8, 16 threads on large graphs.

Meant for a many-core machine (the device machine's 16 cores; no GPU
needed). For each graph and solver: a warm-up run at the highest thread
count (compiles), then for every thread count the median of ``--repeats``
runs; serial Kruskal once per graph as the baseline. Every result's edge
ids are checked against Kruskal's. Writes ``cpu_scaling.json``, a Markdown
table ``cpu_scaling.md`` (ms, M edges/s, speedup over the solver's own
1-thread time) and ``cpu_scaling.png`` into ``--out`` (default ``$OUT``),
after every graph, and stops starting new graphs once ``--budget`` seconds
have passed, so a time-limited run still returns what it measured.

Usage::

    NUMBA_NUM_THREADS=16 PYTHONPATH=src python benchmarks/cpu_scaling.py \\
        --graphs "random-degree:size=large,seed000-sparse:size=large" --budget 420 \\
        --machine "device machine: 16 CPU cores"
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from cpu_common import environment, solver_run

from parmst.generators import generate

GRAPHS = ["random-degree:size=large", "seed000-sparse:size=large", "road:size=large",
          "delaunay:size=large", "rmat:size=large"]
SOLVERS = ["ecl/cpu", "boruvka-edge/cpu", "filter-kruskal/cpu"]


def scale_graph(spec: str, solvers: list[str], thread_counts: list[int], repeats: int) -> dict:
    start = time.perf_counter()
    graph = generate(spec)
    row = {"graph": spec, "n": graph.num_vertices, "m": graph.num_edges,
           "generate_s": time.perf_counter() - start, "ms": {}, "compute_ms": {}, "init_ms": {},
           "phases_ms": {}}
    seconds, oracle = solver_run(graph, "kruskal/serial")()
    row["kruskal_serial_ms"] = 1e3 * seconds
    for solver in solvers:
        solver_run(graph, solver, threads=max(thread_counts))()  # compiles
        row["ms"][solver] = {}
        row["compute_ms"][solver] = {}
        row["init_ms"][solver] = {}
        row["phases_ms"][solver] = {}
        for threads in thread_counts:
            run = solver_run(graph, solver, threads=threads)
            times, compute, init, phases = [], [], [], []
            for _ in range(repeats):
                seconds, forest = run()
                times.append(seconds)
                compute.append(forest.stats.compute_time)
                init.append(forest.stats.init_time)
                phases.append(forest.stats.phases)
            if not np.array_equal(forest.edge_ids, oracle.edge_ids):
                raise AssertionError(f"{spec}: {solver} at {threads} threads differs from Kruskal")
            row["ms"][solver][threads] = 1e3 * statistics.median(times)
            row["compute_ms"][solver][threads] = 1e3 * statistics.median(compute)
            row["init_ms"][solver][threads] = 1e3 * statistics.median(init)
            row["phases_ms"][solver][threads] = {
                name: 1e3 * statistics.median(p.get(name, 0.0) for p in phases)
                for name in phases[0]}
        print(f"{spec} {solver}: " + ", ".join(f"{t}T {ms:.0f} ms"
                                               for t, ms in row["ms"][solver].items()), flush=True)
    return row


def markdown(rows: list[dict], thread_counts: list[int], args) -> str:
    head = ["graph", "n", "m", "solver", *(f"{t} thr" for t in thread_counts),
            f"speedup {max(thread_counts)} vs 1", "compute-only speedup", "serial Kruskal"]
    lines = ["# Thread scaling of the cpu solvers", "", environment(args.machine), "",
             (f"Median of {args.repeats} runs per thread count after a warm-up run; cells: "
             "milliseconds (M undirected edges/s) [speedup over the solver's own 1-thread "
             "time]. Time is solver init + compute from Forest.stats (CSR cache cleared "
             "each run); the compute-only speedup leaves out initialization (key "
             "preparation, allocation). Every result equals kruskal/serial's edge ids."), "",
             (f"Command: `NUMBA_NUM_THREADS={max(thread_counts)} PYTHONPATH=src python "
              f"benchmarks/cpu_scaling.py {shlex.join(sys.argv[1:])}`"), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        for solver, times in row["ms"].items():
            one = times[thread_counts[0]]
            cells = [row["graph"], f"{row['n']:,}", f"{row['m']:,}", solver]
            cells += [f"{times[t]:.0f} ({row['m'] / times[t] / 1e3:.1f}) [{one / times[t]:.1f}x]"
                      for t in thread_counts]
            compute = row["compute_ms"][solver]
            top = max(thread_counts)
            cells += [f"{one / times[top]:.2f}x", f"{compute[thread_counts[0]] / compute[top]:.2f}x",
                      f"{row['kruskal_serial_ms']:.0f} ms"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], thread_counts: list[int], path: Path, machine: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5))
    for row in rows:
        for solver, times in row["ms"].items():
            speedups = [times[thread_counts[0]] / times[t] for t in thread_counts]
            ax.plot(thread_counts, speedups, marker="o", label=f"{solver} {row['graph']}")
    ax.plot(thread_counts, thread_counts, color="grey", linestyle=":", label="linear")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(thread_counts, [str(t) for t in thread_counts])
    ax.set_xlabel("threads")
    ax.set_ylabel("speedup over 1 thread")
    ax.set_title(f"parmst cpu solvers: thread scaling\n{machine}", fontsize=9)
    ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", default=",".join(GRAPHS))
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    parser.add_argument("--threads", default="1,2,4,8,16")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=float("inf"),
                        help="seconds after which no new graph is started")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", ".")))
    parser.add_argument("--machine", default=f"{os.cpu_count()} CPU cores")
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")
                     if int(t) <= numba.config.NUMBA_NUM_THREADS]
    begun = time.perf_counter()
    rows = []
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in args.graphs.split(","):
        if time.perf_counter() - begun > args.budget:
            print(f"budget spent: {spec} and later graphs not run", flush=True)
            break
        rows.append(scale_graph(spec, args.solvers.split(","), thread_counts, args.repeats))
        (args.out / "cpu_scaling.json").write_text(json.dumps(
            {"machine": args.machine, "threads": thread_counts, "repeats": args.repeats,
             "rows": rows}, indent=1))
        (args.out / "cpu_scaling.md").write_text(markdown(rows, thread_counts, args))
        plot(rows, thread_counts, args.out / "cpu_scaling.png", args.machine)
    print(markdown(rows, thread_counts, args))


if __name__ == "__main__":
    main()
