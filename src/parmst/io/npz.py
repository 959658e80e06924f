"""NumPy ``.npz`` archives: arrays ``src``, ``dst``, ``weight`` and the scalar ``num_vertices``.

The arrays are stored with their exact dtypes, so a graph reads back
identically (parmst's index dtype is int32 while ``n`` and ``2m`` fit, so
ids written by another program as int64 come back as int32 then).
``compressed=True`` writes a deflated archive (smaller, slower). Reading
validates everything ``Graph.from_edges`` does (ids in range, equal lengths,
numeric weights, NaN unless ``allow_nan=True``) and names missing or
malformed arrays; pickled objects are never loaded.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
>>> write(Graph.from_edges([0], [1], np.array([2.5], dtype=np.float32)), path)
>>> read(path).weight.dtype.name
'float32'
"""

from __future__ import annotations

import os
import zipfile

import numpy as np

from parmst.errors import GraphFormatError
from parmst.graph import Graph
from parmst.io._common import build_graph
from parmst.io._files import check_readable, open_output, progress_bar

ARRAYS = ("src", "dst", "weight", "num_vertices")


def read(path: str | os.PathLike, *, allow_nan: bool = False,
         progress: bool | None = None) -> Graph:
    """Read a graph from a ``.npz`` archive written by :func:`write` (or by hand).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
    >>> np.savez(path, src=[0, 1], dst=[1, 2], weight=[1, 2], num_vertices=5)
    >>> read(path).num_vertices
    5
    """
    path = os.fspath(path)
    check_readable(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
        raise GraphFormatError(path, f"not a NumPy .npz archive ({exc})") from exc
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise GraphFormatError(path, "holds a single .npy array, not an .npz archive of "
                                     f"{', '.join(ARRAYS)}")
    with archive, progress_bar(os.path.getsize(path), f"reading {path}", progress) as bar:
        missing = [name for name in ARRAYS if name not in archive.files]
        if missing:
            raise GraphFormatError(path, f"missing array(s) {', '.join(missing)}; a graph "
                                         f"archive holds {', '.join(ARRAYS)}")
        arrays = {}
        for name in ARRAYS:
            try:
                arrays[name] = archive[name]
            except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
                raise GraphFormatError(path, f"cannot read array {name!r} ({exc})") from exc
            bar.update(arrays[name].nbytes)
    n = arrays["num_vertices"]
    if n.shape != () or n.dtype.kind not in "iu":
        raise GraphFormatError(path, f"num_vertices must be an integer scalar, found shape "
                                     f"{n.shape} dtype {n.dtype}")
    for name in ("src", "dst", "weight"):
        if arrays[name].ndim != 1:
            raise GraphFormatError(path, f"{name} must be one-dimensional, found shape "
                                         f"{arrays[name].shape}")
    return build_graph(path, arrays["src"], arrays["dst"], arrays["weight"], int(n), allow_nan)


def write(graph: Graph, path: str | os.PathLike, *, compressed: bool = False,
          progress: bool | None = None) -> None:
    """Write ``graph`` as a ``.npz`` archive at exactly ``path`` (no extension added).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
    >>> write(Graph.from_edges([0], [1]), path, compressed=True)
    >>> sorted(np.load(path).files)
    ['dst', 'num_vertices', 'src', 'weight']
    """
    save = np.savez_compressed if compressed else np.savez
    total = graph.src.nbytes + graph.dst.nbytes + graph.weight.nbytes
    with open_output(path) as f, progress_bar(total, f"writing {os.fspath(path)}",
                                              progress) as bar:
        save(f, src=graph.src, dst=graph.dst, weight=graph.weight,
             num_vertices=np.int64(graph.num_vertices))
        bar.update(total)
