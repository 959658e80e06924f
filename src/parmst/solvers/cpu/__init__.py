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
register(Solver(
    name="boruvka-edge/cpu",
    entry="parmst.solvers.cpu.boruvka_edge:solve",
    paper="seed 000 section 3.3 (Listing 7) with the wait-free union-find of Listing 4",
    summary="edge-centric Borůvka: atomic-min vertex bridges, CAS union-find, ticket filtering",
    options={"threads": None, "path_compression": True, "keys": "auto"},
))
register(Solver(
    name="genboruvka/cpu",
    entry="parmst.solvers.cpu.genboruvka:solve",
    paper="seed 003 section 4.4, Algorithm 5 and Appendix A kernels (Algorithms 7-13)",
    summary="Borůvka with colour propagation and explicit CSR contraction, edge-balanced blocks",
    options={"threads": None},
))
