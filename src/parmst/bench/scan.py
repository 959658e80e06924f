"""Sun and Skadron Figures 5-8 in the harness: the OpenCL prefix scan against its baselines.

For each size, an exclusive prefix sum of uint32 values (the paper's input)
by four means, each a :class:`~parmst.bench.result.Record` of kind ``"scan"``:

``reduce-then-scan``  Sun and Skadron's two-level scan (:mod:`parmst.solvers.opencl._scan`),
                      three launches
``multi-pass scan``   a naive scan-then-propagate (``multipass_scan.cl``), the stand-in
                      for the CLPP library the paper compares with
``numpy cumsum``      one CPU thread, the paper's sequential baseline
``device copy``       a device-to-device copy of the same bytes: the bandwidth to reach

A record's ``times`` are the device time of its launches (OpenCL profiling,
first start to last end; wall clock for NumPy); ``extra["total_time"]`` adds
the host-to-device and device-to-host copies (wall clock, buffers allocated
beforehand), Sun and Skadron's "total time". Bandwidth counts 8 bytes per
element, one read and one write, as a copy's does. Each OpenCL result of the
warm-up run is compared with NumPy's; a difference makes the record a
``MISMATCH``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from parmst.bench.result import Record
from parmst.bench.timing import Scheme, pick, select

__all__ = ["SCAN_METHODS", "time_scans"]

SCAN_METHODS = ("reduce-then-scan", "multi-pass scan", "numpy cumsum", "device copy")
_WG = 256


def _device_seconds(events: list[Any]) -> float:
    events[-1].wait()
    return (events[-1].profile.end - events[0].profile.start) * 1e-9


class _MultiPass:
    """Scan-then-propagate over ``log_WG(n)`` levels, one sums buffer per level."""

    def __init__(self, env: Any, n: int):
        from parmst._opencl import runtime as _runtime

        self.env = env
        self.k = env.kernels("multipass_scan.cl", f"-DWG={_WG}")
        self.levels: list[tuple[int, Any]] = []
        size = n
        while size > 1:
            size = -(-size // _WG)
            self.levels.append((size, _runtime.filled(env, size, np.uint32)))

    def run(self, data: Any, n: int) -> list[Any]:
        """Enqueue the exclusive scan of ``data``'s ``n`` values in place; the events."""
        q = self.env.queue
        events, sizes, buffers = [], [n], [data]
        for size, sums in self.levels:
            events.append(self.k.block_scan(q, (size * _WG,), (_WG,), buffers[-1],
                                            np.uint64(sizes[-1]), sums))
            sizes.append(size)
            buffers.append(sums)
        # The top level is one block, scanned whole; every level below adds its block's prefix.
        for level in range(len(self.levels) - 2, -1, -1):
            count = sizes[level]
            events.append(self.k.propagate(q, (-(-count // _WG) * _WG,), None, buffers[level],
                                           np.uint64(count), buffers[level + 1]))
        return events


def _one_size(env: Any, megabytes: int, runs: int) -> dict[str, dict[str, Any]]:
    """Warm-up plus ``runs`` timed runs of each method on ``megabytes`` of uint32."""
    import pyopencl as cl

    from parmst._opencl import runtime as _runtime
    from parmst.solvers.opencl._scan import scan_for

    n = megabytes * 2**20 // 4
    env.ensure_memory(f"a {megabytes} MB scan benchmark", 3 * 4 * n, 4 * n)
    host = np.random.default_rng(megabytes).integers(0, 1 << 10, n, dtype=np.uint32)
    expected = np.empty_like(host)
    expected[0] = 0
    np.cumsum(host[:-1], dtype=np.uint32, out=expected[1:])
    out = np.empty_like(host)
    q = env.queue
    source, result = _runtime.filled(env, n, np.uint32), _runtime.filled(env, n, np.uint32)
    scan = scan_for(env, np.uint32, "add")
    multipass = _MultiPass(env, n)
    found: dict[str, dict[str, Any]] = {m: {"times": [], "totals": [], "exact": True}
                                        for m in SCAN_METHODS}

    def opencl(method: str, enqueue: Callable[[], tuple[list[Any], Any]]) -> None:
        start = time.perf_counter()
        cl.enqueue_copy(q, source, host)
        events, holder = enqueue()
        cl.enqueue_copy(q, out, holder)
        found[method]["totals"].append(time.perf_counter() - start)
        found[method]["times"].append(_device_seconds(events))
        found[method]["exact"] &= bool(np.array_equal(out, expected))

    for _ in range(runs + 1):
        opencl("reduce-then-scan", lambda: (scan.run(source, result, n, exclusive=True), result))
        opencl("multi-pass scan", lambda: (multipass.run(source, n), source))
        found["device copy"]["times"].append(_device_seconds([cl.enqueue_copy(q, result,
                                                                              source)]))
        start = time.perf_counter()
        np.cumsum(host, dtype=np.uint32)
        found["numpy cumsum"]["times"].append(time.perf_counter() - start)
    return found


def time_scans(megabytes: Sequence[int], scheme: Scheme, device: Any = None,
               bar: Any = None) -> list[Record]:
    """Records of Sun and Skadron's scan experiment at each size in ``megabytes``.

    Parameters
    ----------
    megabytes : sequence of int
        Input sizes in MiB of uint32 (the paper: 1 to 512).
    scheme : Scheme
        How many timed runs follow the warm-up, and which time is reported.
    device : int, str or pyopencl.Device, optional
        The OpenCL device (as :func:`parmst.opencl.prefix_scan`'s ``device``).
    bar : tqdm progress bar, optional

    Returns
    -------
    list of Record
        Four per size (:data:`SCAN_METHODS`), ``graph`` naming the size.

    Examples
    --------
    >>> from parmst.bench.timing import Scheme
    >>> records = time_scans([1], Scheme("median", 1))  # doctest: +SKIP
    >>> [r.solver for r in records]  # doctest: +SKIP
    ['reduce-then-scan', 'multi-pass scan', 'numpy cumsum', 'device copy']
    """
    from parmst._opencl import runtime as _runtime

    env = _runtime.env(device)
    records = []
    for mb in megabytes:
        name = f"uint32 {mb} MB"
        if bar is not None:
            bar.set_postfix_str(f"scan {mb} MB", refresh=False)
        found = _one_size(env, int(mb), scheme.runs)
        for method in SCAN_METHODS:
            runs = found[method]
            record = Record(graph=name, solver=method, kind="scan", device=env.name,
                            warmup_time=runs["times"][0], times=runs["times"][1:])
            record.extra.update(megabytes=int(mb), elements=int(mb) * 2**18)
            if not runs["exact"]:
                record.status = "MISMATCH"
                record.note = "the scan differs from NumPy's cumsum"
                record.clear_times()
            else:
                selection = select(record.times, scheme)
                record.time, record.converged = selection.value, selection.converged
                if runs["totals"]:
                    record.extra["total_time"] = pick(runs["totals"][1:], selection, scheme)
            records.append(record)
        if bar is not None:
            bar.update(scheme.runs + 1)
    return records
