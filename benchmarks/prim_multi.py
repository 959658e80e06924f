"""Multiple-instance Prim (seed 003 section 4.3, Figures 5.2-5.4) on road-like graphs.

For each road graph: the best of the serial solvers (kruskal, prim,
filter-kruskal; the thesis's Figure 5.2 baseline is its best sequential
code), then prim-union/cpu, prim-multi/cpu, prim-bmv/cpu, ecl/cpu and
genboruvka/cpu at each thread count (median of ``--repeats`` runs after a
warm-up at the highest count). Reports speedup over the best serial time
(Figure 5.2), prim-union's split into local trees and final stage (Figure
5.3), prim-multi's share of vertices per thread per collision round
(Figure 5.4), and prim-bmv's excess weight in percent of the minimum.
Every solver is first compiled on ``--warmup`` (a small graph of the family).
Exact solvers are checked against kruskal/serial's edge ids. Writes
``prim_multi.json``, ``prim_multi.md`` and ``prim_multi.png`` into
``--out`` (default ``$OUT``) after every graph; stops starting graphs once
``--budget`` seconds have passed.

Usage::

    NUMBA_NUM_THREADS=2 PYTHONPATH=src python benchmarks/prim_multi.py \\
        --graphs road:side=512,seed=1,road:side=1024,seed=1 --threads 1,2 \\
        --machine "2-core VM" --out benchmarks/results
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from cpu_common import environment, solver_run

import parmst
from parmst.generators import generate

SERIAL = ["kruskal/serial", "prim/serial", "filter-kruskal/serial"]
SOLVERS = ["prim-union/cpu", "prim-bmv/cpu", "prim-multi/cpu", "ecl/cpu", "genboruvka/cpu"]
UNION_FINAL = ("boundary", "compress", "final")


def _median_run(run, repeats: int) -> tuple[float, list]:
    out = [run() for _ in range(repeats)]
    return statistics.median(s for s, _ in out), [f for _, f in out]


def warm_up(spec: str, serial: list[str], thread_counts: list[int]) -> None:
    """Compile every solver on a small graph of the family, so the measured runs do not."""
    graph = generate(spec)
    for solver in serial:
        solver_run(graph, solver)()
    for solver in SOLVERS:
        for threads in thread_counts:
            solver_run(graph, solver, threads=threads)()
        if solver == "prim-bmv/cpu":
            parmst.minimum_spanning_forest(graph, solver=solver, measure_error=True)


def measure(spec: str, serial: list[str], thread_counts: list[int], repeats: int,
            save) -> dict:
    graph = generate(spec)
    row = {"graph": spec, "n": graph.num_vertices, "m": graph.num_edges, "serial_ms": {},
           "ms": {}, "phases_ms": {}, "init_ms": {}, "extra": {}}
    oracle = None
    for solver in serial:
        run = solver_run(graph, solver)
        seconds, forests = _median_run(run, repeats)
        row["serial_ms"][solver] = 1e3 * seconds
        oracle = forests[0].edge_ids if oracle is None else oracle
    row["best_serial"] = min(row["serial_ms"], key=row["serial_ms"].get)
    save(row)
    for solver in SOLVERS:
        row["ms"][solver], row["phases_ms"][solver] = {}, {}
        row["init_ms"][solver], row["extra"][solver] = {}, {}
        for threads in thread_counts:
            seconds, forests = _median_run(solver_run(graph, solver, threads=threads), repeats)
            forest = forests[-1]
            if parmst.registry.get(solver).exact and not np.array_equal(forest.edge_ids, oracle):
                raise AssertionError(f"{spec}: {solver} at {threads} threads differs from Kruskal")
            row["ms"][solver][threads] = 1e3 * seconds
            row["init_ms"][solver][threads] = 1e3 * statistics.median(
                f.stats.init_time for f in forests)
            row["phases_ms"][solver][threads] = {
                name: 1e3 * statistics.median(f.stats.phases.get(name, 0.0) for f in forests)
                for name in forest.stats.phases}
            extra = {k: v for k, v in forest.stats.extra.items()
                     if k in ("cut", "final_edges", "cycles_broken", "collisions",
                              "vertices_per_thread", "trees")}
            extra["rounds"] = forest.stats.rounds
            if solver == "prim-bmv/cpu":
                measured = parmst.minimum_spanning_forest(graph, solver=solver, threads=threads,
                                                          measure_error=True).stats.extra
                extra.update({k: measured[k] for k in ("excess_weight", "excess_percent",
                                                       "edges_not_in_minimum")})
            row["extra"][solver][threads] = extra
            save(row)
        print(f"{spec} {solver}: " + ", ".join(f"{t}T {ms:.0f} ms"
                                               for t, ms in row["ms"][solver].items()), flush=True)
    return row


def markdown(rows: list[dict], thread_counts: list[int], args) -> str:
    lines = ["# Multiple-instance Prim on road-like graphs (seed 003 Figures 5.2-5.4)", "",
             environment(args.machine), "", f"Load: {args.load}", "",
             (f"Median of {args.repeats} run(s), after compiling on {args.warmup}; time = solver init + compute "
              "from Forest.stats with the CSR cache cleared each run (the partitioned Prims' "
              "init includes partitioning). Exact solvers' edge ids equal kruskal/serial's."),
             "", (f"Command: `NUMBA_NUM_THREADS={max(thread_counts)} PYTHONPATH=src python "
                  f"benchmarks/prim_multi.py {shlex.join(sys.argv[1:])}`"), ""]
    lines += ["## Speedup over the best serial solver (Figure 5.2)", "",
              "Cells: milliseconds [speedup over the best serial time].", ""]
    head = ["graph", "n", "m", "best serial", "solver", *(f"{t} thr" for t in thread_counts)]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        best = row["serial_ms"][row["best_serial"]]
        serial = ", ".join(f"{s} {ms:.0f}" for s, ms in row["serial_ms"].items())
        for solver, times in row["ms"].items():
            cells = [row["graph"], f"{row['n']:,}", f"{row['m']:,}",
                     f"{row['best_serial']} {best:.0f} ms ({serial})", solver]
            cells += [f"{times[t]:.0f} [{best / times[t]:.2f}x]" for t in thread_counts]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## prim-union/cpu: where the time goes (Figure 5.3)", "",
              ("Milliseconds: partition (init), local trees (one Prim per part), final stage "
              "(boundary flags + shrinking the local trees to their boundary paths + Kruskal "
              "on those and the crossing edges), and the edges the final Kruskal sorted."), "",
              ("| graph | threads = parts | partition + CSR | local trees | final stage "
              "(boundary / compress / kruskal) | final edges | crossing edges |"),
              "|---|---|---|---|---|---|---|"]
    for row in rows:
        for t in thread_counts:
            p = row["phases_ms"]["prim-union/cpu"][t]
            extra = row["extra"]["prim-union/cpu"][t]
            final = sum(p.get(name, 0.0) for name in UNION_FINAL)
            lines.append(f"| {row['graph']} | {t} | {row['init_ms']['prim-union/cpu'][t]:.0f} | "
                         f"{p['local trees']:.0f} | {final:.0f} ("
                         + " / ".join(f"{p.get(name, 0.0):.0f}" for name in UNION_FINAL)
                         + f") | {extra['final_edges']:,} | {extra['cut']['crossing_edges']:,} |")
    lines += ["", "## prim-multi/cpu: vertices per thread per collision round (Figure 5.4)", "",
              ("| graph | threads | rounds | collisions per round | % of vertices per thread, "
              "first rounds |"), "|---|---|---|---|---|"]
    for row in rows:
        for t in thread_counts:
            extra = row["extra"]["prim-multi/cpu"][t]
            shares = "; ".join("/".join(f"{x:.0f}" for x in r)
                               for r in extra["vertices_per_thread"][:4])
            lines.append(f"| {row['graph']} | {t} | {extra['rounds']} | "
                         f"{extra['collisions']} | {shares} |")
    lines += ["", "## prim-bmv/cpu: error (approximate solver)", "",
              ("| graph | threads = parts | excess weight | excess % of minimum | edges not in "
              "the minimum | cycles broken |"), "|---|---|---|---|---|---|"]
    for row in rows:
        for t in thread_counts:
            extra = row["extra"]["prim-bmv/cpu"][t]
            lines.append(f"| {row['graph']} | {t} | {extra['excess_weight']} | "
                         f"{extra['excess_percent']:.4f} | {extra['edges_not_in_minimum']} | "
                         f"{extra['cycles_broken']} |")
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], thread_counts: list[int], path: Path, machine: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    row = rows[-1]
    best = row["serial_ms"][row["best_serial"]]
    for solver, times in row["ms"].items():
        left.plot(thread_counts, [best / times[t] for t in thread_counts], marker="o",
                  label=solver)
    left.axhline(1.0, color="grey", linestyle=":", label=f"best serial ({row['best_serial']})")
    left.set_xscale("log", base=2)
    left.set_xticks(thread_counts, [str(t) for t in thread_counts])
    left.set_xlabel("threads")
    left.set_ylabel("speedup over the best serial solver")
    left.set_title(f"{row['graph']} ({row['n']:,} vertices)", fontsize=9)
    left.legend(fontsize=7)
    phases = [row["phases_ms"]["prim-union/cpu"][t] for t in thread_counts]
    init = [row["init_ms"]["prim-union/cpu"][t] for t in thread_counts]
    local = [p["local trees"] for p in phases]
    final = [sum(p.get(name, 0.0) for name in UNION_FINAL) for p in phases]
    x = np.arange(len(thread_counts))
    right.bar(x, init, label="partition + CSR (init)")
    right.bar(x, local, bottom=init, label="local trees")
    right.bar(x, final, bottom=np.add(init, local), label="final stage")
    right.set_xticks(x, [str(t) for t in thread_counts])
    right.set_xlabel("threads = parts")
    right.set_ylabel("ms")
    right.set_title("prim-union/cpu time split (thesis Figure 5.3)", fontsize=9)
    right.legend(fontsize=7)
    fig.suptitle(f"Multiple-instance Prim, {machine}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", default="road:side=512,seed=1,road:side=1024,seed=1",
                        help="comma-separated generator specs (commas inside a spec are kept "
                             "when followed by key=)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--serial", default=",".join(SERIAL))
    parser.add_argument("--warmup", default="road:side=64,seed=2")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=float("inf"),
                        help="seconds after which no new graph is started")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", ".")))
    parser.add_argument("--name", default="prim_multi")
    parser.add_argument("--machine", default=f"{os.cpu_count()} CPU cores")
    parser.add_argument("--load", default=f"load average {os.getloadavg()[0]:.2f} at start")
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")
                     if int(t) <= numba.config.NUMBA_NUM_THREADS]
    specs = re.split(r",(?=[a-z0-9-]+:)", args.graphs)
    begun = time.perf_counter()
    rows: list[dict] = []
    args.out.mkdir(parents=True, exist_ok=True)
    serial = args.serial.split(",")
    warm_up(args.warmup, serial, thread_counts)

    def save(row: dict) -> None:
        done = [r for r in rows if r is not row] + [row]
        complete = [r for r in done if all(len(r["ms"].get(s, {})) == len(thread_counts)
                                           for s in SOLVERS)]
        (args.out / f"{args.name}.json").write_text(json.dumps(
            {"machine": args.machine, "load": args.load, "threads": thread_counts,
             "repeats": args.repeats, "warmup": args.warmup, "rows": done}, indent=1,
            default=str))
        if complete:
            (args.out / f"{args.name}.md").write_text(markdown(complete, thread_counts, args))

    for spec in specs:
        if time.perf_counter() - begun > args.budget:
            print(f"budget spent: {spec} and later graphs not run", flush=True)
            break
        row = measure(spec, serial, thread_counts, args.repeats, save)
        rows.append(row)
        args.load += f"; {os.getloadavg()[0]:.2f} after {spec}"
        save(row)
        plot(rows, thread_counts, args.out / f"{args.name}.png", args.machine)
    print(markdown(rows, thread_counts, args))


if __name__ == "__main__":
    main()
