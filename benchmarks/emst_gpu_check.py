"""``boruvka-bvh/gpu`` on a real GPU: its pairs against the CPU solver's, and its times.

    python benchmarks/emst_gpu_check.py exact --out OUT
    python benchmarks/emst_gpu_check.py bar --n 37000000 --out OUT

``exact``: uniform and clustered 3-D point sets of 10^5 and 10^6 points, 2-D uniform,
duplicates and a lattice, plain and ``min_samples`` 5 and 10; every GPU tree must hold
exactly the pairs of ``boruvka-kdtree/cpu`` (the run fails otherwise), and each line gives
both solvers' times. ``bar``: ``--n`` clustered 3-D points (Gaussian clusters of many
sizes over a uniform background, like a cosmology snapshot), drawn with NumPy on the
host, then the whole call from a CuPy array: the solver's compute (tree build and
rounds), and the call end to end (``--leaf-sizes``: one more run per leaf size). Writes ``emst_gpu_<mode>.json`` under ``--out``.
A device script, not a test.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import parmst
from parmst._cuda import runtime


def clustered(n: int, d: int, seed: int) -> np.ndarray:
    """``n`` points: 90% in Gaussian clusters whose sizes follow a power law, 10% uniform,
    in the unit cube."""
    rng = np.random.default_rng(seed)
    background = n // 10
    clusters = max(1, n // 2000)
    sizes = rng.pareto(1.5, clusters) + 1.0
    counts = np.floor(sizes / sizes.sum() * (n - background)).astype(np.int64)
    counts[0] += n - background - counts.sum()
    centres = rng.random((clusters, d))
    widths = rng.uniform(0.001, 0.02, clusters)
    member = np.repeat(np.arange(clusters), counts)
    x = centres[member] + rng.standard_normal((len(member), d)) * widths[member, None]
    x = np.concatenate([x, rng.random((background, d))])
    return x[rng.permutation(n)]


def lattice(side: int, d: int) -> np.ndarray:
    axes = np.meshgrid(*[np.arange(side, dtype=np.float64)] * d, indexing="ij")
    grid = np.stack([a.ravel() for a in axes], axis=1)
    return grid[np.random.default_rng(side).permutation(len(grid))]


def timed(points, solver: str, **options) -> tuple[parmst.Forest, float]:
    runtime.synchronize()
    start = time.perf_counter()
    tree = parmst.euclidean_mst(points, solver=solver, **options)
    return tree, time.perf_counter() - start


def exact(out: Path) -> bool:
    rng = np.random.default_rng(0)
    cases = {
        "uniform-3d-1e5": rng.random((100_000, 3)),
        "uniform-3d-1e6": rng.random((1_000_000, 3)),
        "clustered-3d-1e6": clustered(1_000_000, 3, 1),
        "uniform-2d-1e6": rng.random((1_000_000, 2)),
        "uniform-5d-1e5": rng.random((100_000, 5)),
        "duplicates-3d-1e5": rng.random((5_000, 3))[rng.integers(0, 5_000, 100_000)],
        "lattice-3d-1e5": lattice(46, 3),
        "uniform-3d-float32-1e5": rng.random((100_000, 3)).astype(np.float32),
    }
    mutual = {"uniform-3d-1e5", "clustered-3d-1e6", "duplicates-3d-1e5", "lattice-3d-1e5"}
    timed(cases["uniform-3d-1e5"][:2000], "boruvka-bvh/gpu")  # compile
    timed(cases["uniform-3d-1e5"][:2000], "boruvka-bvh/gpu", min_samples=5)
    rows, ok = [], True
    for name, x in cases.items():
        for min_samples in [None] + ([5, 10] if name in mutual else []):
            gpu, gpu_s = timed(x, "boruvka-bvh/gpu", min_samples=min_samples)
            cpu, cpu_s = timed(x, "boruvka-kdtree/cpu", min_samples=min_samples)
            same = bool(np.array_equal(gpu.edge_ids, cpu.edge_ids))
            ok &= same
            rows.append({"case": name, "min_samples": min_samples, "same_pairs": same,
                         "gpu_s": round(gpu_s, 4), "cpu_s": round(cpu_s, 4),
                         "gpu_compute_s": round(gpu.stats.compute_time, 4),
                         "gpu_init_s": round(gpu.stats.init_time, 4),
                         "gpu_rounds": gpu.stats.rounds, "gpu_phases": gpu.stats.phases})
            print(json.dumps(rows[-1]), flush=True)
    (out / "emst_gpu_exact.json").write_text(json.dumps(
        {"device": runtime.device_name(), "rows": rows}, indent=1))
    return ok


def bar(n: int, out: Path, repeat: int, leaf_sizes: list[int]) -> bool:
    import cupy

    x = clustered(n, 3, 2)
    small = cupy.asarray(x[:100_000])
    timed(small, "boruvka-bvh/gpu")  # compile
    points = cupy.asarray(x)
    rows = []
    runs = [None] * repeat + [size for size in leaf_sizes]
    for leaf_size in runs:
        options = {} if leaf_size is None else {"leaf_size": leaf_size}
        tree, whole = timed(points, "boruvka-bvh/gpu", **options)
        stats = tree.stats
        rows.append({"n": n, "leaf_size": leaf_size, "whole_call_s": round(whole, 4),
                     "compute_s": round(stats.init_time + stats.compute_time, 4),
                     "build_s": round(stats.phases.get("build-tree", 0.0), 4),
                     "rounds_s": round(stats.compute_time, 4), "rounds": stats.rounds,
                     "phases": stats.phases, "queries": stats.worklist_sizes,
                     "total_weight": tree.total_weight})
        print(json.dumps(rows[-1]), flush=True)
    (out / "emst_gpu_bar.json").write_text(json.dumps(
        {"device": runtime.device_name(), "rows": rows}, indent=1))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["exact", "bar"])
    parser.add_argument("--n", type=int, default=37_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--leaf-sizes", default="", help="bar: also one run per leaf size, "
                        "e.g. 8,32")
    parser.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    ok = exact(args.out) if args.mode == "exact" else bar(args.n, args.out, args.repeat,
                                                            [int(v) for v in args.leaf_sizes.split(",") if v])
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
