"""Serial solvers: one core, no atomics; compiled with Numba, except ``boruvka-numpy/serial``."""

from parmst._jit import SMALL_EDGES, numba_loaded
from parmst.kernels.dense_limits import dense_fits
from parmst.registry import CITATIONS, Solver, add_auto_rule, register
from parmst.solvers.serial.numpy_boruvka import solves

register(Solver(
    name="kruskal/serial",
    entry="parmst.solvers.serial.kruskal:solve",
    paper=CITATIONS["shou-he"] + ", section 2.8 (Listing 2); Sousa, Algorithm 2",
    summary="sort by (weight, id), scan with union-find; the reference",
    ascending=True,
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
    name="prim-dense/points",
    entry="parmst.solvers.serial.prim_points:solve",
    paper=CITATIONS["pugliese"] + ", section 2.1 (PRIM_MST), distances computed on the fly",
    summary="point sets: dense Prim over all pairs, O(n^2) time, O(n) memory",
    options={"min_samples": None},
    kind="points",
    runs_on="serial",
))
register(Solver(
    name="boruvka-kdtree/serial",
    entry="parmst.solvers.serial.boruvka_kdtree:solve",
    paper=CITATIONS["prokopenko"] + ", Algorithm 2 (single-tree Borůvka) on a k-d tree",
    summary="point sets: Borůvka rounds, nearest other-component point per point by a k-d tree",
    options={"min_samples": None, "leaf_size": None},
    kind="points",
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

NUMPY_SOLVES = 1
"""Solves "auto" gives ``boruvka-numpy/serial`` in a process before it loads the compiled
solvers (docs/solver-selection.md)."""


def numpy_route(graph, cores: int) -> bool:
    """Whether "auto" solves ``graph`` without compiled kernels: a host graph of at most
    :data:`NUMPY_MAX_EDGES` edges, in a process that has loaded no Numba kernel yet and has
    not used this solver :data:`NUMPY_SOLVES` times already.

    One call in a process (a command, a script, a notebook cell) then never loads Numba.
    A process that solves again is doing repeated work (a loop, a service, a benchmark),
    whose steady state is what counts there: its second call loads the compiled solvers,
    7-13x faster per edge, once, instead of keeping every later call on the slower route.
    """
    # Imported at the top, not here: this runs on every "auto" solve, where an import
    # statement's lookup alone cost 10 us.
    return (not numba_loaded() and graph.num_edges <= NUMPY_MAX_EDGES
            and not graph.is_on_device and solves() < NUMPY_SOLVES)


add_auto_rule("boruvka-numpy/serial", numpy_route,
              "small graph, first solve of a process that has loaded no compiled kernel: "
              "NumPy-only Borůvka ends before Numba would have loaded "
              "(docs/solver-selection.md)")
