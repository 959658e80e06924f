"""Multi-core solvers against serial Kruskal and SciPy, side by side in one process.

For each medium generator family (about 1-1.5 M edges; seed 000's dense
medium has 0.45 M), runs every ``cpu`` solver at ``--threads`` (default: all
cores), ``kruskal/serial`` and SciPy's ``minimum_spanning_tree``: one warm-up
run (compiles), then the median of ``--repeats`` round-robin runs. Every
solver's edge ids are checked against Kruskal's. Prints and writes a
Markdown table (milliseconds and M undirected edges/s per graph, the
geometric-mean throughput of each solver, and the issue's two bars: best
``cpu`` solver >= 1.7x Kruskal and >= 3x SciPy) plus the JSON beside it.

Usage::

    python benchmarks/cpu_vs_serial.py [--size medium] [--repeats 5] [--threads N]
        [--families random-degree,rmat] [--output benchmarks/results/cpu_2core.md]
        [--machine "2-core dev VM, no GPU"]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from cpu_common import (
    CPU_SOLVERS,
    DENSE_PRIM_MAX_VERTICES,
    environment,
    geomean,
    medians,
    scipy_run,
    solver_run,
)

from parmst.generators import generate

FAMILIES = ["random-degree", "rmat", "grid2d", "delaunay", "road", "seed000-sparse",
            "seed000-dense"]
BASELINES = ["kruskal/serial", "scipy"]


def bench_family(family: str, size: str, repeats: int, threads: int) -> dict:
    graph = generate(f"{family}:size={size}")
    runners = {s: solver_run(graph, s, threads=threads) for s in CPU_SOLVERS
               if s != "prim-dense/cpu" or graph.num_vertices <= DENSE_PRIM_MAX_VERTICES}
    runners["kruskal/serial"] = solver_run(graph, "kruskal/serial")
    runners["scipy"] = scipy_run(graph)
    times, results = medians(runners, repeats)
    expected = results["kruskal/serial"].edge_ids
    for name, forest in results.items():
        if name != "scipy" and not np.array_equal(forest.edge_ids, expected):
            raise AssertionError(f"{family}: {name} differs from kruskal/serial")
    return {"family": family, "n": graph.num_vertices, "m": graph.num_edges,
            "weight": str(graph.weight.dtype), "ms": {k: 1e3 * v for k, v in times.items()},
            "medges_per_s": {k: graph.num_edges / v / 1e6 for k, v in times.items()}}


def summary(rows: list[dict]) -> dict:
    names = [*CPU_SOLVERS, *BASELINES]
    means = {}
    for name in names:
        rates = [r["medges_per_s"][name] for r in rows if name in r["medges_per_s"]]
        if len(rates) == len(rows):
            means[name] = geomean(rates)
    best = max((s for s in CPU_SOLVERS if s in means), key=means.get)
    return {"geomean_medges_per_s": means, "best_cpu": best,
            "best_over_kruskal": means[best] / means["kruskal/serial"],
            "best_over_scipy": means[best] / means["scipy"]}


def markdown(rows: list[dict], result: dict, args, threads: int) -> str:
    names = [*CPU_SOLVERS, *BASELINES]
    head = ["family", "n", "m", *names]
    lines = [f"# Multi-core solvers vs serial Kruskal and SciPy ({args.size} graphs)", "",
             environment(args.machine), "",
             (f"Threads for the `cpu` solvers: **{threads}** (`os.cpu_count()` = {os.cpu_count()}). "
             f"Median of {args.repeats} round-robin runs after a warm-up run. Cells: "
             "milliseconds / million undirected edges per second (solver init + compute "
             "from Forest.stats, CSR cache cleared each run; SciPy: the whole call on a "
             "prebuilt CSR matrix). Every solver's edge ids equal kruskal/serial's. "
             f"`-`: not run (dense Prim only where n <= {DENSE_PRIM_MAX_VERTICES})."), "",
             (f"Command: `python benchmarks/cpu_vs_serial.py --size {args.size} "
             f"--repeats {args.repeats}"
             + (f" --threads {args.threads}" if args.threads else "") + "`"), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["family"], f"{row['n']:,}", f"{row['m']:,}"]
        cells += [f"{row['ms'][c]:.0f} / {row['medges_per_s'][c]:.1f}" if c in row["ms"]
                  else "-" for c in names]
        lines.append("| " + " | ".join(cells) + " |")
    means = result["geomean_medges_per_s"]
    lines += ["", "Geometric-mean throughput (M edges/s, over all families): "
              + ", ".join(f"{k} {v:.2f}" for k, v in means.items()) + ".", "",
              (f"Best `cpu` solver: **{result['best_cpu']}**, "
              f"{result['best_over_kruskal']:.2f}x serial Kruskal (bar: 1.7x) and "
              f"{result['best_over_scipy']:.2f}x SciPy (bar: 3x).")]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="medium")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--output", type=Path,
                        default=Path(__file__).parent / "results" / "cpu_2core.md")
    parser.add_argument("--machine", default="2-core dev VM, no GPU")
    args = parser.parse_args()
    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    rows = []
    for family in args.families.split(","):
        rows.append(bench_family(family, args.size, args.repeats, threads))
        print(f"{family}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in rows[-1]["ms"].items()),
              flush=True)
    result = summary(rows)
    table = markdown(rows, result, args, threads)
    print(table)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(table)
    args.output.with_suffix(".json").write_text(json.dumps(
        {"machine": args.machine, "threads": threads, "size": args.size,
         "repeats": args.repeats, "rows": rows, **result}, indent=1))


if __name__ == "__main__":
    main()
