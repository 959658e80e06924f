"""CPU-compiled functions called from kernels, on a GPU and under numba-cuda's simulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parmst._cuda import runtime

__all__ = ["for_kernels", "simulated"]


def simulated(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a CPU-compiled kernel) callable from a kernel run by the CUDA simulator:
    the simulator hands kernels its own array objects, which compiled code cannot take, so
    the call gets the NumPy arrays beneath them (the same memory)."""
    def call(*args):
        return function(*[getattr(getattr(a, "_item", a), "_ary", a) for a in args])
    return call


def for_kernels(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (compiled for the CPU, and by numba-cuda for the device where a kernel
    calls it) as kernels call it here: itself on a GPU, :func:`simulated` under the
    simulator."""
    return simulated(function) if runtime.simulator_active() else function
