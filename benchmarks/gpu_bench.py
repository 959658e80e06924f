"""Benchmark the GPU solvers on seed 001's synthetic families (issue 5).

Run on the GPU machine (see ``benchmarks/gpu_device_run.sh``)::

    PYTHONPATH=src python benchmarks/gpu_bench.py --out results/ [--quick] [--ablation]

For each family it generates the graph with ``parmst.generate`` at the
issue's size, checks ``ecl/gpu``'s edge ids against ``kruskal/serial`` once,
then times every configuration: one warm-up solve, then the median of
``--repeats`` solves of ``compute_time`` (graph on the device, result left
there: ECL-MST's own timer) and of the end-to-end time (key preparation,
host-to-device copy, compute, copy-back). SciPy's ``minimum_spanning_tree``
runs once per graph on the host CPU, from the same COO arrays.
Writes ``gpu_bench.json``, ``gpu_bench.md`` and ``gpu_throughput.png``.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import parmst
from parmst.generators import generate

LOG = logging.getLogger("gpu_bench")

# Issue 5: the original ECL-MST CUDA code on an NVIDIA H100 80GB HBM3, compute-only,
# millions of undirected edges per second.
ECL_H100 = {"grid2d": 1117, "road": 1962, "delaunay": 1431, "seed000-sparse": 1128,
            "seed000-dense": 1133, "random-degree": 1939, "rmat": 3039}

FAMILIES = {
    "grid2d": "grid2d:side=1024,seed=1",
    "road": "road:side=2048,remove=0.32,seed=2",
    "delaunay": "delaunay:n=1048576,seed=3",
    "seed000-sparse": "seed000-sparse:size=large,seed=4",
    "seed000-dense": "seed000-dense:size=large,seed=5",
    "random-degree": "random-degree:n=8388608,seed=6",
    "rmat": "rmat:scale=22,edge_factor=16,seed=7",
}
QUICK = {
    "grid2d": "grid2d:side=256,seed=1",
    "rmat": "rmat:scale=16,edge_factor=16,seed=7",
    "seed000-dense": "seed000-dense:size=medium,seed=5",
}

# Seed 001 section 5.3's ablation, one optimization removed at a time from the full solver.
ABLATION = {
    "full (edge-list init, auto launch)": {},
    "persistent kernel only": {"launch": "persistent"},
    "per-round launches only (ECL-MST host loop)": {"launch": "per-round"},
    "hybrid CSR init": {"init": "hybrid"},
    "thread-based CSR init": {"init": "thread"},
    "no atomic guards": {"atomic_guards": False},
    "no filter": {"filter": False},
    "both edge directions": {"both_directions": True},
}


def environment() -> dict:
    """GPU, driver and library versions, for the results' header."""
    from importlib.metadata import version

    info = {"python": platform.python_version(), "numpy": np.__version__,
            "numba": version("numba"), "numba-cuda": version("numba-cuda"),
            "host": platform.node(), "cpu": platform.processor()}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             check=True, timeout=30)
        info["gpu"] = smi.stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        info["gpu"] = f"nvidia-smi failed: {exc}"
    return info


def time_solver(graph, solver: str, repeats: int, options: dict) -> dict:
    """Median compute-only and end-to-end seconds over ``repeats`` solves after a warm-up."""
    parmst.minimum_spanning_forest(graph, solver, **options)
    runs = [parmst.minimum_spanning_forest(graph, solver, **options).stats
            for _ in range(repeats)]
    compute = statistics.median(s.compute_time for s in runs)
    end_to_end = statistics.median(s.extra.get("end_to_end_time", s.total_time) for s in runs)
    last = runs[-1]
    return {"solver": solver, "options": options, "compute_s": compute,
            "end_to_end_s": end_to_end,
            "init_s": statistics.median(s.init_time for s in runs),
            "transfer_s": statistics.median(s.extra.get("transfer_time", 0.0) for s in runs),
            "copy_back_s": statistics.median(s.extra.get("copy_back_time", 0.0) for s in runs),
            "compute_all_s": [s.compute_time for s in runs],
            "rounds": last.rounds, "worklist_sizes": last.worklist_sizes,
            "device_memory_bytes": last.extra.get("device_memory_bytes"),
            "extra": {k: v for k, v in last.extra.items() if isinstance(v, (int, float, str))}}


def time_scipy(graph) -> float:
    """One run of SciPy's MST from the edge arrays (CSR build included)."""
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import minimum_spanning_tree

    start = time.perf_counter()
    matrix = coo_array((graph.weight, (graph.src, graph.dst)),
                       shape=(graph.num_vertices, graph.num_vertices)).tocsr()
    minimum_spanning_tree(matrix)
    return time.perf_counter() - start


