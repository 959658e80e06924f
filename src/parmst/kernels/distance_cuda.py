"""CUDA's implementation of :func:`parmst.kernels.distance.add_square`: the same two roundings.

NVVM contracts a product followed by a sum into one fused multiply-add unless told
otherwise (its ``-fma=1`` default, which numba-cuda keeps), and a fused step rounds once:
the keys would differ from the CPU's in the last bit and ties would break differently.
CUDA's ``__dmul_rn`` and ``__dadd_rn`` (libdevice ``dmul_rn``, ``dadd_rn``) are never
contracted, so a GPU kernel that calls :func:`~parmst.kernels.distance.squared_distance`
(or a box bound of :mod:`parmst.kernels.kdtree`) computes the CPU's value bit for bit.

Importing this module registers the implementation; every GPU module that compiles a
distance imports it first. It imports ``numba.cuda``, so only the GPU solvers import it.
"""

from __future__ import annotations

from numba import cuda
from numba.cuda.extending import overload

from parmst.kernels.distance import add_square

__all__: list[str] = []


@overload(add_square, target="cuda")
def _add_square_cuda(total, diff):
    def add_square_cuda(total, diff):
        return cuda.libdevice.dadd_rn(total, cuda.libdevice.dmul_rn(diff, diff))
    return add_square_cuda
