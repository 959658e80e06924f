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

import math
import os
import struct
import zipfile
import zlib
from typing import BinaryIO

import numpy as np

from parmst import _memory
from parmst._host_edges import EdgeArrays
from parmst.errors import GraphFormatError
from parmst.formats._common import EdgeList, checked_edges
from parmst.formats._files import check_readable, open_output, progress_bar
from parmst.formats._ranges import Part, slice_bounds

ARRAYS = ("src", "dst", "weight", "num_vertices")
_NPY_MAGIC = b"\x93NUMPY"
# What a damaged archive raises: zip structure, deflate stream, .npy header, unknown method.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError,
               NotImplementedError, KeyError)


def _member_header(f: BinaryIO) -> tuple[tuple[int, ...], np.dtype]:
    """Shape and dtype from the header of an open ``.npy`` member, which then stands at its data."""
    version = np.lib.format.read_magic(f)
    read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                   else np.lib.format.read_array_header_2_0)
    shape, _, dtype = read_header(f)
    return shape, dtype


def _check_declared_size(path: str, archive: np.lib.npyio.NpzFile, name: str) -> None:
    """Check an array's header shape before NumPy allocates it.

    NumPy allocates the shape its ``.npy`` header declares and only then
    reads the data, so a damaged header could ask for any amount of memory.
    The declared bytes must fit the member's stored size and this machine.
    """
    member = name + ".npy" if name + ".npy" in archive.zip.namelist() else name
    stored = archive.zip.getinfo(member).file_size
    with archive.zip.open(member) as f:
        shape, dtype = _member_header(f)
        header = f.tell()
    count = math.prod(shape)
    declared = count * dtype.itemsize
    problem = _memory.shortfall(count, f"{name} entries", dtype.itemsize)
    if problem is not None:
        raise GraphFormatError(path, f"array {name!r} declares shape {shape}, which {problem}")
    if declared > stored - header:
        raise GraphFormatError(path, f"array {name!r} declares shape {shape} ({declared} bytes) "
                                     f"but holds {stored - header} bytes: truncated or damaged")


def read(path: str | os.PathLike, *, allow_nan: bool = False,
         progress: bool | None = None) -> EdgeArrays:
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
    with open(path, "rb") as f:
        magic = f.read(len(_NPY_MAGIC))
    if magic == _NPY_MAGIC:  # np.load would allocate whatever shape its header claims
        raise GraphFormatError(path, "holds a single .npy array, not an .npz archive of "
                                     f"{', '.join(ARRAYS)}")
    try:
        archive = np.load(path, allow_pickle=False)
    except _ZIP_ERRORS as exc:
        raise GraphFormatError(path, f"not a NumPy .npz archive ({exc})") from exc
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise GraphFormatError(path, "is not a NumPy .npz archive (no zip signature)")
    with archive, progress_bar(os.path.getsize(path), f"reading {path}", progress) as bar:
        missing = [name for name in ARRAYS if name not in archive.files]
        if missing:
            raise GraphFormatError(path, f"missing array(s) {', '.join(missing)}; a graph "
                                         f"archive holds {', '.join(ARRAYS)}")
        arrays = {}
        for name in ARRAYS:
            try:
                _check_declared_size(path, archive, name)
                arrays[name] = archive[name]
            except GraphFormatError:  # a ValueError too, but already says what is wrong
                raise
            except _ZIP_ERRORS as exc:
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
    return checked_edges(path, arrays["src"], arrays["dst"], arrays["weight"], int(n), allow_nan)


def _open_member(archive: zipfile.ZipFile, path: str, name: str
                 ) -> tuple[BinaryIO, np.dtype, tuple[int, ...]]:
    """The ``.npy`` member ``name`` opened at its data, with its dtype and shape."""
    try:
        f = archive.open(name + ".npy")
    except KeyError:
        raise GraphFormatError(path, f"missing array {name!r}; a graph archive holds "
                                     f"{', '.join(ARRAYS)}") from None
    shape, dtype = _member_header(f)
    if dtype.hasobject:
        raise GraphFormatError(path, f"array {name!r} holds Python objects; never loaded")
    if name != "num_vertices" and len(shape) != 1:
        raise GraphFormatError(path, f"{name} must be one-dimensional, found shape {shape}")
    return f, dtype, shape


