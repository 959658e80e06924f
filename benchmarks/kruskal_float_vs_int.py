"""``kruskal/serial`` with float64 weights against the same graph with int64 weights.

Issue 12 asks serial Kruskal to be at least as fast with float64 weights as
with integers. For each family (road-like grid and Delaunay mesh with
Euclidean lengths, grid and random graphs, Shou and He's sparse graphs, RMAT,
all with float64 weights) at about 100 k and 1 M edges, the script builds a
second graph with the same edges whose weights are the int64 dense ranks of
the float64 weights: the same ``(weight, edge_id)`` order, the same ties and
the same forest, so the two runs differ only in the key preparation and sort.
It checks that both give the same edge ids, then times both, interleaved
(the order alternating run by run), and reports per graph the medians of

* ``float64`` / ``int64``: the solver's compute time (wall clock, ``Stats``), its
  ``sort`` phase (keys, packing, sort, unpacking) and ``scan`` phase, and the CPU
  time of the thread running it (``cpu``: unlike wall time, not inflated while
  other processes hold the core, so steadier on a loaded machine), and
  ``sort_cpu``, the CPU time of the sort phase alone (``canonical_order``, called
  again after each solve): the only part whose work differs between the two;
* ``ratio``: float64 time / int64 time (goal: at most 1.00).

Run it as::

    PYTHONPATH=src python benchmarks/kruskal_float_vs_int.py --runs 11 \\
        --out benchmarks/results/kruskal_float_vs_int_2core

which writes ``<out>.json`` and ``<out>.md``. Timings on a shared machine are
noisy: the reports name the load average at start and end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

import parmst
from parmst.bench.machine import describe_machine, load_average, machine_info
from parmst.generators import generate
from parmst.order import canonical_order
from parmst.solvers.serial import kruskal
from parmst.stats import Stats

GRAPHS = {
    "100k": {"road": "road:side=271,weights=float,seed=1",
             "grid2d": "grid2d:side=224,weights=float,seed=1",
             "delaunay": "delaunay:n=33334,weights=float,seed=1",
             "random-degree": "random-degree:n=25000,weights=float,seed=1",
             "seed000-sparse": "seed000-sparse:n=66667,m=100000,weights=float,seed=1",
             "rmat": "rmat:scale=13,edge_factor=16,weights=float,seed=1"},
    "1M": {"road": "road:side=858,weights=float,seed=1",
           "grid2d": "grid2d:side=707,weights=float,seed=1",
           "delaunay": "delaunay:n=333334,weights=float,seed=1",
           "random-degree": "random-degree:n=250000,weights=float,seed=1",
           "seed000-sparse": "seed000-sparse:n=666667,m=1000000,weights=float,seed=1",
           "rmat": "rmat:scale=16,edge_factor=16,weights=float,seed=1"},
}
SOLVER = "kruskal/serial"


def int64_twin(graph: parmst.Graph) -> parmst.Graph:
    """The same edges with the dense ranks of the weights as int64: same order, same ties."""
    ranks = np.unique(graph.weight, return_inverse=True)[1].astype(np.int64)
    return parmst.Graph.from_edges(graph.src, graph.dst, ranks.reshape(-1),
                                   num_vertices=graph.num_vertices)


def _times(graph: parmst.Graph) -> tuple[np.ndarray, dict[str, float]]:
    """One run of the solver: its edge ids, wall times (whole, per phase) and CPU time."""
    stats = Stats()
    cpu = time.thread_time()
    edge_ids = kruskal.solve(graph, stats)
    cpu = time.thread_time() - cpu
    sort_cpu = time.thread_time()
    canonical_order(graph.weight)
    sort_cpu = time.thread_time() - sort_cpu
    return edge_ids, {"compute": stats.compute_time, "sort": stats.phases["sort"],
                      "scan": stats.phases["scan"], "cpu": cpu, "sort_cpu": sort_cpu}


def measure(spec: str, runs: int) -> dict[str, object]:
    """Interleaved medians (ms) of both weight kinds on one graph, and their ratios."""
    graphs = {"float64": generate(spec)}
    graphs["int64"] = int64_twin(graphs["float64"])
    answers = {kind: _times(g)[0] for kind, g in graphs.items()}  # also compiles
    if not np.array_equal(answers["float64"], answers["int64"]):
        raise AssertionError(f"{spec}: float64 and int64 forests differ")
    samples: dict[str, list[dict[str, float]]] = {kind: [] for kind in graphs}
    for run in range(runs):
        kinds = ("float64", "int64") if run % 2 == 0 else ("int64", "float64")
        for kind in kinds:
            samples[kind].append(_times(graphs[kind])[1])
    row: dict[str, object] = {"spec": spec, "edges": graphs["float64"].num_edges}
    for part in ("compute", "sort", "scan", "cpu", "sort_cpu"):
        medians = {kind: 1e3 * statistics.median(s[part] for s in samples[kind])
                   for kind in graphs}
        row[part] = {**medians, "ratio": medians["float64"] / medians["int64"]}
    return row


def _markdown(rows: list[dict], info: dict, runs: int) -> str:
    lines = [f"# kruskal/serial: float64 weights against int64 weights of the same order\n",
             f"Machine: {describe_machine(info)}\n",
             f"Median of {runs} interleaved runs per weight kind; int64 weights are the dense "
             "ranks of the float64 weights (same order, same forest). Times in ms; ratio = "
             "float64 / int64 (goal: at most 1.00).\n",
             "| graph | edges | compute f64 | compute i64 | ratio | sort f64 | sort i64 | "
             "sort ratio | scan f64 | scan i64 | cpu f64 | cpu i64 | cpu ratio | "
             "sort cpu f64 | sort cpu i64 | sort cpu ratio |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        c, s, n, u, o = (row[part] for part in ("compute", "sort", "scan", "cpu", "sort_cpu"))
        lines.append(f"| {row['name']} | {row['edges']:,} | {c['float64']:.2f} | "
                     f"{c['int64']:.2f} | {c['ratio']:.3f} | {s['float64']:.2f} | "
                     f"{s['int64']:.2f} | {s['ratio']:.3f} | {n['float64']:.2f} | "
                     f"{n['int64']:.2f} | {u['float64']:.2f} | {u['int64']:.2f} | "
                     f"{u['ratio']:.3f} | {o['float64']:.2f} | {o['int64']:.2f} | "
                     f"{o['ratio']:.3f} |")
    lines.append("")
    for part in ("compute", "sort", "cpu", "sort_cpu"):
        ratios = [row[part]["ratio"] for row in rows]
        geomean = float(np.exp(np.mean(np.log(ratios))))
        lines.append(f"Geometric mean of the {part} ratios: {geomean:.3f}; "
                     f"largest: {max(ratios):.3f}.")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--sizes", default="100k,1M", help="comma-separated: 100k, 1M")
    parser.add_argument("--families", default=None, help="comma-separated; default all")
    parser.add_argument("--label", default="2-core dev machine")
    parser.add_argument("--out", default=None, help="path stem for .json and .md")
    args = parser.parse_args()
    info = machine_info(args.label)
    rows = []
    for size in args.sizes.split(","):
        for family, spec in GRAPHS[size].items():
            if args.families and family not in args.families.split(","):
                continue
            row = {"name": f"{family}-{size}", **measure(spec, args.runs)}
            rows.append(row)
            c = row["compute"]
            print(f"{row['name']:22s} {row['edges']:>9,d}  float64 {c['float64']:8.2f} ms  "
                  f"int64 {c['int64']:8.2f} ms  ratio {c['ratio']:.3f}  "
                  f"(sort {row['sort']['ratio']:.3f}, cpu {row['cpu']['ratio']:.3f}, "
                  f"sort cpu {row['sort_cpu']['ratio']:.3f})  "
                  f"load {load_average()}", flush=True)
    info["load_average_end"] = load_average()
    text = _markdown(rows, info, args.runs)
    print(text)
    if args.out:
        Path(f"{args.out}.json").write_text(json.dumps(
            {"machine": info, "runs": args.runs, "solver": SOLVER, "rows": rows}, indent=1))
        Path(f"{args.out}.md").write_text(text)


if __name__ == "__main__":
    main()
