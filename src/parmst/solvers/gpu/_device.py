"""Device plumbing shared by the GPU solvers: probing, memory checks, launches, timing.

Everything here imports ``numba.cuda`` lazily: ``import parmst`` and
``parmst.available_solvers()`` on a machine without numba-cuda must keep
working. Under numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``, set before
``numba.cuda`` is first imported) the same kernels run in Python threads, so
the solvers are testable in CI without a GPU; the simulator lacks the warp
intrinsics (``ballot_sync``, ``shfl_sync``), so kernels pick a thread-only
path there (see :func:`simulator_active`).
"""

from __future__ import annotations

import importlib.util
import logging
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from parmst.errors import GraphValueError, SolverUnavailable

if TYPE_CHECKING:
    from collections.abc import Iterator

    from parmst.stats import Stats

logger = logging.getLogger(__name__)

#: Threads per block unless a solver is told otherwise (Shou and He optimization 1 chose 512;
#: ECL-MST uses 512 for its edge-centric kernels too).
DEFAULT_BLOCK_SIZE = 512
WARP_SIZE = 32


def simulator_active() -> bool:
    """Whether numba-cuda runs kernels in its CPU simulator (``NUMBA_ENABLE_CUDASIM=1``)."""
    import numba

    return bool(getattr(numba.config, "ENABLE_CUDASIM", 0))


def probe() -> bool | str:
    """``True`` if a CUDA device (or the simulator) can run the GPU solvers, else why not.

    Examples
    --------
    >>> isinstance(probe(), (bool, str))
    True
    """
    if importlib.util.find_spec("numba_cuda") is None:
        return "numba-cuda is not installed (pip install 'parmst[gpu]')"
    if simulator_active():
        return True
    try:
        from numba import cuda

        if cuda.is_available():
            return True
    except Exception as exc:  # noqa: BLE001 - a broken driver must read as "cannot run"
        return f"CUDA is not usable: {exc}"
    return "no CUDA device (set NUMBA_ENABLE_CUDASIM=1 to use numba-cuda's simulator)"


#: The simulator runs every GPU thread in Python: graphs above this stay off it.
SIMULATOR_MAX_ITEMS = 4096


def graph_limit(graph: Any) -> bool | str:
    """Whether ``graph`` fits the GPU solvers (and, under the simulator, is small enough)."""
    if graph.num_vertices >= 2**31:
        return (f"{graph.num_vertices} vertices: the GPU solvers store vertex ids in 32 bits "
                "(at most 2**31 - 1 vertices)")
    if simulator_active() and max(graph.num_vertices, graph.num_edges) > SIMULATOR_MAX_ITEMS:
        return (f"{graph.num_vertices} vertices, {graph.num_edges} edges: too slow for the CUDA "
                f"simulator (limit {SIMULATOR_MAX_ITEMS} of each)")
    return True


#: Dense Prim keeps an n-by-n matrix of 8-byte keys: 2**16 vertices is 32 GiB already.
DENSE_MAX_VERTICES = 2**16
#: Dense Prim runs 2n launches of n threads: the simulator takes only tiny graphs.
SIMULATOR_DENSE_MAX_VERTICES = 40


def dense_limit(graph: Any) -> bool | str:
    """Whether ``graph`` fits dense Prim's n-by-n key matrix (and the simulator's patience)."""
    fits = graph_limit(graph)
    if fits is not True:
        return fits
    n = graph.num_vertices
    if n > DENSE_MAX_VERTICES:
        return f"dense key matrix of {n} vertices is too large (limit {DENSE_MAX_VERTICES})"
    if simulator_active() and n > SIMULATOR_DENSE_MAX_VERTICES:
        return (f"{n} vertices: dense Prim is too slow for the CUDA simulator "
                f"(limit {SIMULATOR_DENSE_MAX_VERTICES})")
    return True


def device_name() -> str:
    """``"cuda:0 <name>"`` of the current device, or ``"cuda-simulator"``."""
    if simulator_active():
        return "cuda-simulator"
    from numba import cuda

    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
    return f"cuda:{dev.id} {name}"


def ensure_memory(solver: str, needed_bytes: int) -> None:
    """Raise :class:`SolverUnavailable` naming needed and free memory if ``needed_bytes`` won't fit."""
    if simulator_active():
        return
    from numba import cuda

    context = cuda.current_context()
    free, total = context.get_memory_info()
    if needed_bytes > free:
        # Idle pooled buffers (parmst.solvers.gpu._pool) are memory this solve can have back.
        from parmst.solvers.gpu import _pool

        if _pool.device_pool().clear():
            context.deallocations.clear()
            free, total = context.get_memory_info()
    if needed_bytes > free:
        raise SolverUnavailable(
            f"{solver} needs {needed_bytes / 2**30:.2f} GiB of device memory for this graph "
            f"but only {free / 2**30:.2f} GiB of {total / 2**30:.2f} GiB is free")


def launch_limits(block_size: int) -> tuple[int, int]:
    """Threads per block and the most blocks a launch uses (grid-stride loops cover the rest).

    The simulator runs each thread in Python, so there launches shrink to
    two blocks of one warp: the kernels' results do not depend on the shape.
    """
    if simulator_active():
        return WARP_SIZE, 2
    return block_size, 1 << 20


