"""Named benchmark suites that reproduce the papers' experiments.

Each suite lists generator specs (see :mod:`parmst.generators`) with the name
the paper gave the input it stands in for. Every suite has a full variant,
sized like the paper (for machines with tens of GiB and many cores), and a
``-small`` variant for a 2-core laptop (``ecl-small``: about a minute). Each suite
names its solvers and peers (``parmst bench --list`` shows them); ``--solver all``
runs every solver that can run here instead.

=================  ==============================================================
suite              reproduces
=================  ==============================================================
``seed000``        Shou and He section 4.1: the eight sparse/dense test files
``ecl``            Fallin et al. Table 2: synthetic stand-ins for its graph families
``road``           Sousa Table 5.1/5.2: road networks of growing size
``prim-dense``     Pugliese section 4: dense graphs of 64 ... 4096 vertices
``ecl-gpu``        Fallin et al. Figures 3-4 on a GPU: compute-only throughput of the
                   GPU solvers, with ECL-MST's own figures as a reference column
``ecl-ablation``   Fallin et al. Table 5: ``ecl/gpu`` with one optimization removed
``multigpu``       ``ecl/gpu`` on one GPU against ``ecl/multigpu`` on all of them
``multigpu-scale`` ``ecl/multigpu`` on 1, 2 and 4 GPUs, graphs of 10^9 edges and more
                   generated on the GPUs
``cpu-scaling``    Shou and He / Sousa scaling: multi-core solvers at 1..16 threads
``cpu-medium``     multi-core solvers against serial Kruskal and SciPy
``serial-medium``  serial solvers against SciPy (int32 weights; ``-float64`` too)
``phases``         Shou and He Figures 3-4: per-phase times of ``boruvka-edge/cpu``
``io``             read and write throughput of every file format
``front-doors``    ``parmst.scipy`` and the NetworkX backend against SciPy and NetworkX
``real``           real public graphs (:mod:`parmst.bench.real`, fetched first):
                   ``parmst.minimum_spanning_forest`` ("auto") against SciPy, igraph
                   and NetworKit
``prim-multi``     Sousa Figures 5.2-5.4: multiple-instance Prim on road-like graphs
``real-weights``   float64-weight graphs of 10 k to 10 M edges against SciPy, igraph
                   and NetworKit, the whole call timed
``float-vs-int``   ``kruskal/serial`` on float64 weights against their int64 ranks
``end-to-end``     ``ecl/gpu``'s whole call from host and from device arrays, beside
                   its computation
``opencl-scan``    Sun and Skadron Figures 5-8: the OpenCL prefix scan, 1 MB to 512 MB,
                   against NumPy, a naive multi-pass scan and the device's copy
``opencl-mst``     the OpenCL solvers against ``ecl/gpu`` on Fallin et al.'s GPU
                   families, compute-only
``opencl-boruvka`` Sun and Skadron Figures 12-14: segmented-scan Borůvka against
                   sequential Borůvka on dense and sparse graphs of 16 M to 128 M edges
``cpu-vs-pbbs``    the multi-core solvers against PBBS's parallel filter-Kruskal (a
                   program the user builds; see :mod:`parmst.bench.peers`) on Fallin
                   et al.'s families, the whole call timed
``mpi-scaling``    Shou and He section 4.5: the mpi solvers at 1..16 MPI ranks against
                   serial Kruskal and ecl/cpu on all cores
``mpi-seed000``    Shou and He section 4.5's self-speedup figures: its eight test files,
                   its Listing 8 (``boruvka-allreduce/mpi``) and ``filter-boruvka/mpi``
                   at 1..16 ranks
``mpi-weak``       weak scaling: graphs generated and verified in parallel, 2^24 edges per rank
``emst``           point sets (issue 30): the point solvers' Euclidean trees against
                   mlpack's ``emst`` and the SciPy Delaunay route
``emst-mreach``    HDBSCAN's mutual-reachability tree (``min_samples`` 5 and 10) against
                   fast_hdbscan and scikit-learn's HDBSCAN
``emst-gpu``       ``boruvka-bvh/gpu`` on clustered 3-D points up to Prokopenko et al.'s
                   37 M, from host and from device (CuPy) arrays, beside ``/cpu``
``emst-scaling``   ``boruvka-kdtree/cpu`` at 1..16 threads on 10 M uniform 3-D points
=================  ==============================================================

Besides its graphs, a suite may fix the experiment's other settings (which solvers and
solver options, peers, thread counts, whether throughput counts the whole solve or the
computation alone, the speedup baseline, file formats, weight transforms, where the
input lies, whether the whole public call is timed); options given on the command line
replace them.

The ``-small`` variants hold 2,000 to 520,000 edges per graph (``real-small``'s real
graphs 914 to 25,571). The full variants are for bigger machines: ``seed000`` goes up to
20 M vertices and 30 M edges (sparse/extreme) and 28.8 M edges on 8,000 vertices
(dense/extreme), about 8 GiB of memory; ``ecl`` up to about 100 M edges (kron-21, before
repeats are removed) and 8.4 M vertices (r4-2e23), 32 GiB or more; ``road`` up to 24 M
vertices and 33 M edges (road-USA), 16 GiB; ``prim-dense`` up to the complete graph on
4,096 vertices (8.4 M edges). ``parmst bench --list`` prints every graph's size.

Where the inputs come from (generated and cached, files, real graphs, point sets) is
:mod:`parmst.bench.inputs`; what a suite is made of, :mod:`parmst.bench.suite_types`.
"""

