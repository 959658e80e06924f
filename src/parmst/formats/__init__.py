"""The graph file formats, one module per format, and the table that picks one by extension or name.

They read into and write from edge arrays and know no :class:`~parmst.Graph`:
a reader returns :class:`~parmst._host_edges.EdgeArrays` (checked and typed,
with the file's vertex names and column names), which ``Graph.read`` and
:mod:`parmst.io` turn into a graph; a writer takes anything with a graph's
edge arrays (:class:`~parmst.formats._common.EdgeList`). :mod:`parmst.io`
documents the formats; every module here documents its layout and options.

Examples
--------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
>>> write(Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 1, 2]), path)
>>> edges = read(path)
>>> edges.weight.tolist(), edges.num_vertices
([3, 1, 2], 3)
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst._host_edges import EdgeArrays
from parmst.errors import GraphFormatError
from parmst.formats import csv, dimacs, edgelist, egr, mtx, npz, parquet, pbbs, snap
from parmst.formats._common import EdgeList
from parmst.formats._files import GraphFileNotFoundError, check_readable, is_gzip
from parmst.formats._ranges import Before, Part, check_uncompressed

__all__ = ["FORMATS", "Format", "GraphFileNotFoundError", "Part", "detect_format",
           "names_problem", "read", "read_part", "write"]

_SNIFF_BYTES = 4096


def _keywords(function: Callable, *, exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
    parameters = inspect.signature(function).parameters.values()
    return tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.name not in exclude)


@dataclass(frozen=True)
class Format:
    """A file format: its extensions, reader, writer and content sniffer.

    ``read(path, **options) -> EdgeArrays`` and ``write(graph, path, **options)``
    accept the keyword options listed in ``read_options`` / ``write_options``.
    ``sniff(head, size)`` says whether the first bytes (and the file size)
    look like this format; it only serves to suggest a format in errors.
    Formats whose ids may be sparse read with ``relabel=`` (which numbers the
    vertices ``0..n-1`` and keeps their ids in the file as ``labels``) and
    have a ``labels=`` write option that writes vertices under such ids. Formats
    that can be read in parts (one per MPI rank, see :func:`read_part`) have
    ``read_range(path, rank, size, **options) -> Part`` and its keyword
    options ``range_options``. ``names`` says which vertex labels a file
    can hold: ``"integers"``, ``"any"``, or none (``""``).
    """

    name: str
    extensions: tuple[str, ...]
    read: Callable[..., EdgeArrays]
    write: Callable[..., None]
    sniff: Callable[[bytes, int], bool]
    read_options: tuple[str, ...]
    write_options: tuple[str, ...]
    gzip: bool = True
    read_range: Callable[..., Part] | None = None
    range_options: tuple[str, ...] = ()
    names: str = ""

    def describe(self) -> str:
        return f"{self.name} ({', '.join(self.extensions)})"


def _first_word(head: bytes) -> bytes:
    words = head.split(maxsplit=1)
    return words[0] if words else b""


def _sniff_dimacs(head: bytes, size: int) -> bool:
    return any(line.startswith(b"p sp ") for line in head.splitlines())


def _sniff_egr(head: bytes, size: int) -> bool:
    if len(head) < 8:
        return False
    n = int.from_bytes(head[:4], "little", signed=True)
    e = int.from_bytes(head[4:8], "little", signed=True)
    return n >= 0 and e >= 0 and size in (8 + 4 * (n + 1) + 4 * e, 8 + 4 * (n + 1) + 8 * e)


def _sniff_edges(head: bytes, size: int) -> bool:
    if head.startswith(b"%%MatrixMarket"):
        return False
    lines = [line.split() for line in head.splitlines()[:-1]
             if line.strip() and line.lstrip()[:1] not in (b"#", b"%")]
    return bool(lines) and all(len(f) in (2, 3) and f[0].lstrip(b"-").isdigit() for f in lines)


def _sniff_snap(head: bytes, size: int) -> bool:
    return head.startswith(b"#") and (b"Nodes:" in head or b"FromNodeId" in head)


FORMATS: dict[str, Format] = {
    "edgelist": Format(
        "edgelist", (".txt", ".el", ".wel", ".edges"), edgelist.read, edgelist.write,
        _sniff_edges, _keywords(edgelist.read, exclude=("comments",)),
        _keywords(edgelist.write), read_range=edgelist.read_range,
        range_options=_keywords(edgelist.read_range, exclude=("comments",)), names="integers"),
    "snap": Format(
        "snap", (".snap",), snap.read, snap.write, _sniff_snap,
        _keywords(edgelist.read, exclude=("comments",)), _keywords(snap.write),
        read_range=snap.read_range,
        range_options=_keywords(edgelist.read_range, exclude=("comments",)), names="integers"),
    "dimacs": Format(
        "dimacs", (".gr",), dimacs.read, dimacs.write, _sniff_dimacs,
        _keywords(dimacs.read), _keywords(dimacs.write), read_range=dimacs.read_range,
        range_options=_keywords(dimacs.read_range)),
    "mtx": Format(
        "mtx", (".mtx",), mtx.read, mtx.write,
        lambda head, size: head.startswith(b"%%MatrixMarket"),
        _keywords(mtx.read), _keywords(mtx.write), read_range=mtx.read_range,
        range_options=_keywords(mtx.read_range)),
    "pbbs": Format(
        "pbbs", (".pbbs",), pbbs.read, pbbs.write,
        lambda head, size: _first_word(head) in (b"WeightedEdgeArray", b"EdgeArray"),
        _keywords(pbbs.read), _keywords(pbbs.write), read_range=pbbs.read_range,
        range_options=_keywords(pbbs.read_range)),
    "egr": Format(
        "egr", (".egr",), egr.read, egr.write, _sniff_egr, _keywords(egr.read),
        _keywords(egr.write), read_range=egr.read_range, range_options=_keywords(egr.read_range)),
    "npz": Format(
        "npz", (".npz",), npz.read, npz.write,
        lambda head, size: head.startswith(b"PK\x03\x04"),
        _keywords(npz.read), _keywords(npz.write), gzip=False, read_range=npz.read_range,
        range_options=_keywords(npz.read_range)),
    "parquet": Format(
        "parquet", (".parquet", ".pq"), parquet.read, parquet.write,
        lambda head, size: head.startswith(b"PAR1"),
        _keywords(parquet.read), _keywords(parquet.write), gzip=False, names="any"),
    "csv": Format(
        "csv", (".csv", ".tsv"), csv.read, csv.write, lambda head, size: False,
        _keywords(csv.read), _keywords(csv.write), names="any"),
}


def _known() -> str:
    return "; ".join(f.describe() for f in FORMATS.values())


def _sniffed(path: str) -> list[str]:
    """Formats whose sniffer accepts the file's first bytes (uncompressed files only)."""
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF_BYTES)
        size = os.path.getsize(path)
    except OSError:
        return []
    return [f.name for f in FORMATS.values() if f.sniff(head, size)]


