"""CSV and TSV edge tables: a header row naming the columns, then one edge per row.

Reading
-------
- The first row names the columns. Fields are separated by commas
  (``.csv``) or tabs (``.tsv``; ``delimiter=`` chooses another); quoted
  fields follow RFC 4180 (``"a, b"``, ``""`` for a quote). Blank lines are
  skipped. ``.gz`` files are decompressed.
- ``source=``, ``target=`` and ``weight=`` name the columns to read (parmst
  CLI: ``--src-col``, ``--dst-col``, ``--weight-col``). Each one not named
  is the column called ``source``, ``target`` or ``weight`` where the header
  has it, else the first column left over, left to right: a header
  ``a,b,c`` reads ``a`` to ``b`` weighing ``c``. A table of two columns has
  unit weights. Other columns are ignored.
- Vertex columns of integers are vertex ids (``relabel=`` as in
  :mod:`parmst.formats.edgelist` numbers sparse ones ``0..n-1``); any other text
  is a vertex name. Names are numbered in order of first appearance
  (``relabel="sorted"``: in sorted order) and kept as the graph's
  :attr:`~parmst.Graph.labels`; when one vertex column holds a name, both
  are read as names, so ``7`` is the same vertex in either column.
- Weights: every weight an integer -> int64 (an integer beyond int64 is
  refused unless ``weight_dtype="float64"``); any other number (``1.5``,
  ``1e3``, ``inf``, ``nan``) -> float64; ``weight_dtype=`` chooses
  int32/int64/float32/float64 instead. NaN weights need ``allow_nan=True``.
- ``engine="pyarrow"`` (the default where pyarrow is installed) streams the
  file through ``pyarrow.csv.open_csv`` with a progress bar on large files;
  ``engine="python"`` is parmst's own reader (one split of the whole text
  where no field is quoted, else Python's ``csv`` module; then NumPy's number
  parsing). Both give the same graph. Where pyarrow meets
  something it cannot read exactly (a bad value, a ragged row, an integer
  weight beyond int64), parmst's reader reads the file again to name the
  line: every error names the file, the line and the user's column, e.g.
  ``g.csv, line 17: weight column 'cost' holds 'abc'``.
- Edge ids are row order. CSV files cannot be read in parts by MPI ranks
  (:func:`parmst.io.read_part`); convert them first (``parmst convert g.csv
  g.txt --relabel``).

Writing
-------
A header with the graph's :attr:`~parmst.Graph.columns`, then one row per
edge in edge-id order, vertices under their names where the graph has
labels; float weights as the shortest text that reads back to the same
float64. CSV keeps no dtypes: int32 weights read back as int64, and
isolated vertices are lost.

Example
-------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "roads.csv")
>>> _ = open(path, "w").write("from,to,km\\nOslo,Bergen,463\\nBergen,Voss,104\\n")
>>> g = read(path, engine="python")
>>> g.labels.tolist(), g.columns, g.weight.tolist()
(['Oslo', 'Bergen', 'Voss'], ('from', 'to', 'km'), [463, 104])
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gzip
import io
import logging
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from parmst._host_edges import EdgeArrays, checked
from parmst._names import arrow_ids, order_of
from parmst._optional import installed, require
from parmst.errors import GraphFormatError, GraphValueError
from parmst.formats._common import (
    EdgeList,
    Metadata,
    check_choice,
    check_vertex_count,
    resolve_weight_dtype,
)
from parmst.formats._emit import write_rows
from parmst.formats._files import check_readable, is_gzip, open_output, progress_bar, read_bytes
from parmst.formats._words import INT64_LIMIT, as_integers, parse_weights

__all__ = ["ENGINES", "choose_columns", "delimiter_of", "read", "write"]

logger = logging.getLogger(__name__)

ENGINES = (None, "pyarrow", "python")
ROLES = ("source", "target", "weight")


def delimiter_of(path: str, delimiter: str | None) -> str:
    """The field separator: ``delimiter`` if given, else a tab for ``.tsv`` files, else a comma."""
    if delimiter is not None:
        if len(delimiter) != 1:
            raise ValueError(f"delimiter must be one character, got {delimiter!r}")
        return delimiter
    base = path[:-3] if is_gzip(path) else path
    return "\t" if base.lower().endswith(".tsv") else ","


def choose_columns(path: str, header: list[str], named: dict[str, str | None]
                   ) -> dict[str, str | None]:
    """The header column of each role (``source``, ``target``, ``weight``; weight None where
    none is left): the column named by the caller, else the one called like the role, else
    the first column left over."""
    for role, name in named.items():
        if name is not None and name not in header:
            raise GraphFormatError(path, f"no {role} column {name!r}; the header has "
                                         f"{', '.join(map(repr, header))}", line=1)
    chosen = dict(named)
    for role in ROLES:
        if chosen[role] is None and role in header and role not in chosen.values():
            chosen[role] = role
    for role in ROLES:
        if chosen[role] is None:
            left = [c for c in header if c not in chosen.values()]
            if not left and role != "weight":
                raise GraphFormatError(path, f"the header has {len(header)} column(s) "
                                             f"({', '.join(map(repr, header))}); an edge "
                                             "needs a source and a target column", line=1)
            chosen[role] = left[0] if left else None
    return chosen


# ----------------------------------------------------------------------------- python engine
class _Table:
    """The chosen columns of a CSV file as text (NumPy string arrays), and the line of each row."""

    def __init__(self, path: str, delimiter: str, named: dict[str, str | None],
                 progress: bool | None) -> None:
        self.path = path
        data = read_bytes(path, progress)
        try:
            self.text = codecs.decode(data.tobytes(), "utf-8-sig")
        except UnicodeDecodeError as exc:
            raise GraphFormatError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                                   ) from None
        self.delimiter = delimiter
        split = self._split_plain if '"' not in self.text else self._split_quoted
        self.header, widths, fields = split()
        self.chosen = choose_columns(path, self.header, named)
        width = len(self.header)
        if any(count != width for count in widths):
            at = next(i for i, count in enumerate(widths) if count != width)
            raise GraphFormatError(path, f"expected {width} fields (as the header), found "
                                         f"{widths[at]}", line=self.line_of(at))
        self.columns = {role: np.array(fields(self.header.index(name), width), dtype=str)
                        for role, name in self.chosen.items() if name is not None}

    def _split_plain(self) -> tuple[list[str], list[int], Callable[[int, int], list[str]]]:
        """Header, field count of each row, and column ``k`` of the rows, for a file without
        quotes: its fields need no CSV parser, and once every row has the header's width,
        one split of the joined rows cuts them all."""
        lines = self.text.split("\n")
        if "\r" in self.text:
            lines = [line.removesuffix("\r") for line in lines]
        lines = [line for line in lines if line]
        if not lines:
            raise GraphFormatError(self.path, "no header row: the file is empty")
        body, d = lines[1:], self.delimiter
        flat: list[list[str]] = []  # every field, row by row, split once on the first call

        def column(k: int, width: int) -> list[str]:
            if not flat:
                flat.append(d.join(body).split(d) if body else [])
            return flat[0][k::width]

        return lines[0].split(d), [row.count(d) + 1 for row in body], column

    def _split_quoted(self) -> tuple[list[str], list[int], Callable[[int, int], list[str]]]:
        """As :meth:`_split_plain`, for a file with quoted fields, by Python's csv module."""
        try:
            rows = [row for row in csv.reader(io.StringIO(self.text, newline=""),
                                              delimiter=self.delimiter, strict=True) if row]
        except csv.Error as exc:
            raise GraphFormatError(self.path, f"not CSV: {exc}",
                                   line=self._error_line()) from None
        if not rows:
            raise GraphFormatError(self.path, "no header row: the file is empty")
        body = rows[1:]
        return rows[0], [len(row) for row in body], lambda k, width: [row[k] for row in body]

    def _error_line(self) -> int:
        """The line where Python's csv module stops (for its own errors)."""
        reader = csv.reader(io.StringIO(self.text, newline=""), delimiter=self.delimiter,
                            strict=True)
        with contextlib.suppress(csv.Error):
            for _ in reader:
                pass
        return reader.line_num

    def line_of(self, row: int) -> int:
        """The line of data row ``row`` (0-based, after the header; blank lines skipped)."""
        reader = csv.reader(io.StringIO(self.text, newline=""), delimiter=self.delimiter)
        seen = -1  # the header is row -1
        for fields in reader:
            if fields:
                if seen == row:
                    return reader.line_num
                seen += 1
        return reader.line_num

    def fail(self, role: str, row: int, message: str) -> GraphFormatError:
        column = f"{role} column {self.chosen[role]!r}"
        return GraphFormatError(self.path, f"{column} {message}", line=self.line_of(row))


