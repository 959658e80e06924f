"""CPU-compiled functions called from kernels that numba-cuda's simulator runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["simulated"]


def simulated(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a CPU-compiled kernel) callable from a kernel run by the CUDA simulator:
    the simulator hands kernels its own array objects, which compiled code cannot take, so
    the call gets the NumPy arrays beneath them (the same memory)."""
    def call(*args):
        return function(*[getattr(getattr(a, "_item", a), "_ary", a) for a in args])
    return call
