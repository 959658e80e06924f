"""PBBS ``WeightedEdgeArray`` text files (the minimum spanning forest inputs of pbbsbench).

As pbbsbench's ``readWghEdgeArrayFromFile`` (common/graphIO.h) reads them:
the file is a sequence of whitespace-separated words; the first is
``WeightedEdgeArray``, the rest are triples ``u v w`` (0-based ids, weight
read as a number), one triple per line as PBBS writes them but line breaks
are not significant. The vertex count is ``max id + 1`` (the format cannot
hold isolated vertices after the last id, nor the weight dtype: integer
weights read as int64, others as float64, unless ``weight_dtype=`` or
``num_vertices=`` say otherwise). Where PBBS silently drops an incomplete
last triple, parmst reports it. The unweighted ``EdgeArray`` variant (pairs
``u v``) is read too, with unit weights.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.pbbs")
>>> write(Graph.from_edges([0, 1], [1, 2], [3, 4]), path)
>>> open(path).read().splitlines()
['WeightedEdgeArray', '0 1 3', '1 2 4']
>>> read(path).weight.tolist()
[3, 4]
"""

from __future__ import annotations

import os

import numpy as np

from parmst.graph import Graph
from parmst.io._common import (
    Metadata,
    check_declared_vertices,
    check_vertex_count,
    finish_weights,
    graph_from_rows,
    resolve_weight_dtype,
    weight_limits,
)
from parmst.io._emit import write_rows
from parmst.io._files import open_output, read_bytes
from parmst.io._rows import INT64_MAX, RowSpec, TextFile, _skip_separator, _token_end, parse_rows

HEADERS = {"WeightedEdgeArray": ("u", "v", "w"), "EdgeArray": ("u", "v")}


def read(path: str | os.PathLike, *, num_vertices: int | None = None,
         weight_dtype: str | None = None, allow_nan: bool = False,
         progress: bool | None = None) -> Graph:
    """Read a PBBS ``WeightedEdgeArray`` (or ``EdgeArray``) file.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pbbs")
    >>> _ = open(path, "w").write("WeightedEdgeArray 0 1 2.5 1 2 3.5")
    >>> read(path).weight.tolist()
    [2.5, 3.5]
    """
    check_vertex_count(num_vertices)
    text = TextFile(os.fspath(path), read_bytes(path, progress))
    spec, dtype, end, line = row_spec(text, num_vertices, weight_dtype, allow_nan)
    rows = parse_rows(text, end, line, spec, progress)
    return graph_from_rows(text.path, rows.src, rows.dst, finish_weights(rows, dtype), num_vertices)


def row_spec(text: TextFile, num_vertices: int | None, weight_dtype: str | None,
             allow_nan: bool) -> tuple[RowSpec, np.dtype | None, int, int]:
    """Check the header word; returns the rows' spec, weight dtype, and where the rows start.

    Returns ``(spec, dtype, end of the header word, its line)``. Shared by
    :func:`read` and the partitioned reader of :mod:`parmst.distributed`.
    """
    if num_vertices is not None:
        check_declared_vertices(text.path, num_vertices,
                                f"num_vertices={num_vertices} from the num_vertices option")
    start, line = (int(x) for x in _skip_separator(text.data, 0, 1, False))
    end = int(_token_end(text.data, start))
    word = text.token_at(start)
    if word not in HEADERS:
        found = "an empty file" if start >= len(text.data) else f"'{word}'"
        raise text.error(f"expected the header word 'WeightedEdgeArray', found {found}", line)
    dtype = resolve_weight_dtype(text.path, weight_dtype, Metadata())
    weight_range, integer_weights = weight_limits(dtype)
    last = INT64_MAX if num_vertices is None else num_vertices - 1
    hint = "" if num_vertices is None else f" (num_vertices={num_vertices})"
    spec = RowSpec(HEADERS[word], by_line=False, id_range=(0, last), id_hint=hint,
                   weight_range=weight_range, integer_weights=integer_weights,
                   allow_nan=allow_nan, ids_count=num_vertices is None)
    return spec, dtype, end, line


def write(graph: Graph, path: str | os.PathLike, *, progress: bool | None = None) -> None:
    """Write ``graph`` as a PBBS ``WeightedEdgeArray`` file, one triple per line.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pbbs")
    >>> write(Graph.from_edges([1], [0], [0.5]), path)
    >>> open(path).read()
    'WeightedEdgeArray\\n1 0 0.5\\n'
    """
    with open_output(path) as f:
        f.write(b"WeightedEdgeArray\n")
        write_rows(f, graph.src, graph.dst, graph.weight, progress=progress,
                   description=f"writing {os.fspath(path)}")
