"""OpenCL solvers through pyopencl (imported lazily; nothing heavy here).

Kernels are ``.cl`` sources beside their Python drivers. With the
``opencl`` extra, PoCL makes any CPU an OpenCL device, so CI runs every
kernel; the same code runs on NVIDIA, AMD and Intel GPUs.
"""

import importlib

from parmst._opencl.runtime import probe
from parmst.registry import CITATIONS, Solver, register

_REQUIRES = ("pyopencl",)

# Here rather than in the ecl module, whose imports load Numba, so that registering loads none.
BATCH_BELOW = 1 << 22
"""``ecl/opencl``: worklists smaller than this run ``ROUNDS_PER_CHECK`` rounds per size read;
larger ones read the size after every relax (a launch over a stale, larger bound costs more
than a read)."""


def _limit(module: str):
    """The input limit of ``parmst.solvers.opencl.<module>``, imported only when asked."""

    def check(graph):
        return importlib.import_module(f"parmst.solvers.opencl.{module}").limit(graph)

    return check


register(Solver(
    name="segscan-boruvka/opencl",
    entry="parmst.solvers.opencl.segscan_boruvka:solve",
    paper=CITATIONS["sun-skadron"] + ", Algorithm 4 (find-min-edge by segmented min scan, "
                                     "Algorithms 1-3)",
    summary="Borůvka whose find-min-edge is a segmented min scan (flag in the key's top bit); "
            "remove-cycle, merge-vertices and contraction on the device too",
    requires=_REQUIRES,
    options={"device": None},
    probe=probe(),
    limit=_limit("segscan_boruvka"),
))


register(Solver(
    name="ecl/opencl",
    entry="parmst.solvers.opencl.ecl:solve",
    paper=CITATIONS["ecl-mst"] + ", Algorithms 1-2 and section 3.2",
    summary="ECL-MST in OpenCL C: edge-centric worklists, implicit path compression, guarded "
            "64-bit atom_min on packed keys, filtering, one direction per edge",
    requires=_REQUIRES,
    options={"filter": True, "atomic_guards": True, "seed": 0, "batch_below": BATCH_BELOW,
             "device": None},
    probe=probe(need_int64_atomics=True),
    limit=_limit("ecl"),
))
