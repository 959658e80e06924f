"""A hint that a compiled loop will soon read ``array[index]``: LLVM's ``llvm.prefetch``.

A scan that reads an array at positions it learns one item at a time (Kruskal's
scan reads the union-find at each edge's ends) waits for each miss in turn where the
branches between the reads stop the CPU from running ahead. Asking for the ends of an
edge a few items ahead lets those loads overlap the work on the current one. The
hint changes no value and never faults; the index is not bounds-checked, like plain
Numba indexing.

With ``NUMBA_DISABLE_JIT=1`` :func:`prefetch` is a Python function that does nothing.

Examples
--------
>>> import numba, numpy as np
>>> @numba.njit
... def total_at(values, positions):
...     total = 0
...     for i in range(len(positions)):
...         if i + 4 < len(positions):
...             prefetch(values, positions[i + 4])
...         total += values[positions[i]]
...     return total
>>> int(total_at(np.arange(10) * 2, np.array([9, 0, 3, 3, 7, 1])))
46
"""

from __future__ import annotations

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch"]

_READ, _KEEP_IN_ALL_CACHES, _DATA = 0, 3, 1  # llvm.prefetch's rw, locality, cache type


def _prefetch_codegen(context, builder, signature, args):
    array_type, index_type = signature.args
    array = context.make_array(array_type)(context, builder, args[0])
    index = context.cast(builder, args[1], index_type, types.intp)
    pointer = cgutils.get_item_pointer(context, builder, array_type, array, [index])
    byte_pointer = ir.IntType(8).as_pointer()
    word = ir.IntType(32)
    hint = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word]),
        "llvm.prefetch.p0i8")
    builder.call(hint, [builder.bitcast(pointer, byte_pointer), ir.Constant(word, _READ),
                        ir.Constant(word, _KEEP_IN_ALL_CACHES), ir.Constant(word, _DATA)])
    return context.get_dummy_value()


@intrinsic
def _prefetch(typingctx, array, index):
    return types.void(array, index), _prefetch_codegen


if numba.config.DISABLE_JIT:
    def prefetch(array, index):
        """Nothing: without compilation there is no cache to warm."""
else:
    prefetch = _prefetch
