"""Serial solvers: one core, no atomics; compiled with Numba, except ``boruvka-numpy/serial``."""

from parmst._jit import SMALL_EDGES, numba_loaded
from parmst.kernels.dense_limits import dense_fits
from parmst.registry import CITATIONS, Solver, add_auto_rule, register
from parmst.solvers.serial.numpy_boruvka import spent_seconds

register(Solver(
    name="kruskal/serial",
    entry="parmst.solvers.serial.kruskal:solve",
    paper=CITATIONS["shou-he"] + ", section 2.8 (Listing 2); Sousa, Algorithm 2",
    summary="sort by (weight, id), scan with union-find; the reference",
))
register(Solver(
    name="filter-kruskal/serial",
    entry="parmst.solvers.serial.filter_kruskal:solve",
    paper=CITATIONS["filter-kruskal"] + " as cited by ECL-MST section 2",
    summary="quicksort-style partition around a pivot, filter heavy edges already in one tree",
    options={"base_case": 1 << 14},
))
register(Solver(
    name="prim/serial",
    entry="parmst.solvers.serial.prim:solve",
    paper=CITATIONS["sousa"] + ", Algorithm 4 (Prim with a priority queue)",
    summary="Prim from every unvisited vertex with an indexed binary heap on the CSR view",
))
register(Solver(
    name="prim-dense/serial",
    entry="parmst.solvers.serial.prim_dense:solve",
    paper=CITATIONS["pugliese"] + ", section 2.1 (PRIM_MST on an adjacency matrix)",
    summary="Prim on a dense adjacency matrix: linear min-scan and update per step",
    limit=dense_fits,
))
register(Solver(
    name="boruvka/serial",
    entry="parmst.solvers.serial.boruvka:solve",
    paper=CITATIONS["shou-he"] + ", section 2.9 (Listing 3)",
    summary="Borůvka rounds: lightest edge per component, union, drop internal edges",
))
register(Solver(
    name="boruvka-numpy/serial",
    entry="parmst.solvers.serial.numpy_boruvka:solve",
    paper=CITATIONS["shou-he"] + ", section 2.9 (Listing 3), vectorised: minimum scatter, "
                                 "hooking and pointer jumping",
    summary="Borůvka rounds as whole-array NumPy operations: needs no compiled kernel, so a "
            "small graph is solved without loading Numba",
))


NUMPY_MAX_EDGES = SMALL_EDGES
"""Most edges "auto" gives ``boruvka-numpy/serial`` while Numba is not loaded
(:data:`parmst._jit.SMALL_EDGES`)."""

NUMBA_LOAD_SECONDS = 0.5
"""What loading Numba and serial Kruskal's cached kernels costs a fresh process on the 2-core
VM (import, typing registries, cache loads; docs/solver-selection.md)."""


def numpy_route(graph, cores: int) -> bool:
    """Whether "auto" solves ``graph`` without compiled kernels: a host graph of at most
    :data:`NUMPY_MAX_EDGES` edges, in a process that has loaded no Numba kernel yet and has
    spent less than :data:`NUMBA_LOAD_SECONDS` in the NumPy solver.

    The last condition is the ski-rental rule: pay the NumPy solver's slower rounds
    ("rent") until they add up to the one-off cost of loading the compiled kernels
    ("buy"), then buy; no sequence of calls then costs more than twice what the best
    choice in hindsight would have.
    """
    # Imported at the top, not here: this runs on every "auto" solve, where an import
    # statement's lookup alone cost 10 us.
    return (not numba_loaded() and graph.num_edges <= NUMPY_MAX_EDGES
            and not graph.is_on_device and spent_seconds() < NUMBA_LOAD_SECONDS)


add_auto_rule("boruvka-numpy/serial", numpy_route,
              "small graph and no compiled kernel loaded yet: NumPy-only Borůvka ends before "
              "Numba would have loaded (docs/solver-selection.md)")
