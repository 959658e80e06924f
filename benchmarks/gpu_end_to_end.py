"""End-to-end `ecl/gpu` from host arrays and from device arrays, against copy and compute time.

    python benchmarks/gpu_end_to_end.py --log2-edges 22 24 --repeat 5 --out OUT
    python benchmarks/gpu_end_to_end.py --suite ecl-gpu --scipy --repeat 3 --out OUT

One random multigraph (2^k edges over 2^(k-2) vertices) per size, with int32
and with float64 weights (uniform in [0, 1): their keys do not pack with the
ids, so ecl/gpu's two-pass route runs). With ``--suite``, the suite's graphs
instead (``--only`` picks some), each with its own weights and again with
float64 weights drawn uniformly in [0, 1); ``--scipy`` adds one run of SciPy's
``minimum_spanning_tree`` from the same host arrays, for scale. Per weight kind:

* H2D: copying src, dst and weight to the device (``cuda.to_device``);
* compute: ``stats.compute_time`` of the solve (graph and keys on the device);
* host end-to-end: ``Graph.from_edges`` on NumPy arrays, the solve, the
  Forest's host ids, from a fresh graph each time (so every transfer counts),
  and again on the same graph (its device copy, keys and work buffers cached);
* device end-to-end: the same from CuPy arrays, ids read on the device, from a
  fresh graph each time and again on the same graph; split into the graph's
  construction (validation on the device), the solve's initialization
  (keys, filter threshold, work buffers), compute, the compaction of the
  forest's ids, and the rest (Forest assembly, the ids' export).

Goals (issue 14): host end-to-end <= 3 x (H2D + compute); device end-to-end
<= 1.3 x compute. Medians of ``--repeat`` runs after one warm-up (which also
fills numba-cuda's kernel cache). Every forest is checked against
``kruskal/serial``. Writes ``gpu_end_to_end.md`` and ``.json`` under ``--out``,
and with ``--profile`` the Python profile of one device end-to-end solve per
weight kind of the first size (``gpu_end_to_end_profile.txt``: where the host
time beyond compute goes), with the counts of kernel launches, device allocations, driver
calls and device-to-host copies of that solve. ``--overheads`` times numba-cuda's fixed costs
on this machine (a launch through the dispatcher and of the compiled kernel, an allocation,
a one-value copy back, wrapping a CuPy array): what the device end-to-end cannot go below.
Not a test: a device script, run by the device call of the GPU work.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import time
from pathlib import Path

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver

import parmst
from parmst._cuda import runtime


def _median_seconds(action, repeat: int) -> tuple[float, object]:
    action()
    times, value = [], None
    for _ in range(repeat):
        cuda.synchronize()
        start = time.perf_counter()
        value = action()
        cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def _h2d(arrays) -> float:
    return _median_seconds(lambda: [runtime.to_device(a) for a in arrays], 5)[0]


def _device_copy(array: np.ndarray):
    """``array`` as a CuPy array where CuPy is installed (the device machine), else numba's."""
    try:
        import cupy
    except ImportError:
        return cuda.to_device(array)
    return cupy.asarray(array)


def _to_host(array) -> np.ndarray:
    return array.get() if hasattr(array, "get") else array.copy_to_host()


def _scipy_seconds(src, dst, weight, n: int) -> float:
    """SciPy's ``minimum_spanning_tree`` from host arrays, building its matrix and solving:
    one run, for scale (it takes seconds where ecl/gpu takes milliseconds)."""
    from parmst.bench.peers import _scipy_matrix, _scipy_solve

    start = time.perf_counter()
    _scipy_solve(_scipy_matrix(src, dst, weight, n))
    return time.perf_counter() - start


#: Profiled functions counted per device solve: (label, file suffix, function name).
_COUNTED = (("kernel launches", "dispatcher.py", "launch"),
            ("device allocations", "driver.py", "memalloc"),
            ("device-to-host copies", "driver.py", "device_to_host"),
            ("host-to-device copies", "driver.py", "host_to_device"),
            ("driver calls", "driver.py", "safe_cuda_api_call"))