def detect_format(path: str | os.PathLike, format: str | None = None) -> Format:
    """The format named by ``format``, else the one the file extension (before ``.gz``) implies.

    Raises
    ------
    GraphFormatError
        Unknown format name, or an extension no format claims (the message
        lists the known formats, suggests one from the file's content when it
        can, and mentions the ``format=`` option).

    Examples
    --------
    >>> detect_format("roads.gr.gz").name, detect_format("x.dat", format="MTX").name
    ('dimacs', 'mtx')
    """
    path = os.fspath(path)
    if format is not None:
        found = FORMATS.get(format.lower())
        if found is None:
            raise GraphFormatError(path, f"unknown format {format!r}; known formats: {_known()}")
        return found
    base = path[:-3] if is_gzip(path) else path
    extension = os.path.splitext(base)[1].lower()
    for candidate in FORMATS.values():
        if extension in candidate.extensions:
            if is_gzip(path) and not candidate.gzip:
                raise GraphFormatError(path, f"{candidate.name} files cannot be gzip-compressed")
            return candidate
    guesses = [] if is_gzip(path) else _sniffed(path)
    hint = f"; its content looks like {' or '.join(guesses)}" if guesses else ""
    raise GraphFormatError(path, f"cannot tell the format from the extension "
                                 f"{extension or '(none)'!r}{hint}; known formats: {_known()}; "
                                 "name one with format='...'")


def _check_options(fmt: Format, options: dict[str, Any], allowed: tuple[str, ...],
                   action: str) -> None:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"{fmt.name} {action} got unknown option(s) {', '.join(unknown)}; "
                        f"its options are: {', '.join(allowed)}")


def read(path: str | os.PathLike, format: str | None = None, **options: Any) -> EdgeArrays:
    """Read a graph file's edges; the format comes from the extension unless named.

    The reading behind :meth:`parmst.Graph.read` and :func:`parmst.io.read`,
    which document the options and errors.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.edges")
    >>> _ = open(path, "w").write("0 1 5\\n1 2 7\\n")
    >>> read(path).weight.tolist()
    [5, 7]
    """
    check_readable(os.fspath(path))
    fmt = detect_format(path, format)
    _check_options(fmt, options, fmt.read_options, "reading")
    return fmt.read(path, **options)


