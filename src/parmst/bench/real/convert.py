"""Converting the real graphs' published files into parmst graphs, as the data have them.

One converter per source format, each taking the file's bytes (after any
``.bz2`` decompression) and returning a :class:`~parmst.graph.Graph`. None of
them cleans the data: edges listed twice (both directions of a co-authorship,
a road's two carriageways, a mesh edge shared by two faces) stay twice, with
the lengths the file gives them, and self-loops and isolated vertices stay.

=========  ====================================================================
format     edges and weights
=========  ====================================================================
``snap``   SNAP edge list (``#`` comments, ``u v``): every row an edge of weight
           1 (int32), vertex ids as given (``max id + 1`` vertices), read by
           :mod:`parmst.formats.snap`
``tntp``   TransportationNetworks ``_net.tntp`` link table: every link an edge
           from ``init_node - 1`` to ``term_node - 1`` weighted by its
           ``length`` (float64); ``<NUMBER OF NODES>`` vertices
``osm``    OpenStreetMap XML: every pair of consecutive nodes of a way tagged
           ``highway`` an edge weighted by its great-circle length in metres
           (float64, haversine on a sphere of 6,371,008.8 m); vertices are the
           nodes such ways use, numbered in order of first use
``obj``    Wavefront OBJ mesh: every side of every face an edge weighted by
           its Euclidean length (float64); the ``v`` lines are the vertices
``image``  an image as an 8-neighbour pixel grid: grey levels ``I`` (0-255),
           each pixel joined to its right, lower and two lower diagonal
           neighbours, weighted by the distance in (row, column, grey level)
           space, ``sqrt(d^2 + (I_p - I_q)^2)`` with ``d`` 1 or sqrt 2 (float64:
           at most 512 distinct values, never 0)
=========  ====================================================================
"""

from __future__ import annotations

import bz2
import io
import itertools
import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable

import numpy as np

from parmst.errors import MissingDependencyError
from parmst.graph import Graph

__all__ = ["CONVERTERS", "convert", "decompress"]

# The mean Earth radius (IUGG), metres.
_EARTH_RADIUS_M = 6_371_008.8


def decompress(data: bytes, path: str) -> bytes:
    """The file's bytes, bz2-decompressed where its name ends in ``.bz2``."""
    return bz2.decompress(data) if path.endswith(".bz2") else data


def _snap(data: bytes) -> Graph:
    # The SNAP reader takes a path: the bytes go through a temporary file.
    with tempfile.TemporaryDirectory(prefix="parmst-real-") as folder:
        path = os.path.join(folder, "graph.snap")
        with open(path, "wb") as f:
            f.write(data)
        return Graph.read(path, "snap", progress=False)


def _tntp(data: bytes) -> Graph:
    lines = data.decode("utf-8", errors="replace").splitlines()
    num_vertices = None
    rows = []
    in_table = False
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not in_table:
            if text.startswith("<NUMBER OF NODES>"):
                num_vertices = int(text.split(">", 1)[1])
            elif text.startswith("<END OF METADATA>"):
                in_table = True
            continue
        if not text or text.startswith("~"):
            continue
        fields = text.rstrip(";").split()
        if len(fields) < 4:
            raise ValueError(f"line {number}: a link needs init_node term_node capacity "
                             f"length, got {text!r}")
        rows.append((int(fields[0]) - 1, int(fields[1]) - 1, float(fields[3])))
    if num_vertices is None:
        raise ValueError("no <NUMBER OF NODES> line before <END OF METADATA>")
    src, dst, length = (np.array(column) for column in zip(*rows)) if rows else ([], [], [])
    return Graph.from_edges(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                            np.asarray(length, dtype=np.float64), num_vertices=num_vertices)


