"""Writing a forest spread over ranks to one file, every rank its own bytes, nothing gathered.

A forest solved with ``gather=False`` (:func:`parmst.registry.run_distributed`)
leaves rank ``r`` of ``p`` the forest edges whose ids lie in its id range,
in id order, and the ranges follow the ranks: the shares concatenated in
rank order are the forest in id order. So each rank turns its share into
bytes, an exclusive prefix sum of the byte counts gives its offset, rank 0
adds the file's head, and one collective MPI-IO write (``MPI.File``,
``Write_at_all``) puts every rank's bytes in place. The file is the one
that :meth:`parmst.Forest.write` (or, for edge ids, the CLI's ``--output``)
writes from the whole forest, byte for byte.

Formats written this way (:func:`writes_in_parallel`), those whose bytes
per rank are known from its share alone:

- ``.npy``: the edge ids as a NumPy int64 array (rank 0 writes the header,
  whose shape is the global edge count);
- ``.ids``: the edge ids, one per line;
- edge lists (``.txt``, ``.el``, ``.wel``, ``.edges``, uncompressed): the
  forest's edges as ``u v w`` lines after parmst's metadata comment.

Others (DIMACS, Matrix Market, SNAP, PBBS, ``.egr``, ``.npz``, gzip) hold
counts, CSR rows or compressed streams that need the whole forest: the CLI
gathers the forest on rank 0 for them and says so. The file system must be
one that every rank sees (as for reading).
"""

from __future__ import annotations

import io as _bytes_io
import os
from pathlib import Path
from typing import Any

import numpy as np

from parmst.errors import GraphFormatError
from parmst.formats import detect_format
from parmst.formats._common import metadata_comment
from parmst.formats._emit import write_rows
from parmst.graph import Graph

ID_SUFFIXES = (".ids", ".npy")


def id_lines(ids: np.ndarray) -> bytes:
    """Edge ids as text, one per line (the ``.ids`` format)."""
    return "".join(f"{i}\n" for i in ids.tolist()).encode("ascii")


def writes_in_parallel(path: str | os.PathLike, format: str | None = None) -> bool:
    """Whether :func:`write_forest` writes ``path``: ``.npy``, ``.ids`` or an edge list.

    Examples
    --------
    >>> writes_in_parallel("forest.npy"), writes_in_parallel("forest.txt")
    (True, True)
    >>> writes_in_parallel("forest.gr"), writes_in_parallel("forest.txt.gz")
    (False, False)
    """
    path = Path(path)
    if path.suffix in ID_SUFFIXES:
        return True
    return path.suffix.lower() != ".gz" and detect_format(path, format).name == "edgelist"


def _npy_head(count: int) -> bytes:
    """The ``.npy`` header of an int64 array of ``count`` entries, as ``np.save`` writes it."""
    head = _bytes_io.BytesIO()
    np.lib.format.write_array_header_1_0(head, {"descr": np.lib.format.dtype_to_descr(
        np.dtype(np.int64)), "fortran_order": False, "shape": (count,)})
    return head.getvalue()


def _edge_head(forest: Any) -> bytes:
    """The edge list's head as :func:`parmst.formats.edgelist.write` writes it for the forest."""
    empty = Graph.from_edges([], [], np.zeros(0, dtype=forest.weight.dtype),
                             forest.num_vertices)
    return metadata_comment("#", empty, with_vertices=True).encode("utf-8")


def _share_bytes(forest: Any, path: Path) -> tuple[bytes, bytes]:
    """This rank's bytes of the file and the file's head (written by rank 0)."""
    if path.suffix == ".npy":
        total = forest.num_vertices - forest.num_components
        return forest.edge_ids.astype("<i8").tobytes(), _npy_head(total)
    if path.suffix == ".ids":
        return id_lines(forest.edge_ids), b""
    rows = _bytes_io.BytesIO()
    write_rows(rows, forest.src, forest.dst, forest.weight, progress=False)
    return rows.getvalue(), _edge_head(forest)


def write_forest(channel: Any, forest: Any, path: str | os.PathLike,
                 format: str | None = None) -> None:
    """Write the forest whose shares the ranks hold to one file at ``path`` (collective).

    ``forest`` is this rank's share, from a solve with ``gather=False``;
    ``channel`` the ranks' :class:`~parmst._mpi.channel.Channel`
    (``dgraph.channel``). Only the formats of :func:`writes_in_parallel`.

    Raises
    ------
    DistributedError
        On every rank, if the format is not one of those or the file cannot
        be written.

    Examples
    --------
    Under ``mpiexec``, on every rank:

    >>> forest = parmst.minimum_spanning_forest(dg, gather=False)   # doctest: +SKIP
    >>> write_forest(dg.channel, forest, "forest.npy")               # doctest: +SKIP
    """
    path = Path(path)
    error, body, head = None, b"", b""
    try:
        if not writes_in_parallel(path, format):
            raise GraphFormatError(str(path), "the ranks write .npy, .ids and edge lists "
                                              "(.txt, .el, .wel, .edges) in parallel; write "
                                              "other formats from a gathered forest")
        body, head = _share_bytes(forest, path)
        if channel.rank == 0:
            path.open("wb").close()  # created (or emptied) before the ranks open it
    except (GraphFormatError, OSError) as exc:
        error = exc if isinstance(exc, GraphFormatError) else GraphFormatError(
            str(path), f"cannot open for writing: {exc.strerror or exc}")
    channel.agree(error)
    mine = body if channel.rank else head + body
    offset = channel.exscan_int(len(mine))
    handle = channel.MPI.File.Open(channel.comm, str(path), channel.MPI.MODE_WRONLY)
    try:
        handle.Write_at_all(offset, np.frombuffer(mine, dtype=np.uint8))
    finally:
        handle.Close()