from __future__ import annotations

from parmst.bench import real
from parmst.bench.suite_types import BenchGraph, Reference, Suite
from parmst.bench.weak import WEAK_GRAPHS

__all__ = ["ECL_MST_H100", "SUITES", "get_suite"]


def _seed000(files: tuple[str, ...]) -> tuple[BenchGraph, ...]:
    """Stand-ins for the report's test files, named like them ("sparse/small")."""
    return tuple(BenchGraph(name, "seed000-{}:size={},seed=1".format(*name.split("/")),
                            f"{name}.txt") for name in files)


def _prim_dense(sizes: tuple[int, ...]) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"dense-{n}", f"dense:n={n},seed=1", f"{n} nodes") for n in sizes)


# Sousa Table 5.1: (name, vertices) of the DIMACS road networks; the
# stand-in is a road-like grid with about the same number of vertices.
_ROAD_NETWORKS = (("NY", 264_346), ("BAY", 321_270), ("COL", 435_666), ("FLA", 1_070_376),
                  ("NE", 1_524_453), ("CAL", 1_890_815), ("E", 3_598_623),
                  ("W", 6_262_104), ("PT", 9_196_206), ("USA", 23_947_347))


def _road(networks: tuple[tuple[str, int], ...]) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"road-{name}", f"road:side={round(n ** 0.5)},seed=1",
                            f"{name} ({n:,} vertices)") for name, n in networks)


_ECL_FULL = (
    BenchGraph("grid-2e20", "grid2d:side=1024,seed=1", "2d-2e20.sym"),
    BenchGraph("r4-2e23", "random-degree:n=8388608,degree=4,seed=1", "r4-2e23.sym"),
    BenchGraph("rmat16", "rmat:scale=16,edge_factor=16,seed=1", "rmat16.sym"),
    BenchGraph("rmat22", "rmat:scale=22,edge_factor=16,seed=1", "rmat22.sym"),
    BenchGraph("kron-21", "kronecker:scale=21,seed=1", "kron_g500-logn21"),
    BenchGraph("delaunay-2e20", "delaunay:n=1048576,seed=1", "delaunay_n24 (scaled down)"),
    BenchGraph("road-2e22", "road:side=2048,seed=1", "USA-road-d.USA / europe_osm"),
)
_ECL_SMALL = (
    BenchGraph("grid-2e16", "grid2d:side=256,seed=1", "2d-2e20.sym"),
    BenchGraph("r4-2e16", "random-degree:n=65536,degree=4,seed=1", "r4-2e23.sym"),
    BenchGraph("rmat14", "rmat:scale=14,edge_factor=16,seed=1", "rmat16.sym"),
    BenchGraph("kron-13", "kronecker:scale=13,seed=1", "kron_g500-logn21"),
    BenchGraph("delaunay-2e16", "delaunay:n=65536,seed=1", "delaunay_n24"),
    BenchGraph("road-2e16", "road:side=256,seed=1", "USA-road-d.NY"),
)

# Fallin et al. section 4's GPU families at the sizes the original ECL-MST CUDA code
# was measured with on an H100 (our generators; one seed per family).
_ECL_GPU = (
    BenchGraph("grid2d", "grid2d:side=1024,seed=1", "2d-2e20.sym"),
    BenchGraph("road", "road:side=2048,remove=0.32,seed=2", "USA-road-d.USA / europe_osm"),
    BenchGraph("delaunay", "delaunay:n=1048576,seed=3", "delaunay_n24 (scaled down)"),
    BenchGraph("seed000-sparse", "seed000-sparse:size=large,seed=4", "sparse/large.txt"),
    BenchGraph("seed000-dense", "seed000-dense:size=large,seed=5", "dense/large.txt"),
    BenchGraph("random-degree", "random-degree:n=8388608,seed=6", "r4-2e23.sym"),
    BenchGraph("rmat", "rmat:scale=22,edge_factor=16,seed=7", "rmat22.sym"),
)
_ECL_GPU_SMALL = (
    BenchGraph("grid2d", "grid2d:side=256,seed=1", "2d-2e20.sym"),
    BenchGraph("rmat", "rmat:scale=16,edge_factor=16,seed=7", "rmat16.sym"),
    BenchGraph("seed000-dense", "seed000-dense:size=medium,seed=5", "dense/medium.txt"),
)
ECL_MST_H100 = Reference(
    "ECL-MST H100",
    "the original ECL-MST CUDA code (Fallin, Gonzalez, Seo and Burtscher, \"A "
    "High-Performance MST Implementation for GPUs\", SC 2023) on an NVIDIA H100 80GB "
    "HBM3, compute-only, on the full-size graphs",
    {"grid2d": 1117, "road": 1962, "delaunay": 1431, "seed000-sparse": 1128,
     "seed000-dense": 1133, "random-degree": 1939, "rmat": 3039})
# Fallin et al. section 5.3 (Table 5): one optimization removed at a time.
_ECL_ABLATION = ("ecl/gpu", "ecl/gpu[launch=persistent]", "ecl/gpu[launch=per-round]",
                 "ecl/gpu[launch=batched]",
                 "ecl/gpu[init=hybrid]", "ecl/gpu[init=thread]", "ecl/gpu[atomic_guards=false]",
                 "ecl/gpu[filter=false]", "ecl/gpu[both_directions=true]")

