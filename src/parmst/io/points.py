"""Point files: an ``(n, d)`` array of coordinates from ``.npy``, ``.csv`` or ``.parquet``.

=========  ===================  ================================================
format     extensions           what
=========  ===================  ================================================
npy        .npy                 a 2-D (or 1-D: one coordinate) numeric NumPy array
csv        .csv .csv.gz         one point a line, numbers separated by commas; an
                                optional header line names the columns
parquet    .parquet .pq         numeric columns (pyarrow), one point a row
=========  ===================  ================================================

Every column is read unless ``columns`` picks some, by header name (CSV,
Parquet) or by 0-based position (any format): ``columns="x,y,z"`` or
``columns=[0, 2]``. A CSV file has a header when its first line (blank lines
and ``#`` comments are skipped) holds a field that is not a number. Point
``i`` is the ``i``-th row. float32 data (``.npy``, Parquet) stays float32;
everything else becomes float64. A file that cannot be a point set raises a
:class:`~parmst.errors.GraphFormatError` naming the file, the line (CSV) or the
point and column, and the value: ragged rows, values that are not numbers,
NaN or infinite coordinates, missing values, no columns.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "points.csv")
>>> with open(path, "w") as f:
...     _ = f.write("id,x,y\\n7,0.5,1\\n8,2,3.25\\n")
>>> read_points(path, columns="x,y").tolist()
[[0.5, 1.0], [2.0, 3.25]]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import numpy as np

from parmst.errors import GraphFormatError
from parmst.formats._files import check_readable, read_bytes

__all__ = ["POINT_SUFFIXES", "read_points"]

POINT_SUFFIXES = (".npy", ".csv", ".csv.gz", ".parquet", ".pq")
"""The file names :func:`read_points` reads, by ending."""


def _column(item: str | int) -> str | int:
    """A column as a header name, or as a 0-based position (an int, or text of digits)."""
    if isinstance(item, str):
        item = item.strip()
        return int(item) if item.isdigit() else item
    return int(item)


def _wanted(columns: str | Sequence[str | int] | None) -> list[str | int] | None:
    """``"x,y"`` or ``["x", 1]`` as a list of columns (:func:`_column`); None for all."""
    if columns is None:
        return None
    items = columns.split(",") if isinstance(columns, str) else list(columns)
    return [c for c in map(_column, items) if c != ""]


def _positions(path: str, wanted: list[str | int] | None, names: list[str]) -> list[int]:
    """The 0-based positions of the ``wanted`` columns among ``names`` (all by default)."""
    if wanted is None:
        return list(range(len(names)))
    if not wanted:
        raise GraphFormatError(path, "the columns asked for name no column")
    positions = []
    for column in wanted:
        if isinstance(column, int):
            if not 0 <= column < len(names):
                raise GraphFormatError(path, f"no column {column}: it has {len(names)} "
                                             "(positions count from 0)")
            positions.append(column)
        elif column in names:
            positions.append(names.index(column))
        else:
            raise GraphFormatError(path, f"no column {column!r}; its columns are "
                                         f"{', '.join(map(str, names))}")
    return positions


def _non_finite(path: str, points: np.ndarray, names: list[str],
                line_of: Callable[[int], int] | None = None) -> None:
    """One error naming the first NaN or infinite coordinate, if any (and its file line,
    where ``line_of`` maps a point to it)."""
    bad = np.flatnonzero(~np.isfinite(points).all(axis=1)) if points.size else []
    if len(bad):
        row = int(bad[0])
        column = int(np.flatnonzero(~np.isfinite(points[row]))[0])
        line = None if line_of is None else line_of(row)
        raise GraphFormatError(path, f"point {row}, column {names[column]}: coordinate "
                                     f"{float(points[row, column])!r} (points must be finite)",
                               line=line)


def _read_npy(path: str, wanted: list[str | int] | None) -> np.ndarray:
    try:  # a memory map: a damaged header cannot make NumPy allocate what it claims
        data = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise GraphFormatError(path, f"not a NumPy .npy array ({exc})") from None
    if data.dtype.kind not in "fiu":
        raise GraphFormatError(path, f"holds {data.dtype} values; points are numbers")
    if data.ndim == 1:
        data = data.reshape(-1, 1)
    if data.ndim != 2:
        raise GraphFormatError(path, f"holds a {data.ndim}-D array of shape {data.shape}; "
                                     "points are a 2-D (n, d) array")
    names = [str(c) for c in range(data.shape[1])]
    if any(isinstance(c, str) for c in wanted or ()):
        raise GraphFormatError(path, "a .npy array has no column names: pick columns by "
                                     "position (0, 1, ...)")
    dtype = np.float32 if data.dtype == np.float32 else np.float64
    points = np.array(data[:, _positions(path, wanted, names)], dtype=dtype, order="C")
    _non_finite(path, points, names)
    return points


def _fields(line: str) -> list[str]:
    return [field.strip() for field in line.split(",")]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _csv_lines(path: str) -> list[tuple[int, str]]:
    """The file's lines that hold data or a header, with their 1-based numbers."""
    text = read_bytes(path).tobytes()
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GraphFormatError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return [(number, line) for number, line in enumerate(decoded.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")]


def _first_bad_row(path: str, lines: list[tuple[int, str]], width: int,
                   positions: list[int], names: list[str]) -> GraphFormatError:
    """The error of the first line that is ragged or holds a field that is no number."""
    for number, line in lines:
        fields = _fields(line)
        if len(fields) != width:
            return GraphFormatError(path, f"{len(fields)} fields where the first row has "
                                          f"{width} (ragged rows)", line=number)
        for p in positions:
            if not _is_number(fields[p]):
                return GraphFormatError(path, f"column {names[p]}: {fields[p][:40]!r} is not "
                                              "a number", line=number)
    return GraphFormatError(path, "unreadable numbers")


def _read_csv(path: str, wanted: list[str | int] | None) -> np.ndarray:
    lines = _csv_lines(path)
    if not lines:
        raise GraphFormatError(path, "no points and no header: the file is empty")
    first = _fields(lines[0][1])
    has_header = not all(_is_number(field) for field in first)
    names = first if has_header else [str(c) for c in range(len(first))]
    positions = _positions(path, wanted, names)
    rows = lines[1:] if has_header else lines
    if not rows:
        return np.empty((0, len(positions)), dtype=np.float64)
    try:  # NumPy's C parser; the line-by-line check below only names what it rejected
        points = np.loadtxt([line for _, line in rows], delimiter=",", dtype=np.float64,
                            usecols=positions, ndmin=2)
        ragged = any(line.count(",") != len(first) - 1 for _, line in rows)
    except ValueError:
        points, ragged = None, True
    if points is None or ragged:
        raise _first_bad_row(path, rows, len(first), positions, names)
    points = points.reshape(len(rows), len(positions))
    _non_finite(path, points, [names[p] for p in positions], line_of=lambda row: rows[row][0])
    return points


def _read_parquet(path: str, wanted: list[str | int] | None) -> np.ndarray:
    from parmst.formats.parquet import _pyarrow

    pa = _pyarrow()
    try:
        schema = pa.parquet.read_schema(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise GraphFormatError(path, f"not a Parquet file ({exc})") from None
    names = list(schema.names)
    picked = [names[p] for p in _positions(path, wanted, names)]
    for name in picked:
        kind = schema.field(name).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
            raise GraphFormatError(path, f"column {name} holds {kind} values; points are numbers"
                                         + ("" if wanted else " (pick the coordinate columns "
                                                              "with columns=)"))
    try:
        table = pa.parquet.read_table(path, columns=picked)
    except (pa.ArrowInvalid, OSError) as exc:
        raise GraphFormatError(path, f"cannot read the Parquet data ({exc})") from None
    single = all(pa.types.is_float32(schema.field(name).type) for name in picked)
    points = np.empty((table.num_rows, len(picked)), dtype=np.float32 if single else np.float64)
    for k, name in enumerate(picked):
        column = table.column(name)
        if column.null_count:
            row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
            raise GraphFormatError(path, f"point {row}, column {name}: missing value")
        points[:, k] = column.to_numpy()
    _non_finite(path, points, picked)
    return points


_READERS = {".npy": _read_npy, ".csv": _read_csv, ".parquet": _read_parquet, ".pq": _read_parquet}


def read_points(path: str | os.PathLike, *, columns: str | Sequence[str | int] | None = None
                ) -> np.ndarray:
    """Read a point set: an ``(n, d)`` array, one row a point (see the module documentation).

    Parameters
    ----------
    path : str or path
        A ``.npy``, ``.csv`` (or ``.csv.gz``) or ``.parquet`` / ``.pq`` file.
    columns : str or sequence, optional
        The coordinate columns, by name or 0-based position (``"x,y,z"``);
        all by default.

    Returns
    -------
    ndarray of float64 (float32 where the file holds float32), shape (n, d)

    Raises
    ------
    GraphFormatError
        An unknown extension, or a file that holds no finite point set
        (the message names the line or point, the column and the value).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.npy")
    >>> np.save(path, np.arange(6, dtype=np.float32).reshape(3, 2))
    >>> read_points(path, columns=[1]).ravel().tolist()
    [1.0, 3.0, 5.0]
    """
    path = os.fspath(path)
    lowered = path.lower()
    suffix = ".csv" if lowered.endswith(".csv.gz") else os.path.splitext(lowered)[1]
    if suffix not in _READERS:
        raise GraphFormatError(path, f"not a point file: the name should end in "
                                     f"{', '.join(POINT_SUFFIXES)}")
    check_readable(path)
    points = _READERS[suffix](path, _wanted(columns))
    if points.shape[1] == 0:
        raise GraphFormatError(path, "no coordinate columns (d = 0)")
    return points
