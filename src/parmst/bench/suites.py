"""Named benchmark suites that reproduce the papers' experiments, and graph loading.

Each suite lists generator specs (see :mod:`parmst.generators`) with the name
the paper gave the input it stands in for. Every suite has a full variant,
sized like the paper (for machines with tens of GiB and many cores), and a
``-small`` variant that runs end to end in under two minutes on a 2-core
laptop with every solver that can run there and the SciPy peer.

=================  ==============================================================
suite              reproduces
=================  ==============================================================
``seed000``        seed 000 section 4.1: the eight sparse/dense test files
``ecl``            seed 001 Table 2: synthetic stand-ins for its graph families
``road``           seed 003 Table 5.1/5.2: road networks of growing size
``prim-dense``     seed 004 section 4: dense graphs of 64 ... 4096 vertices
=================  ==============================================================

The ``-small`` variants hold 2,000 to 520,000 edges per graph. The full
variants are for bigger machines: ``seed000`` goes up to 20 M vertices and
30 M edges (sparse/extreme) and 28.8 M edges on 8,000 vertices
(dense/extreme), about 8 GiB of memory; ``ecl`` up to about 100 M edges
(kron-21, before repeats are removed) and 8.4 M vertices (r4-2e23), 32 GiB or
more; ``road`` up to 24 M vertices and 33 M edges (road-USA), 16 GiB;
``prim-dense`` up to the complete graph on 4,096 vertices (8.4 M edges).
``parmst bench --list`` prints every graph's size.

Generated graphs are cached as ``.npz`` files in a directory of the user's
choice (``$PARMST_CACHE`` or ``~/.cache/parmst/graphs`` by default), so that
repeated runs load them instead of generating them again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from parmst.graph import Graph

__all__ = ["SUITES", "BenchGraph", "Suite", "default_cache_dir", "get_suite", "load_graph"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BenchGraph:
    """One input of a suite: a display name, a generator spec and the paper's input."""

    name: str
    spec: str
    stands_for: str = ""


@dataclass(frozen=True)
class Suite:
    """A named list of inputs reproducing one paper's experiment.

    Attributes
    ----------
    name : str
    paper : str
        The seed paper and the table or figure it reproduces.
    graphs : tuple of BenchGraph
    size_series : bool
        The inputs form a size series (plotted as time against size).
    """

    name: str
    paper: str
    graphs: tuple[BenchGraph, ...]
    size_series: bool = False
    notes: str = ""
    specs: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(g.spec for g in self.graphs))


def _seed000(files: tuple[str, ...]) -> tuple[BenchGraph, ...]:
    """Stand-ins for the report's test files, named like them ("sparse/small")."""
    return tuple(BenchGraph(name, "seed000-{}:size={},seed=1".format(*name.split("/")),
                            f"{name}.txt") for name in files)


def _prim_dense(sizes: tuple[int, ...]) -> tuple[BenchGraph, ...]:
    return tuple(BenchGraph(f"dense-{n}", f"dense:n={n},seed=1", f"{n} nodes") for n in sizes)


# seed 003 Table 5.1: (name, vertices) of the DIMACS road networks; the
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

SUITES: dict[str, Suite] = {suite.name: suite for suite in (
    Suite("seed000", "seed 000 section 4.1 (its eight test files)",
          _seed000(tuple(f"{kind}/{size}" for kind in ("sparse", "dense")
                         for size in ("small", "medium", "large", "extreme")))),
    Suite("seed000-small", "seed 000 section 4.1, its small files and dense/medium",
          _seed000(("sparse/small", "dense/small", "dense/medium"))),
    Suite("ecl", "seed 001 Table 2 (synthetic stand-ins for its families)", _ECL_FULL),
    Suite("ecl-small", "seed 001 Table 2 families at 2^14..2^16 vertices", _ECL_SMALL),
    Suite("road", "seed 003 Tables 5.1-5.2 (road-like grids of the networks' sizes)",
          _road(_ROAD_NETWORKS)),
    Suite("road-small", "seed 003 Table 5.1, its three smallest networks at 1/4 scale",
          _road(tuple((name, n // 4) for name, n in _ROAD_NETWORKS[:3]))),
    Suite("prim-dense", "seed 004 section 4 (dense graphs, 64 to 4096 nodes)",
          _prim_dense((64, 128, 256, 512, 1024, 2048, 4096)), size_series=True),
    Suite("prim-dense-small", "seed 004 section 4, 64 to 1024 nodes",
          _prim_dense((64, 128, 256, 512, 1024)), size_series=True),
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


def default_cache_dir() -> Path:
    """``$PARMST_CACHE`` if set, else ``~/.cache/parmst/graphs``."""
    env = os.environ.get("PARMST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "parmst" / "graphs"


def _cache_path(cache_dir: Path, spec: str) -> Path:
    from parmst import __version__

    # The version is part of the key: a generator may change between releases.
    digest = hashlib.sha1(f"{__version__}|{spec}".encode()).hexdigest()[:12]
    stem = re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec)[:80]
    return cache_dir / f"{stem}-{digest}.npz"


def load_graph(source: str, cache_dir: str | os.PathLike | None = None) -> Graph:
    """Read a graph file, or generate a graph from a spec (cached in ``cache_dir``).

    Parameters
    ----------
    source : str
        A path to an existing graph file (any format :mod:`parmst.io`
        reads), or a generator spec such as ``"rmat:scale=14,seed=1"``.
    cache_dir : path, optional
        Where generated graphs are kept as ``.npz``; ``None`` disables caching.

    Examples
    --------
    >>> load_graph("grid2d:side=4,seed=1").num_vertices
    16
    """
    if os.path.exists(source):
        return Graph.read(source)
    from parmst.generators import generate

    if cache_dir is None:
        return generate(source)
    path = _cache_path(Path(cache_dir), source)
    if path.exists():
        log.info("loading %s from cache %s", source, path)
        return Graph.read(path)
    graph = generate(source)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + f".{os.getpid()}.tmp.npz")
    graph.write(partial)
    os.replace(partial, path)  # atomic, so a concurrent run never reads half a file
    return graph