def blocks_for(count: int, block_size: int) -> int:
    """Blocks that give every one of ``count`` work items a thread (at least one block)."""
    return max(1, -(-int(count) // block_size))


def synchronize() -> None:
    """Wait for every queued kernel and copy (no-op under the simulator)."""
    from numba import cuda

    cuda.synchronize()


@contextmanager
def timed_transfer(stats: Stats, key: str) -> Iterator[None]:
    """Time a block that moves data, with the device drained at both ends, into ``stats.extra``."""
    synchronize()
    start = time.perf_counter()
    try:
        yield
    finally:
        synchronize()
        stats.extra[key] = stats.extra.get(key, 0.0) + time.perf_counter() - start


def to_device(array: np.ndarray) -> Any:
    """Copy a host array to the device (contiguous first; the caller's array is untouched).

    One pageable copy: a pipeline through pinned staging buffers (the host
    fills one 8 MiB buffer while the other crosses the bus) measured no
    faster on an H200, 9.16 ms against 9.13 ms for 48 MiB
    (``benchmarks/results/gpu_end_to_end.md``), so it was left out.
    """
    from numba import cuda

    return cuda.to_device(np.ascontiguousarray(array))


def device_full(shape: int | tuple[int, ...], value: Any, dtype: Any) -> Any:
    """A device array filled with ``value`` by a kernel (no host buffer, no transfer)."""
    from parmst.solvers.gpu import _arrays

    return _arrays.fill(shape, value, dtype)


# ---------------------------------------------------------------- data that lives on the device
def array_kind(obj: Any) -> str:
    """``"cupy"``, ``"torch"``, ``"jax"`` or ``"numba"``: whose array type ``obj`` is."""
    module = type(obj).__module__.split(".", 1)[0]
    return module if module in ("cupy", "torch", "jax", "jaxlib") else "numba"


class _InterfaceView:
    """A ``__cuda_array_interface__`` read as NumPy's ``__array_interface__`` (the simulator's
    device memory is host memory, so the pointer is a host pointer there)."""

    def __init__(self, interface: dict) -> None:
        self.__array_interface__ = {"shape": interface["shape"], "typestr": interface["typestr"],
                                    "data": interface["data"],
                                    "strides": interface.get("strides"), "version": 3}


def as_device_array(obj: Any) -> Any:
    """A numba-cuda device array over the memory of device array ``obj``: never a copy.

    Under the simulator, numba device arrays pass through and
    ``__cuda_array_interface__`` pointers are read as the host memory they
    are. DLPack-only producers go through CuPy (or PyTorch) when installed;
    without either they raise :class:`~parmst.errors.GraphValueError`.
    """
    from numba import cuda

    if getattr(obj, "__cuda_ndarray__", False):
        return obj
    if simulator_active():
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        interface = obj.__cuda_array_interface__
        return FakeCUDAArray(np.asarray(_InterfaceView(interface)))
    if hasattr(obj, "__cuda_array_interface__"):
        return cuda.as_cuda_array(obj)
    for module in ("cupy", "torch"):
        try:
            library = __import__(module)
        except ImportError:
            continue
        return cuda.as_cuda_array(library.from_dlpack(obj))
    raise GraphValueError(f"{type(obj).__name__} is a DLPack array on a CUDA device without "
                    "__cuda_array_interface__: install CuPy or PyTorch to read it, or pass "
                    "cupy.from_dlpack(array)")


def export(array: Any, kind: str) -> Any:
    """``array`` (a numba-cuda device array) as ``kind``'s array type, sharing its memory.

    CuPy and PyTorch read ``__cuda_array_interface__``; anything else gets
    the numba-cuda device array itself.
    """
    if kind == "cupy":
        import cupy

        return cupy.asarray(array)
    if kind == "torch":
        import torch

        return torch.as_tensor(array, device="cuda")
    return array


def device_graph(graph: Any, stats: Stats) -> Any:
    """The graph's edge list on the device (:meth:`parmst.Graph.to_device`): a device graph's
    own arrays, or a host graph's cached copy, made now and timed as ``transfer_time``."""
    with timed_transfer(stats, "transfer_time"):
        return graph.to_device()


def device_csr(graph: Any, stats: Stats) -> tuple[Any, Any, Any]:
    """``indptr``, ``indices`` and ``edge_ids`` of the graph's CSR view on the device, cached
    on the graph. The CSR is built on the host (a device graph's edge list comes back once
    for it): only the vertex-centric initializations need it."""
    arrays = graph._cache.get("device-csr")
    if arrays is None:
        csr = graph.csr()
        with timed_transfer(stats, "transfer_time"):
            arrays = tuple(to_device(a) for a in (csr.indptr, csr.indices, csr.edge_ids))
        graph._cache["device-csr"] = arrays
    return arrays


def result_ids(graph: Any, keys: Any, in_forest: Any, stats: Stats) -> Any:
    """The forest's ascending edge ids from the per-slot flags, compacted on the device.

    They stay on the device for a device graph (:attr:`parmst.Forest.edge_ids_device`) and
    come back to the host for a host graph; either way timed as ``copy_back_time``.
    """
    with timed_transfer(stats, "copy_back_time"):
        ids = keys.forest_ids(in_forest)
        return ids if graph.is_on_device else ids.copy_to_host()


def record_device(stats: Stats, device_bytes: int) -> None:
    """Fill in where the solve ran and how much device memory it held."""
    stats.device = device_name()
    stats.threads = None
    stats.extra["device_memory_bytes"] = int(device_bytes)
    stats.extra["end_to_end_time"] = (stats.total_time
                                      + stats.extra.get("copy_back_time", 0.0))
    logger.debug("%s held %.1f MiB of device memory", stats.device, device_bytes / 2**20)
