"""GPU solvers on CUDA through numba-cuda (imported lazily; nothing heavy here).

Under ``NUMBA_ENABLE_CUDASIM=1`` the probe reports them runnable, so the
conformance suite exercises every kernel on the CPU simulator in CI.
"""

from parmst.registry import Solver, register
from parmst.solvers.gpu._device import DEFAULT_BLOCK_SIZE, probe, graph_limit

_REQUIRES = ("numba_cuda",)

register(Solver(
    name="ecl/gpu",
    entry="parmst.solvers.gpu.ecl:solve",
    paper="seed 001 Algs. 1-2, section 3.2 (ECL-MST)",
    summary="ECL-MST: data-driven edge-centric Borůvka/Kruskal with packed-key atomicMin, "
            "implicit path compression, filtering, hybrid thread/warp initialization",
    requires=_REQUIRES,
    options={"init": "edge", "filter": True, "atomic_guards": True, "both_directions": False,
             "block_size": DEFAULT_BLOCK_SIZE, "launch": "persistent", "seed": 0},
    probe=probe,
    limit=graph_limit,
))
