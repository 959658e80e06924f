"""Multi-core CPU solvers compiled with Numba (``parallel=True``, ``prange``, LLVM atomics)."""

from parmst.kernels.dense_limits import dense_fits
from parmst.registry import CITATIONS, Solver, add_auto_rule, register
from parmst.solvers.ecl_host import CPU_FILTER_DEGREE, CPU_FILTER_TARGET

register(Solver(
    name="ecl/cpu",
    entry="parmst.solvers.cpu.ecl:solve",
    paper=CITATIONS["ecl-mst"] + ", Algorithms 1-2 and section 3.2",
    summary="edge-centric worklist Borůvka: packed (weight, id) atomic min, implicit path "
            "compression, sampled filtering",
    options={"threads": None, "filtering": True, "keys": "auto", "kernel2": "auto",
             "filter_target": CPU_FILTER_TARGET, "filter_degree": CPU_FILTER_DEGREE},
))
register(Solver(
    name="boruvka-edge/cpu",
    entry="parmst.solvers.cpu.boruvka_edge:solve",
    paper=CITATIONS["shou-he"] + ", section 3.3 (Listing 7) with the wait-free union-find of "
          "Listing 4 (Anderson and Woll)",
    summary="edge-centric Borůvka: atomic-min vertex bridges, CAS union-find, ticket filtering",
    options={"threads": None, "path_compression": True, "keys": "auto"},
))
register(Solver(
    name="genboruvka/cpu",
    entry="parmst.solvers.cpu.genboruvka:solve",
    paper=CITATIONS["sousa"] + ", section 4.4, Algorithm 5 and Appendix A (Algorithms 7-13)",
    summary="Borůvka with colour propagation and explicit CSR contraction, edge-balanced blocks",
    options={"threads": None},
))
register(Solver(
    name="filter-kruskal/cpu",
    entry="parmst.solvers.cpu.filter_kruskal:solve",
    paper=CITATIONS["filter-kruskal"] + " as cited by ECL-MST section 2; partition and filter "
          "in parallel",
    summary="Filter-Kruskal whose stable partitions and cycle filters run in parallel blocks",
    options={"threads": None, "base_case": 1 << 16, "keys": "auto"},
))
register(Solver(
    name="prim-dense/cpu",
    entry="parmst.solvers.cpu.prim_dense:solve",
    paper=CITATIONS["pugliese"] + ", section 3 (a parallel min-reduction per step)",
    summary="O(V^2) Prim on a key matrix; each step's relax and min-reduction split over threads",
    options={"threads": None, "parallel_from": 1 << 14, "min_block": 1024},
    limit=dense_fits,
))

register(Solver(
    name="prim-union/cpu",
    entry="parmst.solvers.cpu.prim_union:solve",
    paper=CITATIONS["sousa"] + ", section 4.3.2 (partitioned Prim, union of local MSTs: prim_omp_union)",
    summary="one Prim per part ignoring crossing edges; local trees shrunk to their boundary "
            "paths, then Kruskal on those and the crossing edges",
    options={"threads": None, "parts": None, "partition": "bfs"},
))
register(Solver(
    name="prim-multi/cpu",
    entry="parmst.solvers.cpu.prim_multi:solve",
    paper=CITATIONS["sousa"] + ", section 4.3.1 (multiple-instance Prim with collisions: tm_mst_pt, after "
          "Kang and Bader; connected components identification)",
    summary="Prim instances grow until they collide, trees are contracted (a Borůvka step), "
            "repeat",
    options={"threads": None},
))
register(Solver(
    name="prim-bmv/cpu",
    entry="parmst.solvers.cpu.prim_bmv:solve",
    paper=CITATIONS["sousa"] + ", section 4.3.2 (partitioned Prim, boundary marked vertices: prim_omp_bmv)",
    summary="APPROXIMATE: one Prim per part, then each part revisits only the tree edges at "
            "its boundary vertices; can be heavier than the minimum",
    options={"threads": None, "parts": None, "partition": "bfs", "measure_error": False},
    exact=False,
))


COLD_START_EDGES = 50_000_000
"""Below this many edges "auto" leaves ecl/cpu out while its kernels are not compiled yet."""

COLD_START_WHY = ("ecl/cpu's kernels are not compiled yet, which takes longer than serial "
                  "Kruskal's whole run on this graph; 'parmst warmup --backend cpu' compiles "
                  "them once, and later calls use all cores")


def _parallel_pays(graph, cores: int) -> bool:
    """docs/solver-selection.md: where ecl/cpu measured faster than serial Kruskal (and, on
    dense graphs, than dense Prim: Evidence 10)."""
    return cores >= 8 and graph.num_edges >= 500_000


def ecl_compiled() -> bool:
    """Whether ecl/cpu's kernels are compiled in this process or in Numba's cache: where
    they are not, a short run of another solver ends before their compilation would."""
    from parmst._jit import compiled_here
    from parmst.solvers.cpu import ecl

    # Its main kernel stands for all of them: they are compiled by the same first call.
    return compiled_here(ecl._kernel1)


def _parallel_pays_now(graph, cores: int) -> bool:
    """Where ecl/cpu pays, once its kernels are compiled or the graph outweighs compiling them.

    In a fresh environment compiling ecl/cpu's kernels took 8-10 s on the
    2-core VM against about 1 s for serial Kruskal's, which sorts and scans
    3.8 M edges in 0.6 s there: below ``COLD_START_EDGES`` Kruskal's whole
    call ends before ecl/cpu's compilation would (docs/solver-selection.md).
    """
    return _parallel_pays(graph, cores) \
        and (graph.num_edges >= COLD_START_EDGES or ecl_compiled())


add_auto_rule("ecl/cpu", _parallel_pays_now,
              "sparse graph of 500 k edges or more on 8+ cores, its kernels compiled: ecl/cpu "
              "with 8 threads measured ahead of serial Kruskal on every large family; on 2 "
              "cores the gathered-scan Kruskal is as fast or faster, and far faster when other "
              "work shares the cores (docs/solver-selection.md)",
              before="prim-dense/serial")
add_auto_rule("kruskal/serial", _parallel_pays, COLD_START_WHY,
              before="prim-dense/serial")
register(Solver(
    name="boruvka-kdtree/cpu",
    entry="parmst.solvers.cpu.boruvka_kdtree:solve",
    paper=CITATIONS["prokopenko"] + ", Algorithm 2 (single-tree Borůvka) on a k-d tree, "
          "parallel over query points",
    summary="point sets: k-d tree Borůvka, tree build and per-point queries on Numba threads",
    options={"min_samples": None, "leaf_size": None, "threads": None},
    kind="points",
))
