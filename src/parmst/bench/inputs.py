"""Where a benchmark's inputs come from: generator specs (cached as ``.npz`` files), graph
files, real graphs from the cache, and point sets (files or point generator specs).

Generated graphs are cached in a directory of the user's choice (``$PARMST_CACHE`` or
``~/.cache/parmst/graphs`` by default), so that repeated runs load them instead of
generating them again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from pathlib import Path

from parmst.bench import real
from parmst.bench.cache_dir import default_cache_dir
from parmst.graph import Graph

__all__ = ["default_cache_dir", "is_point_source", "load_graph", "load_points"]

log = logging.getLogger(__name__)


def _cache_path(cache_dir: Path, spec: str) -> Path:
    from parmst import __version__

    # The version is part of the key: a generator may change between releases.
    digest = hashlib.sha1(f"{__version__}|{spec}".encode()).hexdigest()[:12]
    stem = re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec)[:80]
    return cache_dir / f"{stem}-{digest}.npz"


_POINT_FILES = (".npy", ".csv", ".csv.gz")


def is_point_source(source: str) -> bool:
    """Whether ``source`` names a point set: a point family's spec or a ``.npy`` / ``.csv``
    file (Parquet files are read as graphs here).

    Examples
    --------
    >>> is_point_source("uniform-points:n=10"), is_point_source("grid2d:side=4")
    (True, False)
    """
    from parmst.generators.points import POINT_FAMILIES

    return (source.lower().endswith(_POINT_FILES)
            or source.partition(":")[0].strip() in POINT_FAMILIES)


def load_points(source: str):
    """Read a point file, or generate points from a spec (fast enough not to be cached).

    Examples
    --------
    >>> load_points("lattice-points:n=6,d=3").shape
    (6, 3)
    """
    if os.path.exists(source):
        from parmst.io.points import read_points

        return read_points(source)
    from parmst.generators.points import generate_points

    return generate_points(source)


def load_graph(source: str, cache_dir: str | os.PathLike | None = None) -> Graph:
    """Read a graph file, or generate a graph from a spec (cached in ``cache_dir``).

    Parameters
    ----------
    source : str
        A path to an existing graph file (any format :mod:`parmst.io`
        reads), a generator spec such as ``"rmat:scale=14,seed=1"``, or
        ``"real:<name>"``, a real graph fetched by :mod:`parmst.bench.real`
        (:class:`~parmst.bench.real.RealGraphMissing` if it is not in the cache).
    cache_dir : path, optional
        Where generated graphs are kept as ``.npz``; ``None`` disables caching.

    Examples
    --------
    >>> load_graph("grid2d:side=4,seed=1").num_vertices
    16
    """
    if os.path.exists(source):
        return Graph.read(source)
    if source.startswith(real.PREFIX):  # a real graph: fetched into the cache, never generated
        return real.load(source[len(real.PREFIX):],
                         cache_dir if cache_dir is not None else default_cache_dir())
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
