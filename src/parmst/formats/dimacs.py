"""DIMACS 9th Implementation Challenge shortest-path graphs (``.gr``).

Layout: ``c`` comment lines anywhere, one problem line ``p sp n m`` before
the first arc, then ``m`` arc lines ``a u v w`` with 1-based ids
``1..n``. Weights are integers in the challenge files; parmst also reads
and writes any number (``weight_dtype=`` and the metadata comment work as
in :mod:`parmst.formats.edgelist`).

Arcs versus edges
-----------------
A ``.gr`` file lists directed arcs, and road maps store each road as two
arcs ``u v w`` and ``v u w``. By default (``symmetric="keep"``) every arc
is an edge: the edge count equals the ``m`` of the problem line and the
edge id is the arc's position, the numbering every DIMACS tool uses; the
doubled roads are parallel edges, which change nothing in a spanning
forest's weight. ``symmetric="dedupe"`` keeps one edge per mirrored arc pair
(the earlier arc; unpaired arcs stay, see :mod:`parmst.formats._mirror`), which
halves a road map; it costs a sort. Writing emits one arc per edge, or both
directions with ``both_directions=True`` (read those back with
``symmetric="dedupe"`` to get the graph again).

Errors: a missing or malformed problem line, a negative count, an arc
before the problem line, an id of 0 or above ``n``, and an arc count that
differs from ``m`` each raise GraphFormatError with the line.

Example
-------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
>>> _ = open(path, "w").write("c tiny\\np sp 3 2\\na 1 2 7\\na 2 3 1\\n")
>>> g = read(path)
>>> g.src.tolist(), g.dst.tolist(), g.weight.tolist()
([0, 1], [1, 2], [7, 1])
"""

from __future__ import annotations

import os
from functools import partial

import numpy as np

from parmst._host_edges import EdgeArrays
from parmst.formats._common import (
    SYMMETRIC_CHOICES,
    EdgeList,
    Metadata,
    check_choice,
    check_declared_vertices,
    drop_mirrors,
    finish_weights,
    floats_asked,
    metadata_comment,
    parsed_edges,
    resolve_weight_dtype,
    unit_weights,
    weight_limits,
)
from parmst.formats._emit import write_rows
from parmst.formats._files import open_output, read_bytes
from parmst.formats._ranges import Before, Part, announced_rows, file_bytes, line_range
from parmst.formats._rows import RowSpec, TextFile, parse_rows

PROBLEM_LINE = "'p sp <n> <m>'"


def _problem_line(text: TextFile) -> tuple[int, int, int, int, Metadata]:
    """Find ``p sp n m``; returns (n, m, position after it, its line, metadata)."""
    pos, line = 0, 1
    metadata = Metadata()
    while pos < len(text.data):
        content, next_pos = text.read_line(pos)
        fields = content.split()
        if fields and fields[0] == "p":
            break
        if fields and fields[0] == "c":
            metadata.take(content.strip()[1:], line)
        elif fields:
            raise text.error(f"expected the problem line {PROBLEM_LINE} before any other line, "
                             f"found '{content.strip()[:40]}'", line)
        pos, line = next_pos, line + 1
    else:
        where = "an empty file" if len(text.data) == 0 else "no 'p' line"
        raise text.error(f"expected the problem line {PROBLEM_LINE}, found {where}", line)
    if len(fields) != 4 or fields[1] != "sp":
        raise text.error(f"expected the problem line {PROBLEM_LINE}, found '{content.strip()}'",
                         line)
    try:
        n, m = int(fields[2]), int(fields[3])
    except ValueError:
        raise text.error(f"expected integers n and m in the problem line {PROBLEM_LINE}, found "
                         f"'{content.strip()}'", line) from None
    if n < 0 or m < 0:
        raise text.error(f"negative count in the problem line: '{content.strip()}'", line)
    return n, m, next_pos, line, metadata


def _arc_spec(n: int, p_line: int, dtype: np.dtype | None, allow_nan: bool) -> RowSpec:
    """The arc lines' row spec: ``a u v w`` with 1-based ids up to the problem line's ``n``."""
    weight_range, integer_weights = weight_limits(dtype)
    return RowSpec(("u", "v", "w"), prefix="a", comments=b"c", id_range=(1, n),
                   id_hint=f" (ids are 1-based; the problem line on line {p_line} says n={n})",
                   weight_range=weight_range, integer_weights=integer_weights,
                   float_weights=floats_asked(dtype),
                   allow_nan=allow_nan)


