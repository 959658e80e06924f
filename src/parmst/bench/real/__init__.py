"""Real public graphs for the benchmark: the manifest, the fetch command and the cache.

The graphs themselves are never in parmst's repository. The manifest
(``graphs.json`` in this package) names, for every graph, the public
GitHub repository, commit and path of its file, the file's SHA-256, the converted
graph's vertex and edge counts, its class
(co-authorship, social, road network, OpenStreetMap extract, mesh, image
grid), a licence note and its format, whose converter
(:mod:`parmst.bench.real.convert`) turns it into a graph as the data have it.

``python -m parmst.bench.real fetch`` downloads each file at its commit from
``raw.githubusercontent.com`` (or reads it from ``--source DIR``, a folder
laid out as ``DIR/<owner>/<repository>/<path>``), checks its SHA-256,
converts it and writes ``real/<name>-<sha256[:12]>.npz`` into the benchmark's
graph cache (``--cache-dir``, default :func:`parmst.bench.cache_dir.default_cache_dir`).
Suites name these graphs ``real:<name>``; one missing from the cache is
skipped with one line that names the fetch command (:class:`RealGraphMissing`).

Examples
--------
::

    python -m parmst.bench.real fetch                 # every graph of the manifest
    python -m parmst.bench.real fetch mesh-cow road-anaheim
    python -m parmst.bench.real list
    parmst bench --suite real-small
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.request
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from parmst.bench.cache_dir import default_cache_dir
from parmst.bench.real.convert import CONVERTERS, convert
from parmst.graph import Graph

__all__ = ["FETCH_COMMAND", "PREFIX", "RealGraph", "RealGraphMissing", "cache_path", "fetch",
           "load", "manifest"]

PREFIX = "real:"
"""Suites name a graph of the manifest ``real:<name>``."""

FETCH_COMMAND = "python -m parmst.bench.real fetch"
"""The command that fills the cache, as the skip line names it."""

_MANIFEST = Path(__file__).with_name("graphs.json")
_URL = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"
_FIELDS = ("name", "class", "repository", "commit", "path", "sha256", "bytes", "vertices",
           "edges", "format", "licence")


class RealGraphMissing(LookupError):
    """A real graph is not in the cache (or not in the manifest): the suite skips it."""


@dataclass(frozen=True)
class RealGraph:
    """One entry of the manifest."""

    name: str
    kind: str
    repository: str
    commit: str
    path: str
    sha256: str
    size: int
    num_vertices: int
    num_edges: int
    format: str
    licence: str

    @property
    def url(self) -> str:
        """Where the file is at its commit."""
        return _URL.format(repository=self.repository, commit=self.commit, path=self.path)


def _entry(raw: dict, position: int) -> RealGraph:
    missing = [key for key in _FIELDS if key not in raw]
    if missing:
        raise ValueError(f"{_MANIFEST.name}: graph {position} lacks {', '.join(missing)}")
    if raw["format"] not in CONVERTERS:
        raise ValueError(f"{_MANIFEST.name}: graph {raw['name']!r} has format "
                         f"{raw['format']!r}; formats: {', '.join(CONVERTERS)}")
    return RealGraph(raw["name"], raw["class"], raw["repository"], raw["commit"], raw["path"],
                     raw["sha256"], int(raw["bytes"]), int(raw["vertices"]), int(raw["edges"]),
                     raw["format"], raw["licence"])


@cache
def manifest() -> dict[str, RealGraph]:
    """The manifest's graphs by name.

    Examples
    --------
    >>> manifest()["road-anaheim"].format
    'tntp'
    """
    with open(_MANIFEST, encoding="utf-8") as f:
        raw = json.load(f)
    graphs = [_entry(item, i) for i, item in enumerate(raw["graphs"])]
    return {graph.name: graph for graph in graphs}


def _graph(name: str) -> RealGraph:
    try:
        return manifest()[name]
    except KeyError:
        raise RealGraphMissing(f"no real graph {name!r} in the manifest; graphs: "
                               f"{', '.join(manifest())}") from None


def cache_path(name: str, cache_dir: str | os.PathLike) -> Path:
    """Where graph ``name`` lies in the cache once fetched (its checksum in the file name)."""
    graph = _graph(name)
    return Path(cache_dir) / "real" / f"{name}-{graph.sha256[:12]}.npz"


def load(name: str, cache_dir: str | os.PathLike) -> Graph:
    """Graph ``name`` of the manifest from the cache; RealGraphMissing if it is not there.

    Examples
    --------
    >>> import tempfile
    >>> load("road-anaheim", tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    parmst.bench.real.RealGraphMissing: real graph road-anaheim is not in the cache ...
    """
    path = cache_path(name, cache_dir)
    if not path.exists():
        command = f"{FETCH_COMMAND} {name}"
        if Path(cache_dir) != default_cache_dir():
            command += f" --cache-dir {cache_dir}"
        raise RealGraphMissing(f"real graph {name} is not in the cache {path.parent}: "
                               f"run '{command}'")
    return Graph.read(path)


def _read_source(graph: RealGraph, source: str | os.PathLike | None) -> bytes:
    if source is not None:
        return (Path(source) / graph.repository / graph.path).read_bytes()
    with urllib.request.urlopen(graph.url, timeout=120) as response:
        return response.read()


def fetch(name: str, cache_dir: str | os.PathLike, source: str | os.PathLike | None = None
          ) -> Path:
    """Get graph ``name``'s file, check its SHA-256, convert it and write it to the cache.

    Parameters
    ----------
    name : str
        A graph of the manifest.
    cache_dir : path
        The benchmark's graph cache; the graph goes to ``real/`` inside it.
    source : path, optional
        A folder holding the files as ``<owner>/<repository>/<path>``;
        ``None`` downloads them from GitHub at the manifest's commit.

    Returns the cache file's path. A file whose checksum differs, or whose
    conversion has other vertex or edge counts than the manifest's (a
    converter changed since), raises ValueError and writes nothing.
    """
    graph = _graph(name)
    path = cache_path(name, cache_dir)
    if path.exists():
        return path
    data = _read_source(graph, source)
    digest = hashlib.sha256(data).hexdigest()
    if digest != graph.sha256:
        raise ValueError(f"{graph.repository}/{graph.path} at {graph.commit[:12]}: SHA-256 "
                         f"{digest}, the manifest says {graph.sha256}")
    converted = convert(graph.format, data, graph.path)
    counts = (converted.num_vertices, converted.num_edges)
    if counts != (graph.num_vertices, graph.num_edges):
        raise ValueError(f"{graph.name} converted to {counts[0]:,} vertices and {counts[1]:,} "
                         f"edges, the manifest says {graph.num_vertices:,} and "
                         f"{graph.num_edges:,}")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + f".{os.getpid()}.tmp.npz")
    converted.write(partial)
    os.replace(partial, path)  # atomic: a concurrent benchmark never reads half a file
    return path
