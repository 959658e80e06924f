"""Serial solvers, compiled with Numba: one core, no atomics."""

from parmst.registry import CITATIONS, Solver, register

DENSE_MAX_VERTICES = 46_340  # n*n fits int32 and the n-by-n key matrix stays under ~16 GiB
DENSE_MAX_EDGES = 2**32 - 1  # below this a packed (weight, edge_id) key never equals NO_EDGE


def _dense_fits(graph) -> bool | str:
    if graph.num_vertices > DENSE_MAX_VERTICES:
        return (f"dense adjacency matrix of {graph.num_vertices} vertices is too large "
                f"(limit {DENSE_MAX_VERTICES})")
    if graph.num_edges > DENSE_MAX_EDGES:
        return (f"{graph.num_edges} edges: packed (weight, edge_id) keys need at most "
                f"{DENSE_MAX_EDGES}")
    return True


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
    limit=_dense_fits,
))
register(Solver(
    name="boruvka/serial",
    entry="parmst.solvers.serial.boruvka:solve",
    paper=CITATIONS["shou-he"] + ", section 2.9 (Listing 3)",
    summary="Borůvka rounds: lightest edge per component, union, drop internal edges",
))
