"""Matrix Market coordinate files (``.mtx``) as weighted adjacency matrices.

Layout (math.nist.gov/MatrixMarket): the banner
``%%MatrixMarket matrix coordinate <field> <symmetry>`` on line 1,
``%`` comment lines, the size line ``rows cols nnz``, then ``nnz`` entries
``i j [value]`` with 1-based indices. The matrix must be square (rows =
vertices). Fields: ``integer`` (int64 weights), ``real``/``double``
(float64), ``pattern`` (no values: unit weights, int32). ``complex``,
``array`` (dense) and ``hermitian``/``skew-symmetric`` storage have no
meaning as a weighted undirected graph and are rejected.

Entries and edges
-----------------
Each stored entry is one edge and its position is the edge id. A
``symmetric`` file stores each edge once (diagonal entries are
self-loops). A ``general`` matrix that holds an undirected graph stores
``(i, j)`` and ``(j, i)``; ``general=`` chooses what to do with it:
``"keep"`` (default: every entry is an edge, as SciPy's csgraph treats a
matrix; mirrored entries become parallel edges, harmless for a spanning
forest), ``"dedupe"`` (one edge per mirrored pair of equal value,
unpaired entries stay, see :mod:`parmst.formats._mirror`), ``"upper"``
(entries with ``i <= j`` only) or ``"lower"`` (``i >= j``).

Writing produces ``symmetric`` storage with each edge once as a lower
triangle entry ``max+1 min+1 w`` (edge order kept, orientation normalized),
field ``integer`` or ``real`` from the weight dtype, and parmst's metadata
comment; ``symmetry="general"`` writes the entries ``src+1 dst+1 w`` as
given instead.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.mtx")
>>> write(Graph.from_edges([0, 1], [1, 2], [1.5, 2.0]), path, metadata=False)
>>> open(path).read().splitlines()
['%%MatrixMarket matrix coordinate real symmetric', '3 3 2', '2 1 1.5', '3 2 2.0']
>>> read(path).dst.tolist()
[0, 1]
"""

from __future__ import annotations

import os
from functools import partial

import numpy as np

