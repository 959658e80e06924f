"""Front doors against the originals: NetworkX's Kruskal and SciPy's minimum_spanning_tree.

Run from the repository root (parmst installed, or PYTHONPATH=src); the
``parmst`` NetworkX backend must be installed (``pip install -e .``) for the
figures to include NetworkX's dispatch:

    python benchmarks/frontdoors.py --runs 5 --out benchmarks/results/frontdoors_2core

Writes ``<out>.json`` and ``<out>.md``. The timing itself is
``parmst.interop.bench.time_front_doors``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess

import parmst
from parmst.interop.bench import time_front_doors

SPECS = (
    "grid2d:side=224,seed=1,weights=float",
    "random-degree:n=25000,seed=1,weights=float",
    "delaunay:n=33000,seed=1,weights=float",
    "rmat:scale=14,edge_factor=8,seed=1,weights=float",
    "grid2d:side=708,seed=1,weights=float",
    "random-degree:n=250000,seed=1,weights=float",
    "delaunay:n=333000,seed=1,weights=float",
    "rmat:scale=17,edge_factor=8,seed=1,weights=float",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peer-runs", type=int, default=3)
    parser.add_argument("--specs", nargs="*", default=SPECS)
    parser.add_argument("--out", default="benchmarks/results/frontdoors_2core")
    args = parser.parse_args()
    rows = []
    for spec in args.specs:
        graph = parmst.generate(spec)
        load = os.getloadavg()
        for row in time_front_doors(graph, runs=args.runs, peer_runs=args.peer_runs):
            row.update(spec=spec, n=graph.num_vertices, m=graph.num_edges,
                       load_before=[round(x, 2) for x in load],
                       load_after=[round(x, 2) for x in os.getloadavg()])
            rows.append(row)
            print(f"{spec:50s} {row['call']:34s} peer {row['peer_s']:8.3f}s "
                  f"parmst {row['parmst_s']:7.3f}s  {row['speedup']:6.1f}x  same={row['same']}",
                  flush=True)
    machine = {"platform": platform.platform(), "python": platform.python_version(),
               "cpus": os.cpu_count(),
               "cpu": subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo"],
                                     capture_output=True, text=True, check=False).stdout.strip()}
    with open(args.out + ".json", "w") as f:
        json.dump({"machine": machine, "runs": args.runs, "peer_runs": args.peer_runs,
                   "rows": rows}, f, indent=1)
    lines = [f"# Front doors vs NetworkX and SciPy ({machine['cpus']} cores)", "",
             (f"Machine: {machine['cpu']}, {machine['platform']}, Python {machine['python']}. "
             f"Medians of {args.runs} parmst runs (after a compile run) and {args.peer_runs} "
             "peer runs; float64 weights; wall time of the whole call, conversion included "
             "(NetworkX's conversion cache off; 'cached' keeps it on). Load = 1-minute load "
             "average before/after (2 cores, shared machine)."), "",
             ("| graph | n | m | call | peer | peer s | parmst s | speedup | parmst cached s "
              "| cached speedup | same | load |"), "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cached = r.get("parmst_cached_s")
        cached_s = "" if cached is None else f"{cached:.3f}"
        cached_x = "" if cached is None else f"{r['peer_s'] / cached:.1f}x"
        lines.append(
            f"| {r['spec']} | {r['n']} | {r['m']} | {r['front_door']}: {r['call']} | "
            f"{r['peer_name']} | {r['peer_s']:.3f} | {r['parmst_s']:.3f} | {r['speedup']:.1f}x | "
            f"{cached_s} | {cached_x} | {r['same']} | "
            f"{r['load_before'][0]}/{r['load_after'][0]} |")
    with open(args.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