def _python_weights(table: _Table, dtype: np.dtype | None, allow_nan: bool) -> np.ndarray | None:
    """The weight column parsed as numbers (see the module docstring), or the error naming
    the line of the first bad value."""
    text = table.columns.get("weight")
    if text is None:
        return None
    return parse_weights(text, dtype, allow_nan, lambda row, what: table.fail("weight", row, what))


def _python_ends(table: _Table) -> tuple[np.ndarray, np.ndarray]:
    """The vertex columns: int64 where both hold integers only, else both as names."""
    src, dst = table.columns["source"], table.columns["target"]
    for role, text in (("source", src), ("target", dst)):
        empty = np.char.str_len(text) == 0
        if empty.any():
            raise table.fail(role, int(np.flatnonzero(empty)[0]), "is empty; an edge needs "
                                                                   "both ends")
    ints = as_integers(src), as_integers(dst)
    if ints[0] is not None and ints[1] is not None:
        return ints
    return src, dst


def _read_python(path: str, delimiter: str, named: dict[str, str | None],
                 dtype: np.dtype | None, allow_nan: bool, progress: bool | None):
    """``(src, dst, weight, chosen columns, table)`` by parmst's own reader."""
    table = _Table(path, delimiter, named, progress)
    src, dst = _python_ends(table)
    return src, dst, _python_weights(table, dtype, allow_nan), table.chosen


