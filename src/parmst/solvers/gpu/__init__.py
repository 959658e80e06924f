"""GPU solvers on CUDA through numba-cuda (imported lazily; nothing heavy here).

Under ``NUMBA_ENABLE_CUDASIM=1`` the probe reports them runnable, so the
conformance suite exercises every kernel on the CPU simulator in CI.
"""

from parmst._cuda.runtime import DEFAULT_BLOCK_SIZE, probe
from parmst.registry import CITATIONS, Solver, register
from parmst.solvers.ecl_host import GPU_FILTER_SAMPLES, GPU_FILTER_TARGET
from parmst.solvers.gpu._device import dense_limit, graph_limit, points_limit

_REQUIRES = ("numba_cuda",)

register(Solver(
    name="ecl/gpu",
    entry="parmst.solvers.gpu.ecl:solve",
    paper=CITATIONS["ecl-mst"] + ", Algorithms 1-2 and section 3.2",
    summary="ECL-MST: data-driven edge-centric Borůvka/Kruskal with packed-key atomicMin, "
            "implicit path compression, filtering, hybrid thread/warp initialization",
    requires=_REQUIRES,
    options={"init": "edge", "filter": True, "atomic_guards": True, "both_directions": False,
             "block_size": DEFAULT_BLOCK_SIZE, "launch": "auto", "persistent_below": 1 << 22,
             "batched_min": 1 << 19, "seed": 0, "keys": "auto", "select": "auto",
             "filter_target": GPU_FILTER_TARGET, "filter_samples": GPU_FILTER_SAMPLES,
             "fused": True, "compress": True, "max_registers": None},
    probe=probe,
    limit=graph_limit,
))
register(Solver(
    name="boruvka-edge/gpu",
    entry="parmst.solvers.gpu.boruvka_edge:solve",
    paper=CITATIONS["shou-he"] + ", section 3.2 (Listings 4-6, optimizations 1-3)",
    summary="edge-centric Borůvka: atomicMin vertex bridges, wait-free rank union-find "
            "(64-bit CAS records), double worklist, no path compression",
    requires=_REQUIRES,
    options={"block_size": DEFAULT_BLOCK_SIZE, "keys": "auto"},
    probe=probe,
    limit=graph_limit,
))
register(Solver(
    name="genboruvka/gpu",
    entry="parmst.solvers.gpu.genboruvka:solve",
    paper=CITATIONS["sousa"] + ", section 4.4, Algorithm 5 and Appendix A (Algorithms 7-13)",
    summary="generic Borůvka: min entry by atomicMin, mirrored-edge removal, colour "
            "propagation, prefix-sum renumbering, contracted CSR built on the device each round",
    requires=_REQUIRES,
    options={"block_size": DEFAULT_BLOCK_SIZE, "keys": "auto"},
    probe=probe,
    limit=graph_limit,
))
register(Solver(
    name="prim-dense/gpu",
    entry="parmst.solvers.gpu.prim_dense:solve",
    paper=CITATIONS["pugliese"] + ", section 3.1 (local_closest_node, update_distances)",
    summary="O(V^2) Prim on a dense key matrix: per-step block min-reduction on the GPU, "
            "final reduction on the host, distance-update kernel",
    requires=_REQUIRES,
    options={"keys": "auto"},
    probe=probe,
    limit=dense_limit,
))
register(Solver(
    name="boruvka-bvh/gpu",
    entry="parmst.solvers.gpu.boruvka_bvh:solve",
    paper=CITATIONS["prokopenko"] + ", Algorithm 2 (single-tree Borůvka) on a k-d tree "
          "built on the device",
    summary="point sets: Borůvka rounds on the GPU, one nearest-other-component query per "
            "point on a k-d tree of tight boxes, two-pass component minima, lock-free "
            "union-find",
    requires=_REQUIRES,
    # neighbours: points listed per point before the rounds (0: none, every point searches
    # in the first round); pair_sort: "counting" or "radix"; seed_bounds: component bounds
    # seeded from consecutive tree positions each round; walk: "warp" (a warp's searches
    # walk the tree together) or "thread" (solvers/gpu/boruvka_bvh.py).
    options={"min_samples": None, "leaf_size": 32, "device": None, "neighbours": 8,
             "pair_sort": "counting", "seed_bounds": True, "walk": "warp"},
    probe=probe,
    limit=points_limit,
    kind="points",
))


def release_buffers() -> int:
    """Free the device work buffers the GPU solvers keep between solves; returns the bytes.

    A solve takes its work and scratch arrays from a per-device pool and gives
    them back, so the next solve of a graph of the same size allocates
    nothing; the pools keep up to 4 GiB idle per device. Call this to hand
    that memory to other libraries (CuPy, PyTorch) sharing the GPU. Devices
    never used by a solve are not touched, and numba-cuda is not imported.

    Examples
    --------
    >>> from parmst.solvers.gpu import release_buffers
    >>> release_buffers() >= 0
    True
    """
    from parmst._cuda import pool

    return pool.release_all()