def read(path: str | os.PathLike, *, symmetric: str = "keep", weight_dtype: str | None = None,
         allow_nan: bool = False, progress: bool | None = None) -> EdgeArrays:
    """Read a DIMACS ``.gr`` file (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
    >>> _ = open(path, "w").write("p sp 2 2\\na 1 2 5\\na 2 1 5\\n")
    >>> read(path).num_edges, read(path, symmetric="dedupe").num_edges
    (2, 1)
    """
    check_choice("symmetric", symmetric, SYMMETRIC_CHOICES)
    text = TextFile(os.fspath(path), read_bytes(path, progress))
    n, m, pos, p_line, metadata = _problem_line(text)
    check_declared_vertices(text.path, n, f"n={n} in the problem line", line=p_line)
    dtype = resolve_weight_dtype(text.path, weight_dtype, metadata)
    rows = parse_rows(text, pos, p_line + 1, _arc_spec(n, p_line, dtype, allow_nan), progress)
    if len(rows.src) != m:
        raise text.error(f"the problem line announces m={m} arcs but the file has "
                         f"{len(rows.src)} arc lines", p_line)
    rows = drop_mirrors(rows, symmetric)
    rows.src -= 1  # 1-based ids; the arrays are the parser's own
    rows.dst -= 1
    return parsed_edges(text.path, rows.src, rows.dst, finish_weights(rows, dtype), n)


def read_range(path: str | os.PathLike, rank: int, size: int, *, before: Before | None = None,
               weight_dtype: str | None = None, allow_nan: bool = False) -> Part:
    """Read part ``rank`` of ``size`` of a DIMACS file: the arc lines of its byte range.

    Every part reads the problem line; its arc count is checked over the
    whole file by the caller (:attr:`Part.expected_edges`). ``before`` as in
    :func:`parmst.formats.edgelist.read_range`; ``symmetric="dedupe"`` needs the
    whole file and is not offered.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
    >>> _ = open(path, "w").write("p sp 3 2\\na 1 2 7\\na 2 3 1\\n")
    >>> [read_range(path, r, 2).src.tolist() for r in range(2)]
    [[0], [1]]
    """
    text = TextFile(os.fspath(path), file_bytes(path))
    n, m, pos, p_line, metadata = _problem_line(text)
    lines, line = line_range(text, pos, p_line + 1, rank, size, before)
    dtype = resolve_weight_dtype(text.path, weight_dtype, metadata)
    rows = parse_rows(lines, 0, line, _arc_spec(n, p_line, dtype, allow_nan), progress=False)
    rows.src -= 1  # 1-based ids; the arrays are the parser's own
    rows.dst -= 1
    return Part(text.path, rows.src, rows.dst,
                unit_weights(finish_weights(rows, dtype), len(rows.src)), dtype, n, m, p_line,
                partial(announced_rows, m, "arc"))


def write(graph: EdgeList, path: str | os.PathLike, *, both_directions: bool = False,
          metadata: bool = True, progress: bool | None = None) -> None:
    """Write ``graph`` as a DIMACS ``.gr`` file (one arc per edge unless ``both_directions``).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
    >>> write(Graph.from_edges([0], [1], [9]), path, metadata=False)
    >>> open(path).read().splitlines()
    ['p sp 2 1', 'a 1 2 9']
    """
    src, dst, weight = graph.src, graph.dst, graph.weight
    if both_directions:
        src, dst = np.column_stack([src, dst]).ravel(), np.column_stack([dst, src]).ravel()
        weight = np.repeat(weight, 2)
    head = f"p sp {graph.num_vertices} {len(src)}\n"
    if metadata:
        head = metadata_comment("c", graph, with_vertices=False) + head
    with open_output(path) as f:
        f.write(head.encode("ascii"))
        write_rows(f, src, dst, weight, prefix="a ", base=1, progress=progress,
                   description=f"writing {os.fspath(path)}")
