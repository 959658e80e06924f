"""A graph's edge list in GPU memory: telling device arrays apart, checking them there, copies.

A graph built from arrays in GPU memory (CuPy, PyTorch CUDA tensors, anything
with ``__cuda_array_interface__`` or DLPack on a CUDA device) keeps its edge
list there as :class:`DeviceEdges`: :func:`validated` checks it with kernels
on the device and only a few numbers come back to the host. A host graph's
device copy is :func:`copy_to_device`. The CUDA layer (:mod:`parmst._cuda`,
and with it ``numba.cuda``) is imported only when one of these runs;
:func:`is_device_array` imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst import _memory, _optional
from parmst._edge_input import WEIGHT_DTYPES, as_array, index_dtype_for, vertex_count
from parmst.errors import GraphValueError

__all__ = ["DeviceEdges", "DevicePart", "copy_to_device", "has_nan", "host_copies",
           "is_device_array", "validated"]

#: DLPack device types of CUDA memory (``kDLCUDA``, ``kDLCUDAManaged``).
_DLPACK_CUDA = (2, 13)

# Narrow integer and boolean GPU weights widened on the device, as the host path does.
_DEVICE_WEIGHT_WIDENING = {"b1": np.int32, "i1": np.int32, "i2": np.int32, "u1": np.int32,
                           "u2": np.int32, "u4": np.int64}


@dataclass(frozen=True)
class DeviceEdges:
    """A graph's edge list in GPU memory, as numba-cuda device arrays.

    CuPy (``cupy.asarray``) and PyTorch (``torch.as_tensor``) read these
    without a copy through ``__cuda_array_interface__``.

    Attributes
    ----------
    src, dst : device array of int32 or int64
    weight : device array of int32, int64, float32 or float64
    kind : str
        Whose arrays the graph was built from (``"cupy"``, ``"torch"``,
        ``"numba"``), or ``"host"`` for a host graph's device copy; results
        on the device come back as the same kind (:attr:`parmst.Forest.edge_ids_device`).
    key_range : parmst._cuda.edge_scan.KeyRange or None
        The weights' smallest and largest order-preserving key, found by the pass that
        checked them (:func:`validated`), so that the GPU solvers' key preparation reads
        nothing back; ``None`` where not known.
    """

    src: Any
    dst: Any
    weight: Any
    kind: str
    key_range: Any = None


@dataclass(frozen=True)
class DevicePart:
    """One GPU's share of a graph too big for one GPU: a range of edge ids in that GPU's memory.

    A graph split over several GPUs is a list of parts whose id ranges follow
    one another: part ``k`` holds the edges ``first_id .. first_id + count - 1``
    of the whole graph, in id order, with the whole graph's vertex ids, so
    ties between parts break as in the whole graph.

    Attributes
    ----------
    device : int
        CUDA device number holding :attr:`edges`.
    edges : DeviceEdges
        The part's edge list on that device.
    first_id : int
        Global id of the part's first edge (the ids may pass 2**31).
    num_vertices : int
        Vertices of the whole graph.
    num_edges : int
        Edges of the whole graph (the sum of the parts' counts).
    """

    device: int
    edges: DeviceEdges
    first_id: int
    num_vertices: int
    num_edges: int

    @property
    def count(self) -> int:
        """Edges in this part."""
        return len(self.edges.src)


def is_device_array(obj: Any) -> bool:
    """Whether ``obj`` is an array in CUDA device memory: ``__cuda_array_interface__``
    (CuPy, PyTorch CUDA tensors, Numba, JAX), a numba-cuda (simulator) device array, or a
    DLPack producer on a CUDA device. Imports nothing.

    Examples
    --------
    >>> import numpy as np
    >>> is_device_array(np.zeros(3))
    False
    """
    if isinstance(obj, np.ndarray):
        return False
    if hasattr(obj, "__cuda_array_interface__") or getattr(obj, "__cuda_ndarray__", False):
        return True
    probe = getattr(obj, "__dlpack_device__", None)
    if probe is None:
        return False
    try:
        return int(probe()[0]) in _DLPACK_CUDA
    except Exception:  # noqa: BLE001 - a producer that cannot say where it lives is not ours
        return False


def _device_column(name: str, values: Any) -> Any:
    """One edge array as a numba-cuda device array: GPU arrays as they are (no copy),
    host arrays copied over (a graph mixing both)."""
    from parmst._cuda import foreign, runtime

    if is_device_array(values):
        a = foreign.as_device_array(values)
    else:
        a = runtime.to_device(as_array(name, values))
    if len(a.shape) != 1:
        raise GraphValueError(f"{name} must be a one-dimensional array, got shape {a.shape}")
    return a


def validated(src: Any, dst: Any, weight: Any, num_vertices: Any, *, allow_nan: bool,
              copy: bool) -> tuple[DeviceEdges, int] | None:
    """:meth:`parmst.Graph.from_edges`'s checks for GPU arrays, run as kernels on the device.

    Returns the edge list on the device and the vertex count, or ``None`` when
    an id or weight check fails: the caller then checks :func:`host_copies`
    on the host, which words the error for the first bad edge exactly as for
    host arrays. Dtype and length errors raise here. Only a few numbers come
    back to the host (lengths, smallest and largest id, a NaN count, the weights' key range
    for the GPU solvers, :attr:`DeviceEdges.key_range`). The checks and the copies
    (``copy=True``, or ids and narrow weights whose dtype the graph changes) are one launch,
    into one buffer lent by the device pool (a graph built again from arrays of the same
    sizes allocates nothing); arrays already in the graph's dtypes are used as they are with
    ``copy=False``.
    """
    _optional.require("numba_cuda", "a Graph from GPU arrays")
    from parmst._cuda import arrays, edge_scan, foreign, pool

    kind = next(foreign.array_kind(a) for a in (src, dst, weight) if is_device_array(a))
    s, d = _device_column("src", src), _device_column("dst", dst)
    for name, a in (("src", s), ("dst", d)):
        if a.dtype.kind not in "iu":
            raise GraphValueError(f"{name} must hold integer vertex ids, got dtype {a.dtype} "
                                  "(GPU arrays are not converted from floats)")
    m = s.shape[0]
    if d.shape[0] != m:
        raise GraphValueError(f"src has {m} entries but dst has {d.shape[0]}")
    w = arrays.refill(pool.lend(m, np.int32), 1) if weight is None \
        else _device_column("weight", weight)
    if w.shape[0] != m:
        raise GraphValueError(f"{m} edges but {w.shape[0]} weights")
    wide = _DEVICE_WEIGHT_WIDENING.get(np.dtype(w.dtype).str[1:])
    if np.dtype(w.dtype) not in WEIGHT_DTYPES and wide is None:
        raise GraphValueError(
            f"GPU weights of dtype {w.dtype} are not converted on the device: pass int32, "
            "int64, float32 or float64")
    search_nan = np.dtype(w.dtype).kind == "f" and not allow_nan
    given = None if num_vertices is None else vertex_count(num_vertices)
    # The ids' dtype before the checks: from the given count, else as if the ids fit 32 bits
    # (a largest id at 2**31 or beyond is cast again below).
    idx = index_dtype_for(0 if given is None else given, m)
    copy_ids = [copy or a.dtype != idx for a in (s, d)]
    copy_weight = wide is not None or (copy and weight is not None)
    copies = arrays.carve([(m if wanted else 0, dtype) for wanted, dtype
                           in zip((*copy_ids, copy_weight), (idx, idx, wide or w.dtype))])
    # One launch checks the ids and the weights, ranges the weights' keys (weights without
    # NaN, in the graph's dtype) and makes the copies; one small copy back.
    scan = edge_scan.edge_scan(s, d, w, search_nan=search_nan, copies=tuple(copies),
                            key_range=not allow_nan and wide is None) \
        if m else edge_scan.EdgeScan(0, -1, 0, None)
    n = scan.high + 1 if given is None else given
    if scan.low < 0 or scan.high >= n or scan.nans > 0 or _memory.shortfall(n) is not None:
        return None
    if index_dtype_for(n, m) != idx:  # ids past 2**31 - 1: the 32-bit copies are too narrow
        idx = index_dtype_for(n, m)
        copy_ids = [True, True]
        copies[:2] = [arrays.cast(a, idx) for a in (s, d)]
    ids = [out if wanted else a for a, out, wanted in zip((s, d), copies, copy_ids)]
    w = copies[2] if copy_weight else w
    return DeviceEdges(*ids, w, kind=kind, key_range=scan.key_range), n


def host_copies(src: Any, dst: Any, weight: Any) -> tuple[Any, Any, Any]:
    """The edge arrays on the host (GPU arrays copied back, the rest and ``None`` as they are),
    for the host path's checks after :func:`validated` found a bad edge."""
    from parmst._cuda import foreign

    return tuple(foreign.as_device_array(a).copy_to_host() if is_device_array(a) else a
                 for a in (src, dst, weight))


def copy_to_device(src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> DeviceEdges:
    """A host edge list's copy on the device (kind ``"host"``)."""
    from parmst._cuda import runtime

    return DeviceEdges(*(runtime.to_device(a) for a in (src, dst, weight)), kind="host")


def has_nan(edges: DeviceEdges) -> bool:
    """Whether any weight on the device is NaN (counted there, one number copied back)."""
    from parmst._cuda import edge_scan

    return edge_scan.nan_count(edges.weight) > 0