# Issue 16: one GPU (ecl/gpu) against several (ecl/multigpu) on the ecl-gpu families, plus
# RMAT and random-degree graphs of about 2 * 10^9 edges: ecl/gpu needs about 57 bytes of
# device memory per edge at that size (64-bit endpoints, keys, two worklists), 108-122 GiB of
# an H200's 141 GB, while each half of an ecl/multigpu split needs about half of that.
# Host: about 45 GB per graph, plus the reference Kruskal's sort.
_MULTIGPU_BIG = (
    BenchGraph("rmat-2e26", "rmat:scale=26,edge_factor=32,seed=8", "rmat at 2^26 vertices"),
    BenchGraph("random-degree-2e27", "random-degree:n=134217728,degree=16,seed=9",
               "r16-2e27"),
)
_MULTIGPU_SOLVERS = ("ecl/gpu", "ecl/multigpu")
# One part per device where there are two GPUs, two parts on the one device otherwise.
_MULTIGPU_SMALL_SOLVERS = ("ecl/gpu", "ecl/multigpu[parts=2]")

# The solvers and peers of the README's 2-core table (ecl-small): the serial references,
# the fastest multi-core solvers there, SciPy and igraph. Every solver that can run here is
# one --solver all away; the default stays the table's, so the suite takes the minute the
# README says rather than launching MPI ranks, OpenCL builds and GHS.
_ECL_SOLVERS = ("kruskal/serial", "filter-kruskal/serial", "prim/serial", "ecl/cpu",
                "boruvka-edge/cpu", "filter-kruskal/cpu")
_ECL_PEERS = ("scipy", "igraph")
# Shou and He's serial Kruskal and Borůvka beside their edge-centric Borůvka and ECL-MST.
_SEED000_SOLVERS = ("kruskal/serial", "boruvka/serial", "boruvka-edge/cpu", "ecl/cpu",
                    "filter-kruskal/serial")
# Sousa's road networks: Kruskal and Prim, his generic Borůvka, ECL-MST.
_ROAD_SOLVERS = ("kruskal/serial", "prim/serial", "genboruvka/cpu", "ecl/cpu",
                 "filter-kruskal/cpu")
# Pugliese's dense Prim (serial and parallel) beside heap Prim and Kruskal.
_PRIM_DENSE_SOLVERS = ("kruskal/serial", "prim/serial", "prim-dense/serial", "prim-dense/cpu")

_CPU_SOLVERS = ("ecl/cpu", "boruvka-edge/cpu", "genboruvka/cpu", "filter-kruskal/cpu",
                "prim-dense/cpu", "kruskal/serial")
_SERIAL_SOLVERS = ("kruskal/serial", "filter-kruskal/serial", "prim/serial",
                   "prim-dense/serial", "boruvka/serial")
_SCALING_SOLVERS = ("ecl/cpu", "boruvka-edge/cpu", "genboruvka/cpu", "filter-kruskal/cpu",
                    "kruskal/serial")
_MEDIUM_FAMILIES = ("random-degree", "rmat", "grid2d", "delaunay", "road", "seed000-sparse",
                    "seed000-dense")
_ALL_FAMILIES = ("grid2d", "road", "random-degree", "rmat", "kronecker", "delaunay",
                 "seed000-sparse", "seed000-dense", "dense")


def _families(families: tuple[str, ...], size: str, extra: str = "") -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"{family}-{size}", f"{family}:size={size}{extra}")
                 for family in families)


def _phases(size: str) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"{kind}/{size}", f"seed000-{kind}:size={size}", f"{kind}/{size}.txt")
                 for kind in ("sparse", "dense"))


# Shou and He Figures 3-4: the final approach's four parallel loops, with and
# without path compression (its optimization 3).
_PHASE_SOLVERS = ("boruvka-edge/cpu", "boruvka-edge/cpu[path_compression=false]")
# I/O: a graph of Shou and He's sparse/large.txt size and shape, and the same with
# float64 weights (parsing floats is the slow case of the text formats).
_IO = (BenchGraph("sparse-large", "seed000-sparse:size=large", "sparse/large.txt"),
       BenchGraph("sparse-large-float64", "seed000-sparse:size=large,weights=float"))
_IO_SMALL = (BenchGraph("sparse-medium", "seed000-sparse:size=medium", "sparse/medium.txt"),
             BenchGraph("sparse-medium-float64", "seed000-sparse:size=medium,weights=float"))
_IO_FORMATS = ("edgelist", "snap", "dimacs", "mtx", "pbbs", "egr", "npz")

# Float64 weights as real data has them (metre lengths, costs): a road-like
# grid and a Delaunay mesh with Euclidean lengths, a grid and a random graph
# with uniform float weights; about 10 k, 100 k, 1 M and 10 M edges each.
_REAL_WEIGHT_SIZES = {
    "10k": {"road": 86, "delaunay": 3_334, "grid2d": 71, "random-degree": 2_500},
    "100k": {"road": 271, "delaunay": 33_334, "grid2d": 224, "random-degree": 25_000},
    "1M": {"road": 858, "delaunay": 333_334, "grid2d": 707, "random-degree": 250_000},
    "10M": {"road": 2_712, "delaunay": 3_333_334, "grid2d": 2_236, "random-degree": 2_500_000},
}
_REAL_WEIGHT_SPECS = {"road": "road:side={},weights=float,seed=1",
                      "delaunay": "delaunay:n={},weights=float,seed=1",
                      "grid2d": "grid2d:side={},weights=float,seed=1",
                      "random-degree": "random-degree:n={},weights=float,seed=1"}


