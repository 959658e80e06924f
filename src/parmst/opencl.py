"""OpenCL primitives: Sun and Skadron's prefix scan, and the devices parmst can use.

Sun and Skadron (an OpenCL prefix scan and a segmented-scan Borůvka) builds its
minimum spanning tree on a two-level reduce-then-scan. It is public here
because it is useful on its own. Everything runs through pyopencl (the
``opencl`` extra, which also installs PoCL so any CPU is an OpenCL device);
``import parmst`` never imports pyopencl.

Exactness: integer scans equal NumPy's exactly (add wraps modulo ``2**bits``
as NumPy does). min and max are exact for every type. Float add is where
parallel scans differ from ``numpy.cumsum``: ``cumsum`` adds left to right,
the reduce-then-scan adds per tile, per work-group and then carries the
prefix, so the association differs and roundings differ. The result is
exact whenever every partial sum is exactly representable (for example
integer-valued floats whose prefix sums stay below ``2**24`` in float32 and
``2**53`` in float64); otherwise each prefix is within the usual
reassociation bound ``n * eps * sum(|x|)`` of the sequential one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["device_rows", "opencl_devices", "prefix_scan"]


def prefix_scan(values: Any, op: str = "add", exclusive: bool = True,
                segment_heads: Any = None, device: Any = None) -> np.ndarray:
    """Prefix scan (optionally segmented) on an OpenCL device by Sun and Skadron's reduce-then-scan.

    Sun and Skadron Algorithms 1-3: a fixed number of work-groups each reduce
    their run of tiles (upsweep), one work-group scans those totals
    (spine), and each work-group rescans its tiles with the carried prefix
    (downsweep); inside a work-group, a sequential pass per work-item and a
    Kogge-Stone scan across work-items. Three launches whatever the size.

    Parameters
    ----------
    values : array_like of int32, uint32, int64, uint64, float32 or float64
        One-dimensional input (not modified).
    op : {"add", "min", "max"}
    exclusive : bool
        Exclusive: element ``i`` gets the scan of the elements before it in
        its segment, and the identity (0, the type's largest or smallest
        value, +-inf) at the start. Inclusive: including element ``i``.
    segment_heads : array_like of bool, "top-bit", or None
        Segmented scan: a boolean array, true where a segment starts (the
        scan restarts there). ``"top-bit"`` reads the head flag from each
        value's top bit instead (Sun and Skadron's future work, saving the flag
        array's memory traffic): only for uint32/uint64 with ``min``/``max``,
        the operator sees the remaining 31/63 bits, results have the top bit
        clear, and the min identity is ``2**(bits-1) - 1``. Signed and float
        types hold their sign in the top bit, and a sum can carry into it,
        so those use the flag array.
    device : int, str or pyopencl.Device, optional
        Which OpenCL device: its index in :func:`opencl_devices`, a
        substring of ``"platform: device"``, or the device; default the
        first GPU, else the first device.

    Returns
    -------
    numpy.ndarray
        Same dtype and length as ``values``.

    Raises
    ------
    ValueError
        Unknown op, unsupported dtype, non-1-D input, NaN under min/max,
        mismatched ``segment_heads``.
    parmst.errors.SolverUnavailable
        pyopencl or an OpenCL device is missing.

    Notes
    -----
    Float ``add`` reassociates; see the module docstring for what is exact.

    Examples
    --------
    >>> import numpy as np
    >>> from parmst.opencl import prefix_scan
    >>> prefix_scan(np.array([3, 1, 4, 1, 5], dtype=np.int32)).tolist()  # doctest: +SKIP
    [0, 3, 4, 8, 9]
    >>> prefix_scan(np.array([5, 3, 4, 9, 2], dtype=np.int64), op="min", exclusive=False,
    ...             segment_heads=[1, 0, 0, 1, 0]).tolist()  # doctest: +SKIP
    [5, 3, 3, 9, 2]
    """
    from parmst._opencl import runtime as _runtime
    from parmst.solvers.opencl._scan import DTYPES, OPS, TOP_BIT_DTYPES, scan_for

    if op not in OPS:
        raise ValueError(f"op must be one of {OPS}, got {op!r}")
    array = np.ascontiguousarray(values)
    if array.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {array.shape}")
    if array.dtype not in DTYPES:
        raise ValueError(f"values must be one of {[str(d) for d in DTYPES]}, got {array.dtype}")
    if op != "add" and array.dtype.kind == "f" and np.isnan(array).any():
        raise ValueError(f"values contain NaN, which has no order for op={op!r}")
    mode, heads = _segment_mode(array, op, segment_heads, TOP_BIT_DTYPES)
    env = _runtime.env(device)
    n = len(array)
    out = np.empty_like(array)
    if n == 0:
        return out
    _runtime_check(env, array, heads)
    import pyopencl as cl

    flags = cl.mem_flags
    source = cl.Buffer(env.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=array)
    result = cl.Buffer(env.context, flags.WRITE_ONLY, array.nbytes)
    head_buffer = None if heads is None else cl.Buffer(
        env.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=heads)
    events = scan_for(env, array.dtype, op, mode).run(source, result, n, head_buffer, exclusive)
    cl.enqueue_copy(env.queue, out, result, wait_for=events)
    return out


def _segment_mode(array: np.ndarray, op: str, segment_heads: Any,
                  top_bit_dtypes) -> tuple[str, np.ndarray | None]:
    if segment_heads is None:
        return "plain", None
    if isinstance(segment_heads, str):
        if segment_heads != "top-bit":
            raise ValueError(f"segment_heads must be a boolean array, 'top-bit' or None, "
                             f"got {segment_heads!r}")
        if array.dtype not in top_bit_dtypes or op == "add":
            raise ValueError(f"segment_heads='top-bit' needs uint32 or uint64 values and op "
                             f"'min' or 'max' (got {array.dtype}, {op!r}): signed and float "
                             f"values keep their sign in the top bit and a sum carries into it; "
                             f"pass a boolean head array instead")
        return "top-bit", None
    heads = np.ascontiguousarray(segment_heads)
    if heads.shape != array.shape:
        raise ValueError(f"segment_heads has shape {heads.shape}, values {array.shape}")
    if heads.dtype != np.bool_ and not np.isin(heads, (0, 1)).all():
        raise ValueError("segment_heads must hold only booleans (or 0/1)")
    return "flags", heads.astype(np.uint8)


def _runtime_check(env, array: np.ndarray, heads: np.ndarray | None) -> None:
    extra = 0 if heads is None else heads.nbytes
    env.ensure_memory(f"a prefix scan of {len(array):,} {array.dtype} values",
                      2 * array.nbytes + extra, array.nbytes)
    if array.dtype == np.float64 and "cl_khr_fp64" not in env.device.extensions:
        raise ValueError(f"{env.name} has no double precision (cl_khr_fp64)")


def opencl_devices() -> list[dict[str, Any]]:
    """Every OpenCL platform and device pyopencl finds, with what parmst needs to know.

    Returns
    -------
    list of dict
        One per device: ``index`` (what ``device=`` accepts), ``platform``,
        ``device``, ``type``, ``version``, ``compute_units``,
        ``global_mem_bytes``, ``max_alloc_bytes`` and ``int64_atomics``
        (``cl_khr_int64_extended_atomics``, which ``ecl/opencl`` needs).
        Empty when no platform is registered.

    Raises
    ------
    parmst.errors.SolverUnavailable
        pyopencl is not installed (the message names the pip extra).

    Examples
    --------
    >>> from parmst.opencl import opencl_devices
    >>> [d["int64_atomics"] for d in opencl_devices()]  # doctest: +SKIP
    [True]
    """
    from parmst._opencl import runtime as _runtime

    return _runtime.list_devices()


def device_rows() -> list[tuple[str, str]]:
    """``(name, description)`` per OpenCL device for ``parmst info``; empty without pyopencl.

    Examples
    --------
    >>> from parmst.opencl import device_rows
    >>> device_rows()[:1]  # doctest: +SKIP
    [('opencl:0', 'Portable Computing Language: pthread-AMD EPYC (CPU, 2 compute units, ...)')]
    """
    from parmst.errors import SolverUnavailable

    try:
        devices = opencl_devices()
    except SolverUnavailable:
        return []
    if not devices:
        return [("opencl", "pyopencl finds no platform (pip install pocl-binary-distribution)")]
    rows = []
    for d in devices:
        text = (f"{d['platform']}: {d['device']} ({d['type']}, {d['compute_units']} compute units, "
                f"{d['global_mem_bytes'] / 2**30:.1f} GiB, largest buffer "
                f"{d['max_alloc_bytes'] / 2**30:.1f} GiB, "
                f"64-bit atomics {'yes' if d['int64_atomics'] else 'no'})")
        rows.append((f"opencl:{d['index']}", text))
    return rows