# ---------------------------------------------------------------------------- pyarrow engine
class _Redo(Exception):
    """pyarrow's result is not exact or not explained: parmst's reader reads the file again."""


def _header(path: str, delimiter: str) -> list[str]:
    """The header row (the first non-blank line), read with Python's csv module."""
    opener = gzip.open if is_gzip(path) else open
    try:
        with opener(path, "rt", encoding="utf-8-sig", newline="") as f:
            for row in csv.reader(f, delimiter=delimiter):
                if row:
                    return row
    except (UnicodeDecodeError, csv.Error, OSError, EOFError) as exc:
        raise _Redo(str(exc)) from None
    raise GraphFormatError(path, "no header row: the file is empty")


def _arrow_read(pa: Any, path: str, delimiter: str, columns: list[str],
                types: dict[str, Any], progress: bool | None) -> Any:
    """The named columns of the file, streamed through ``pyarrow.csv.open_csv`` batch by batch;
    the progress bar follows the file position (compressed bytes for ``.gz`` files)."""
    pacsv = require("pyarrow.csv", "reading CSV with pyarrow")
    options = {
        "parse_options": pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
        "convert_options": pacsv.ConvertOptions(
            include_columns=columns, column_types=types, null_values=[],
            strings_can_be_null=False, quoted_strings_can_be_null=False)}
    with open(path, "rb") as raw, progress_bar(os.path.getsize(path), f"reading {path}",
                                               progress) as bar:
        stream = gzip.GzipFile(fileobj=raw) if is_gzip(path) else raw
        try:
            reader = pacsv.open_csv(stream, **options)
            batches = []
            for batch in reader:
                batches.append(batch)
                bar.update(raw.tell() - bar.n)
            return pa.Table.from_batches(batches, schema=reader.schema)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError, EOFError) as exc:
            raise _Redo(str(exc)) from None


