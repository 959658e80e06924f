"""Device buffers reused across solves: one small pool per device.

A solve of a fresh graph used to allocate about twenty device arrays (work
buffers, reduction scratch, scan levels) and drop the previous graph's. On the
H200 machine numba-cuda spends 40-140 µs of host time per allocation and
~170 µs per small ``cuda.to_device`` (``benchmarks/results/gpu_end_to_end_h200_v3.md``),
more than the kernels of a 2^22-edge solve's initialization take on the
device. A solve takes its buffers from a :class:`Lease` and gives them all
back when it ends, so the next solve with the same sizes allocates nothing.
Arrays a caller keeps (a graph's device copies, a forest's ids) are lent
(:func:`lend`): they come back to the pool when the caller drops them and
every view of them, so a whole call repeated on inputs of the same sizes
allocates nothing either.

Why reuse is safe: every kernel of the GPU solvers runs on the default
stream, in order, so a buffer given back while queued kernels still use it is
only handed to kernels queued after them. Buffers come back as the last user
left them: every taker resets what it reads (a test checks that nothing of a
previous graph leaks into the next solve). A lent array comes back only once nothing
refers to its memory; kernels queued on it before then run before any queued after.

:func:`ensure_memory` checks a solve's memory need against what the device
has free, counting idle pooled buffers as memory the solve can have back.
"""

from __future__ import annotations

import functools
import math
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from parmst._cuda import runtime
from parmst.errors import SolverUnavailable

__all__ = ["MAX_IDLE_BYTES", "DevicePool", "Lease", "device_pool", "ensure_memory", "lease",
           "lend", "release_all"]

#: Idle bytes a pool keeps for reuse; beyond it, the least recently used sizes are freed.
MAX_IDLE_BYTES = 4 << 30

_Key = tuple[tuple[int, ...], str]


def _key(shape: int | tuple[int, ...], dtype: Any) -> _Key:
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) \
        else tuple(int(s) for s in shape)
    return shape, _dtype_name(dtype)


# Cached, as _nbytes below: a solve looks up some thirty buffers, and every microsecond of
# host time here is one the device may idle.
@functools.cache
def _dtype_name(dtype: Any) -> str:
    return np.dtype(dtype).str


@functools.cache
def _itemsize(dtype: str) -> int:
    return np.dtype(dtype).itemsize


def _nbytes(key: _Key) -> int:
    return math.prod(key[0]) * _itemsize(key[1])  # np.prod of a tuple: microseconds


class DevicePool:
    """Idle device arrays of one device, by shape and dtype, least recently used first."""

    def __init__(self, max_idle_bytes: int = MAX_IDLE_BYTES) -> None:
        self.max_idle_bytes = max_idle_bytes
        self._idle: OrderedDict[_Key, list[Any]] = OrderedDict()
        self._idle_bytes = 0
        self._lock = threading.Lock()

    @property
    def idle_bytes(self) -> int:
        """Bytes held for reuse (allocated on the device, owned by no solve)."""
        return self._idle_bytes

    def missing_bytes(self, specs: list[tuple[int | tuple[int, ...], Any]]) -> int:
        """Bytes that taking arrays of these ``(shape, dtype)`` would allocate now."""
        wanted: dict[_Key, int] = {}
        for shape, dtype in specs:
            key = _key(shape, dtype)
            wanted[key] = wanted.get(key, 0) + 1
        with self._lock:
            return sum(max(0, count - len(self._idle.get(key, ()))) * _nbytes(key)
                       for key, count in wanted.items())

    def take(self, shape: int | tuple[int, ...], dtype: Any) -> Any:
        """An idle array of this shape and dtype, else a new one; its contents are undefined."""
        key = _key(shape, dtype)
        with self._lock:
            idle = self._idle.get(key)
            if idle:
                self._idle_bytes -= _nbytes(key)
                array = idle.pop()
                if not idle:
                    del self._idle[key]
                return array
        return runtime.device_array(key[0], np.dtype(key[1]))

    def give(self, arrays: list[Any]) -> None:
        """Take ``arrays`` (from :meth:`take`) back for reuse, then free the least recently
        used sizes while more than :attr:`max_idle_bytes` are idle."""
        with self._lock:
            for array in arrays:
                key = _key(array.shape, array.dtype)
                self._idle.setdefault(key, []).append(array)
                self._idle.move_to_end(key)
                self._idle_bytes += _nbytes(key)
            while self._idle_bytes > self.max_idle_bytes and self._idle:
                key, dropped = self._idle.popitem(last=False)
                self._idle_bytes -= _nbytes(key) * len(dropped)

    def clear(self) -> int:
        """Free every idle array (numba-cuda frees them once unreferenced); returns the bytes."""
        with self._lock:
            freed, self._idle_bytes = self._idle_bytes, 0
            self._idle.clear()
        return freed