def check(graph, solver: str, options: dict) -> bool:
    """Whether ``solver`` returns exactly kruskal/serial's edge ids."""
    ref = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    got = parmst.minimum_spanning_forest(graph, solver, **options).edge_ids
    return bool(np.array_equal(ref, got))


def bench_family(name: str, spec: str, args) -> dict:
    start = time.perf_counter()
    graph = generate(spec)
    entry = {"family": name, "spec": spec, "n": graph.num_vertices, "m": graph.num_edges,
             "weight": graph.weight.dtype.name, "generate_s": time.perf_counter() - start,
             "runs": []}
    LOG.info("%s: n=%d m=%d generated in %.1fs", name, graph.num_vertices, graph.num_edges,
             entry["generate_s"])
    variants = [{}]
    if args.ablation:
        variants = list(ABLATION.values())
    elif args.launch_variants:
        variants = [{}, {"launch": "persistent"}, {"launch": "per-round"}]
    configs = [("ecl/gpu", opts) for opts in variants]
    configs += [(s, {}) for s in args.also if parmst.available_solvers(graph).get(s) is True]
    if args.check:
        entry["exact"] = {f"{s} {o}": check(graph, s, o) for s, o in configs[:1] + configs[-1:]}
        LOG.info("%s: exact %s", name, entry["exact"])
    for solver, options in configs:
        result = time_solver(graph, solver, args.repeats, options)
        result["mega_edges_per_s"] = graph.num_edges / result["compute_s"] / 1e6
        result["mega_edges_per_s_end_to_end"] = graph.num_edges / result["end_to_end_s"] / 1e6
        entry["runs"].append(result)
        LOG.info("%s %s %s: compute %.3f ms (%.0f Medges/s), end-to-end %.1f ms", name, solver,
                 options, result["compute_s"] * 1e3, result["mega_edges_per_s"],
                 result["end_to_end_s"] * 1e3)
    if args.scipy:
        entry["scipy_s"] = time_scipy(graph)
        LOG.info("%s: scipy %.3f s", name, entry["scipy_s"])
    return entry


def prim_series(repeats: int) -> list[dict]:
    """Seed 004's speedup series: prim-dense/gpu against prim-dense/serial, 64 ... 4096 nodes."""
    rows = []
    for n in (64, 128, 256, 512, 1024, 2048, 4096):
        graph = generate(f"dense:n={n},seed=9")
        gpu = time_solver(graph, "prim-dense/gpu", repeats, {})
        serial = time_solver(graph, "prim-dense/serial", repeats, {})
        rows.append({"n": n, "m": graph.num_edges, "gpu_compute_s": gpu["compute_s"],
                     "serial_compute_s": serial["compute_s"],
                     "speedup": serial["compute_s"] / gpu["compute_s"]})
        LOG.info("dense prim n=%d: gpu %.2f ms, serial %.2f ms", n, gpu["compute_s"] * 1e3,
                 serial["compute_s"] * 1e3)
    return rows


