"""Lock-free atomics for Numba CPU kernels, as LLVM intrinsics.

Numba has no CPU atomics. Each function here is a
:func:`numba.extending.intrinsic` that emits one LLVM instruction on
``array[index]``: ``atomicrmw`` (min, add, exchange), ``cmpxchg`` or an
atomic ``load``/``store``. They compile inside ``@njit(parallel=True,
cache=True)`` kernels and work on int32, int64, uint32 and uint64 arrays
(signed arrays get a signed minimum, unsigned ones an unsigned minimum).
The value is converted to the array's element type; the index is not
bounds-checked, like plain Numba indexing.

With ``NUMBA_DISABLE_JIT=1`` the same names are plain Python functions with
the same results, so kernels still run (serially) on tiny inputs.

Atomics are slow when most of them change nothing. Use the *atomic guard*
of Fallin et al. section 5.3: read the slot first (``atomic_load``) and only
issue ``atomic_min`` when the new value is smaller. x86 has no 64-bit
atomic minimum instruction, so LLVM expands ``atomicrmw min`` into a
compare-and-swap loop; the guard skips that loop for most edges.

Examples
--------
>>> import numba, numpy as np
>>> @numba.njit
... def lowest(values, slot):
...     for v in values:
...         if v < atomic_load(slot, 0):
...             atomic_min(slot, 0, v)
>>> slot = np.array([99], dtype=np.uint64)
>>> lowest(np.array([5, 3, 8], dtype=np.uint64), slot)
>>> int(slot[0])
3
"""

from __future__ import annotations

import numba
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

__all__ = ["atomic_add", "atomic_cas", "atomic_load", "atomic_min", "atomic_store",
           "atomic_xchg"]

_ORDER = "seq_cst"


def _element_pointer(context, builder, signature, args):
    """Pointer to ``array[index]`` (index cast to intp, no wraparound)."""
    array_type, index_type = signature.args[0], signature.args[1]
    array = context.make_array(array_type)(context, builder, args[0])
    index = context.cast(builder, args[1], index_type, types.intp)
    return cgutils.get_item_pointer(context, builder, array_type, array, [index])


def _check(array, index):
    if not isinstance(array, types.Array) or array.dtype not in types.integer_domain:
        raise TypingError(f"atomics need an integer array, got {array}")
    if not isinstance(index, types.Integer):
        raise TypingError(f"atomics need an integer index, got {index}")


def _rmw(signed_op: str, unsigned_op: str):
    """An intrinsic ``f(array, index, value) -> old`` emitting ``atomicrmw <op>``."""

    def typer(typingctx, array, index, value):
        _check(array, index)

        def codegen(context, builder, signature, args):
            pointer = _element_pointer(context, builder, signature, args)
            operand = context.cast(builder, args[2], signature.args[2], array.dtype)
            op = signed_op if array.dtype.signed else unsigned_op
            return builder.atomic_rmw(op, pointer, operand, _ORDER)

        return array.dtype(array, index, value), codegen

    return intrinsic(typer)


@intrinsic
def _atomic_cas(typingctx, array, index, expected, desired):
    _check(array, index)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature, args)
        old = context.cast(builder, args[2], signature.args[2], array.dtype)
        new = context.cast(builder, args[3], signature.args[3], array.dtype)
        pair = builder.cmpxchg(pointer, old, new, _ORDER, _ORDER)
        return builder.extract_value(pair, 0)

    return array.dtype(array, index, expected, desired), codegen


@intrinsic
def _atomic_load(typingctx, array, index):
    _check(array, index)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature, args)
        return builder.load_atomic(pointer, "acquire", array.dtype.bitwidth // 8)

    return array.dtype(array, index), codegen


@intrinsic
def _atomic_store(typingctx, array, index, value):
    _check(array, index)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature, args)
        operand = context.cast(builder, args[2], signature.args[2], array.dtype)
        builder.store_atomic(operand, pointer, "release", array.dtype.bitwidth // 8)
        return context.get_dummy_value()

    return types.void(array, index, value), codegen


def _py_min(array, index, value):
    old = array[index]
    array[index] = min(old, array.dtype.type(value))
    return old


def _py_add(array, index, value):
    old = array[index]
    array[index] = old + array.dtype.type(value)
    return old


def _py_xchg(array, index, value):
    old = array[index]
    array[index] = value
    return old


def _py_cas(array, index, expected, desired):
    old = array[index]
    if old == expected:
        array[index] = desired
    return old


def _py_load(array, index):
    return array[index]


def _py_store(array, index, value):
    array[index] = value


if numba.config.DISABLE_JIT:
    atomic_min, atomic_add, atomic_xchg = _py_min, _py_add, _py_xchg
    atomic_cas, atomic_load, atomic_store = _py_cas, _py_load, _py_store
else:
    atomic_min = _rmw("min", "umin")
    atomic_add = _rmw("add", "add")
    atomic_xchg = _rmw("xchg", "xchg")
    atomic_cas, atomic_load, atomic_store = _atomic_cas, _atomic_load, _atomic_store

atomic_min.__doc__ = "``old = array[index]; array[index] = min(old, value)``, atomically."
atomic_add.__doc__ = "``old = array[index]; array[index] = old + value``, atomically (fetch-add)."
atomic_xchg.__doc__ = "``old = array[index]; array[index] = value``, atomically."
atomic_cas.__doc__ = ("Compare-and-swap: if ``array[index] == expected`` store ``desired``; "
                      "return the old value (success iff it equals ``expected``).")
atomic_load.__doc__ = "``array[index]`` read atomically (acquire): never torn, never hoisted."
atomic_store.__doc__ = "``array[index] = value`` written atomically (release)."
