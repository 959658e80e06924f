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

from parmst._host_edges import EdgeArrays
from parmst.formats._common import (
    EdgeList,
    Metadata,
    check_declared_vertices,
    check_vertex_count,
    finish_weights,
    floats_asked,
    parsed_edges,
    resolve_weight_dtype,
    unit_weights,
    weight_limits,
)
from parmst.formats._emit import write_rows
from parmst.formats._files import open_output, read_bytes
from parmst.formats._ranges import (
    Before,
    Part,
    byte_range,
    file_bytes,
    range_counts,
    simulated_before,
)
from parmst.formats._rows import (
    INT64_MAX,
    RowSpec,
    TextFile,
    count_lines,
    count_words,
    first_word,
    parse_rows,
    word_span,
)

HEADERS = {"WeightedEdgeArray": ("u", "v", "w"), "EdgeArray": ("u", "v")}


def read(path: str | os.PathLike, *, num_vertices: int | None = None,
         weight_dtype: str | None = None, allow_nan: bool = False,
         progress: bool | None = None) -> EdgeArrays:
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
    return parsed_edges(text.path, rows.src, rows.dst, finish_weights(rows, dtype), num_vertices)


def row_spec(text: TextFile, num_vertices: int | None, weight_dtype: str | None,
             allow_nan: bool) -> tuple[RowSpec, np.dtype | None, int, int]:
    """Check the header word; returns the rows' spec, weight dtype, and where the rows start.

    Returns ``(spec, dtype, end of the header word, its line)``. Shared by
    :func:`read` and :func:`read_range`.
    """
    if num_vertices is not None:
        check_declared_vertices(text.path, num_vertices,
                                f"num_vertices={num_vertices} from the num_vertices option")
    start, end, line = first_word(text.data, 0, 1)
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
                   float_weights=floats_asked(dtype),
                   allow_nan=allow_nan, ids_count=num_vertices is None)
    return spec, dtype, end, line


def read_range(path: str | os.PathLike, rank: int, size: int, *, before: Before | None = None,
               num_vertices: int | None = None, weight_dtype: str | None = None,
               allow_nan: bool = False) -> Part:
    """Read part ``rank`` of ``size`` of a PBBS file: the rows whose first word lies in its range.

    Line breaks mean nothing in PBBS files, so the byte ranges (cut at line
    starts, as for the other text formats) are read as words: the words of
    the parts before this one (``before`` sums lines and words, see
    :mod:`parmst.formats._ranges`) tell which of its first words finish the
    previous part's last row, and a part reads past its range to finish its
    own last row.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pbbs")
    >>> _ = open(path, "w").write("WeightedEdgeArray 0 1\\n5 1\\n2 7 2 3 1\\n")
    >>> [read_range(path, r, 2).weight.tolist() for r in range(2)]
    [[5, 7], [1]]
    """
    check_vertex_count(num_vertices)
    text = TextFile(os.fspath(path), file_bytes(path))
    data = text.data
    spec, dtype, start, first_line = row_spec(text, num_vertices, weight_dtype, allow_nan)
    lo, hi = byte_range(data, start, rank, size)
    mine = (count_lines(data[lo:hi]), count_words(data, lo, hi))
    before = simulated_before(rank) if before is None else before
    lines_before, words_before = before(mine, range_counts(data, start, size, words=True))
    width = len(spec.columns)
    skip = -words_before % width  # the words that finish the previous part's last row
    rows_here = max(0, -(-(words_before + mine[1]) // width) - -(-words_before // width))
    first, last = word_span(data, lo, skip, rows_here * width) if rows_here else (lo, lo)
    line = first_line + lines_before + count_lines(data[lo:first])
    rows = parse_rows(TextFile(text.path, data[first:last]), 0, line, spec, progress=False)
    return Part(text.path, rows.src, rows.dst,
                unit_weights(finish_weights(rows, dtype), len(rows.src)), dtype, num_vertices)


def write(graph: EdgeList, path: str | os.PathLike, *, progress: bool | None = None) -> None:
    """Write ``graph`` as a PBBS ``WeightedEdgeArray`` file, one triple per line.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pbbs")
    >>> write(Graph.from_edges([1], [0], [0.5]), path)
    >>> open(path).read()
    'WeightedEdgeArray\\n1 0 0.5\\n'
    """
    with open_output(path) as f:
        f.write(b"WeightedEdgeArray\n")
        write_rows(f, graph.src, graph.dst, graph.weight, progress=progress,
                   description=f"writing {os.fspath(path)}")