class Lease:
    """The buffers one solve took from a pool; :func:`lease` gives them back at its end."""

    def __init__(self, pool: DevicePool) -> None:
        self.pool = pool
        self._taken: list[Any] = []

    def take(self, shape: int | tuple[int, ...], dtype: Any) -> Any:
        """A pooled array held until the lease ends (contents undefined: reset what you read)."""
        array = self.pool.take(shape, dtype)
        self._taken.append(array)
        return array

    def take_all(self, specs: list[tuple[int | tuple[int, ...], Any]],
                 check: Callable[[int], None] | None = None) -> list[Any]:
        """:meth:`take` for each ``(shape, dtype)``; ``check(bytes)`` first where some must be
        allocated (a device-memory check that can raise before anything is taken)."""
        if check is not None:
            missing = self.pool.missing_bytes(specs)
            if missing:
                check(missing)
        return [self.take(shape, dtype) for shape, dtype in specs]

    def close(self) -> None:
        taken, self._taken = self._taken, []
        self.pool.give(taken)


_POOLS: dict[int, DevicePool] = {}
_POOLS_LOCK = threading.Lock()


def device_pool() -> DevicePool:
    """The pool of the current device (the simulator's one device under ``NUMBA_ENABLE_CUDASIM``)."""
    device = 0 if runtime.simulator_active() else _current_device_id()
    with _POOLS_LOCK:
        return _POOLS.setdefault(device, DevicePool())


def release_all() -> int:
    """:meth:`DevicePool.clear` on every device's pool; the bytes freed in all."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    return sum(pool.clear() for pool in pools)


def _current_device_id() -> int:
    from numba import cuda

    return int(cuda.get_current_device().id)


@contextmanager
def lease() -> Iterator[Lease]:
    """Buffers from the current device's pool for one solve, given back when it ends."""
    held = Lease(device_pool())
    try:
        yield held
    finally:
        held.close()


def lend(shape: int | tuple[int, ...], dtype: Any) -> Any:
    """A device array from the current device's pool that goes back to it when the array and
    every view of it are gone: for arrays a caller keeps (a graph's device copies, a forest's
    ids), so that a call repeated on inputs of the same sizes allocates nothing.

    On a GPU the array's memory is numba-cuda's own reference-counted pointer over the pooled
    buffer, whose finalizer gives the buffer back (as numba-cuda frees its own allocations
    once the last view is gone); under the simulator the array is NumPy memory owned by one
    object that every view refers to. Contents undefined.
    """
    owner = device_pool()
    backing = owner.take(shape, dtype)
    if not backing.size:  # no memory to give back
        return backing
    if runtime.simulator_active():
        return _lend_simulated(owner, backing)
    from numba import cuda
    from numba.cuda.cudadrv import devicearray, driver

    def give_back() -> None:
        _LENT.pop(key, None)
        owner.give([backing])

    memory = driver.AutoFreePointer(weakref.proxy(cuda.current_context()),
                                    backing.gpu_data.device_pointer, backing.gpu_data.size,
                                    finalizer=give_back)
    key = id(memory)
    _LENT[key] = memory  # held, as numba-cuda's context holds its allocations, until freed
    return devicearray.DeviceNDArray(backing.shape, backing.strides, backing.dtype,
                                     gpu_data=memory.own())


#: Pointers over pooled buffers lent out on a GPU, by id, until their last view is gone.
_LENT: dict[int, Any] = {}


class _SimulatedOwner:
    """The owner of a lent buffer's NumPy memory under the simulator: every NumPy view of
    the lent array refers to it (NumPy sets a view's base to the first non-array owner)."""

    def __init__(self, memory: np.ndarray) -> None:
        self.__array_interface__ = memory.__array_interface__
        self.memory = memory


def _lend_simulated(owner: DevicePool, backing: Any) -> Any:
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

    holder = _SimulatedOwner(backing._ary)
    weakref.finalize(holder, owner.give, [backing])
    return FakeCUDAArray(np.asarray(holder))


def ensure_memory(solver: str, needed_bytes: int) -> None:
    """Raise :class:`SolverUnavailable` naming needed and free memory if ``needed_bytes`` won't fit."""
    if runtime.simulator_active():
        return
    from numba import cuda

    context = cuda.current_context()
    free, total = context.get_memory_info()
    # Idle pooled buffers are memory this solve can have back.
    if needed_bytes > free and device_pool().clear():
        context.deallocations.clear()
        free, total = context.get_memory_info()
    if needed_bytes > free:
        raise SolverUnavailable(
            f"{solver} needs {needed_bytes / 2**30:.2f} GiB of device memory for this graph "
            f"but only {free / 2**30:.2f} GiB of {total / 2**30:.2f} GiB is free")
