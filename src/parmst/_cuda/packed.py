"""Kernel launches with pre-packed arguments: numba-cuda's per-call work done once.

A launch through numba-cuda's dispatcher types every argument, looks up the
compiled kernel, flattens every argument into ctypes values (a device array
becomes meminfo, parent, item count, item size, data pointer, shape and
strides) and hands them to ``cuda.core``'s launcher: 69-81 µs of host time per
launch on the H100 host, where the driver's ``cuLaunchKernel`` itself takes a
few. Here a kernel's parameter block is built once per argument signature
and device context, with numba-cuda's own ``_prepare_args`` (so the layout is
numba's), kept as one buffer of 8-byte slots, and handed to
``cuLaunchKernel`` (``cuLaunchCooperativeKernel`` for kernels with grid
barriers) by address. Later launches only rewrite what changed: a scalar in
its slot, the words of an array that is not the one seen last time (checked
by identity through a weak reference, so no array is kept alive here).

The driver copies the parameters when the launch is queued, so rewriting a
slot after the call returns cannot change a queued launch. A block is used by
one thread at a time (a lock), since ``ecl/multigpu`` launches from several.
:func:`parmst._cuda.runtime.launch` uses this on a GPU and the dispatcher
under the simulator, so a solver has one launch path.
"""

from __future__ import annotations

import ctypes
import logging
import threading
import weakref
from typing import Any

import numpy as np

__all__ = ["array_words", "launch", "packable", "slot_word"]

#: Parameter blocks kept per kernel (argument signatures times devices); beyond it the oldest
#: is rebuilt when next needed.
MAX_BLOCKS_PER_KERNEL = 16
_SCALARS = (bool, int, float, np.bool_, np.integer, np.floating)
_MASK64 = (1 << 64) - 1
_BLOCKS: dict[Any, list[_Block]] = {}
#: Why packed launches are off in this process (empty: on).
_OFF: list[str] = []
logger = logging.getLogger(__name__)


class UnsupportedArgument(TypeError):
    """An argument this module does not pack (host arrays, records, tuples): the launch goes
    through the dispatcher instead."""


class _Incompatible(RuntimeError):
    """This numba-cuda lays arguments out otherwise than :func:`array_words` writes them."""


def slot_word(item: Any) -> int:
    """One flattened kernel argument from numba-cuda's ``_prepare_args`` as the little-endian
    contents of an 8-byte slot (the driver reads the parameter's own size from its start)."""
    if item is None:  # the data pointer of an empty array
        return 0
    if isinstance(item, (bool, np.bool_)):
        return int(item)
    if isinstance(item, int):
        return item & _MASK64
    if isinstance(item, ctypes._SimpleCData):
        raw = ctypes.string_at(ctypes.addressof(item), ctypes.sizeof(item))
        if len(raw) > 8:
            raise UnsupportedArgument(f"a {len(raw)}-byte kernel parameter")
        return int.from_bytes(raw, "little")
    raise UnsupportedArgument(f"kernel parameter of type {type(item).__name__}")


def array_words(array: Any) -> list[int]:
    """A device array's flattened kernel argument, as numba-cuda lays it out: meminfo and
    parent (null), item count, item size, data pointer, then the shape and the byte strides."""
    pointer = array.device_ctypes_pointer.value or 0
    return [0, 0, array.size, array.dtype.itemsize, pointer, *array.shape,
            *(s & _MASK64 for s in array.strides)]


_DRIVER: list[Any] = []  # cuda.bindings.driver and the default stream, imported once


def _driver() -> Any:
    if not _DRIVER:
        from cuda.bindings import driver

        # numba-cuda's default stream: handle 0, the legacy default stream.
        _DRIVER[:] = [driver, driver.CUstream(0)]
    return _DRIVER[0]


def _current_context() -> int:
    err, context = _driver().cuCtxGetCurrent()
    return int(context) if int(err) == 0 else 0


