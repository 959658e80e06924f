"""Graph files: every supported format read and written, chosen by extension or by name.

========  ===========================  ==========================================
name      extensions                   what
========  ===========================  ==========================================
edgelist  .txt .el .wel .edges         ``u v w`` lines, 0-based (Shou and He)
snap      .snap                        SNAP: ``#`` comments, tab-separated ``u v [w]``
dimacs    .gr                          DIMACS 9th challenge ``p sp n m`` / ``a u v w``
mtx       .mtx                         Matrix Market coordinate, 1-based
pbbs      .pbbs                        PBBS ``WeightedEdgeArray``
egr       .egr                         ECL binary CSR (Fallin et al.), int32
npz       .npz                         NumPy archive, exact dtypes
parquet   .parquet .pq                 Parquet edge list (pyarrow), exact dtypes
csv       .csv .tsv                    CSV/TSV table with a header, named columns
========  ===========================  ==========================================

Text formats and ``egr`` may be gzip-compressed (``g.txt.gz``). Each
format's module documents its layout, its options and the choices made
where the format is loose; every reader fails on malformed input with a
:class:`~parmst.errors.GraphFormatError` naming the file, the line (text)
or byte offset (binary), what was expected and what was found. Large
files show a progress bar on stderr (``progress=None`` decides by size;
True/False force it).

Edge ids are the order of the edges in the file (lines, arcs, entries),
except in ``egr``, whose CSR layout orders them by smaller endpoint.

Vertex names: ``csv`` and ``parquet`` files may name vertices by any text,
and ``edgelist``/``snap`` files read with ``relabel=`` have sparse integer
ids; the graph keeps them as :attr:`~parmst.Graph.labels` (see
:mod:`parmst._names`), and writing a graph with labels writes them back.
Formats whose vertices are ``0..n-1`` by definition refuse a graph with
labels (write ``graph.with_labels(None)`` to write the numbers instead).

Every format but ``parquet`` and ``csv`` can also be read in parts, one per
MPI rank, each part reading only its own bytes: :func:`read_part` calls the
format's ``read_range``, which shares its parser with the format's reader.

The formats themselves live in :mod:`parmst.formats` (one module per format,
reading into edge arrays, knowing no graph); this module is where they meet
:class:`~parmst.Graph`.

Examples
--------
>>> import os, tempfile
>>> from parmst import Graph
>>> from parmst import io
>>> folder = tempfile.mkdtemp()
>>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 1, 2])
>>> io.write(g, os.path.join(folder, "g.gr"))
>>> io.convert(os.path.join(folder, "g.gr"), os.path.join(folder, "g.mtx")).num_edges
3
>>> io.read(os.path.join(folder, "g.mtx")).weight.tolist()
[3, 1, 2]
"""

from __future__ import annotations

import os
from typing import Any

from parmst.errors import GraphFormatError
from parmst.formats import (
    FORMATS,
    Format,
    GraphFileNotFoundError,
    Part,
    detect_format,
    names_problem,
    read_part,
)
from parmst.formats import write as write_edges
from parmst.formats._files import check_readable
from parmst.graph import Graph

__all__ = ["FORMATS", "Format", "GraphFileNotFoundError", "Part", "convert", "detect_format",
           "names_problem", "read", "read_part", "read_with_labels", "write"]


def read(path: str | os.PathLike, format: str | None = None, **options: Any) -> Graph:
    """Read a graph file; the format comes from the extension unless named.

    Parameters
    ----------
    path : str or PathLike
    format : str, optional
        One of :data:`FORMATS` (case-insensitive).
    **options
        The format's reading options (see its module), e.g. ``progress``,
        ``allow_nan``, ``weight_dtype``, ``symmetric``; unknown ones raise
        TypeError.

    Raises
    ------
    GraphFormatError
        Malformed file (with line or byte offset), unknown format.
    GraphFileNotFoundError
        No such file (also a FileNotFoundError).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.edges")
    >>> _ = open(path, "w").write("0 1 5\\n1 2 7\\n")
    >>> read(path).num_edges
    2
    """
    return Graph.read(path, format, **options)


def read_with_labels(path: str | os.PathLike, format: str | None = None, *,
                     relabel: bool | str = True, **options: Any) -> tuple[Graph, Any]:
    """Read a graph whose vertex ids may be sparse; also return each vertex's id in the file.

    ``relabel`` (``True``/``"sorted"`` or ``"first"``, see
    :mod:`parmst._names`) numbers the vertices ``0..n-1``; the returned
    array gives the file's id (or name) of each vertex, the graph's
    :attr:`~parmst.Graph.labels` (None when ``relabel=False`` and the file
    has no names). Only formats that can hold sparse ids or names (edgelist,
    snap, csv, parquet) support it.

    Raises
    ------
    GraphFormatError
        As :func:`read`, and for a format whose ids are dense by definition.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.snap")
    >>> _ = open(path, "w").write("10\\t999999999999\\n")
    >>> g, labels = read_with_labels(path)
    >>> g.num_vertices, labels.tolist()
    (2, [10, 999999999999])
    """
    check_readable(os.fspath(path))
    fmt = detect_format(path, format)
    if "relabel" not in fmt.read_options:
        sparse = ", ".join(f.name for f in FORMATS.values() if "relabel" in f.read_options)
        raise GraphFormatError(os.fspath(path), f"{fmt.name} files number their vertices densely; "
                                                f"relabelling applies to {sparse} files")
    graph = Graph.read(path, format, relabel=relabel, **options)
    return graph, graph.labels


def write(graph: Graph, path: str | os.PathLike, format: str | None = None,
          **options: Any) -> None:
    """Write ``graph`` to a file; the format comes from the extension unless named.

    A graph with vertex names (:attr:`~parmst.Graph.labels`) is written under
    its names, in the formats that can hold them (:func:`names_problem`).

    Raises
    ------
    GraphFormatError
        Unknown format, or names the format cannot hold.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.bin")
    >>> write(Graph.from_edges([0], [1], [4]), path, format="egr")
    >>> read(path, format="egr").weight.tolist()
    [4]
    """
    write_edges(graph, path, format, **options)


def convert(src_path: str | os.PathLike, dst_path: str | os.PathLike,
            src_format: str | None = None, dst_format: str | None = None, *,
            read_options: dict[str, Any] | None = None,
            write_options: dict[str, Any] | None = None) -> Graph:
    """Convert a graph file to another format; returns the graph read.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "g.txt"), "w").write("0 1 5\\n")
    >>> convert(os.path.join(folder, "g.txt"), os.path.join(folder, "g.npz")).num_edges
    1
    """
    graph = read(src_path, src_format, **(read_options or {}))
    write(graph, dst_path, dst_format, **(write_options or {}))
    return graph
