"""Plain edge lists: one ``u v w`` per line, 0-based ids (the input format of Shou and He).

Reading
-------
- Fields are separated by spaces or tabs; blank lines and lines starting
  with ``#`` or ``%`` are comments.
- The weight column is optional only for the whole file: if the first edge
  line has two fields, every line must have two and all weights are 1
  (int32); if it has three, every line must have three.
- Weights: every weight an integer -> int64; any other number (``1.5``,
  ``1e3``, ``inf``, ``nan``) -> float64, correctly rounded. ``weight_dtype=``
  (or parmst's metadata comment, see :mod:`parmst.formats._common`) chooses
  int32/int64/float32/float64 instead; integer types then reject
  non-integers and out-of-range values with the line.
- Optional header: Shou and He define none, but many generators write
  ``n m`` first. A first line with two integers followed by lines with
  three fields is read as that header (``header=None``, the default);
  ``header=True`` demands it, ``header=False`` forbids it. The header's
  ``m`` must match the number of edge lines, and ``n`` is the vertex count.
- ``num_vertices`` is, in order of precedence: the ``num_vertices=``
  option, the metadata comment, the header, else ``max id + 1``.
- ``relabel=True`` (or ``"sorted"``) maps arbitrary integer ids, even
  negative or sparse ones, onto ``0..n-1`` in increasing id order;
  ``relabel="first"`` numbers them in order of first appearance.
  :func:`read` returns the original id of each vertex (``labels``), and the
  graph keeps them as its :attr:`~parmst.Graph.labels`.
- Vertex names: where an end of the first edge line is text that is no
  number (``alice bob 3``), every end is read as a name (text without spaces), with
  ``relabel`` as above (it must be given: without it a name is an error).
  Such files are split in Python, not by the Numba tokenizer, and parsed
  with NumPy: slower, but any name works.
- ``symmetric="dedupe"`` keeps one edge per pair of mirrored lines
  ``u v w`` / ``v u w`` (files that list each undirected edge in both
  directions); the default ``"keep"`` makes every line an edge, so edge
  ids are line order (see :mod:`parmst.formats._mirror`).
- An empty file (or one with comments only) is an empty graph.

Writing
-------
A metadata comment first (``metadata=False`` leaves it out, losing the
weight dtype and trailing isolated vertices), then ``u v w`` per edge in
edge-id order. Float weights are written as the shortest decimal that
reads back to the same float64. ``labels=`` writes vertex ``v`` as
``labels[v]``: the ids that :func:`read` returned, so that a
relabelled graph (or its spanning forest) is written in the file's own ids.

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
from dataclasses import dataclass
from functools import partial

import numpy as np

from parmst._host_edges import EdgeArrays
from parmst._names import vertex_ids
from parmst.formats._common import (
    RELABEL_CHOICES,
    SPARSE_HINT,
    SYMMETRIC_CHOICES,
    EdgeList,
    Metadata,
    check_choice,
    check_declared_vertices,
    check_vertex_count,
    drop_mirrors,
    finish_weights,
    floats_asked,
    metadata_comment,
    parsed_edges,
    relabel_ids,
    resolve_weight_dtype,
    unit_weights,
    weight_limits,
)
from parmst.formats._emit import write_rows
from parmst.formats._files import open_output, read_bytes
from parmst.formats._ranges import Before, Part, announced_rows, file_bytes, line_range
from parmst.formats._rows import INT64_MAX, INT64_MIN, Rows, RowSpec, TextFile, parse_rows
from parmst.formats._words import is_number, parse_weights

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


@dataclass
class _Layout:
    """Where the edge lines start, how many fields they have, and the optional header."""

    pos: int
    line: int
    ncols: int
    metadata: Metadata
    header: tuple[int, int, int] | None  # (n, m, its line)
    name: str | None = None  # the first edge line's first end that is not an integer


def _read_header(text: TextFile, line: int, fields: list[str]) -> tuple[int, int, int]:
    if len(fields) != 2:
        raise text.error(f"expected a header line 'n m', found {len(fields)} fields", line)
    try:
        n, m = int(fields[0]), int(fields[1])
    except ValueError:
        raise text.error(f"expected a header line 'n m' of two integers, found "
                         f"'{' '.join(fields)}'", line) from None
    if n < 0 or m < 0:
        raise text.error(f"negative count in the header line 'n m': '{' '.join(fields)}'", line)
    return n, m, line


def _layout(text: TextFile, header: bool | None, comments: str) -> _Layout:
    """Look at the first two non-comment lines: header or not, two or three fields."""
    metadata = Metadata()
    lines = _data_lines(text, 0, 1, comments, metadata)
    first, second = next(lines, None), next(lines, None)
    if header is None:
        header = bool(first and second and len(first[2]) == 2 and len(second[2]) == 3)
    if header and first is None:
        raise text.error("expected a header line 'n m', found an empty file", 1)
    counts = _read_header(text, first[1], first[2]) if header else None
    edge_line = second if header else first
    if edge_line is None:
        return _Layout(len(text.data), 1, 3, metadata, counts)
    pos, line, fields = edge_line
    if len(fields) not in (2, 3):
        raise text.error(f"expected 3 fields 'u v w' (or 2, 'u v'), found {len(fields)}", line)
    # A name is printable text that is no number: "1.0" and binary garbage get the
    # tokenizer's own errors.
    name = next((end for end in fields[:2] if end.isprintable() and not is_number(end)), None)
    return _Layout(pos, line, len(fields), metadata, counts, name)


def _named_rows(text: TextFile, layout: _Layout, comments: str, dtype: np.dtype | None,
                allow_nan: bool, relabel: bool | str) -> tuple[Rows, np.ndarray]:
    """The edge lines of a file of vertex names, split in Python: the rows, numbered by the
    rule of :mod:`parmst._names`, and the name of each vertex."""
    found = list(_data_lines(text, layout.pos, layout.line, comments, Metadata()))
    lines = [line for _, line, _ in found]
    fields = [words for _, _, words in found]
    bad = next((i for i, words in enumerate(fields) if len(words) != layout.ncols), None)
    if bad is not None:
        raise text.error(f"expected {layout.ncols} fields like the first edge line, found "
                         f"{len(fields[bad])}", lines[bad])
    columns = [np.array([words[k] for words in fields], dtype=str) for k in range(layout.ncols)]
    weight = None
    if layout.ncols == 3:
        weight = parse_weights(columns[2], dtype, allow_nan,
                               lambda row, what: text.error(f"weight {what}", lines[row]))
    src, dst, labels = vertex_ids(columns[0], columns[1], relabel)
    return Rows(src, dst, weight), labels


def _vertex_count(text: TextFile, option: int | None, layout: _Layout) -> tuple[int | None, str]:
    """The vertex count (option, metadata comment, header, else unknown) and where it came from.

    A count that cannot fit in memory fails here, before the edges are read.
    """
    line = None
    if option is not None:
        count, source = option, "the num_vertices option"
    elif (from_metadata := layout.metadata.num_vertices(text.path)) is not None:
        count, source = from_metadata, f"the metadata comment on line {layout.metadata.line}"
        line = layout.metadata.line
    elif layout.header is not None:
        count, source = layout.header[0], f"the header line 'n m' on line {layout.header[2]}"
        line = layout.header[2]
    else:
        return None, ""
    check_declared_vertices(text.path, count, f"num_vertices={count} from {source}", line=line)
    return count, source


def _edge_spec(layout: _Layout, comments: str, dtype: np.dtype | None, allow_nan: bool,
               num_vertices: int | None, source: str, *, relabel: bool | str = False,
               ids_count: bool = False) -> RowSpec:
    """The edge lines' row spec: columns, comment markers, id and weight ranges.

    ``ids_count`` makes the largest id set the vertex count (checked to fit
    in memory); a part of the file (:func:`read_range`) never sets it.
    """
    weight_range, integer_weights = weight_limits(dtype)
    if relabel:
        id_range, hint = (INT64_MIN, INT64_MAX), ""
    elif num_vertices is None:
        id_range, hint = (0, INT64_MAX), ""
    else:
        id_range, hint = (0, num_vertices - 1), f" (num_vertices={num_vertices} from {source})"
    return RowSpec(("u", "v", "w")[:layout.ncols], comments=comments.encode(), id_range=id_range,
                   id_hint=hint, weight_range=weight_range, integer_weights=integer_weights,
                   float_weights=floats_asked(dtype),
                   allow_nan=allow_nan, ids_count=ids_count, sparse_hint=SPARSE_HINT)


def read(path: str | os.PathLike, *, num_vertices: int | None = None,
         weight_dtype: str | None = None, header: bool | None = None, symmetric: str = "keep",
         relabel: bool | str = False, allow_nan: bool = False, progress: bool | None = None,
         comments: str = COMMENTS) -> EdgeArrays:
    """Read an edge list: its edges, and the original id of each vertex (``labels``) when
    ``relabel`` is on.

    See the module docstring for the options. Raises GraphFormatError.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("100 7 1\\n7 -3 2\\n")
    >>> edges = read(path, relabel="first")
    >>> edges.src.tolist(), edges.dst.tolist(), edges.labels.tolist()
    ([0, 1], [1, 2], [100, 7, -3])
    """
    check_choice("symmetric", symmetric, SYMMETRIC_CHOICES)
    check_choice("relabel", relabel, RELABEL_CHOICES)
    check_vertex_count(num_vertices)
    text = TextFile(os.fspath(path), read_bytes(path, progress))
    layout = _layout(text, header, comments)
    num_vertices, source = _vertex_count(text, num_vertices, layout)
    dtype = resolve_weight_dtype(text.path, weight_dtype, layout.metadata)
    if layout.name is not None and not relabel:
        raise text.error(f"vertex {layout.name!r} is not an integer id; read with relabel=True "
                         "(parmst CLI: --relabel) to take vertex names", layout.line)
    if layout.name is not None:
        rows, labels = _named_rows(text, layout, comments, dtype, allow_nan, relabel)
    else:
        spec = _edge_spec(layout, comments, dtype, allow_nan, num_vertices, source,
                          relabel=relabel, ids_count=not relabel and num_vertices is None)
        rows, labels = parse_rows(text, layout.pos, layout.line, spec, progress), None
    if layout.header is not None and len(rows.src) != layout.header[1]:
        raise text.error(f"the header line 'n m' announces m={layout.header[1]} edges but the "
                         f"file has {len(rows.src)} edge lines", layout.header[2])
    rows = drop_mirrors(rows, symmetric)
    if labels is None:  # names are numbered as they are split; ids after the mirrors go
        src, dst, labels = relabel_ids(rows.src, rows.dst, relabel)
    else:
        src, dst = rows.src, rows.dst
    return parsed_edges(text.path, src, dst, finish_weights(rows, dtype), num_vertices, labels)


def read_range(path: str | os.PathLike, rank: int, size: int, *, before: Before | None = None,
               num_vertices: int | None = None, weight_dtype: str | None = None,
               header: bool | None = None, allow_nan: bool = False,
               comments: str = COMMENTS) -> Part:
    """Read part ``rank`` of ``size`` of an edge list: the edge lines of its byte range.

    Every part reads the file's head (header line, metadata comment); the
    header's edge count is checked over the whole file by the caller, who
    sums the parts (:attr:`Part.expected_edges`). ``before`` gives the
    lines of the parts before this one (see :mod:`parmst.formats._ranges`); by
    default one process counts them. Options as in :func:`read`,
    but ``symmetric="dedupe"`` and ``relabel`` need the whole file and are
    not offered.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("0 1 5\\n1 2 7\\n2 3 1\\n")
    >>> [read_range(path, r, 2).src.tolist() for r in range(2)]
    [[0, 1], [2]]
    """
    check_vertex_count(num_vertices)
    text = TextFile(os.fspath(path), file_bytes(path))
    layout = _layout(text, header, comments)
    lines, line = line_range(text, layout.pos, layout.line, rank, size, before)
    num_vertices, source = _vertex_count(text, num_vertices, layout)
    dtype = resolve_weight_dtype(text.path, weight_dtype, layout.metadata)
    spec = _edge_spec(layout, comments, dtype, allow_nan, num_vertices, source)
    rows = parse_rows(lines, 0, line, spec, progress=False)
    weight = unit_weights(finish_weights(rows, dtype), len(rows.src))
    if layout.header is None:
        return Part(text.path, rows.src, rows.dst, weight, dtype, num_vertices)
    _, m, header_line = layout.header
    return Part(text.path, rows.src, rows.dst, weight, dtype, num_vertices, m, header_line,
                partial(announced_rows, m, "edges"))


def write_lines(graph: EdgeList, path: str | os.PathLike, head: str, *, separator: str = " ",
                labels: np.ndarray | None = None, progress: bool | None = None) -> None:
    """Write ``head`` (comment lines) and then one ``u v w`` line per edge.

    Vertex ``v`` is written as ``labels[v]`` (by default the graph's own
    :attr:`~parmst.Graph.labels`, e.g. the ids that :func:`read`
    numbered), or as ``v`` where there are none.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> write_lines(Graph.from_edges([0], [1], [2.5]), path, "# note\\n", separator="\\t")
    >>> open(path).read()
    '# note\\n0\\t1\\t2.5\\n'
    """
    src, dst = graph.src, graph.dst
    if labels is None:
        labels = graph.labels
    if labels is not None:
        labels = _check_labels(labels, graph.num_vertices)
        src, dst = labels[src], labels[dst]
    with open_output(path) as f:
        f.write(head.encode("utf-8"))
        write_rows(f, src, dst, graph.weight, separator=separator,
                   progress=progress, description=f"writing {os.fspath(path)}")


def _check_labels(labels: np.ndarray, num_vertices: int) -> np.ndarray:
    """The ``labels=`` write option as int64: one integer id per vertex, or ValueError."""
    labels = np.asarray(labels)
    if labels.shape != (num_vertices,) or labels.dtype.kind not in "iu":
        raise ValueError(f"labels must hold one integer id per vertex ({num_vertices}), got "
                         f"shape {labels.shape} dtype {labels.dtype}; edge lists hold integer "
                         "ids: write vertex names as csv")
    return labels.astype(np.int64, copy=False)


def write(graph: EdgeList, path: str | os.PathLike, *, metadata: bool = True,
          labels: np.ndarray | None = None, progress: bool | None = None) -> None:
    """Write ``graph`` as an edge list (see the module docstring).

    ``labels`` (by default the graph's :attr:`~parmst.Graph.labels`) writes
    vertex ``v`` as ``labels[v]``, e.g. the file ids that
    :func:`read` numbered; the metadata comment then leaves out
    the vertex count, which no longer bounds the ids.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> write(Graph.from_edges([0], [1], [3]), path, metadata=False)
    >>> open(path).read()
    '0 1 3\\n'
    """
    named = labels is not None or graph.labels is not None
    head = metadata_comment("#", graph, with_vertices=not named) if metadata else ""
    write_lines(graph, path, head, labels=labels, progress=progress)
