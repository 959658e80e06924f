"""Driver of Sun and Skadron's two-level reduce-then-scan (``scan.cl``) on device buffers.

:func:`parmst.opencl.prefix_scan` wraps it for NumPy arrays; the
segmented-scan Borůvka calls :meth:`Scan.run` on buffers that stay on the
device. One :class:`Scan` per device, type, operator and segment mode is
built once and kept.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from parmst._opencl.runtime import Env

__all__ = ["MODES", "OPS", "TOP_BIT_DTYPES", "Scan", "identity", "scan_for"]

OPS = ("add", "min", "max")
MODES = ("plain", "flags", "top-bit")
"""Segment modes: none; a separate array of head flags (one byte each, as Sun and Skadron's
implementation); the head flag in each value's top bit (Sun and Skadron's future work)."""

TOP_BIT_DTYPES = (np.dtype(np.uint32), np.dtype(np.uint64))
"""Where the flag can live in the top bit: unsigned values below ``2**(bits - 1)``. Signed
integers and floats keep their sign there, so they use the flag array."""

# (OpenCL type, unsigned twin, OpenCL name of the type's largest and smallest value)
_CTYPES = {
    np.dtype(np.int32): ("int", "uint", "INT_MAX", "INT_MIN"),
    np.dtype(np.uint32): ("uint", "uint", "UINT_MAX", "0"),
    np.dtype(np.int64): ("long", "ulong", "LONG_MAX", "LONG_MIN"),
    np.dtype(np.uint64): ("ulong", "ulong", "ULONG_MAX", "0"),
    np.dtype(np.float32): ("float", "uint", "INFINITY", "(-INFINITY)"),
    np.dtype(np.float64): ("double", "ulong", "INFINITY", "(-INFINITY)"),
}
DTYPES = tuple(_CTYPES)


def identity(dtype: np.dtype, op: str, mode: str = "plain") -> Any:
    """The value an exclusive scan starts from (and gives at segment heads)."""
    dtype = np.dtype(dtype)
    if op == "add":
        return dtype.type(0)
    if mode == "top-bit":  # values have one bit fewer
        return dtype.type((1 << (8 * dtype.itemsize - 1)) - 1) if op == "min" else dtype.type(0)
    if dtype.kind == "f":
        return dtype.type(np.inf if op == "min" else -np.inf)
    info = np.iinfo(dtype)
    return dtype.type(info.max if op == "min" else info.min)


def _shape(env: Env) -> tuple[int, int, int]:
    """Work-group size, items per thread, and the fixed number of work-groups for this device.

    GPUs: 256 work-items, 4 items each, 16 groups per compute unit (at most one tile of
    groups, the spine's limit): the fastest of six shapes tried on an H100 through
    NVIDIA's OpenCL (benchmarks/results/opencl_h100-nvidia-opencl-run2.md). CPUs (PoCL):
    PoCL runs a work-group as loops between its barriers on one core, so narrow groups
    with long sequential runs (8 x 128 was fastest of the shapes tried on PoCL 3.0).
    """
    cl = env.device
    gpu = not (cl.type & 2)  # CL_DEVICE_TYPE_CPU == 2
    wg = min(256 if gpu else 8, int(cl.max_work_group_size))
    wg = 1 << (wg.bit_length() - 1)
    items = 4 if gpu else 128
    groups = min(wg * items, int(cl.max_compute_units) * (16 if gpu else 2))
    return wg, items, groups


class Scan:
    """One built reduce-then-scan: three kernels and their launch shape."""

    def __init__(self, env: Env, dtype: np.dtype, op: str, mode: str):
        ctype, utype, high, low = _CTYPES[dtype]
        if mode == "top-bit":
            low_bits = (1 << (8 * dtype.itemsize - 1)) - 1
            ident = f"{low_bits:#x}{'UL' if dtype.itemsize == 8 else 'U'}" if op == "min" else "0"
        else:
            ident = {"add": "0", "min": high, "max": low}[op]
        self.env = env
        self.dtype = dtype
        self.mode = mode
        self.wg, self.items, self.max_groups = _shape(env)
        options = (f"-DT={ctype} -DU={utype} -DOP={OPS.index(op)} -DIDENT={ident} "
                   f"-DMODE={MODES.index(mode)} -DWG={self.wg} -DITEMS={self.items}")
        if dtype.kind == "f":
            options += " -DFLOAT" + (" -DFP64" if dtype.itemsize == 8 else "")
        kernels = env.kernels("scan.cl", options)
        self.upsweep = kernels.upsweep
        self.spine = kernels.spine
        self.downsweep = kernels.downsweep
        self._totals = None

    def _group_totals(self):
        if self._totals is None:
            import pyopencl as cl

            # Room for the widest element: a 64-bit value and its 32-bit flag, padded.
            self._totals = cl.Buffer(self.env.context, cl.mem_flags.READ_WRITE,
                                     16 * self.wg * self.items)
        return self._totals

    def run(self, source, out, n: int, heads=None, exclusive: bool = False) -> list:
        """Enqueue the three launches scanning ``n`` values of ``source`` into ``out``.

        ``heads`` is the byte buffer of head flags in the ``flags`` mode.
        Returns the three events (for profiling); nothing is enqueued for ``n == 0``.
        """
        if n == 0:
            return []
        tile = self.wg * self.items
        tiles = -(-n // tile)
        groups = min(tiles, self.max_groups)
        per_group = -(-tiles // groups)
        groups = -(-tiles // per_group)
        totals = self._group_totals()
        flags = (heads,) if self.mode == "flags" else ()
        q = self.env.queue
        local = (self.wg,)
        up = self.upsweep(q, (groups * self.wg,), local, source, *flags, np.uint64(n),
                          np.uint64(per_group), totals)
        mid = self.spine(q, local, local, totals, np.uint32(groups))
        down = self.downsweep(q, (groups * self.wg,), local, source, *flags, out, np.uint64(n),
                              np.uint64(per_group), totals, np.int32(exclusive))
        return [up, mid, down]


@functools.cache
def _cached(env: Env, dtype: np.dtype, op: str, mode: str) -> Scan:
    return Scan(env, dtype, op, mode)


def scan_for(env: Env, dtype, op: str, mode: str = "plain") -> Scan:
    """The built :class:`Scan` for ``env``'s device (kept for the life of the process)."""
    return _cached(env, np.dtype(dtype), op, mode)
