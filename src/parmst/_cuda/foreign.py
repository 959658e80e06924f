"""Device arrays of other libraries (CuPy, PyTorch, JAX, DLPack producers) as numba-cuda arrays.

A graph built from another library's GPU arrays reads them in place
(:func:`as_device_array`, never a copy) and hands results back as that
library's array type (:func:`export`, sharing the memory). Imports
``numba.cuda`` and the libraries only when called.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst._cuda.runtime import simulator_active
from parmst.errors import GraphValueError

__all__ = ["array_kind", "as_device_array", "export"]


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