from parmst._host_edges import EdgeArrays
from parmst.formats._common import (
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
from parmst.formats._ranges import Before, Part, file_bytes, line_range
from parmst.formats._rows import Rows, RowSpec, TextFile, parse_rows

BANNER = "%%MatrixMarket"
FIELDS = {"integer": np.dtype(np.int64), "real": np.dtype(np.float64),
          "double": np.dtype(np.float64), "pattern": None}
GENERAL_CHOICES = ("keep", "dedupe", "upper", "lower")


def _banner(text: TextFile) -> tuple[str, str, int]:
    """Check the banner line; returns (field, symmetry, position after it)."""
    content, pos = text.read_line(0)
    words = content.split()
    expected = f"expected the banner '{BANNER} matrix coordinate <field> <symmetry>'"
    if not words or words[0] != BANNER:
        found = "an empty file" if not content.strip() else f"'{content.strip()[:50]}'"
        raise text.error(f"{expected}, found {found}", 1)
    words = [w.lower() for w in words]
    if len(words) != 5 or words[1] != "matrix":
        raise text.error(f"{expected}, found '{content.strip()}'", 1)
    if words[2] != "coordinate":
        raise text.error(f"only the sparse 'coordinate' layout is a graph, found '{words[2]}'", 1)
    if words[3] not in FIELDS:
        raise text.error(f"field must be one of {', '.join(FIELDS)}, found '{words[3]}'", 1)
    if words[4] not in ("general", "symmetric"):
        raise text.error(f"symmetry must be 'general' or 'symmetric' for a weighted undirected "
                         f"graph, found '{words[4]}'", 1)
    return words[3], words[4], pos


def _size_line(text: TextFile, pos: int) -> tuple[int, int, int, int, Metadata]:
    """Skip comments to ``rows cols nnz``; returns (n, nnz, position after it, line, metadata)."""
    line = 2
    metadata = Metadata()
    while pos < len(text.data):
        content, next_pos = text.read_line(pos)
        stripped = content.strip()
        if stripped.startswith("%"):
            metadata.take(stripped[1:], line)
        elif stripped:
            break
        pos, line = next_pos, line + 1
    else:
        raise text.error("expected the size line 'rows cols nnz', found the end of the file", line)
    try:
        rows, cols, nnz = (int(x) for x in stripped.split())
    except ValueError:
        raise text.error(f"expected the size line 'rows cols nnz' (three integers), found "
                         f"'{stripped[:50]}'", line) from None
    if min(rows, cols, nnz) < 0:
        raise text.error(f"negative count in the size line '{stripped}'", line)
    if rows != cols:
        raise text.error(f"an adjacency matrix must be square, found {rows} x {cols}", line)
    return rows, nnz, next_pos, line, metadata


def entry_spec(text: TextFile, weight_dtype: str | None, allow_nan: bool
               ) -> tuple[RowSpec, np.dtype | None, int, int, int, int, str]:
    """Read the banner and size line; returns the entries' row spec and where they start.

    Returns ``(spec, dtype, n, nnz, pos, size_line, symmetry)``: entries start
    at byte ``pos``, on the line after ``size_line``. Shared by :func:`read`
    and :func:`read_range`.
    """
    field, symmetry, pos = _banner(text)
    n, nnz, pos, size_line, metadata = _size_line(text, pos)
    check_declared_vertices(text.path, n, f"{n} rows in the size line", line=size_line)
    dtype = resolve_weight_dtype(text.path, weight_dtype, metadata)
    if dtype is None:
        dtype = FIELDS[field]
    weight_range, integer_weights = weight_limits(dtype)
    columns = ("i", "j") if field == "pattern" else ("i", "j", "value")
    spec = RowSpec(columns, comments=b"%", id_range=(1, n),
                   id_hint=f" (indices are 1-based; the size line on line {size_line} "
                           f"says {n} rows)",
                   weight_range=weight_range, integer_weights=integer_weights,
                   float_weights=floats_asked(dtype),
                   allow_nan=allow_nan)
    return spec, dtype, n, nnz, pos, size_line, symmetry


def count_message(nnz: int, found: int) -> str:
    """The error for an entry count that differs from the size line's."""
    return f"the size line announces {nnz} entries but the file has {found}"


def select_general(rows: Rows, general: str) -> Rows:
    """Apply the ``general=`` choice to the entries of a general matrix."""
    if general in ("keep", "dedupe"):
        return drop_mirrors(rows, general)
    keep = rows.src <= rows.dst if general == "upper" else rows.src >= rows.dst
    weight = rows.weight[keep] if rows.weight is not None else None
    return Rows(rows.src[keep], rows.dst[keep], weight)


def read(path: str | os.PathLike, *, general: str = "keep", weight_dtype: str | None = None,
         allow_nan: bool = False, progress: bool | None = None) -> EdgeArrays:
    """Read a Matrix Market coordinate file (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(path, "w").write("%%MatrixMarket matrix coordinate integer general\\n"
    ...                           "2 2 2\\n1 2 4\\n2 1 4\\n")
    >>> read(path).num_edges, read(path, general="dedupe").num_edges
    (2, 1)
    """
    check_choice("general", general, GENERAL_CHOICES)
    text = TextFile(os.fspath(path), read_bytes(path, progress))
    spec, dtype, n, nnz, pos, size_line, symmetry = entry_spec(text, weight_dtype, allow_nan)
    rows = parse_rows(text, pos, size_line + 1, spec, progress)
    if len(rows.src) != nnz:
        raise text.error(count_message(nnz, len(rows.src)), size_line)
    if symmetry == "general":
        rows = select_general(rows, general)
    rows.src -= 1  # 1-based ids; the arrays are the parser's own
    rows.dst -= 1
    return parsed_edges(text.path, rows.src, rows.dst, finish_weights(rows, dtype), n)


def read_range(path: str | os.PathLike, rank: int, size: int, *, before: Before | None = None,
               general: str = "keep", weight_dtype: str | None = None,
               allow_nan: bool = False) -> Part:
    """Read part ``rank`` of ``size`` of a Matrix Market file: the entries of its byte range.

    Every part reads the banner and the size line; the entry count is checked
    over the whole file by the caller, on the entries before the
    ``general=`` choice (:attr:`Part.rows_read`). ``before`` as in
    :func:`parmst.formats.edgelist.read_range`; ``general="dedupe"`` pairs entries
    across the whole file and is not offered.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(path, "w").write("%%MatrixMarket matrix coordinate integer general\\n3 3 4\\n"
    ...                           "1 2 4\\n2 1 4\\n2 3 5\\n3 2 5\\n")
    >>> parts = [read_range(path, r, 2, general="upper") for r in range(2)]
    >>> [p.dst.tolist() for p in parts], [p.counted for p in parts]
    ([[1], [2]], [2, 2])
    """
    check_choice("general", general, GENERAL_CHOICES)
    if general == "dedupe":
        raise ValueError("general='dedupe' pairs entries across the whole file; distributed "
                         "reading offers keep, upper and lower")
    text = TextFile(os.fspath(path), file_bytes(path))
    spec, dtype, n, nnz, pos, size_line, symmetry = entry_spec(text, weight_dtype, allow_nan)
    lines, line = line_range(text, pos, size_line + 1, rank, size, before)
    rows = parse_rows(lines, 0, line, spec, progress=False)
    rows_read = None
    if symmetry == "general":
        rows_read = len(rows.src)  # the size line counts entries before the choice
        rows = select_general(rows, general)
    rows.src -= 1  # 1-based ids; the arrays are the parser's own
    rows.dst -= 1
    return Part(text.path, rows.src, rows.dst,
                unit_weights(finish_weights(rows, dtype), len(rows.src)), dtype, n, nnz,
                size_line, partial(count_message, nnz), rows_read)


def write(graph: EdgeList, path: str | os.PathLike, *, symmetry: str = "symmetric",
          metadata: bool = True, progress: bool | None = None) -> None:
    """Write ``graph`` as a Matrix Market coordinate file (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> write(Graph.from_edges([0], [1], [3]), path, symmetry="general", metadata=False)
    >>> open(path).read().splitlines()
    ['%%MatrixMarket matrix coordinate integer general', '2 2 1', '1 2 3']
    """
    check_choice("symmetry", symmetry, ("symmetric", "general"))
    src, dst = graph.src, graph.dst
    if symmetry == "symmetric":
        src, dst = np.maximum(src, dst), np.minimum(src, dst)
    field = "integer" if graph.weight.dtype.kind == "i" else "real"
    head = f"{BANNER} matrix coordinate {field} {symmetry}\n"
    if metadata:
        head += metadata_comment("%", graph, with_vertices=False)
    head += f"{graph.num_vertices} {graph.num_vertices} {graph.num_edges}\n"
    with open_output(path) as f:
        f.write(head.encode("ascii"))
        write_rows(f, src, dst, graph.weight, base=1, progress=progress,
                   description=f"writing {os.fspath(path)}")
