"""Serial solvers, compiled with Numba: one core, no atomics."""

from parmst.kernels.dense import dense_fits
from parmst.registry import CITATIONS, Solver, register

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
    options={"min_samples": None, "leaf_size": 32},
    kind="points",
))