def _member_slice(archive: zipfile.ZipFile, path: str, name: str, lo: int, hi: int,
                  length: int) -> np.ndarray:
    """Entries ``lo .. hi-1`` of the one-dimensional member ``name`` of ``length`` entries.

    A stored member (``np.savez``, :func:`write`'s default) is read at its
    offset in the archive file: only those bytes (``zipfile`` would read and
    drop every byte before them). A deflated one is decompressed as a stream
    up to them, so part ``r`` of ``p`` decompresses ``(r + 1) / p`` of it.
    """
    f, dtype, shape = _open_member(archive, path, name)
    with f:
        if shape[0] != length:
            raise GraphFormatError(path, f"src has {length} entries but {name} has {shape[0]}")
        info = archive.getinfo(name + ".npy")
        if info.compress_type != zipfile.ZIP_STORED:
            f.seek(f.tell() + lo * dtype.itemsize)
            return np.frombuffer(f.read((hi - lo) * dtype.itemsize), dtype=dtype).copy()
        at = _stored_data_offset(archive, info) + f.tell() + lo * dtype.itemsize
    count = (hi - lo) * dtype.itemsize
    with open(path, "rb") as raw:
        data = os.pread(raw.fileno(), count, at)
    if len(data) != count:
        raise GraphFormatError(path, f"array {name!r} ends before its {length} entries: "
                                     "truncated", offset=at + len(data))
    return np.frombuffer(data, dtype=dtype).copy()


def _stored_data_offset(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> int:
    """Where a stored member's bytes begin in the archive file: after its local header
    (30 bytes, then the name and an extra field whose lengths it gives at bytes 26 and 28)."""
    archive.fp.seek(info.header_offset)
    local = archive.fp.read(30)
    name_length, extra_length = struct.unpack("<HH", local[26:30])
    return info.header_offset + 30 + name_length + extra_length


def read_range(path: str | os.PathLike, rank: int, size: int, *,
               num_vertices: int | None = None, allow_nan: bool = False) -> Part:
    """Read part ``rank`` of ``size`` of a ``.npz`` archive: a near-equal slice of its arrays.

    Only the slice is read from each member, never the whole array.
    ``num_vertices`` replaces the archive's count.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
    >>> np.savez(path, src=[0, 1, 2], dst=[1, 2, 0], weight=[4, 5, 6], num_vertices=3)
    >>> [read_range(path, r, 2).weight.tolist() for r in range(2)]
    [[4], [5, 6]]
    """
    path = os.fspath(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise GraphFormatError(path, f"not a NumPy .npz archive ({exc})") from exc
    with archive:
        f, dtype, shape = _open_member(archive, path, "num_vertices")
        with f:
            stored = np.frombuffer(f.read(dtype.itemsize), dtype=dtype)[0] \
                if shape == () and dtype.kind in "iu" else None
        if stored is None:
            raise GraphFormatError(path, f"num_vertices must be an integer scalar, found shape "
                                         f"{shape} dtype {dtype}")
        n = int(stored) if num_vertices is None else num_vertices
        f, _, shape = _open_member(archive, path, "src")
        f.close()
        m = shape[0]
        lo, hi = slice_bounds(m, rank, size)
        src, dst, weight = (_member_slice(archive, path, name, lo, hi, m)
                            for name in ("src", "dst", "weight"))
    local = checked_edges(path, src, dst, weight, n, allow_nan, where=f"edges {lo}..{hi - 1}: ")
    return Part(path, local.src, local.dst, local.weight, local.weight.dtype, n)


def write(graph: EdgeList, path: str | os.PathLike, *, compressed: bool = False,
          progress: bool | None = None) -> None:
    """Write ``graph`` as a ``.npz`` archive at exactly ``path`` (no extension added).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
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