def _call_counts(profiler: cProfile.Profile) -> dict:
    """How often the solve called each of :data:`_COUNTED` (primitive calls, so a function
    reached twice through wrappers counts once per call)."""
    counts = dict.fromkeys((label for label, _, _ in _COUNTED), 0)
    for (path, _, function), (calls, *_) in pstats.Stats(profiler).stats.items():
        for label, suffix, name in _COUNTED:
            if function == name and path.endswith(suffix) and "numba" in path:
                counts[label] = max(counts[label], calls)
    return counts


@cuda.jit
def _noop(a, b, c, d, e, f, value):
    """A kernel with the argument shape of ecl/gpu's (six arrays and a scalar) doing nothing
    visible: what a launch costs on the host."""
    if cuda.grid(1) == a.shape[0]:
        a[0] = value


def overheads(repeat: int = 200) -> dict:
    """Median host microseconds of numba-cuda's fixed costs on this device."""
    arrays = [cuda.device_array(1024, np.int64) for _ in range(6)]
    args = (*arrays, 1)
    _noop[1, 32](*args)
    kernel = _noop.overloads[tuple(_noop.typeof_pyval(a) for a in args)]
    stream = driver._to_core_stream(0)
    cuda.synchronize()

    def per_call(action, batch: int = 20) -> float:
        times = []
        for _ in range(repeat // batch):
            cuda.synchronize()
            start = time.perf_counter()
            for _ in range(batch):
                action()
            times.append((time.perf_counter() - start) / batch)
        cuda.synchronize()
        return statistics.median(times) * 1e6

    one = arrays[0][:1]
    row = {"launch through the dispatcher": per_call(lambda: _noop[1, 32](*args)),
           "launch of the compiled kernel": per_call(
               lambda: kernel.launch(args, (1, 1, 1), (32, 1, 1), stream, 0)),
           "one-value copy back (idle device)": per_call(one.copy_to_host),
           "16-byte copy to the device": per_call(lambda: cuda.to_device(np.zeros(2))),
           "synchronize (idle device)": per_call(cuda.synchronize),
           "allocate and drop 1 KiB": per_call(lambda: cuda.device_array(128, np.int64)),
           "allocate and drop 128 MiB": per_call(lambda: cuda.device_array(1 << 24, np.int64),
                                                 batch=2)}
    try:
        import cupy
    except ImportError:
        return row
    c = cupy.zeros(1024, np.int64)
    row["wrap a CuPy array (as_cuda_array)"] = per_call(lambda: cuda.as_cuda_array(c))
    row["export to CuPy (cupy.asarray)"] = per_call(lambda: cupy.asarray(arrays[0]))
    return row


def measure(src, dst, weight, n: int, repeat: int, profile: list | None = None,
            name: str | None = None, scipy: bool = False) -> dict:
    reference = parmst.minimum_spanning_forest(
        parmst.Graph.from_edges(src, dst, weight, num_vertices=n), "kruskal/serial").edge_ids
    row = {"graph": name or f"2^{len(src).bit_length() - 1}", "weight": str(weight.dtype),
           "edges": len(src), "vertices": n, "h2d_s": _h2d((src, dst, weight))}
    if scipy:
        row["scipy_s"] = _scipy_seconds(src, dst, weight, n)

    def from_host():
        graph = parmst.Graph.from_edges(src, dst, weight, num_vertices=n)
        forest = parmst.minimum_spanning_forest(graph, "ecl/gpu")
        return forest, forest.edge_ids

    row["host_end_to_end_s"], (forest, ids) = _median_seconds(from_host, repeat)
    assert np.array_equal(ids, reference), "ecl/gpu from host arrays is not exact"
    stats = forest.stats
    row.update(compute_s=stats.compute_time, init_s=stats.init_time,
               transfer_s=stats.extra.get("transfer_time", 0.0),
               keys_s=stats.phases.get("keys", 0.0),
               copy_back_s=stats.extra.get("copy_back_time", 0.0),
               key_method=stats.extra["key_method"])
    cached = parmst.Graph.from_edges(src, dst, weight, num_vertices=n)
    row["host_cached_s"], forest = _median_seconds(
        lambda: parmst.minimum_spanning_forest(cached, "ecl/gpu").edge_ids, repeat)
    device_arrays = [_device_copy(a) for a in (src, dst, weight)]
    splits = []

    def from_device():
        start = time.perf_counter()
        graph = parmst.Graph.from_edges(*device_arrays, num_vertices=n)
        cuda.synchronize()
        built = time.perf_counter()
        forest = parmst.minimum_spanning_forest(graph, "ecl/gpu")
        ids = forest.edge_ids_device
        cuda.synchronize()
        s = forest.stats
        splits.append({"graph_s": built - start, "init_s": s.init_time,
                       "compute_s": s.compute_time,
                       "compaction_s": s.extra.get("copy_back_time", 0.0),
                       "rest_s": time.perf_counter() - built - s.init_time - s.compute_time
                       - s.extra.get("copy_back_time", 0.0)})
        return ids

    row["device_end_to_end_s"], ids = _median_seconds(from_device, repeat)
    assert type(ids) is type(device_arrays[0]), "ids not returned as the input's array kind"
    assert np.array_equal(_to_host(ids), reference), "ecl/gpu from device arrays is not exact"
    for key in splits[0]:
        row["device_" + key] = statistics.median(x[key] for x in splits[1:])
    same = parmst.Graph.from_edges(*device_arrays, num_vertices=n)
    row["device_same_graph_s"], ids = _median_seconds(
        lambda: parmst.minimum_spanning_forest(same, "ecl/gpu").edge_ids_device, repeat)
    assert np.array_equal(_to_host(ids), reference), "ecl/gpu on a reused device graph"
    row["host_ratio"] = row["host_end_to_end_s"] / (row["h2d_s"] + row["compute_s"])
    row["device_ratio"] = row["device_end_to_end_s"] / row["device_compute_s"]
    if profile is not None:
        profiler = cProfile.Profile()
        profiler.enable()
        from_device()
        profiler.disable()
        row["device_calls"] = _call_counts(profiler)
        for order in ("tottime", "cumulative"):
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(30)
            profile.append(f"## device end-to-end, {row['weight']} weights, {len(src)} edges "
                           f"(by {order})\n{text.getvalue()}")
    return row


def _measure_suite(suite: str, only: str | None, repeat: int, scipy: bool,
                   save=lambda rows: None) -> list[dict]:
    """Rows for a bench suite's graphs: their own weights, then float64 weights in [0, 1);
    ``save`` gets the rows so far after each one (a run cut short keeps them)."""
    from parmst.bench.suites import default_cache_dir, get_suite, load_graph

    names = only.split(",") if only else None
    rows = []
    for entry in get_suite(suite).graphs:
        if names is not None and entry.name not in names:
            continue
        graph = load_graph(entry.spec, default_cache_dir())
        src, dst, n = np.asarray(graph.src), np.asarray(graph.dst), graph.num_vertices
        real = np.random.default_rng(1).random(graph.num_edges)
        for weight in (np.asarray(graph.weight), real):
            rows.append(measure(src, dst, weight, n, repeat, name=entry.name, scipy=scipy))
            print(f"{entry.name} {weight.dtype}: done", flush=True)
            save(rows)
    return rows


def report(rows: list[dict], out: Path, env: str, command: str,
           fixed: dict | None = None) -> None:
    ms = 1e3
    lines = ["# ecl/gpu end to end: host arrays and device arrays", "",
             f"Machine: {env}. Command: `{command}` (medians after a warm-up; every forest "
             "equal to kruskal/serial's).", "",
             "| graph | edges | weights | keys | H2D ms | compute ms | host e2e ms | "
             "host e2e / (H2D + compute) | host, cached copy ms | device e2e ms | "
             "device e2e / compute | device, same graph ms | SciPy ms |",
             "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        scipy = f"{r['scipy_s'] * ms:.0f}" if "scipy_s" in r else ""
        lines.append(
            f"| {r['graph']} | {r['edges']:,} | {r['weight']} | {r['key_method']} | "
            f"{r['h2d_s'] * ms:.2f} | {r['compute_s'] * ms:.2f} | "
            f"{r['host_end_to_end_s'] * ms:.2f} | {r['host_ratio']:.2f} (goal <= 3) | "
            f"{r['host_cached_s'] * ms:.2f} | {r['device_end_to_end_s'] * ms:.2f} | "
            f"{r['device_ratio']:.2f} (goal <= 1.3) | {r['device_same_graph_s'] * ms:.2f} | "
            f"{scipy} |")
    lines += ["", "Host solve's split (ms): transfer, keys, compaction + copy-back.", "",
              "| graph | weights | transfer | keys | compaction + copy-back |",
              "|---|---|---:|---:|---:|"]
    lines += [f"| {r['graph']} | {r['weight']} | {r['transfer_s'] * ms:.2f} | "
              f"{r['keys_s'] * ms:.2f} | {r['copy_back_s'] * ms:.2f} |" for r in rows]
    lines += ["", "Device end-to-end split (ms, medians): Graph.from_edges on CuPy arrays "
              "(validation on the device), the solve's initialization (keys, threshold, work "
              "buffers), compute, compaction of the ids, the rest (Forest, export).", "",
              "| graph | weights | Graph.from_edges | init | compute | compaction | rest |",
              "|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['graph']} | {r['weight']} | "
              + " | ".join(f"{r['device_' + k] * ms:.2f}" for k in
                           ("graph_s", "init_s", "compute_s", "compaction_s", "rest_s")) + " |"
              for r in rows]
    counted = [r for r in rows if "device_calls" in r]
    if counted:
        labels = [label for label, _, _ in _COUNTED]
        lines += ["", "One profiled device end-to-end solve (from_edges to the ids on the device): "
                  "calls into numba-cuda.", "", "| graph | weights | " + " | ".join(labels) + " |",
                  "|---|---|" + "---:|" * len(labels)]
        lines += [f"| {r['graph']} | {r['weight']} | "
                  + " | ".join(str(r["device_calls"][k]) for k in labels) + " |" for r in counted]
    if fixed:
        lines += ["", "numba-cuda's fixed costs on this machine (host µs, medians):", "",
                  "| what | µs |", "|---|---:|"]
        lines += [f"| {k} | {v:.1f} |" for k, v in fixed.items()]
    lines.append("")
    (out / "gpu_end_to_end.md").write_text("\n".join(lines))
    (out / "gpu_end_to_end.json").write_text(json.dumps({"machine": env, "command": command,
                                                         "rows": rows, "overheads": fixed},
                                                        indent=1))
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2-edges", type=int, nargs="+", default=[22])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true",
                        help="profile one device end-to-end solve per weight kind (first size)")
    parser.add_argument("--suite", help="measure a bench suite's graphs instead of random ones")
    parser.add_argument("--only", help="with --suite: comma-separated graph names")
    parser.add_argument("--scipy", action="store_true", help="also time SciPy, for scale")
    parser.add_argument("--overheads", action="store_true",
                        help="also time numba-cuda's fixed costs (launch, allocation, copy)")
    parser.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows, profiles = [], [] if args.profile else None
    what = (f"--suite {args.suite}" + (f" --only {args.only}" if args.only else "")
            if args.suite else "--log2-edges " + " ".join(map(str, args.log2_edges)))
    command = (f"python benchmarks/gpu_end_to_end.py {what} --repeat {args.repeat}"
               + (" --profile" if args.profile else "") + (" --scipy" if args.scipy else "")
               + (" --overheads" if args.overheads else ""))
    fixed = overheads() if args.overheads else None
    if args.suite:
        rows = _measure_suite(args.suite, args.only, args.repeat, args.scipy, lambda so_far:
                              report(so_far, args.out, runtime.device_name(), command, fixed))
    for k in [] if args.suite else args.log2_edges:
        m = 1 << k
        n = m >> 2
        rng = np.random.default_rng(1)
        src = rng.integers(0, n, m).astype(np.int32)
        dst = rng.integers(0, n, m).astype(np.int32)
        profile = profiles if k == args.log2_edges[0] else None
        rows += [measure(src, dst, rng.integers(0, 1 << 20, m).astype(np.int32), n,
                         args.repeat, profile, scipy=args.scipy),
                 measure(src, dst, rng.random(m), n, args.repeat, profile, scipy=args.scipy)]
    report(rows, args.out, runtime.device_name(), command, fixed)
    if profiles:
        (args.out / "gpu_end_to_end_profile.txt").write_text("\n".join(profiles))


if __name__ == "__main__":
    main()
