"""The CUDA runtime as parmst uses it: probing, launch limits, synchronization, copies.

The bottom of the CUDA layer (:mod:`parmst._cuda`): it knows devices and
launches, not graphs or solvers. Everything here imports ``numba.cuda``
lazily: ``import parmst`` and ``parmst.available_solvers()`` on a machine
without numba-cuda must keep working. Under numba-cuda's simulator
(``NUMBA_ENABLE_CUDASIM=1``, set before ``numba.cuda`` is first imported) the
same kernels run in Python threads, so the solvers are testable in CI
without a GPU; the simulator lacks the warp intrinsics (``ballot_sync``,
``shfl_sync``), so kernels pick a thread-only path there (see
:func:`simulator_active`).
"""

from __future__ import annotations

import importlib.util
import threading
import time
import weakref
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Iterator

    from parmst.stats import Stats

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


def device_name() -> str:
    """``"cuda:0 <name>"`` of the current device, or ``"cuda-simulator"``."""
    if simulator_active():
        return "cuda-simulator"
    from numba import cuda

    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
    return f"cuda:{dev.id} {name}"


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


#: Blocks per multiprocessor of a kernel that streams memory (:func:`streaming_grid`).
STREAMING_BLOCKS_PER_SM = 4


def streaming_grid(count: int, block_size: int = DEFAULT_BLOCK_SIZE) -> tuple[int, int]:
    """Blocks and threads of a grid-stride kernel that streams ``count`` items through memory:
    at most :data:`STREAMING_BLOCKS_PER_SM` blocks per multiprocessor, fewer where ``count``
    needs fewer, within :func:`launch_limits`. Such a grid stays resident and loops: its
    stores never wait and its loads of one item do not wait on the last, so it keeps the
    memory busy, where a block per ``block_size`` items spends more time starting blocks than
    moving data and a block or so per multiprocessor keeps too few loads in flight."""
    threads, max_blocks = launch_limits(block_size)
    blocks = min(blocks_for(count, threads), max_blocks)
    if simulator_active():
        return blocks, threads
    from numba import cuda

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    return min(blocks, STREAMING_BLOCKS_PER_SM * sms), threads


_TALLY = threading.local()


@contextmanager
def tally() -> Iterator[dict[str, int]]:
    """Count the kernel launches, host synchronizations and device allocations this thread
    makes in the block.

    Every launch through :func:`launch` adds to ``launches`` (and to ``dispatched`` where it
    goes through numba-cuda's dispatcher on a GPU; under the simulator, where every launch
    does, where a GPU would not pre-pack its arguments), every wait through :func:`read` or
    :func:`synchronize` to ``host_syncs``, every new device array through
    :func:`device_array` or :func:`to_device` (the pool's misses included) to
    ``allocations``; a tally nested in another adds to it when it ends. A solve keeps its
    counts in ``stats.extra``, so that a test can bound them: each launch costs host time
    (69-81 µs through numba-cuda's dispatcher on the H100 host, far less pre-packed), each
    synchronization leaves the device idle while the host queues the next kernels, and each
    allocation costs tens of µs of host time. Thread-local, since ``ecl/multigpu`` solves its
    parts on several threads at once.
    """
    counts = {"launches": 0, "dispatched": 0, "host_syncs": 0, "allocations": 0}
    outer = getattr(_TALLY, "counts", None)
    _TALLY.counts = counts
    try:
        yield counts
    finally:
        _TALLY.counts = outer
        if outer is not None:
            for key, value in counts.items():
                outer[key] += value


def _count(key: str) -> None:
    counts = getattr(_TALLY, "counts", None)
    if counts is not None:
        counts[key] += 1


def mark() -> Any:
    """A CUDA event recorded now on the default stream: a point in the device's timeline that
    costs the host no wait (pair two with :func:`elapsed`)."""
    from numba import cuda

    event = cuda.event()
    event.record()
    return event


def elapsed(start: Any, end: Any) -> float:
    """Device seconds between two :func:`mark` events that have passed (0 under the simulator,
    which keeps no device time)."""
    return max(0.0, start.elapsed_time(end)) / 1e3


class DevicePhases:
    """Phases timed on the device by :func:`mark` events as the host queues them, booked into
    a solve's ``stats.phases`` once a wait has passed their end (:meth:`book`): the host
    does not wait to time them."""

    def __init__(self) -> None:
        self._marks: list[tuple[str, Any, Any]] = []

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """The kernels queued in the block, as one occurrence of phase ``name``."""
        start = mark()
        yield
        self._marks.append((name, start, mark()))

    def book(self, stats: Stats) -> None:
        """Add each phase's device time to ``stats.phases`` (the device has passed every
        phase's end: call it after a wait)."""
        for name, start, end in self._marks:
            stats.phases[name] = stats.phases.get(name, 0.0) + elapsed(start, end)
        self._marks.clear()


def kernel_jit(max_registers: int | None = None, cache: bool = True) -> Any:
    """``cuda.jit`` for a launched kernel, its registers capped at ``max_registers`` per
    thread (``None``: no cap; ptxas spills the rest to local memory). The cap is a compile
    option, so each cap compiles its own kernel; the simulator has no registers to cap.
    ``cache=False`` where one function is compiled under several caps: Numba's disk cache
    does not tell them apart."""
    from numba import cuda
    if max_registers is None or simulator_active():
        return cuda.jit(cache=cache)
    return cuda.jit(cache=cache, max_registers=max_registers)