def _haversine_m(lat1: np.ndarray, lon1: np.ndarray, lat2: np.ndarray,
                 lon2: np.ndarray) -> np.ndarray:
    phi1, phi2 = np.radians(lat1), np.radians(lat2)
    a = (np.sin((phi2 - phi1) / 2) ** 2
         + np.cos(phi1) * np.cos(phi2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2)
    return 2 * _EARTH_RADIUS_M * np.arcsin(np.sqrt(a))


def _osm(data: bytes) -> Graph:
    position: dict[str, tuple[float, float]] = {}
    ways: list[list[str]] = []
    refs: list[str] = []
    highway = False
    for _, element in ET.iterparse(io.BytesIO(data), events=("end",)):
        if element.tag == "node":
            position[element.get("id")] = (float(element.get("lat")), float(element.get("lon")))
        elif element.tag == "nd":
            refs.append(element.get("ref"))
        elif element.tag == "tag" and element.get("k") == "highway":
            highway = True
        elif element.tag == "way":
            if highway:
                ways.append(refs)
            refs, highway = [], False
        element.clear()  # only the ids and coordinates are kept, not the tree
    index: dict[str, int] = {}
    src, dst = [], []
    for way in ways:
        for a, b in itertools.pairwise(way):
            if a in position and b in position:  # an extract may cut a way at its edge
                src.append(index.setdefault(a, len(index)))
                dst.append(index.setdefault(b, len(index)))
    coordinates = np.array([position[node] for node in index]).reshape(-1, 2)
    src_a, dst_a = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    length = _haversine_m(coordinates[src_a, 0], coordinates[src_a, 1],
                          coordinates[dst_a, 0], coordinates[dst_a, 1])
    return Graph.from_edges(src_a, dst_a, length.astype(np.float64), num_vertices=len(index))


def _obj_index(token: str, count: int) -> int:
    value = int(token.split("/", 1)[0])
    return value - 1 if value > 0 else count + value  # negative: relative to the end


def _obj(data: bytes) -> Graph:
    vertices: list[tuple[float, float, float]] = []
    src: list[int] = []
    dst: list[int] = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "v":
            vertices.append((float(fields[1]), float(fields[2]), float(fields[3])))
        elif fields[0] == "f":
            corners = [_obj_index(token, len(vertices)) for token in fields[1:]]
            src.extend(corners)
            dst.extend(corners[1:] + corners[:1])
    xyz = np.array(vertices, dtype=np.float64).reshape(-1, 3)
    src_a, dst_a = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    length = np.sqrt(((xyz[src_a] - xyz[dst_a]) ** 2).sum(axis=1))
    return Graph.from_edges(src_a, dst_a, length, num_vertices=len(vertices))


def _image(data: bytes) -> Graph:
    try:
        from PIL import Image
    except ImportError as exc:
        raise MissingDependencyError("converting an image needs Pillow, which matplotlib "
                                     "brings (pip install 'parmst[plot]')") from exc
    grey = np.asarray(Image.open(io.BytesIO(data)).convert("L"), dtype=np.int64)
    rows, cols = grey.shape
    ids = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    src, dst, weight = [], [], []
    # right, down, down-right, down-left: each neighbour pair once
    for (dr, dc), (a, b) in {(0, 1): (np.s_[:, :-1], np.s_[:, 1:]),
                             (1, 0): (np.s_[:-1, :], np.s_[1:, :]),
                             (1, 1): (np.s_[:-1, :-1], np.s_[1:, 1:]),
                             (1, -1): (np.s_[:-1, 1:], np.s_[1:, :-1])}.items():
        src.append(ids[a].ravel())
        dst.append(ids[b].ravel())
        step = (grey[a] - grey[b]).ravel().astype(np.float64)
        weight.append(np.sqrt(dr * dr + dc * dc + step * step))
    return Graph.from_edges(np.concatenate(src), np.concatenate(dst), np.concatenate(weight),
                            num_vertices=rows * cols)


CONVERTERS: dict[str, Callable[[bytes], Graph]] = {
    "snap": _snap, "tntp": _tntp, "osm": _osm, "obj": _obj, "image": _image}
"""Each source format's converter, ``converter(bytes) -> Graph``."""


def convert(fmt: str, data: bytes, path: str) -> Graph:
    """The graph in ``data``, the bytes of a file named ``path`` in format ``fmt``.

    Examples
    --------
    >>> text = b"<END OF METADATA>\\n~ init term cap length ;\\n1 2 9 0.5 ;\\n2 1 9 0.7 ;\\n"
    >>> g = convert("tntp", b"<NUMBER OF NODES> 2\\n" + text, "net.tntp")
    >>> g.num_vertices, g.weight.tolist()
    (2, [0.5, 0.7])
    """
    if fmt not in CONVERTERS:
        raise ValueError(f"unknown real-graph format {fmt!r}; formats: {', '.join(CONVERTERS)}")
    return CONVERTERS[fmt](decompress(data, path))

