"""Plain edge lists: one ``u v w`` per line, 0-based ids (the input format of seed 000).

Reading
-------
- Fields are separated by spaces or tabs; blank lines and lines starting
  with ``#`` or ``%`` are comments.
- The weight column is optional only for the whole file: if the first edge
  line has two fields, every line must have two and all weights are 1
  (int32); if it has three, every line must have three.
- Weights: every weight an integer -> int64; any other number (``1.5``,
  ``1e3``, ``inf``, ``nan``) -> float64, correctly rounded. ``weight_dtype=``
  (or parmst's metadata comment, see :mod:`parmst.io._common`) chooses
  int32/int64/float32/float64 instead; integer types then reject
  non-integers and out-of-range values with the line.
- Optional header: seed 000 does not define one, but many generators write
  ``n m`` first. A first line with two integers followed by lines with
  three fields is read as that header (``header=None``, the default);
  ``header=True`` demands it, ``header=False`` forbids it. The header's
  ``m`` must match the number of edge lines, and ``n`` is the vertex count.
- ``num_vertices`` is, in order of precedence: the ``num_vertices=``
  option, the metadata comment, the header, else ``max id + 1``.
- ``relabel=True`` (or ``"sorted"``) maps arbitrary integer ids, even
  negative or sparse ones, onto ``0..n-1`` in increasing id order;
  ``relabel="first"`` numbers them in order of first appearance.
  :func:`read_with_labels` returns the original id of each vertex.
- ``symmetric="dedupe"`` keeps one edge per pair of mirrored lines
  ``u v w`` / ``v u w`` (files that list each undirected edge in both
  directions); the default ``"keep"`` makes every line an edge, so edge
  ids are line order (see :mod:`parmst.io._mirror`).
- An empty file (or one with comments only) is an empty graph.

Writing
-------
A metadata comment first (``metadata=False`` leaves it out, losing the
weight dtype and trailing isolated vertices), then ``u v w`` per edge in
edge-id order. Float weights are written as the shortest decimal that
reads back to the same float64.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
>>> Graph.from_edges([0, 1], [1, 2], [2.5, -1.0], num_vertices=4).write(path)
>>> open(path).read().splitlines()[1:]
['0 1 2.5', '1 2 -1.0']
>>> g = read(path)
>>> g.num_vertices, g.weight.tolist()
(4, [2.5, -1.0])
"""

from __future__ import annotations

import os

import numpy as np

from parmst.graph import Graph
from parmst.io._common import (
    RELABEL_CHOICES,
    SYMMETRIC_CHOICES,
    Metadata,
    check_choice,
    check_vertex_count,
    drop_mirrors,
    finish_weights,
    graph_from_rows,
    metadata_comment,
    relabel_ids,
    resolve_weight_dtype,
    weight_limits,
)
from parmst.io._emit import write_rows
from parmst.io._files import open_output, read_bytes
from parmst.io._rows import INT64_MAX, INT64_MIN, RowSpec, TextFile, parse_rows

COMMENTS = "#%"


def _data_lines(text: TextFile, pos: int, line: int, comments: str, metadata: Metadata):
    """Yield (pos, line, fields) of non-comment lines, collecting metadata comments on the way."""
    while pos < len(text.data):
        content, next_pos = text.read_line(pos)
        stripped = content.strip()
        if stripped and stripped[0] in comments:
            if line == 1 and stripped.startswith("%%MatrixMarket"):
                raise text.error("this is a Matrix Market file; read it with format='mtx'", line)
            metadata.take(stripped[1:], line)
        elif stripped:
            yield pos, line, stripped.split()
        pos, line = next_pos, line + 1


def _read_header(text: TextFile, line: int, fields: list[str]) -> tuple[int, int]:
    if len(fields) != 2:
        raise text.error(f"expected a header line 'n m', found {len(fields)} fields", line)
    try:
        n, m = int(fields[0]), int(fields[1])
    except ValueError:
        raise text.error(f"expected a header line 'n m' of two integers, found "
                         f"'{' '.join(fields)}'", line) from None
    if n < 0 or m < 0:
        raise text.error(f"negative count in the header line 'n m': '{' '.join(fields)}'", line)
    return n, m


