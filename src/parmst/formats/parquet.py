"""Parquet edge lists: one row per edge, columns ``source``, ``target`` and ``weight``.

Reading needs pyarrow (``pip install 'parmst[parquet]'``); columns are
named by ``source``, ``target`` and ``weight`` (``weight=None``: unit
weights), only those columns are read, and they reach the graph without a
copy where their dtypes allow (see :meth:`parmst.Graph.from_table`). Edge
ids are row order. Parquet keeps exact dtypes, so a graph written by
:func:`write` reads back identically; the vertex count is stored in the
file's key-value metadata (``parmst.num_vertices``) so trailing isolated
vertices survive, and ``num_vertices=`` overrides it. Vertex columns of
names (strings, categories) are numbered once and kept as the graph's
:attr:`~parmst.Graph.labels` (``relabel=`` as in
:meth:`parmst.Graph.from_table`); a graph with labels is written under its
names (no vertex count is stored then: the names are the vertices).

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.parquet")
>>> write(Graph.from_edges([0, 1], [1, 2], [2.5, 1.0], num_vertices=5), path)
>>> g = read(path)
>>> g.num_vertices, g.weight.tolist()
(5, [2.5, 1.0])
"""

from __future__ import annotations

import os
from typing import Any

from parmst._host_edges import EdgeArrays
from parmst._optional import require
from parmst._tables import edge_arrays
from parmst.errors import GraphFormatError, GraphValueError
from parmst.formats._common import EdgeList
from parmst.formats._files import check_readable, progress_bar

METADATA_KEY = b"parmst.num_vertices"


def _pyarrow() -> Any:
    require("pyarrow.parquet", "reading or writing Parquet")
    return require("pyarrow", "reading or writing Parquet")


def read(path: str | os.PathLike, *, source: str = "source", target: str = "target",
         weight: str | None = "weight", num_vertices: int | None = None,
         allow_nan: bool = False, relabel: bool | str | None = None,
         progress: bool | None = None) -> EdgeArrays:
    """Read a Parquet edge list (see the module documentation for the columns).

    Examples
    --------
    >>> import os, tempfile
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> path = os.path.join(tempfile.mkdtemp(), "roads.parquet")
    >>> pq.write_table(pa.table({"from": [0, 1], "to": [1, 2], "km": [3.5, 1.0]}), path)
    >>> read(path, source="from", target="to", weight="km").weight.tolist()
    [3.5, 1.0]
    """
    pa = _pyarrow()
    path = os.fspath(path)
    check_readable(path)
    columns = [source, target] + ([weight] if weight is not None else [])
    try:
        schema = pa.parquet.read_schema(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise GraphFormatError(path, f"not a Parquet file ({exc})") from exc
    missing = [c for c in columns if c not in schema.names]
    if missing:
        raise GraphFormatError(path, f"no column(s) {', '.join(map(repr, missing))}; its columns "
                                     f"are {', '.join(schema.names)}; name them with source=, "
                                     "target=, weight=")
    with progress_bar(os.path.getsize(path), f"reading {path}", progress) as bar:
        try:
            table = pa.parquet.read_table(path, columns=columns)
        except (pa.ArrowInvalid, OSError) as exc:
            raise GraphFormatError(path, f"cannot read the Parquet data ({exc})") from exc
        bar.update(os.path.getsize(path))
    if num_vertices is None and schema.metadata and METADATA_KEY in schema.metadata:
        num_vertices = int(schema.metadata[METADATA_KEY])
    try:
        return edge_arrays(table, source, target, weight, num_vertices, allow_nan=allow_nan,
                           relabel=relabel)
    except GraphValueError as exc:
        raise GraphFormatError(path, str(exc)) from exc


def write(graph: EdgeList, path: str | os.PathLike, *, compression: str = "snappy",
          progress: bool | None = None) -> None:
    """Write ``graph`` as a Parquet edge list with columns ``source``, ``target``, ``weight``.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.parquet")
    >>> write(Graph.from_edges([0], [1], [4]), path, compression="zstd")
    >>> read(path).weight.dtype.name
    'int64'
    """
    pa = _pyarrow()
    labels = graph.labels
    if labels is None:
        table = pa.table({"source": graph.src, "target": graph.dst, "weight": graph.weight})
        table = table.replace_schema_metadata({METADATA_KEY: str(graph.num_vertices).encode()})
    else:
        try:
            table = pa.table({"source": labels[graph.src], "target": labels[graph.dst],
                              "weight": graph.weight})
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise GraphValueError(f"cannot write the vertex names as Parquet ({exc})") from exc
    total = graph.src.nbytes + graph.dst.nbytes + graph.weight.nbytes
    with progress_bar(total, f"writing {os.fspath(path)}", progress) as bar:
        try:
            pa.parquet.write_table(table, os.fspath(path), compression=compression)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError) as exc:
            raise GraphValueError(f"cannot write {os.fspath(path)} as Parquet ({exc})") from exc
        bar.update(total)
