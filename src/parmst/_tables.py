"""Columns of pandas, polars and Arrow tables as NumPy arrays, without copying where possible.

A numeric column without missing values in one contiguous buffer comes back
as a read-only view of that buffer (pandas' NumPy-backed columns, a polars
Series of one chunk, an Arrow column of one chunk); otherwise it is copied
once. Missing values are an error: an edge needs both ends and a weight.
Anything else indexable by column name (a dict of arrays, a NumPy record
array) works as before through ``np.asarray``.

Vertex columns of names (:func:`vertex_columns`) in Arrow tables (and polars
tables, which hand them over to Arrow without a copy) are numbered by Arrow's
``dictionary_encode``; pandas columns of strings, categories or objects come
back as object arrays, which :mod:`parmst._names` numbers with
``pandas.factorize``.

Examples
--------
>>> import numpy as np
>>> column_array({"w": np.array([1.5, 2.5])}, "w").tolist()
[1.5, 2.5]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst._host_edges import EdgeArrays, checked
from parmst._names import arrow_ids, order_of
from parmst._optional import installed, require
from parmst.errors import GraphValueError

__all__ = ["column_array", "edge_arrays", "vertex_columns"]


def _missing(name: str, count: int) -> GraphValueError:
    return GraphValueError(f"column {name!r} has {count} missing (null) values; drop or fill "
                           "them first")


def _no_column(name: str, columns: Any) -> GraphValueError:
    return GraphValueError(f"table has no column {name!r}; its columns are "
                           f"{', '.join(map(str, columns))}")


def _arrow(table: Any, name: str) -> np.ndarray:
    if name not in table.column_names:
        raise _no_column(name, table.column_names)
    column = table.column(name)
    if column.null_count:
        raise _missing(name, column.null_count)
    if hasattr(column, "num_chunks"):  # a Table's ChunkedArray
        column = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    return column.to_numpy(zero_copy_only=False)


def _polars(table: Any, name: str) -> np.ndarray:
    if name not in table.columns:
        raise _no_column(name, table.columns)
    series = table.get_column(name)
    if series.null_count():
        raise _missing(name, series.null_count())
    return series.to_numpy()


def _pandas(table: Any, name: str) -> np.ndarray:
    if name not in table.columns:
        raise _no_column(name, table.columns)
    series = table[name]
    missing = int(series.isna().sum())
    if missing:
        raise _missing(name, missing)
    if isinstance(series.dtype, np.dtype):
        return series.to_numpy()
    return series.to_numpy(dtype=getattr(series.dtype, "numpy_dtype", None))


_READERS = {"pyarrow": _arrow, "polars": _polars, "pandas": _pandas}


def column_array(table: Any, name: str) -> np.ndarray:
    """Column ``name`` of ``table`` as a NumPy array (a view where the buffer allows)."""
    reader = _READERS.get(type(table).__module__.split(".", 1)[0])
    if reader is not None:
        return reader(table, name)
    try:
        return np.asarray(table[name])
    except (KeyError, IndexError, ValueError) as exc:
        raise GraphValueError(f"table has no column {name!r}") from exc


def _arrow_names(table: Any, name: str) -> Any:
    """Column ``name`` of an Arrow or polars table as an Arrow array if it holds names (strings,
    categories), else None."""
    library = type(table).__module__.split(".", 1)[0]
    if library == "polars" and name in table.columns and installed("pyarrow"):
        series = table.get_column(name)
        if series.dtype.is_numeric() or series.null_count():
            return None  # numbers are ids; nulls get column_array's error
        column = series.to_arrow()
    elif library == "pandas" and name in table.columns and installed("pyarrow"):
        series = table[name]
        if series.dtype.kind not in "OU" or series.dtype == object or series.isna().any():
            return None  # numbers are ids, objects may be anything; nulls: column_array's error
        pa = require("pyarrow", "Arrow columns of vertex names")
        column = pa.array(series)  # string and categorical columns: Arrow's buffers
    elif library == "pyarrow" and name in table.column_names:
        column = table.column(name)
        if column.null_count:
            return None
    else:
        return None
    pa = require("pyarrow", "Arrow columns of vertex names")
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    textual = (pa.types.is_string(kind) or pa.types.is_large_string(kind)
               or pa.types.is_string_view(kind) or pa.types.is_binary(kind)
               or pa.types.is_large_binary(kind))
    return column if textual else None


def vertex_columns(table: Any, source: str, target: str, relabel: Any
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The ``source`` and ``target`` columns as arrays, numbered with their names (labels) where
    Arrow holds them; else as :func:`column_array` gives them, labels None, for
    :func:`parmst._names.vertex_ids` to number if they hold names."""
    ends = [_arrow_names(table, name) for name in (source, target)]
    if all(end is not None for end in ends):
        order = order_of(relabel, names=True)
        if order is not None:
            return arrow_ids(*ends, order)
    return column_array(table, source), column_array(table, target), None


def edge_arrays(table: Any, source: str, target: str, weight: str | None, num_vertices: Any, *,
                allow_nan: bool, relabel: Any) -> EdgeArrays:
    """The edges of a table (``Graph.from_table``, Parquet files) checked as
    :func:`parmst._host_edges.checked` checks arrays, errors naming the table's columns."""
    src, dst, labels = vertex_columns(table, source, target, relabel)
    w = column_array(table, weight) if weight is not None else None
    what = (f"column {source!r}", f"column {target!r}", f"weight column {weight!r}")
    columns = (str(source), str(target), str(weight if weight is not None else "weight"))
    return checked(src, dst, w, num_vertices, allow_nan=allow_nan, copy=False, relabel=relabel,
                   what=what, columns=columns, labels=labels)
