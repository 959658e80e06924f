"""Read and write speed of every parmst.io format on one large random ``u v w`` graph.

Generates a graph with random integer ids and weights (default 15 million
edges over 10 million vertices, the size of seed 000's sparse/large.txt),
writes it in every format into a temporary directory, then reads each file
back ``--repeats`` times and prints the median throughput in millions of
edges per second, by wall clock and by this process's CPU time (the CPU
figure is the one to trust on a shared, loaded machine). Files are read
right after being written, so they come from the page cache: this measures
parsing, not the disk. A float-weighted edge list is measured too.

Usage::

    .venv/bin/python benchmarks/io_speed.py [--edges 15000000] [--repeats 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time

import numpy as np

from parmst import Graph, io


def timed(action) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(graph: Graph, fmt: str, path: str, repeats: int) -> dict:
    small = Graph.from_edges([0, 1], [1, 0], graph.weight[:2], 2)
    io.write(small, path, format=fmt)  # compile / load the cached kernels outside the timing
    io.read(path, format=fmt)
    write_wall, write_cpu = timed(lambda: io.write(graph, path, format=fmt, progress=False))
    reads = [timed(lambda: io.read(path, format=fmt, progress=False)) for _ in range(repeats)]
    back = io.read(path, format=fmt, progress=False)
    if back.num_edges != graph.num_edges or not np.array_equal(np.sort(back.weight),
                                                              np.sort(graph.weight)):
        raise AssertionError(f"{fmt}: the file did not read back to the same edges")
    m = graph.num_edges / 1e6
    read_wall = statistics.median(r[0] for r in reads)
    read_cpu = statistics.median(r[1] for r in reads)
    return {"format": fmt, "bytes": os.path.getsize(path),
            "read_wall_s": read_wall, "read_cpu_s": read_cpu,
            "read_Medges_per_s_wall": m / read_wall, "read_Medges_per_s_cpu": m / read_cpu,
            "write_wall_s": write_wall, "write_cpu_s": write_cpu,
            "write_Medges_per_s_wall": m / write_wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=15_000_000)
    parser.add_argument("--vertices", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--formats", default=",".join(io.FORMATS),
                        help="comma-separated format names")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2024)
    m, n = args.edges, args.vertices
    graph = Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m),
                             rng.integers(0, 2**31 - 1, m, dtype=np.int64).astype(np.int32), n)
    float_graph = graph.with_weights(rng.random(m))
    load_before = os.getloadavg()
    results = []
    with tempfile.TemporaryDirectory(prefix="parmst-io-speed-") as folder:
        for fmt in args.formats.split(","):
            path = os.path.join(folder, "graph" + io.FORMATS[fmt].extensions[0])
            results.append(measure(graph, fmt, path, args.repeats))
            os.remove(path)
            print(f"measured {fmt}", file=sys.stderr)
        results.append(measure(float_graph, "edgelist", os.path.join(folder, "float.txt"),
                               args.repeats))
        results[-1]["format"] = "edgelist (float64 weights)"
    machine = {"platform": platform.platform(), "cpus": os.cpu_count(),
               "python": platform.python_version(), "numpy": np.__version__,
               "load_average_before": load_before, "load_average_after": os.getloadavg()}

    print(f"{m:,} edges, {n:,} vertices, int32 weights; median of {args.repeats} reads; "
          f"{machine['platform']}, {machine['cpus']} CPUs, load average "
          f"{load_before[0]:.1f} -> {machine['load_average_after'][0]:.1f}\n")
    print("| format | file MB | read M edges/s (wall) | read M edges/s (CPU) "
          "| write M edges/s (wall) |")
    print("|---|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['format']} | {r['bytes'] / 1e6:.0f} | {r['read_Medges_per_s_wall']:.2f} "
              f"| {r['read_Medges_per_s_cpu']:.2f} | {r['write_Medges_per_s_wall']:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"edges": m, "vertices": n, "repeats": args.repeats, "machine": machine,
                       "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