def read_with_labels(path: str | os.PathLike, *, num_vertices: int | None = None,
                     weight_dtype: str | None = None, header: bool | None = None,
                     symmetric: str = "keep", relabel: bool | str = False,
                     allow_nan: bool = False, progress: bool | None = None,
                     comments: str = COMMENTS) -> tuple[Graph, np.ndarray | None]:
    """Read an edge list; also return the original id of each vertex when ``relabel`` is on.

    See the module docstring for the options. Raises GraphFormatError.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("100 7 1\\n7 -3 2\\n")
    >>> g, labels = read_with_labels(path, relabel="first")
    >>> g.src.tolist(), g.dst.tolist(), labels.tolist()
    ([0, 1], [1, 2], [100, 7, -3])
    """
    check_choice("symmetric", symmetric, SYMMETRIC_CHOICES)
    check_choice("relabel", relabel, RELABEL_CHOICES)
    check_vertex_count(num_vertices)
    text = TextFile(os.fspath(path), read_bytes(path, progress))
    metadata = Metadata()
    lines = _data_lines(text, 0, 1, comments, metadata)
    first = next(lines, None)
    second = next(lines, None)
    pos, line = (first[0], first[1]) if first else (len(text.data), 1)
    header_n = header_m = None
    if header or (header is None and first and second and len(first[2]) == 2
                  and len(second[2]) == 3):
        if first is None:
            raise text.error("expected a header line 'n m', found an empty file", 1)
        header_n, header_m = _read_header(text, first[1], first[2])
        pos, line = second[:2] if second else (len(text.data), first[1] + 1)
    edge_line = second if header_n is not None else first
    ncols = len(edge_line[2]) if edge_line else 3
    if ncols not in (2, 3):
        raise text.error(f"expected 3 fields 'u v w' (or 2, 'u v'), found {ncols}", edge_line[1])
    source = "the num_vertices option"
    if num_vertices is None and metadata.num_vertices(text.path) is not None:
        num_vertices = metadata.num_vertices(text.path)
        source = f"the metadata comment on line {metadata.line}"
    elif num_vertices is None and header_n is not None:
        num_vertices, source = header_n, f"the header line 'n m' on line {first[1]}"
    dtype = resolve_weight_dtype(text.path, weight_dtype, metadata)
    weight_range, integer_weights = weight_limits(dtype)
    if relabel:
        id_range, hint = (INT64_MIN, INT64_MAX), ""
    else:
        last = INT64_MAX if num_vertices is None else num_vertices - 1
        hint = "" if num_vertices is None else f" (num_vertices={num_vertices} from {source})"
        id_range = (0, last)
    spec = RowSpec(("u", "v", "w")[:ncols], comments=comments.encode(), id_range=id_range,
                   id_hint=hint, weight_range=weight_range, integer_weights=integer_weights,
                   allow_nan=allow_nan)
    rows = parse_rows(text, pos, line, spec, progress)
    if header_m is not None and len(rows.src) != header_m:
        raise text.error(f"the header line 'n m' announces m={header_m} edges but the file has "
                         f"{len(rows.src)} edge lines", first[1])
    rows = drop_mirrors(rows, symmetric)
    src, dst, labels = relabel_ids(rows.src, rows.dst, relabel)
    graph = graph_from_rows(text.path, src, dst, finish_weights(rows, dtype), num_vertices)
    return graph, labels


def read(path: str | os.PathLike, **options) -> Graph:
    """Read an edge list file (options: see :func:`read_with_labels`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("# comment\\n0 1 5\\n1 2 7\\n")
    >>> read(path).weight.tolist()
    [5, 7]
    """
    return read_with_labels(path, **options)[0]


def write_lines(graph: Graph, path: str | os.PathLike, head: str, *, separator: str = " ",
                progress: bool | None = None) -> None:
    """Write ``head`` (comment lines) and then one ``u v w`` line per edge."""
    with open_output(path) as f:
        f.write(head.encode("utf-8"))
        write_rows(f, graph.src, graph.dst, graph.weight, separator=separator,
                   progress=progress, description=f"writing {os.fspath(path)}")


def write(graph: Graph, path: str | os.PathLike, *, metadata: bool = True,
          progress: bool | None = None) -> None:
    """Write ``graph`` as an edge list (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> write(Graph.from_edges([0], [1], [3]), path, metadata=False)
    >>> open(path).read()
    '0 1 3\\n'
    """
    head = metadata_comment("#", graph, with_vertices=True) if metadata else ""
    write_lines(graph, path, head, progress=progress)
