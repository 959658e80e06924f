"""Per-phase tables for boruvka-edge/cpu, like seed 000's Figures 3-4 (OpenMP, final approach).

Runs ``boruvka-edge/cpu`` on seed 000's sparse and dense graphs (with and
without path compression, the paper's optimization 3) and prints, from
``Forest.stats.phases``, the milliseconds spent in each parallel operation
summed over all rounds (median of ``--repeats`` runs after a warm-up) and
its percentage of the four, with the rounds and threads used. Seed 000's
final approach is ours: ticket filtering and collection (optimizations
1a, 1b), four parallel loops per round; Figures 1-2 are its first version. Writes the Markdown to ``--output`` if given.

Usage::

    python benchmarks/cpu_phases.py [--size medium] [--repeats 5] [--threads N]
        [--output benchmarks/results/cpu_phases_2core.md]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).parent))
from cpu_common import environment

import parmst
from parmst.generators import generate

# Seed 000's names for the four parallel loops of Listing 7.
PHASES = {"vertex bridges": "computing the min edge out of every vertex",
          "union": "joining together disjoint sets",
          "remap": "mapping vertices to their representatives",
          "filter": "filtering out edges that are self loops"}


def phase_table(spec: str, repeats: int, threads: int, path_compression: bool) -> str:
    graph = generate(spec)
    runs = [parmst.minimum_spanning_forest(graph, solver="boruvka-edge/cpu", threads=threads,
                                           path_compression=path_compression).stats
            for _ in range(repeats + 1)][1:]
    title = (f"{spec} (n = {graph.num_vertices:,}, m = {graph.num_edges:,}), "
             f"path compression {'on' if path_compression else 'off'}, "
             f"{runs[0].rounds} rounds, {threads} threads")
    lines = [f"### {title}", "", "| Parallel operation | Time spent (ms) | Percentage time (%) |",
             "|---|---|---|"]
    spent = {phase: 1e3 * statistics.median(s.phases.get(phase, 0.0) for s in runs)
             for phase in PHASES}
    total = sum(spent.values())
    for phase, words in PHASES.items():
        lines.append(f"| {words} (`{phase}`) | {spent[phase]:.1f} | "
                     f"{100 * spent[phase] / total:.1f} |")
    lines.append(f"| **total** | **{total:.1f}** | 100 |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="medium")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--machine", default="2-core dev VM, no GPU")
    args = parser.parse_args()
    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    tables = [phase_table(f"{family}:size={args.size}", args.repeats, threads, compress)
              for family in ("seed000-sparse", "seed000-dense") for compress in (True, False)]
    parts = ["# boruvka-edge/cpu per-phase times (seed 000 Figures 3-4 layout)", "",
             environment(args.machine), "",
             (f"Median of {args.repeats} runs after a warm-up, per phase summed over rounds. "
             f"Command: `python benchmarks/cpu_phases.py --size {args.size} "
             f"--repeats {args.repeats}`"), ""]
    text = "\n".join(parts + tables)
    print(text)
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text)


if __name__ == "__main__":
    main()
