"""Serial solvers against SciPy's minimum_spanning_tree, side by side in one process.

Generates each generator family at one size (``medium``: about 1-1.5 M
edges), runs every serial solver and ``scipy.sparse.csgraph.minimum_spanning_tree``
on the same graph, and prints a Markdown table of solver times (median of
``--repeats`` runs after one warm-up run that also compiles), throughput in
millions of edges per second, and the geometric mean of Kruskal's time over
SciPy's. Repeats go round-robin over the solvers, so that load from other
processes falls on all of them alike.

Times are a solver's own initialization plus computation as recorded in its
Stats (for heap Prim that includes building the CSR view; for dense Prim,
the key matrix); SciPy's is the whole call. SciPy's input is built outside
the timer with ``Graph.to_scipy`` (the lightest of parallel edges, no
self-loops), which is valid because every family's weights are positive.
Total weights are checked against SciPy's.

Usage::

    python benchmarks/serial_vs_scipy.py [--size medium] [--repeats 5]
        [--families grid2d,rmat] [--weights float]
        [--output benchmarks/results/serial_vs_scipy.md] [--machine "2-core dev VM, no GPU"]

``--weights`` passes the generators' weight kind (``int``: int32, their
default; ``float``: float64; ``unique``: a permutation of 1..m).
"""

from __future__ import annotations

import argparse
import math
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np
import scipy
from scipy.sparse import csgraph

import parmst
from parmst.generators import FAMILIES, generate

SERIAL = ["kruskal/serial", "filter-kruskal/serial", "prim/serial", "prim-dense/serial",
          "boruvka/serial"]
DENSE_PRIM_MAX_VERTICES = 4096  # prim-dense runs only where n*n stays small (dense families)


def solver_seconds(graph: parmst.Graph, solver: str) -> tuple[float, parmst.Forest]:
    graph.clear_cache()
    forest = parmst.minimum_spanning_forest(graph, solver=solver)
    return forest.stats.total_time, forest


def scipy_seconds(matrix) -> tuple[float, float]:
    start = time.perf_counter()
    tree = csgraph.minimum_spanning_tree(matrix)
    return time.perf_counter() - start, float(tree.sum())


def bench_family(family: str, size: str, weights: str | None, repeats: int) -> dict:
    graph = generate(f"{family}:size={size}" + (f",weights={weights}" if weights else ""))
    runners = {s: (lambda s=s: solver_seconds(graph, s)) for s in SERIAL
               if s != "prim-dense/serial" or graph.num_vertices <= DENSE_PRIM_MAX_VERTICES}
    matrix = graph.to_scipy()
    runners["scipy"] = lambda: scipy_seconds(matrix)
    times: dict[str, list[float]] = {name: [] for name in runners}
    totals = {name: run()[1] for name, run in runners.items()}  # warm-up, compiles
    for _ in range(repeats):
        for name, run in runners.items():
            times[name].append(run()[0])
    reference = totals.pop("scipy")
    for name, forest in totals.items():
        if not math.isclose(forest.total_weight, reference, rel_tol=1e-12):
            raise AssertionError(f"{family}: {name} total weight {forest.total_weight} "
                                 f"!= SciPy's {reference}")
    return {"family": family, "n": graph.num_vertices, "m": graph.num_edges,
            "weight": graph.weight.dtype.name,
            "median": {name: statistics.median(t) for name, t in times.items()}}


def markdown(rows: list[dict], command: str, repeats: int, machine: str) -> str:
    columns = [*SERIAL, "scipy"]
    head = ["family", "n", "m", "weight", *(c.split("/")[0] for c in columns),
            "Kruskal M edges/s", "SciPy M edges/s", "Kruskal / SciPy"]
    machine_line = (f"Machine: {machine}; {platform.processor() or platform.machine()}, "
                    f"Python {platform.python_version()}, NumPy {np.__version__}, "
                    f"SciPy {scipy.__version__}, Numba {numba.__version__}.")
    method_line = (f"Median of {repeats} runs after a warm-up run, in milliseconds "
                   "(solver init + compute; SciPy: the whole call on a prebuilt CSR matrix). "
                   f"`-`: not run (dense Prim only where n <= {DENSE_PRIM_MAX_VERTICES}).")
    command_line = f"Command: `{command}`"
    lines = ["# Serial solvers vs SciPy", "", machine_line, "", method_line,
             "", command_line, "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ratios = []
    for row in rows:
        t = row["median"]
        ratio = t["kruskal/serial"] / t["scipy"]
        ratios.append(ratio)
        cells = [row["family"], f"{row['n']:,}", f"{row['m']:,}", row["weight"]]
        cells += [f"{1e3 * t[c]:.1f}" if c in t else "-" for c in columns]
        cells += [f"{row['m'] / t['kruskal/serial'] / 1e6:.1f}",
                  f"{row['m'] / t['scipy'] / 1e6:.1f}", f"{ratio:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    verdict = "faster" if geomean < 1 else "slower"
    lines += ["", f"Geometric mean of Kruskal's time over SciPy's: **{geomean:.2f}** "
              + f"({verdict} than SciPy)."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="medium")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--weights", choices=["int", "float", "unique"], default=None)
    parser.add_argument("--output", type=Path,
                        default=Path(__file__).parent / "results" / "serial_vs_scipy.md")
    parser.add_argument("--machine", default="2-core dev VM, no GPU")
    args = parser.parse_args()
    rows = []
    for family in args.families.split(","):
        rows.append(bench_family(family, args.size, args.weights, args.repeats))
        print(f"{family}: " + ", ".join(f"{k} {1e3 * v:.1f} ms"
                                        for k, v in rows[-1]["median"].items()), flush=True)
    command = shlex.join(["python", "benchmarks/serial_vs_scipy.py", *sys.argv[1:]])
    table = markdown(rows, command, args.repeats, args.machine)
    print(table)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(table)


if __name__ == "__main__":
    main()