def _arrow_ends(pa: Any, table: Any) -> tuple[Any, Any]:
    """Both vertex columns as int64 NumPy arrays, or both as Arrow strings; _Redo where their
    kinds differ (the caller reads them again as text)."""
    src, dst = table.column("source"), table.column("target")
    integer = [pa.types.is_integer(c.type) for c in (src, dst)]
    text = [pa.types.is_string(c.type) or pa.types.is_large_string(c.type) for c in (src, dst)]
    if all(integer) and all(pa.types.is_signed_integer(c.type) for c in (src, dst)):
        return tuple(c.to_numpy() for c in (src, dst))
    if all(text):
        empty = [require("pyarrow.compute", "CSV").equal(c, "").to_numpy().any()
                 for c in (src, dst)]
        if any(empty):
            raise _Redo("an empty vertex field")
        return src, dst
    raise _Redo("vertex columns of different kinds")


def _arrow_weights(pa: Any, table: Any, dtype: np.dtype | None,
                   allow_nan: bool) -> np.ndarray | None:
    """The weight column as :func:`_python_weights` gives it; _Redo where pyarrow's types do
    not settle it (a type other than int64 or double, an integral double beyond int64, a
    value outside an integer ``weight_dtype``, a NaN not allowed)."""
    if "weight" not in table.column_names:
        return None
    column = table.column("weight")
    if column.type == pa.int64():
        values = column.to_numpy()
    elif column.type == pa.float64():
        values = column.to_numpy()
        with np.errstate(invalid="ignore"):
            huge = (np.abs(values) >= INT64_LIMIT) & np.isfinite(values)
        if (dtype is not None and dtype.kind == "i") or (huge & (values == np.floor(values))).any():
            raise _Redo("floats where integers may have been written")
        if not allow_nan and np.isnan(values).any():
            raise _Redo("a NaN weight")
    else:
        raise _Redo(f"weights of type {column.type}")
    if dtype is not None and dtype.kind == "i" and dtype != values.dtype:
        info = np.iinfo(dtype)
        if len(values) and (values.min() < info.min or values.max() > info.max):
            raise _Redo("weights beyond weight_dtype")
    return values if dtype is None else values.astype(dtype)


def _read_arrow(path: str, delimiter: str, named: dict[str, str | None],
                dtype: np.dtype | None, allow_nan: bool, progress: bool | None):
    """``(src, dst, weight, chosen columns)`` by pyarrow; _Redo where it cannot be exact."""
    pa = require("pyarrow", "reading CSV with pyarrow")
    chosen = choose_columns(path, _header(path, delimiter), named)
    names = [name for name in chosen.values() if name is not None]
    if len(set(names)) != len(names):
        raise _Redo("one column in two roles")
    table = _arrow_read(pa, path, delimiter, names, {}, progress)
    table = table.rename_columns([next(r for r, n in chosen.items() if n == name)
                                  for name in table.column_names])
    try:
        src, dst = _arrow_ends(pa, table)
    except _Redo:
        types = {chosen["source"]: pa.string(), chosen["target"]: pa.string()}
        retyped = _arrow_read(pa, path, delimiter, names, types, progress)
        retyped = retyped.rename_columns(table.column_names)
        src, dst = _arrow_ends(pa, retyped)
    return src, dst, _arrow_weights(pa, table, dtype, allow_nan), chosen