def read_part(path: str | os.PathLike, rank: int, size: int, format: str | None = None, *,
              before: Before | None = None, num_vertices: int | None = None,
              weight_dtype: str | None = None, header: bool | None = None,
              general: str | None = None, allow_nan: bool = False) -> Part:
    """Read part ``rank`` of ``size`` of a graph file, reading nothing else (its format's ``read_range``).

    Text files are cut into byte ranges at line starts (PBBS files, whose
    line breaks do not matter, at word boundaries: a part takes the rows
    whose first word lies in its range); ``.egr`` files into whole CSR rows of
    near-equal entry counts (edge ids follow CSR order, so the parts in rank
    order are the file's edges in order); ``.npz`` files into equal slices.
    The whole file's checks (header counts, ``max id``, ``.egr`` mirrors, one
    weight dtype) need every part: :class:`parmst.distributed.DistributedGraph`
    makes them.

    ``before`` gives the counts of the parts before this one (see
    :mod:`parmst.formats._ranges`; by default one process counts them). Options
    as in :func:`read`, for the formats that take them; gzip files,
    ``symmetric="dedupe"``, ``general="dedupe"`` and ``relabel`` need the
    whole file and are not offered.

    Raises
    ------
    GraphFormatError
        Malformed part (with the file's line or byte offset), gzip file, a
        format without ``read_range``.
    TypeError
        An option the format does not take.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("0 1 5\\n1 2 7\\n2 3 1\\n")
    >>> [read_part(path, r, 2).src.tolist() for r in range(2)]
    [[0, 1], [2]]
    """
    path = os.fspath(path)
    check_readable(path)
    fmt = detect_format(path, format)
    check_uncompressed(path)
    if fmt.read_range is None:
        ranged = ", ".join(f.name for f in FORMATS.values() if f.read_range is not None)
        raise GraphFormatError(path, f"distributed reading supports {ranged} files, not "
                                     f"{fmt.name}; convert it with 'parmst convert'")
    given = {name: value for name, value in (("num_vertices", num_vertices),
                                             ("weight_dtype", weight_dtype), ("header", header),
                                             ("general", general)) if value is not None}
    takes = sorted(set(fmt.range_options) - {"before", "allow_nan"})
    extra = sorted(set(given) - set(takes))
    if extra:
        raise TypeError(f"{', '.join(extra)}= does not apply to {fmt.name} files (they take "
                        f"{', '.join(takes) or 'no options'})")
    common = {"before": before, "allow_nan": allow_nan}
    given.update((name, value) for name, value in common.items() if name in fmt.range_options)
    return fmt.read_range(path, rank, size, **given)


def names_problem(fmt: Format, labels: Any) -> str | None:
    """Why ``fmt`` files cannot hold vertices under ``labels`` (a graph's labels), or None.

    Examples
    --------
    >>> import numpy as np
    >>> names_problem(FORMATS["csv"], np.array(["a", "b"])) is None
    True
    >>> names_problem(FORMATS["dimacs"], np.array(["a", "b"]))[:44]
    'the vertices have names, which dimacs files '
    """
    if labels is None or fmt.names == "any" or (
            fmt.names == "integers" and np.asarray(labels).dtype.kind in "iu"):
        return None
    holders = [f.name for f in FORMATS.values()
               if f.names == "any" or (f.names and np.asarray(labels).dtype.kind in "iu")]
    return (f"the vertices have names, which {fmt.name} files cannot hold (their vertices are "
            f"{'integer ids' if fmt.names else 'numbers 0..n-1'}); write {' or '.join(holders)}")


def write(graph: EdgeList, path: str | os.PathLike, format: str | None = None,
          **options: Any) -> None:
    """Write ``graph`` (a :class:`~parmst.Graph`, or anything with its edge arrays) to a file;
    the format comes from the extension unless named.

    The writing behind :meth:`parmst.Graph.write` and :func:`parmst.io.write`,
    which document it. Raises GraphFormatError for an unknown format, or names
    the format cannot hold.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.bin")
    >>> write(Graph.from_edges([0], [1], [4]), path, format="egr")
    >>> read(path, format="egr").weight.tolist()
    [4]
    """
    fmt = detect_format(path, format)
    _check_options(fmt, options, fmt.write_options, "writing")
    problem = names_problem(fmt, graph.labels if options.get("labels") is None
                            else options["labels"])
    if problem is not None:
        raise GraphFormatError(os.fspath(path), f"{problem}, or number the vertices 0..n-1 with "
                                                "graph.with_labels(None)")
    fmt.write(graph, path, **options)