def _real_weights(sizes: tuple[str, ...]) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"{family}-{size}", spec.format(_REAL_WEIGHT_SIZES[size][family]))
                 for size in sizes for family, spec in _REAL_WEIGHT_SPECS.items())


_REAL_WEIGHT_PEERS = ("scipy", "igraph", "networkit")

# Issue 30: point sets. The Euclidean tree against mlpack's emst (the anchors: 1 M
# 2-D uniform points 7.63 s, 100 k 3-D 1.23 s on a 2-core machine) and the SciPy Delaunay
# route; HDBSCAN's mutual-reachability tree against fast_hdbscan's and scikit-learn's.
_POINT_SOLVERS = ("boruvka-kdtree/serial", "boruvka-kdtree/cpu", "prim-dense/points")
_EMST_PEERS = ("mlpack-emst", "delaunay-scipy")
_MREACH_PEERS = ("fast-hdbscan", "sklearn-hdbscan")


def _points(name: str, spec: str, stands_for: str = "") -> BenchGraph:
    return BenchGraph(name, f"{spec},seed=1", stands_for)


_EMST = (
    _points("uniform-1M-2d", "uniform-points:n=1000000,d=2", "the issue's mlpack anchor"),
    _points("uniform-100k-3d", "uniform-points:n=100000,d=3", "the issue's mlpack anchor"),
    _points("clusters-1M-2d", "gaussian-clusters:n=1000000,d=2,clusters=20,spread=0.01"),
    _points("manifold-100k-10d", "manifold-points:n=100000,d=10,intrinsic=2"),
    _points("lattice-1M-2d", "lattice-points:n=1000000,d=2", "1000 x 1000 grid"),
    _points("duplicates-1M-2d", "duplicate-points:n=1000000,d=2,unique=100000"),
)
_EMST_SMALL = (
    _points("uniform-100k-2d", "uniform-points:n=100000,d=2"),
    _points("uniform-10k-3d", "uniform-points:n=10000,d=3"),
    _points("clusters-100k-2d", "gaussian-clusters:n=100000,d=2,clusters=20,spread=0.01"),
    _points("manifold-10k-10d", "manifold-points:n=10000,d=10,intrinsic=2"),
    _points("lattice-10k-2d", "lattice-points:n=10000,d=2", "100 x 100 grid"),
    _points("duplicates-10k-2d", "duplicate-points:n=10000,d=2,unique=1000"),
)


# The GPU bar: Prokopenko, Sao and Lebrun-Grandié (ICPP 2022) build the tree of a 37 M-point
# 3-D cosmology set in under 0.5 s on one A100 (ArborX); the device placement times the
# whole call from a CuPy array against its compute.
_EMST_GPU_SOLVERS = ("boruvka-bvh/gpu", "boruvka-kdtree/cpu")
_EMST_GPU = (
    _points("cosmology-37M-3d", "cosmology-points:n=37000000,d=3",
            "the 37 M-point cosmology set of Prokopenko et al. (ArborX on an A100: < 0.5 s)"),
    _points("cosmology-10M-3d", "cosmology-points:n=10000000,d=3"),
    _points("cosmology-1M-3d", "cosmology-points:n=1000000,d=3"),
)
_EMST_GPU_SMALL = (  # within the CUDA simulator's 400 points
    _points("cosmology-400-3d", "cosmology-points:n=400,d=3"),
    _points("uniform-300-2d", "uniform-points:n=300,d=2"),
)


def _mutual_reachability(points: tuple[BenchGraph, ...]) -> tuple[BenchGraph, ...]:
    """Each point set with min_samples 5 and 10, named ``<name>-k5``, ``<name>-k10``."""
    return tuple(BenchGraph(f"{p.name}-k{k}", p.spec, p.stands_for, min_samples=k)
                 for p in points for k in (5, 10))
# parmst's SciPy drop-in and NetworkX backend (edges and tree, NetworkX's conversion
# cache on and off) against the calls they replace, and the time NetworkX takes just to
# hand out its edges and their weights (the floor of the backend's uncached calls).
_FRONT_DOOR_PEERS = ("parmst", "scipy", "networkx-kruskal", "networkx-edges-floor")

# The multi-core solvers that can stand beside PBBS's parallel filter-Kruskal.
_PBBS_RIVALS = ("ecl/cpu", "filter-kruskal/cpu", "boruvka-edge/cpu")

# Sousa's Figures 5.2-5.4: the multiple-instance Prims against the best
# serial solvers and the Borůvka-family cpu solvers, on road-like graphs.
_PRIM_MULTI_SOLVERS = ("prim-union/cpu", "prim-multi/cpu", "prim-bmv/cpu", "ecl/cpu",
                       "genboruvka/cpu", "kruskal/serial", "prim/serial")