# ---------------------------------------------------------------------------------- public
def read(path: str | os.PathLike, *, source: str | None = None,
         target: str | None = None, weight: str | None = None,
         delimiter: str | None = None, relabel: bool | str | None = None,
         num_vertices: int | None = None, weight_dtype: str | None = None,
         allow_nan: bool = False, engine: str | None = None,
         progress: bool | None = None) -> EdgeArrays:
    """Read a CSV/TSV edge table: its edges, and its vertex names (``labels``, None for ids).

    See the module docstring for the options. Raises GraphFormatError.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.tsv")
    >>> _ = open(path, "w").write("u\\tv\\n10\\t999999999999\\n")
    >>> edges = read(path, relabel=True, engine="python")
    >>> edges.num_vertices, edges.labels.tolist()
    (2, [10, 999999999999])
    >>> path = os.path.join(os.path.dirname(path), "g.csv")
    >>> _ = open(path, "w").write("source,target,weight\\n0,1,2.5\\n1,2,1.0\\n")
    >>> read(path).weight.tolist()
    [2.5, 1.0]
    """
    path = os.fspath(path)
    check_choice("engine", engine, ENGINES)
    check_vertex_count(num_vertices)
    order_of(relabel, names=False)  # checks the value before any reading
    check_readable(path)
    delimiter = delimiter_of(path, delimiter)
    named = {"source": source, "target": target, "weight": weight}
    dtype = resolve_weight_dtype(path, weight_dtype, Metadata())
    if engine is None:
        engine = "pyarrow" if installed("pyarrow") else "python"
    parts = None
    if engine == "pyarrow":
        try:
            parts = _read_arrow(path, delimiter, named, dtype, allow_nan, progress)
        except _Redo as why:
            logger.debug("%s: parmst's reader reads it again (%s)", path, why)
    if parts is None:
        parts = _read_python(path, delimiter, named, dtype, allow_nan, progress)
    src, dst, w, chosen = parts
    if w is None and dtype is not None:
        w = np.ones(len(src), dtype=dtype)
    columns = (chosen["source"], chosen["target"], chosen["weight"] or "weight")
    try:
        labels = None
        if not isinstance(src, np.ndarray):  # Arrow strings: numbered by Arrow
            src, dst, labels = arrow_ids(src, dst, order_of(relabel, names=True))
        return checked(src, dst, w, num_vertices, allow_nan=allow_nan, copy=False,
                       relabel=relabel, labels=labels, columns=columns,
                       what=tuple(f"{role} column {chosen[role]!r}" for role in ROLES))
    except GraphValueError as exc:
        raise GraphFormatError(path, str(exc)) from exc


def write(graph: EdgeList, path: str | os.PathLike, *, delimiter: str | None = None,
          progress: bool | None = None) -> None:
    """Write ``graph`` as a CSV/TSV edge table with a header (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.csv")
    >>> write(Graph.from_edges(["a", "b"], ["b", "c, d"], [1.5, 2.0]), path)
    >>> open(path).read().splitlines()
    ['source,target,weight', 'a,b,1.5', 'b,"c, d",2.0']
    """
    path = os.fspath(path)
    delimiter = delimiter_of(path, delimiter)
    labels = graph.labels
    with open_output(path) as f:
        text = io.TextIOWrapper(f, encoding="utf-8", newline="")
        csv.writer(text, delimiter=delimiter, lineterminator="\n").writerow(graph.columns)
        if labels is None or (labels.dtype.kind in "iu"):
            text.flush()
            text.detach()
            src, dst = (graph.src, graph.dst) if labels is None else (labels[graph.src],
                                                                      labels[graph.dst])
            write_rows(f, src, dst, graph.weight, separator=delimiter, progress=progress,
                       description=f"writing {path}")
            return
        names = labels.tolist()
        rows = zip(map(names.__getitem__, graph.src.tolist()),
                   map(names.__getitem__, graph.dst.tolist()), graph.weight.tolist())
        with progress_bar(graph.num_edges, f"writing {path}", progress, unit="edges") as bar:
            csv.writer(text, delimiter=delimiter, lineterminator="\n").writerows(rows)
            bar.update(graph.num_edges)
        text.flush()
        text.detach()

