"""Benchmark the OpenCL backend (issue 11): Sun and Skadron's scan figures and the MST solvers.

    PYTHONPATH=src python benchmarks/opencl_bench.py --out DIR --label NAME \
        [--scan-mb 1 2 4 ... 512] [--family SPEC ...] [--solvers ...] [--repeats 5]

Scan (Sun and Skadron Figures 5-8): exclusive prefix sum of uint32, 1 MB to 512 MB.
Kernel time is the device time of the launches (OpenCL profiling, first start to
last end); total time adds the host-to-device and device-to-host copies
(wall clock, buffers allocated beforehand). Against NumPy's ``cumsum`` (one
CPU thread, Sun and Skadron's sequential baseline) and a naive multi-pass
scan-then-propagate (one work-group scan per 256 elements, recursive scan of
the block sums, then a propagate pass: Sun and Skadron's stand-in for CLPP). Bandwidth
counts 8 bytes per element (one read, one write), the measure of a device copy,
whose own rate is measured too.

MST: each solver on each family, verified against ``kruskal/serial`` once, then
one warm-up and the median of ``--repeats`` solves (compute time and
end-to-end). Writes ``opencl_<label>.json`` and ``opencl_<label>.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

import parmst
from parmst.generators import generate
from parmst.opencl import opencl_devices
from parmst.solvers.opencl import _runtime, _scan
from parmst.solvers.opencl._scan import scan_for

NAIVE = r"""
#define WG 256
/* One work-group scans WG elements in place (exclusive, Kogge-Stone) and writes its sum. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_scan(__global uint *data, ulong n, __global uint *sums)
{
    __local uint part[WG];
    uint lid = get_local_id(0);
    ulong i = get_global_id(0);
    uint x = i < n ? data[i] : 0;
    uint p = x;
    part[lid] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        uint before = lid >= d ? part[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        p += before;
        part[lid] = p;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n)
        data[i] = p - x;
    if (lid == WG - 1)
        sums[get_group_id(0)] = p;
}

__kernel void propagate(__global uint *data, ulong n, __global const uint *sums)
{
    ulong i = get_global_id(0);
    if (i < n)
        data[i] += sums[i / WG];
}
"""


def environment(env) -> dict:
    info = {"python": platform.python_version(), "numpy": np.__version__, "host": platform.node(),
            "opencl_device": env.name, "opencl_driver": env.device.driver_version,
            "devices": opencl_devices()}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             check=True, timeout=30)
        info["gpu"] = smi.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        info["gpu"] = None
    with open("/proc/cpuinfo") as f:
        info["cpu"] = next((line.split(":", 1)[1].strip() for line in f
                            if line.startswith("model name")), platform.processor())
    info["cores"] = len(__import__("os").sched_getaffinity(0))
    with open("/proc/loadavg") as f:
        info["load"] = f.read().split()[:3]
    return info


def _device_seconds(events) -> float:
    events[-1].wait()
    return (events[-1].profile.end - events[0].profile.start) * 1e-9


class Naive:
    """Scan-then-propagate: log_256(n) levels up, as many down (one buffer per level)."""

    def __init__(self, env, n: int):
        import pyopencl as cl

        self.env = env
        self.k = cl.Program(env.context, NAIVE).build()
        self.block_scan = cl.Kernel(self.k, "block_scan")
        self.propagate = cl.Kernel(self.k, "propagate")
        self.levels = []
        size = n
        while size > 1:
            size = -(-size // 256)
            self.levels.append((size, cl.Buffer(env.context, cl.mem_flags.READ_WRITE, 4 * size)))

    def run(self, data, n: int) -> list:
        q = self.env.queue
        events, sizes, buffers = [], [n], [data]
        for size, sums in self.levels:
            count = sizes[-1]
            events.append(self.block_scan(q, (size * 256,), (256,), buffers[-1], np.uint64(count),
                                          sums))
            sizes.append(size)
            buffers.append(sums)
        # The top level is one block, scanned whole; every level below adds its block's prefix.
        for level in range(len(self.levels) - 2, -1, -1):
            count = sizes[level]
            events.append(self.propagate(q, (-(-count // 256) * 256,), None, buffers[level],
                                         np.uint64(count), buffers[level + 1]))
        return events


def bench_scan(env, megabytes: int, repeats: int) -> dict:
    import pyopencl as cl

    n = megabytes * 2**20 // 4
    rng = np.random.default_rng(megabytes)
    host = rng.integers(0, 1 << 10, n, dtype=np.uint32)
    out = np.empty_like(host)
    q = env.queue
    rw = cl.mem_flags.READ_WRITE
    source = cl.Buffer(env.context, rw, host.nbytes)
    result = cl.Buffer(env.context, rw, host.nbytes)
    scan = scan_for(env, np.uint32, "add")
    cl.enqueue_copy(q, source, host)
    expected = np.cumsum(host, dtype=np.uint32)
    expected = np.concatenate(([0], expected[:-1])).astype(np.uint32)
    kernel, total, copy, naive_kernel, naive_total, cpu = [], [], [], [], [], []
    naive = Naive(env, n)
    for r in range(repeats + 1):
        start = time.perf_counter()
        cl.enqueue_copy(q, source, host)
        events = scan.run(source, result, n, exclusive=True)
        cl.enqueue_copy(q, out, result)
        total.append(time.perf_counter() - start)
        kernel.append(_device_seconds(events))
        if r == 0:
            assert np.array_equal(out, expected), "reduce-then-scan differs from NumPy"
        copy.append(_device_seconds([cl.enqueue_copy(q, result, source)]))
        q.finish()
        start = time.perf_counter()
        cl.enqueue_copy(q, source, host)
        events = naive.run(source, n)
        cl.enqueue_copy(q, out, source)
        naive_total.append(time.perf_counter() - start)
        naive_kernel.append(_device_seconds(events))
        if r == 0:
            assert np.array_equal(out, expected), "naive scan differs from NumPy"
        start = time.perf_counter()
        np.cumsum(host, dtype=np.uint32)
        cpu.append(time.perf_counter() - start)
    med = {name: statistics.median(values[1:]) for name, values in
           [("kernel_s", kernel), ("total_s", total), ("copy_s", copy),
            ("naive_kernel_s", naive_kernel), ("naive_total_s", naive_total), ("numpy_s", cpu)]}
    med.update(megabytes=megabytes, elements=n, launches=3, naive_launches=len(events),
               scan_GBps=8 * n / med["kernel_s"] / 1e9, copy_GBps=8 * n / med["copy_s"] / 1e9)
    return med


def bench_shapes(env, megabytes: int, shapes: list[str], repeats: int) -> list[dict]:
    """Kernel time of the scan at other launch shapes ``WGxITEMSxGROUPS_PER_CU`` (tuning)."""
    import pyopencl as cl

    n = megabytes * 2**20 // 4
    host = np.random.default_rng(1).integers(0, 1 << 10, n, dtype=np.uint32)
    source = cl.Buffer(env.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                       hostbuf=host)
    result = cl.Buffer(env.context, cl.mem_flags.READ_WRITE, host.nbytes)
    last = np.empty(1, np.uint32)
    rows = []
    default = _scan._shape
    try:
        for shape in shapes:
            wg, items, per_cu = (int(x) for x in shape.split("x"))
            _scan._shape = lambda env, wg=wg, items=items, per_cu=per_cu: (
                wg, items, min(wg * items, int(env.device.max_compute_units) * per_cu))
            scan = _scan.Scan(env, np.dtype(np.uint32), "add", "plain")
            times = [_device_seconds(scan.run(source, result, n, exclusive=False))
                     for _ in range(repeats + 1)][1:]
            cl.enqueue_copy(env.queue, last, result, src_offset=4 * (n - 1))
            exact = int(last[0]) == int(host.sum(dtype=np.uint32))
            kernel = statistics.median(times)
            rows.append({"shape": shape, "megabytes": megabytes, "kernel_s": kernel,
                         "scan_GBps": 8 * n / kernel / 1e9, "exact": exact})
            print("shape", rows[-1], flush=True)
    finally:
        _scan._shape = default
    return rows


def bench_mst(spec: str, solvers: list[str], repeats: int) -> dict:
    graph = generate(spec)
    row = {"family": spec, "n": graph.num_vertices, "m": graph.num_edges, "solvers": {}}
    reference = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    for solver in solvers:
        ok = parmst.registry.get(solver).can_run(graph)
        if ok is not True:
            row["solvers"][solver] = {"skipped": ok}
            continue
        first = parmst.minimum_spanning_forest(graph, solver)
        runs = [parmst.minimum_spanning_forest(graph, solver).stats for _ in range(repeats)]
        compute = statistics.median(s.compute_time for s in runs)
        row["solvers"][solver] = {
            "exact": bool(np.array_equal(first.edge_ids, reference)),
            "compute_s": compute, "end_to_end_s": statistics.median(s.total_time for s in runs),
            "Medges_per_s": graph.num_edges / compute / 1e6, "rounds": runs[0].rounds,
            "phases_s": {k: statistics.median(s.phases.get(k, 0.0) for s in runs)
                         for k in runs[0].phases}, "device": runs[0].device}
    return row


def markdown(label: str, info: dict, scans: list[dict], msts: list[dict],
             shapes: list[dict]) -> str:
    lines = [f"# OpenCL backend benchmark: {label}", "",
             (f"Device: {info['opencl_device']} (driver {info['opencl_driver']}); "
             f"GPU: {info['gpu']}; CPU: {info['cpu']} ({info['cores']} cores, load "
             f"{' '.join(info['load'])} at start); numpy {info['numpy']}."), ""]
    if scans:
        lines += ["## Exclusive prefix sum of uint32 (Sun and Skadron Figures 5-8), medians", "",
                  ("| MB | kernel ms | total ms | GB/s (8 B/elem) | device copy GB/s | "
                  "naive multi-pass kernel ms | naive total ms | NumPy cumsum ms | "
                  "kernel speedup vs NumPy | total speedup vs NumPy |"),
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for s in scans:
            lines.append(
                f"| {s['megabytes']} | {1e3 * s['kernel_s']:.3f} | {1e3 * s['total_s']:.2f} | "
                f"{s['scan_GBps']:.3g} | {s['copy_GBps']:.3g} | {1e3 * s['naive_kernel_s']:.3f} | "
                f"{1e3 * s['naive_total_s']:.2f} | {1e3 * s['numpy_s']:.2f} | "
                f"{s['numpy_s'] / s['kernel_s']:.1f}x | {s['numpy_s'] / s['total_s']:.2f}x |")
        lines.append("")
    if shapes:
        lines += [("## Scan launch shapes (work-group size x items per work-item x groups per "
                  "compute unit), uint32 add, medians"), "",
                  "| shape | MB | kernel ms | GB/s (8 B/elem) | exact |",
                  "|---|---:|---:|---:|---|"]
        lines += [f"| {r['shape']} | {r['megabytes']} | {1e3 * r['kernel_s']:.3f} | "
                  f"{r['scan_GBps']:.4g} | {r['exact']} |" for r in shapes]
        lines.append("")
    if msts:
        lines += ["## MST solvers, median compute time (graph on the device)", "",
                  ("| family | n | m | solver | exact | compute ms | end-to-end ms | M edges/s | "
                  "rounds | phases (ms) |"), "|---|---:|---:|---|---|---:|---:|---:|---:|---|"]
        for row in msts:
            for solver, r in row["solvers"].items():
                if "skipped" in r:
                    lines.append(f"| {row['family']} | {row['n']} | {row['m']} | {solver} | "
                                 f"skipped: {r['skipped']} | | | | | |")
                    continue
                phases = ", ".join(f"{k} {1e3 * v:.1f}" for k, v in r["phases_s"].items())
                lines.append(
                    f"| {row['family']} | {row['n']} | {row['m']} | {solver} | {r['exact']} | "
                    f"{1e3 * r['compute_s']:.1f} | {1e3 * r['end_to_end_s']:.1f} | "
                    f"{r['Medges_per_s']:.3g} | {r['rounds']} | {phases} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--label", required=True)
    parser.add_argument("--device", default=None)
    parser.add_argument("--scan-mb", type=int, nargs="*", default=[1, 2, 4, 8, 16, 32, 64, 128,
                                                                     256, 512])
    parser.add_argument("--family", nargs="*", default=[])
    parser.add_argument("--solvers", nargs="*",
                        default=["ecl/opencl", "segscan-boruvka/opencl", "ecl/gpu"])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scan-shapes", nargs="*", default=[],
                        help="also time the scan at these WGxITEMSxGROUPS_PER_CU shapes")
    parser.add_argument("--shape-mb", type=int, default=512)
    args = parser.parse_args()
    env = _runtime.env(args.device)
    info = environment(env)
    print("device:", env.name, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    scans: list[dict] = []
    msts: list[dict] = []
    shapes: list[dict] = []

    def write() -> str:  # after every measurement, so a run cut short keeps what it measured
        (args.out / f"opencl_{args.label}.json").write_text(json.dumps(
            {"label": args.label, "environment": info, "scan": scans, "scan_shapes": shapes,
             "mst": msts}, indent=1))
        text = markdown(args.label, info, scans, msts, shapes)
        (args.out / f"opencl_{args.label}.md").write_text(text)
        return text

    for mb in args.scan_mb:
        scans.append(bench_scan(env, mb, args.repeats))
        print(f"scan {mb} MB: {scans[-1]}", flush=True)
        write()
    if args.scan_shapes:
        shapes.extend(bench_shapes(env, args.shape_mb, args.scan_shapes, args.repeats))
        write()
    for spec in args.family:
        msts.append(bench_mst(spec, args.solvers, args.repeats))
        print(json.dumps(msts[-1]), flush=True)
        write()
    print(write())

if __name__ == "__main__":
    main()