def markdown(results: list[dict], env: dict) -> str:
    lines = [f"# GPU MST benchmark ({env.get('gpu')})", "",
             (f"numba {env.get('numba')}, numba-cuda {env.get('numba-cuda')}, "
             f"NumPy {env.get('numpy')}, Python {env.get('python')}; host {env.get('cpu')}."),
             "Median of the repeats after one warm-up; M edges/s = undirected edges / time.", "",
             ("| family | n | m | solver | options | compute ms | M edges/s | ECL-MST H100 "
             "| end-to-end ms | SciPy ms | e2e speedup vs SciPy |"),
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for entry in results:
        for run in entry["runs"]:
            scipy_ms = entry.get("scipy_s", float("nan")) * 1e3
            lines.append(
                f"| {entry['family']} | {entry['n']} | {entry['m']} | {run['solver']} "
                f"| {run['options'] or 'default'} | {run['compute_s'] * 1e3:.3f} "
                f"| {run['mega_edges_per_s']:.0f} | {ECL_H100.get(entry['family'], '')} "
                f"| {run['end_to_end_s'] * 1e3:.1f} | {scipy_ms:.0f} "
                f"| {scipy_ms / (run['end_to_end_s'] * 1e3):.1f} |")
    default = [next(r for r in e["runs"] if r["solver"] == "ecl/gpu" and not r["options"])
               for e in results]
    ours = [r["mega_edges_per_s"] for r in default]
    ref = [ECL_H100[e["family"]] for e in results if e["family"] in ECL_H100]
    if ours and len(ref) == len(ours):
        lines += ["", (f"Geometric mean ecl/gpu: {statistics.geometric_mean(ours):.0f} M edges/s; "
                      f"ECL-MST on H100 (issue 5): {statistics.geometric_mean(ref):.0f}.")]
    lines += ablation_table(results)
    return "\n".join(lines) + "\n"


def ablation_table(results: list[dict]) -> list[str]:
    """Seed 001 Table 5's shape: compute ms per variant and family, slowdown vs the default."""
    variants = [(name, opts) for name, opts in ABLATION.items()
                if all(any(r["solver"] == "ecl/gpu" and r["options"] == opts for r in e["runs"])
                       for e in results)]
    if len(variants) < 2:
        return []
    lines = ["", ("## Ablation (ecl/gpu, compute-only ms; last column: geometric-mean "
                 "runtime relative to the default)"), "",
             "| variant | " + " | ".join(e["family"] for e in results) + " | relative |",
             "|---|" + "---|" * (len(results) + 1)]
    base = [next(r["compute_s"] for r in e["runs"] if r["solver"] == "ecl/gpu"
                 and not r["options"]) for e in results]
    for name, opts in variants:
        times = [next(r["compute_s"] for r in e["runs"] if r["solver"] == "ecl/gpu"
                      and r["options"] == opts) for e in results]
        ratio = statistics.geometric_mean([t / b for t, b in zip(times, base)])
        lines.append(f"| {name} | " + " | ".join(f"{t * 1e3:.2f}" for t in times)
                     + f" | {ratio:.2f} |")
    return lines


def plot(results: list[dict], env: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [e["family"] for e in results]
    default = [next(r for r in e["runs"] if r["solver"] == "ecl/gpu" and not r["options"])
               for e in results]
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(10, 4.5))
    ax.bar(x - 0.3, [r["mega_edges_per_s"] for r in default], 0.3, label="parmst ecl/gpu")
    ax.bar(x, [ECL_H100.get(n, 0) for n in names], 0.3, label="ECL-MST CUDA (issue 5)")
    ax.bar(x + 0.3, [r["mega_edges_per_s_end_to_end"] for r in default], 0.3,
           label="parmst ecl/gpu end-to-end")
    ax.set_xticks(x, names, rotation=20)
    ax.set_ylabel("M undirected edges / s (compute-only)")
    ax.set_title(f"{env.get('gpu')}; numba-cuda {env.get('numba-cuda')}", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="small graphs, for a smoke run")
    parser.add_argument("--families", nargs="*", help="subset of family names")
    parser.add_argument("--ablation", action="store_true")
    parser.add_argument("--launch-variants", action="store_true",
                        help="ecl/gpu with auto, persistent-only and per-round-only launches")
    parser.add_argument("--check", action="store_true", help="compare edge ids with Kruskal")
    parser.add_argument("--scipy", action="store_true")
    parser.add_argument("--also", nargs="*", default=[], help="more solvers to time")
    parser.add_argument("--prim-series", action="store_true",
                        help="seed 004's dense Prim speedup series, GPU vs serial")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stdout)
    logging.getLogger("numba").setLevel(logging.WARNING)
    args.out.mkdir(parents=True, exist_ok=True)
    env = environment()
    LOG.info("environment %s", env)
    families = QUICK if args.quick else FAMILIES
    results = []
    for name, spec in families.items():
        if args.families and name not in args.families:
            continue
        results.append(bench_family(name, spec, args))
        (args.out / "gpu_bench.json").write_text(json.dumps({"env": env, "results": results},
                                                            indent=1))
    text = markdown(results, env) if results else ""
    if args.prim_series:
        series = prim_series(args.repeats)
        (args.out / "gpu_prim_series.json").write_text(json.dumps(series, indent=1))
        text += ("\n## Dense Prim (seed 004), compute-only\n\n| n | m | gpu ms | serial ms "
                 "| speedup |\n|---|---|---|---|---|\n")
        text += "".join(f"| {r['n']} | {r['m']} | {r['gpu_compute_s'] * 1e3:.2f} "
                        f"| {r['serial_compute_s'] * 1e3:.2f} | {r['speedup']:.2f} |\n"
                        for r in series)
    (args.out / "gpu_bench.md").write_text(text)
    if results:
        plot(results, env, args.out / "gpu_throughput.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
