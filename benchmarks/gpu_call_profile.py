"""Where the host time of one ``ecl/gpu`` call from device arrays goes: a profile, not a timing.

    python benchmarks/gpu_call_profile.py --log2-edges 22 --out OUT [--overheads]

Timings live in ``parmst bench`` (``--suite end-to-end``: the whole call from
host and from device arrays beside the computation). This script profiles one
whole call from device arrays (``Graph.from_edges`` on the arrays, the solve,
the ids on the device) per weight kind (int32, and float64 in [0, 1) whose keys
take the two-pass route) on a random multigraph of 2^k edges over 2^(k-2)
vertices, after a warm-up, and counts its kernel launches (and how many of them
went through numba-cuda's dispatcher rather than a pre-packed parameter block)
and its calls into numba-cuda (device allocations, copies, driver calls; the
pre-packed launches call the driver directly). ``--overheads`` adds numba-cuda's
fixed costs on this machine (a launch through the dispatcher, of the compiled
kernel and from parmst's pre-packed parameter block, an allocation, a one-value
copy back, wrapping a CuPy array): what a device end-to-end call cannot go below. Writes
``gpu_call_profile.txt`` under ``--out``. A device script, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time
from pathlib import Path

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver

import parmst
from parmst._cuda import runtime

#: Profiled functions counted per call: (label, file suffix, function name, whose file).
_COUNTED = (("kernel launches", "runtime.py", "launch", "parmst"),
            ("of them through numba-cuda's dispatcher", "dispatcher.py", "launch", "numba"),
            ("device allocations", "driver.py", "memalloc", "numba"),
            ("device-to-host copies", "driver.py", "device_to_host", "numba"),
            ("host-to-device copies", "driver.py", "host_to_device", "numba"),
            ("driver calls through numba-cuda", "driver.py", "safe_cuda_api_call", "numba"))


def _call_counts(profiler: cProfile.Profile) -> dict:
    """How often the call reached each of :data:`_COUNTED` (primitive calls, so a function
    reached twice through wrappers counts once per call)."""
    counts = dict.fromkeys((label for label, *_ in _COUNTED), 0)
    for (path, _, function), (calls, *_) in pstats.Stats(profiler).stats.items():
        for label, suffix, name, owner in _COUNTED:
            if function == name and path.endswith(suffix) and owner in path:
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
    runtime.launch(_noop, (1, 32), *args)  # builds the parameter block
    row = {"launch through the dispatcher": per_call(lambda: _noop[1, 32](*args)),
           "launch of the compiled kernel": per_call(
               lambda: kernel.launch(args, (1, 1, 1), (32, 1, 1), stream, 0)),
           "pre-packed launch (parmst's runtime.launch)": per_call(
               lambda: runtime.launch(_noop, (1, 32), *args)),
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


def profile(src, dst, weight, n: int) -> str:
    """The profile and call counts of one whole call from device arrays, after a warm-up."""
    arrays = [cuda.to_device(a) for a in (src, dst, weight)]

    def call():
        graph = parmst.Graph.from_edges(*arrays, num_vertices=n)
        forest = parmst.minimum_spanning_forest(graph, "ecl/gpu")
        forest.edge_ids_device  # noqa: B018 - the ids stay on the device
        cuda.synchronize()
        return forest

    call()
    profiler = cProfile.Profile()
    profiler.enable()
    forest = call()
    profiler.disable()
    lines = [f"# device end-to-end, {weight.dtype} weights, {len(src):,} edges", ""]
    lines += [f"{label}: {count}" for label, count in _call_counts(profiler).items()]
    lines += [f"solver's own count, {key}: {forest.stats.extra[key]}"
              for key in ("launches", "host_syncs")]
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(30)
        lines += ["", f"## by {order}", text.getvalue()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2-edges", type=int, default=22)
    parser.add_argument("--overheads", action="store_true",
                        help="also time numba-cuda's fixed costs (launch, allocation, copy)")
    parser.add_argument("--out", type=Path, default=Path("."))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    m = 1 << args.log2_edges
    n = m >> 2
    rng = np.random.default_rng(1)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    parts = [profile(src, dst, weight, n)
             for weight in (rng.integers(0, 1 << 20, m).astype(np.int32), rng.random(m))]
    if args.overheads:
        parts.append("# numba-cuda's fixed costs (host µs, medians)\n\n" + "\n".join(
            f"{what}: {us:.1f}" for what, us in overheads().items()))
    (args.out / "gpu_call_profile.txt").write_text("\n\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