# Sun and Skadron section 4: dense graphs (density about 0.9) and sparse ones (|E| = 1.5 |V|,
# connected) with the same edge counts, up to 128 M edges; Shou and He's generators.
def _sun_skadron(edge_counts: tuple[int, ...]) -> tuple[BenchGraph, ...]:
    graphs = []
    for m in edge_counts:
        dense_n = round((2 * m / 0.9) ** 0.5)
        size = f"{m / 2**20:g}M"
        graphs += [BenchGraph(f"dense-{size}", f"seed000-dense:n={dense_n},m={m},seed=5",
                              f"dense graph, {size} edges"),
                   BenchGraph(f"sparse-{size}", f"seed000-sparse:n={2 * m // 3},m={m},seed=4",
                              f"sparse graph, {size} edges")]
    return tuple(graphs)


_OPENCL_SOLVERS = ("ecl/opencl", "segscan-boruvka/opencl")
_SCAN_SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)

# Shou and He section 4.5 (MPI self-speedup): the mpi solvers at 1..16 ranks of one
# thread each (pure MPI, as the paper scales) against serial Kruskal and ecl/cpu on every
# core of the same machine. GHS is left out of the large graphs (it would take hours
# there); name it with --solver to add it.
_MPI_SOLVERS = ("kruskal/serial", "ecl/cpu", "filter-boruvka/mpi[threads=1]",
                "boruvka-allreduce/mpi", "genboruvka/mpi[threads=1]")
_MPI_SMALL_SOLVERS = (*_MPI_SOLVERS, "ghs/mpi")
_WEAK = ("filter-boruvka/mpi",)
_SEED000_MPI_SOLVERS = ("kruskal/serial", "boruvka-allreduce/mpi", "filter-boruvka/mpi[threads=1]")

# Issue 27: real public graphs of the classes users bring (parmst.bench.real), the whole
# "auto" call (parmst-auto) against SciPy on its own deduplicated CSR, igraph and NetworKit.
_REAL = ("coauth-hepth", "social-facebook", "social-email-eu", "road-anaheim", "road-austin",
         "road-berlin-center", "road-birmingham", "road-chicago-regional", "road-philadelphia",
         "road-sydney", "osm-aguascalientes", "osm-west-oakland", "mesh-cow", "mesh-beast",
         "mesh-bunny", "image-spot", "image-rocker-arm")
_REAL_SMALL = ("social-email-eu", "road-anaheim", "osm-aguascalientes", "mesh-cow")
_REAL_PEERS = ("parmst-auto", "scipy", "igraph", "networkit")


def _real(names: tuple[str, ...]) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(name, f"{real.PREFIX}{name}", real.manifest()[name].kind)
                 for name in names)


