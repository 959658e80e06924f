"""Multi-core CPU solvers compiled with Numba (``parallel=True``, ``prange``, LLVM atomics)."""

from parmst.registry import Solver, register

register(Solver(
    name="ecl/cpu",
    entry="parmst.solvers.cpu.ecl:solve",
    paper="seed 001 Algorithms 1-2, section 3.2 (ECL-MST)",
    summary="edge-centric worklist Borůvka: packed (weight, id) atomic min, implicit path "
            "compression, sampled filtering",
    options={"threads": None, "filtering": True, "keys": "auto"},
))
