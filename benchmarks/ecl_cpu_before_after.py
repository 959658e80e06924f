"""ecl/cpu against an earlier version of its own module, interleaved in one process (issue 12).

    python benchmarks/ecl_cpu_before_after.py OLD_ECL_PY --suite cpu-vs-pbbs [--only rmat,...]
        [--repeat 5] [--out FILE.json]

OLD_ECL_PY is an earlier ``src/parmst/solvers/cpu/ecl.py`` (e.g. from
``git show <commit>:src/parmst/solvers/cpu/ecl.py``); it is imported as a module of its
own beside the current package, so it must only import names the package still has.
For every graph of the suite (from the graph cache), each version is warmed up once,
then both run ``--repeat`` times alternately on the cold graph (cached views dropped
before every call, as the bench harness does). Both must return the same edge ids.
Prints a Markdown table of medians, the ratio and the phases, and writes it as JSON
to ``--out``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from parmst.bench.suites import default_cache_dir, get_suite, load_graph
from parmst.solvers.cpu import ecl
from parmst.stats import Stats


def _load_module(path: str):
    spec = importlib.util.spec_from_file_location("ecl_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # Numba's cache finds the module's kernels by its name
    spec.loader.exec_module(module)
    return module


def _call(module, graph) -> tuple[np.ndarray, float, Stats]:
    graph.clear_cache()
    stats = Stats()
    start = time.perf_counter()
    ids = module.solve(graph, stats)
    return np.sort(ids), time.perf_counter() - start, stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("--suite", required=True)
    parser.add_argument("--only", help="these of the suite's graphs, in this order")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default="ecl_cpu_before_after.json")
    args = parser.parse_args()
    before = _load_module(args.old)
    rows = []
    print("| graph | edges | before (ms) | after (ms) | after / before speed | phases after (ms) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    graphs = {g.name: g for g in get_suite(args.suite).graphs}
    for name in args.only.split(",") if args.only else graphs:
        bench_graph = graphs[name]
        graph = load_graph(bench_graph.spec, default_cache_dir())
        times: dict[str, list[float]] = {"before": [], "after": []}
        results = {}
        for run in range(args.repeat + 1):
            for version, module in (("before", before), ("after", ecl)):
                ids, seconds, stats = _call(module, graph)
                if run:
                    times[version].append(seconds)
                results[version] = (ids, stats)
        same = np.array_equal(results["before"][0], results["after"][0])
        old, new = (statistics.median(times[version]) for version in ("before", "after"))
        phases = {k: round(1e3 * v, 1) for k, v in results["after"][1].phases.items()}
        rows.append({"graph": bench_graph.name, "edges": graph.num_edges, "same_ids": same,
                     "before_s": times["before"], "after_s": times["after"],
                     "phases_before_ms": {k: round(1e3 * v, 1) for k, v in
                                          results["before"][1].phases.items()},
                     "phases_after_ms": phases})
        print(f"| {bench_graph.name} | {graph.num_edges:,} | {1e3 * old:.1f} | {1e3 * new:.1f} "
              f"| {old / new:.2f}x{'' if same else ' DIFFERENT IDS'} | {phases} |", flush=True)
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0 if all(row["same_ids"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