def launch(kernel: Any, grid: tuple[int, int], *args: Any) -> None:
    """``kernel[grid](*args)``, counted by :func:`tally`, through a pre-packed parameter block
    on a GPU (:mod:`parmst._cuda.packed`: no per-call argument preparation) and through the
    dispatcher under the simulator."""
    _count("launches")
    packed = _PACKED[0] if _PACKED else _packed_launches()
    if packed is not None and packed.launch(kernel, grid, args):
        return
    if packed is not None or not _packable(grid, args):
        _count("dispatched")
    kernel[grid](*args)


def _packable(grid: tuple[int, int], args: tuple) -> bool:
    """Whether a GPU would pre-pack this launch (:func:`parmst._cuda.packed.packable`)."""
    from parmst._cuda import packed

    return packed.packable(grid, args)


_PACKED: list[Any] = []


def _packed_launches() -> Any:
    """:mod:`parmst._cuda.packed` on a GPU, ``None`` under the simulator (decided once: the
    simulator is chosen before ``numba.cuda`` is first imported)."""
    if not _PACKED:
        from parmst._cuda import packed

        _PACKED[:] = [None if simulator_active() else packed]
    return _PACKED[0]


def read(array: Any) -> np.ndarray:
    """``array.copy_to_host()``: a blocking copy back, counted by :func:`tally`.

    From :data:`TOUCHED_FROM` bytes up the copy lands in a new host array whose pages were
    first touched on all threads (:func:`parmst._cuda.host_pages.touched_empty`): into fresh
    pageable memory the copy stops at every page for the kernel to map it, one page at a
    time (37 M tree pairs, 592 MB, came back at 2.3-3.5 GB/s).
    """
    _count("host_syncs")
    if array.nbytes < TOUCHED_FROM or simulator_active():
        return array.copy_to_host()
    from parmst._cuda.host_pages import touched_empty

    return array.copy_to_host(touched_empty(array.shape, array.dtype))


TOUCHED_FROM = 64 << 20
"""Bytes from which :func:`read` touches its host array's pages first."""


def synchronize() -> None:
    """Wait for every queued kernel and copy (no-op under the simulator); counted by
    :func:`tally`."""
    from numba import cuda

    _count("host_syncs")
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


def device_array(shape: int | tuple[int, ...], dtype: Any) -> Any:
    """A new device array (contents undefined), counted by :func:`tally` as an allocation
    where it holds any item."""
    from numba import cuda

    if np.prod(shape, dtype=np.int64):
        _count("allocations")
    return cuda.device_array(shape, dtype=dtype)


#: Zero-length device arrays by dtype. No memory lies behind them (a null pointer on every
#: device), so one of each serves every caller and device, where a slice ``a[:0]`` costs
#: numba-cuda tens of microseconds of host time.
_EMPTY: dict[str, Any] = {}


def empty(dtype: Any) -> Any:
    """A shared zero-length one-dimensional device array of ``dtype``: what a kernel gets for
    an array argument it is not to touch.

    Examples
    --------
    >>> empty(np.int32).shape  # doctest: +SKIP
    (0,)
    """
    key = np.dtype(dtype).str
    array = _EMPTY.get(key)
    if array is None:
        from numba import cuda

        array = _EMPTY[key] = cuda.device_array(0, dtype=dtype)
    return array


#: Views made by :func:`part`, by the array they view (dropped with it).
_PARTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def part(array: Any, start: int, stop: int | None = None) -> Any:
    """``array[start:stop]`` of a one-dimensional device array, made once per array and bounds.

    A solve's buffers come from the device pool, the same arrays solve after solve, and each
    solve views them the same way; numba-cuda spends some 25 µs of host time on every slice
    (H200 host), so the views are kept with the array they view (a view holds the memory, not
    the array: both go when the array goes). Arrays that take no weak reference are sliced
    every time.
    """
    try:
        views = _PARTS.get(array)
        if views is None:
            views = _PARTS[array] = {}
    except TypeError:
        return array[start:stop]
    view = views.get((start, stop))
    if view is None:
        view = views[start, stop] = array[start:stop]
    return view


def word_aligned(array: Any) -> bool:
    """Whether a device array starts on a 4-byte boundary (the simulator's arrays are NumPy
    memory, read as words wherever they start)."""
    return simulator_active() or array.device_ctypes_pointer.value % 4 == 0


def to_device(array: np.ndarray) -> Any:
    """Copy a host array to the device (contiguous first; the caller's array is untouched),
    counted by :func:`tally` as an allocation.

    One pageable copy: a pipeline through pinned staging buffers (the host
    fills one 8 MiB buffer while the other crosses the bus) measured no
    faster on an H200, 9.16 ms against 9.13 ms for 48 MiB
    (``benchmarks/results/gpu_end_to_end.md``), so it was left out.
    """
    from numba import cuda

    _count("allocations")
    return cuda.to_device(np.ascontiguousarray(array))