SUITES: dict[str, Suite] = {suite.name: suite for suite in (
    Suite("seed000", "Shou and He section 4.1 (its eight test files)",
          _seed000(tuple(f"{kind}/{size}" for kind in ("sparse", "dense")
                         for size in ("small", "medium", "large", "extreme"))),
          solvers=_SEED000_SOLVERS, peers=("scipy",)),
    Suite("seed000-small", "Shou and He section 4.1, its small files and dense/medium",
          _seed000(("sparse/small", "dense/small", "dense/medium")),
          solvers=_SEED000_SOLVERS, peers=("scipy",)),
    Suite("ecl", "Fallin et al. Table 2 (synthetic stand-ins for its families)", _ECL_FULL,
          solvers=_ECL_SOLVERS, peers=_ECL_PEERS),
    Suite("ecl-small", "Fallin et al. Table 2 families at 2^14..2^16 vertices", _ECL_SMALL,
          solvers=_ECL_SOLVERS, peers=_ECL_PEERS),
    Suite("road", "Sousa Tables 5.1-5.2 (road-like grids of the networks' sizes)",
          _road(_ROAD_NETWORKS), solvers=_ROAD_SOLVERS, peers=("scipy",)),
    Suite("road-small", "Sousa Table 5.1, its three smallest networks at 1/4 scale",
          _road(tuple((name, n // 4) for name, n in _ROAD_NETWORKS[:3])),
          solvers=_ROAD_SOLVERS, peers=("scipy",)),
    Suite("prim-dense", "Pugliese section 4 (dense graphs, 64 to 4096 nodes)",
          _prim_dense((64, 128, 256, 512, 1024, 2048, 4096)), size_series=True,
          solvers=_PRIM_DENSE_SOLVERS, peers=("scipy",)),
    Suite("prim-dense-small", "Pugliese section 4, 64 to 1024 nodes",
          _prim_dense((64, 128, 256, 512, 1024)), size_series=True,
          solvers=_PRIM_DENSE_SOLVERS, peers=("scipy",)),
    Suite("ecl-gpu", "Fallin et al. Figures 3-4: GPU throughput on its families, compute-only",
          _ECL_GPU, solvers=("*/gpu",), peers=("scipy",), measure="compute",
          reference=ECL_MST_H100),
    Suite("ecl-gpu-small", "Fallin et al. Figures 3-4 on three small families, compute-only",
          _ECL_GPU_SMALL, solvers=("*/gpu",), peers=("scipy",), measure="compute",
          reference=ECL_MST_H100),
    Suite("ecl-ablation", "Fallin et al. Table 5: ecl/gpu with one optimization removed",
          _ECL_GPU, solvers=_ECL_ABLATION, peers=(), measure="compute", baseline="ecl/gpu"),
    Suite("ecl-ablation-small", "Fallin et al. Table 5 on three small families",
          _ECL_GPU_SMALL, solvers=_ECL_ABLATION, peers=(), measure="compute",
          baseline="ecl/gpu"),
    Suite("multigpu", "one GPU (ecl/gpu) against all of them (ecl/multigpu) on Fallin et "
          "al.'s families and on graphs too large to sit comfortably in one GPU, compute-only "
          "and end to end, with the merge's share (phases)", _ECL_GPU + _MULTIGPU_BIG,
          solvers=_MULTIGPU_SOLVERS, peers=(), measure="compute", baseline="ecl/gpu"),
    Suite("multigpu-small", "ecl/gpu against ecl/multigpu with two parts on three small "
          "families", _ECL_GPU_SMALL, solvers=_MULTIGPU_SMALL_SOLVERS, peers=(),
          measure="compute", baseline="ecl/gpu"),
    Suite("multigpu-scale", "ecl/multigpu on graphs of 10^9 edges and more generated on the "
          "GPUs, on 1, 2 and 4 of them (ecl/gpu on one as the baseline), and the 4.3e9-edge "
          "R-MAT scale 28 that no single H100 holds, on four", (),
          solvers=_MULTIGPU_SOLVERS, peers=(), measure="compute", baseline="ecl/gpu",
          gpu_scale=("rmat-2e26", "uniform-1e9", "random-degree-2e26", "road-1e9",
                     "rmat-2e28", "rmat-2e28-verify")),
    Suite("multigpu-scale-small", "the multigpu-scale path on two small graphs generated as "
          "parts of one GPU", (), solvers=_MULTIGPU_SOLVERS, peers=(), measure="compute",
          baseline="ecl/gpu", gpu_scale=("rmat-2e6", "road-small"), gpus=(1,)),
    Suite("cpu-scaling", "Shou and He / Sousa thread scaling on large graphs (1-16 threads)",
          _families(("rmat", "random-degree", "seed000-sparse", "road", "delaunay", "grid2d"),
                    "large"),
          solvers=_SCALING_SOLVERS, peers=(), threads=(1, 2, 4, 8, 16)),
    Suite("cpu-scaling-small", "thread scaling on two medium graphs (1-2 threads)",
          _families(("rmat", "random-degree"), "medium"),
          solvers=_SCALING_SOLVERS, peers=(), threads=(1, 2)),
    Suite("cpu-medium", "multi-core solvers against serial Kruskal and SciPy, medium graphs",
          _families(_MEDIUM_FAMILIES, "medium"), solvers=_CPU_SOLVERS, peers=("scipy",)),
    Suite("cpu-medium-small", "multi-core solvers against serial Kruskal and SciPy, small graphs",
          _families(_MEDIUM_FAMILIES, "small"), solvers=_CPU_SOLVERS, peers=("scipy",)),
    Suite("serial-medium", "serial solvers against SciPy, medium graphs (int32 weights)",
          _families(_ALL_FAMILIES, "medium"), solvers=_SERIAL_SOLVERS, peers=("scipy",)),
    Suite("serial-medium-small", "serial solvers against SciPy, small graphs",
          _families(_ALL_FAMILIES, "small"), solvers=_SERIAL_SOLVERS, peers=("scipy",)),
    Suite("serial-medium-float64", "serial solvers against SciPy, medium graphs, float64",
          _families(_ALL_FAMILIES, "medium", ",weights=float"), solvers=_SERIAL_SOLVERS,
          peers=("scipy",)),
    Suite("serial-medium-float64-small", "serial solvers against SciPy, small graphs, float64",
          _families(_ALL_FAMILIES, "small", ",weights=float"), solvers=_SERIAL_SOLVERS,
          peers=("scipy",)),
    Suite("real-weights", "float64 weights, 10 k to 10 M edges, the whole call against SciPy, "
          "igraph and NetworKit", _real_weights(("10k", "100k", "1M", "10M")),
          solvers=("kruskal/serial", "filter-kruskal/serial", "ecl/cpu"),
          peers=_REAL_WEIGHT_PEERS),
    Suite("real-weights-small", "float64 weights, 10 k and 100 k edges",
          _real_weights(("10k", "100k")),
          solvers=("kruskal/serial", "filter-kruskal/serial", "ecl/cpu"),
          peers=_REAL_WEIGHT_PEERS),
    Suite("float-vs-int", "kruskal/serial on float64 weights against the int64 ranks of the "
          "same weights (same order, same forest), 100 k and 1 M edges",
          _real_weights(("100k", "1M")), solvers=("kruskal/serial",), peers=(),
          weights=("given", "ranked")),
    Suite("float-vs-int-small", "kruskal/serial on float64 weights against their int64 ranks, "
          "10 k and 100 k edges", _real_weights(("10k", "100k")), solvers=("kruskal/serial",),
          peers=(), weights=("given", "ranked")),
    Suite("end-to-end", "ecl/gpu's whole call from host arrays and from device arrays "
          "against its computation on Fallin et al.'s families", _ECL_GPU,
          solvers=("ecl/gpu",), peers=(), placements=("host", "device"), end_to_end=True),
    Suite("end-to-end-small", "ecl/gpu's whole call from host and device arrays on three "
          "small families", _ECL_GPU_SMALL, solvers=("ecl/gpu",), peers=(),
          placements=("host", "device"), end_to_end=True),
    Suite("front-doors", "parmst's SciPy drop-in and NetworkX backend against SciPy and "
          "NetworkX, float64 weights, 100 k and 1 M edges", _real_weights(("100k", "1M")),
          solvers=("kruskal/serial",), peers=_FRONT_DOOR_PEERS),
    Suite("front-doors-small", "the front doors against SciPy and NetworkX, 10 k and 100 k "
          "edges", _real_weights(("10k", "100k")), solvers=("kruskal/serial",),
          peers=_FRONT_DOOR_PEERS),
    Suite("real", "real public graphs (co-authorship, social, road networks, OpenStreetMap, "
          "meshes, image grids): parmst's auto call against SciPy, igraph and NetworKit",
          _real(_REAL), solvers=("kruskal/serial",), peers=_REAL_PEERS),
    Suite("real-small", "four small real graphs (social, road, OpenStreetMap, mesh)",
          _real(_REAL_SMALL), solvers=("kruskal/serial",), peers=_REAL_PEERS),
    Suite("prim-multi", "Sousa Figures 5.2-5.4: multiple-instance Prim on road-like graphs "
          "(2^20 and 2^22 vertices), 1-16 threads",
          (BenchGraph("road-2e20", "road:side=1024,seed=1"),
           BenchGraph("road-2e22", "road:side=2048,seed=1")),
          solvers=_PRIM_MULTI_SOLVERS, peers=(), threads=(1, 2, 4, 8, 16)),
    Suite("prim-multi-small", "Sousa Figures 5.2-5.4 on road-like graphs of 2^18 and 2^20 "
          "vertices, 1-2 threads",
          (BenchGraph("road-2e18", "road:side=512,seed=1"),
           BenchGraph("road-2e20", "road:side=1024,seed=1")),
          solvers=_PRIM_MULTI_SOLVERS, peers=(), threads=(1, 2)),
    Suite("cpu-vs-pbbs", "the multi-core solvers against PBBS's parallel filter-Kruskal on "
          "Fallin et al.'s families (integer weights, which PBBS's float weights hold exactly)",
          _ECL_GPU, solvers=_PBBS_RIVALS, peers=("pbbs",), baseline="pbbs"),
    Suite("cpu-vs-pbbs-small", "the multi-core solvers against PBBS's parallel "
          "filter-Kruskal on three small families", _ECL_GPU_SMALL, solvers=_PBBS_RIVALS,
          peers=("pbbs",), baseline="pbbs"),
    Suite("mpi-scaling", "Shou and He section 4.5: MPI self-speedup of the mpi solvers, "
          "1-16 ranks, against serial Kruskal and ecl/cpu on every core",
          (BenchGraph("sparse/large", "seed000-sparse:size=large,seed=1", "sparse/large.txt"),
           BenchGraph("dense/large", "seed000-dense:size=large,seed=1", "dense/large.txt"),
           BenchGraph("rmat22", "rmat:scale=22,edge_factor=16,seed=1", "rmat22.sym"),
           BenchGraph("road-2e22", "road:side=2048,seed=1", "USA-road-d.USA")),
          solvers=_MPI_SOLVERS, peers=(), ranks=(1, 2, 4, 8, 16)),
    Suite("mpi-seed000", "Shou and He section 4.5: self-speedup of its Listing 8 and of "
          "filter-boruvka/mpi on its eight test files, 1-16 ranks",
          _seed000(tuple(f"{kind}/{size}" for kind in ("dense", "sparse")
                         for size in ("small", "medium", "large", "extreme"))),
          solvers=_SEED000_MPI_SOLVERS, peers=(), ranks=(1, 2, 4, 8, 16)),
    Suite("mpi-seed000-small", "Shou and He section 4.5 on its two small files, 1-2 ranks",
          _seed000(("dense/small", "sparse/small")), solvers=_SEED000_MPI_SOLVERS, peers=(),
          ranks=(1, 2)),
    Suite("mpi-scaling-small", "Shou and He section 4.5 on two small graphs, 1-2 ranks",
          (BenchGraph("road-2e12", "road:side=64,seed=1"),
           BenchGraph("sparse/small", "seed000-sparse:size=small,seed=1", "sparse/small.txt")),
          solvers=_MPI_SMALL_SOLVERS, peers=(), ranks=(1, 2)),
    Suite("mpi-weak", "Sanders and Schimek's weak scaling: 2^24 edges per rank, 1-16 ranks", (),
          solvers=_WEAK, peers=(), ranks=(1, 2, 4, 8, 16), weak=tuple(WEAK_GRAPHS)),
    Suite("mpi-weak-small", "weak scaling at 2^12 edges per rank, 1-2 ranks", (), solvers=_WEAK,
          peers=(), ranks=(1, 2), weak=tuple(WEAK_GRAPHS), edges_per_rank=1 << 12),
    Suite("phases", "Shou and He Figures 3-4: boruvka-edge/cpu per phase, medium graphs",
          _phases("medium"), solvers=_PHASE_SOLVERS, peers=()),
    Suite("phases-small", "Shou and He Figures 3-4: boruvka-edge/cpu per phase, small graphs",
          _phases("small"), solvers=_PHASE_SOLVERS, peers=()),
    Suite("opencl-scan", "Sun and Skadron Figures 5-8: exclusive prefix sum of 1 MB to 512 MB "
          "of uint32", (), solvers=(), peers=(), scans=_SCAN_SIZES),
    Suite("opencl-scan-small", "Sun and Skadron Figures 5-8 at 1 MB to 64 MB", (), solvers=(),
          peers=(), scans=(1, 4, 16, 64)),
    Suite("opencl-mst", "the OpenCL solvers against ecl/gpu on Fallin et al.'s GPU families, "
          "compute-only", _ECL_GPU, solvers=("ecl/gpu",) + _OPENCL_SOLVERS, peers=(),
          measure="compute", baseline="ecl/gpu", reference=ECL_MST_H100),
    Suite("opencl-mst-small", "the OpenCL solvers against ecl/cpu on three small families, "
          "compute-only", _ECL_GPU_SMALL, solvers=("ecl/cpu",) + _OPENCL_SOLVERS, peers=(),
          measure="compute", baseline="ecl/cpu"),
    Suite("opencl-boruvka", "Sun and Skadron Figures 12-14: segmented-scan Borůvka against "
          "sequential Borůvka, dense and sparse graphs of 16 M to 128 M edges",
          _sun_skadron((2**24, 2**25, 2**26, 2**27)),
          solvers=("segscan-boruvka/opencl", "boruvka/serial"), peers=(),
          baseline="boruvka/serial", warmup="prefix"),
    Suite("opencl-boruvka-small", "Sun and Skadron Figures 12-14 at 256 k and 1 M edges",
          _sun_skadron((2**18, 2**20)), solvers=("segscan-boruvka/opencl", "boruvka/serial"),
          peers=(), baseline="boruvka/serial"),
    Suite("emst", "issue 30: Euclidean minimum spanning trees of 100 k to 1 M points "
          "(uniform, clustered, on a manifold, grid, repeated) against mlpack's emst and "
          "the SciPy Delaunay route", _EMST, solvers=_POINT_SOLVERS, peers=_EMST_PEERS,
          baseline="mlpack-emst"),
    Suite("emst-small", "issue 30: Euclidean trees of 10 k to 100 k points against mlpack "
          "and SciPy's Delaunay route", _EMST_SMALL, solvers=_POINT_SOLVERS,
          peers=_EMST_PEERS, baseline="mlpack-emst"),
    Suite("emst-mreach", "issue 30: HDBSCAN's mutual-reachability tree (min_samples 5 and "
          "10) of 1 M 2-D points against fast_hdbscan and scikit-learn",
          _mutual_reachability((_EMST[0], _EMST[2])), solvers=_POINT_SOLVERS,
          peers=_MREACH_PEERS, baseline="fast-hdbscan"),
    Suite("emst-mreach-small", "issue 30: HDBSCAN's tree (min_samples 5 and 10) of 10 k "
          "and 100 k points against fast_hdbscan and scikit-learn",
          _mutual_reachability((_EMST_SMALL[1], _EMST_SMALL[2])), solvers=_POINT_SOLVERS,
          peers=_MREACH_PEERS, baseline="fast-hdbscan"),
    Suite("emst-gpu", "issue 30's GPU bar: boruvka-bvh/gpu on 1 M to 37 M clustered 3-D "
          "points from host and device arrays, beside boruvka-kdtree/cpu", _EMST_GPU,
          solvers=_EMST_GPU_SOLVERS, peers=(), placements=("host", "device"),
          baseline="boruvka-kdtree/cpu"),
    Suite("emst-gpu-small", "boruvka-bvh/gpu on two small point sets, host and device "
          "arrays (numba-cuda's simulator takes it)", _EMST_GPU_SMALL,
          solvers=_EMST_GPU_SOLVERS, peers=(), placements=("host", "device"),
          baseline="boruvka-kdtree/cpu"),
    Suite("emst-scaling", "issue 30's 16-core bar: boruvka-kdtree/cpu at 1-16 threads on "
          "10 M uniform 3-D points",
          (_points("uniform-10M-3d", "uniform-points:n=10000000,d=3"),),
          solvers=("boruvka-kdtree/cpu",), peers=(), threads=(1, 2, 4, 8, 16),
          baseline="boruvka-kdtree/cpu"),
    Suite("emst-scaling-small", "boruvka-kdtree/cpu at 1 and 2 threads on 1 M uniform 2-D "
          "points", (_EMST[0],), solvers=("boruvka-kdtree/cpu",), peers=(), threads=(1, 2),
          baseline="boruvka-kdtree/cpu"),
    Suite("io", "read and write speed of every format, 15 M edges", _IO, solvers=(),
          peers=(), formats=_IO_FORMATS),
    Suite("io-small", "read and write speed of every format, 1.5 M edges", _IO_SMALL,
          solvers=(), peers=(), formats=_IO_FORMATS),
)}


def get_suite(name: str) -> Suite:
    """The suite called ``name``; ValueError listing the suites otherwise.

    Examples
    --------
    >>> [g.name for g in get_suite("prim-dense-small").graphs][:2]
    ['dense-64', 'dense-128']
    """
    try:
        return SUITES[name]
    except KeyError:
        raise ValueError(f"unknown suite {name!r}; suites: {', '.join(SUITES)}") from None