class _Block:
    """One kernel's parameter block for one argument signature on one device context."""

    def __init__(self, kernel: Any, args: tuple, context: int) -> None:
        from numba.cuda.cudadrv.devicearray import DeviceNDArrayBase

        if kernel.extensions:  # they may rewrite arguments at every call
            raise UnsupportedArgument("a kernel with argument extensions")
        types = tuple(kernel.typeof_pyval(a) for a in args)
        compiled = kernel.compile(types)
        if compiled.debug:  # the dispatcher reads the kernel's error code after each launch
            raise UnsupportedArgument("a kernel compiled with debug=True")
        items: list[Any] = []
        spans = []
        for ty, value in zip(types, args):
            start = len(items)
            compiled._prepare_args(ty, value, 0, [], items)
            spans.append((start, len(items)))
        self.slots = np.array([slot_word(item) for item in items], dtype=np.uint64)
        if not len(self.slots):
            self.slots = np.zeros(1, np.uint64)
        self.pointers = (self.slots.ctypes.data
                         + 8 * np.arange(len(self.slots), dtype=np.uint64)).astype(np.uint64)
        self.params = self.pointers.ctypes.data
        self.context = context
        self.lock = threading.Lock()
        # Per argument: how to recognise it and how to write it.
        self.kinds: list[tuple] = []
        for ty, value, (start, end) in zip(types, args, spans):
            if isinstance(value, DeviceNDArrayBase) and value.ndim:
                if list(self.slots[start:end]) != array_words(value):
                    raise _Incompatible(f"numba-cuda lays out {ty} otherwise")
                self.kinds.append(("array", ty, start, end, weakref.ref(value)))
            elif isinstance(value, _SCALARS):
                dtype = np.dtype(type(value)) if isinstance(value, np.generic) else None
                view = self.slots.view(_scalar_dtype(ty, dtype))
                self.kinds.append(("scalar", type(value), view, start * 8 // view.itemsize))
            else:
                raise UnsupportedArgument(f"argument of type {type(value).__name__}")
        self.function, self.cooperative = _function(compiled)

    def matches(self, args: tuple, context: int) -> bool:
        """Whether ``args`` have this block's signature (arrays of the same numba type,
        scalars of the same Python type) on the same context."""
        if context != self.context or len(args) != len(self.kinds):
            return False
        for kind, value in zip(self.kinds, args):
            if kind[0] == "array":
                if kind[4]() is not value and getattr(value, "_numba_type_", None) is not kind[1]:
                    return False
            elif type(value) is not kind[1]:
                return False
        return True

    def write(self, args: tuple) -> None:
        """Rewrite the slots of the scalars and of every array not seen last time."""
        for i, (kind, value) in enumerate(zip(self.kinds, args)):
            if kind[0] == "scalar":
                kind[2][kind[3]] = value
            elif kind[4]() is not value:
                _, ty, start, end, _ = kind
                self.slots[start:end] = array_words(value)
                self.kinds[i] = ("array", ty, start, end, weakref.ref(value))

    def launch(self, blocks: int, threads: int) -> None:
        driver, stream = _DRIVER
        if self.cooperative:
            result = driver.cuLaunchCooperativeKernel(self.function, blocks, 1, 1, threads, 1,
                                                      1, 0, stream, self.params)
        else:
            result = driver.cuLaunchKernel(self.function, blocks, 1, 1, threads, 1, 1, 0,
                                           stream, self.params, 0)
        if int(result[0]) != 0:
            from numba.cuda.cudadrv.driver import driver as numba_driver

            name = ("cuLaunchCooperativeKernel" if self.cooperative else "cuLaunchKernel")
            numba_driver._check_cuda_python_error(name, result)


def _scalar_dtype(ty: Any, given: np.dtype | None) -> np.dtype:
    """The NumPy dtype of a scalar parameter of numba type ``ty``."""
    from numba.cuda.np import numpy_support

    dtype = numpy_support.as_dtype(ty)
    if given is not None and given != dtype:
        raise UnsupportedArgument(f"a {given} scalar typed as {ty}")
    return dtype


def _function(compiled: Any) -> tuple[Any, bool]:
    """The driver function of a compiled kernel in the current context, and whether it needs a
    cooperative launch (grid barriers)."""
    driver = _driver()
    handle = compiled._codelibrary.get_cufunc().handle
    if isinstance(handle, driver.CUkernel):
        err, handle = driver.cuKernelGetFunction(handle)
        if int(err) != 0:
            from numba.cuda.cudadrv.driver import driver as numba_driver

            numba_driver._check_cuda_python_error("cuKernelGetFunction", (err, handle))
    return handle, bool(compiled.cooperative)


def _one_dimensional(grid: Any) -> bool:
    """Whether ``grid`` is blocks and threads as two integers (2-D and 3-D grids go through
    the dispatcher)."""
    return len(grid) == 2 and all(isinstance(g, (int, np.integer)) for g in grid)


def packable(grid: Any, args: tuple) -> bool:
    """Whether a launch's grid and arguments are of the kinds a parameter block holds: a
    one-dimensional grid, device arrays of at least one dimension and scalars. Checked
    without a GPU (the simulator's arrays pass as device arrays), so that the launches a GPU
    would send through the dispatcher are counted there too.

    Examples
    --------
    >>> packable((4, 32), (1, 2.5, np.uint64(3))), packable((4, 32), (np.zeros(3),))
    (True, False)
    """
    return _one_dimensional(grid) and all(
        isinstance(a, _SCALARS) or (getattr(a, "__cuda_ndarray__", False) and a.ndim > 0)
        for a in args)


def launch(kernel: Any, grid: tuple[int, int], args: tuple) -> bool:
    """Launch ``kernel`` over ``grid`` with ``args`` from its kept parameter block (built now
    if none matches); ``False`` where an argument cannot be packed (the caller then launches
    through the dispatcher)."""
    if _OFF or not _one_dimensional(grid):
        return False
    context = _current_context()
    blocks = _BLOCKS.setdefault(kernel, [])
    for block in blocks:
        if block.matches(args, context):
            break
    else:
        try:
            block = _Block(kernel, args, context)
        except UnsupportedArgument:
            return False
        except (AttributeError, ImportError, TypeError, _Incompatible) as exc:
            # The numba-cuda internals read here are not what this module expects: every
            # launch goes through the dispatcher from now on, said once.
            _OFF.append(f"{type(exc).__name__}: {exc}")
            logger.warning("pre-packed CUDA launches are off (%s); launching through "
                           "numba-cuda's dispatcher", _OFF[0])
            return False
        if len(blocks) >= MAX_BLOCKS_PER_KERNEL:
            blocks.pop(0)
        blocks.append(block)
    with block.lock:
        try:
            block.write(args)
        except OverflowError:  # a Python int beyond the slot's type: let numba type it
            return False
        block.launch(int(grid[0]), int(grid[1]))
    return True
