"""Bytes in and out of graph files: memory maps, gzip, progress bars, clear open errors."""

from __future__ import annotations

import contextlib
import gzip
import os
import sys
import zlib
from collections.abc import Iterator
from typing import BinaryIO

import numpy as np
from tqdm import tqdm

from parmst.errors import GraphFileNotFoundError, GraphFormatError

#: Loads (and writes) of at least this many bytes show a progress bar when ``progress=None``.
AUTO_PROGRESS_BYTES = 200 * 2**20
#: Work unit between progress updates (and the text parser's chunk size).
CHUNK_BYTES = 64 * 2**20


def is_gzip(path: str | os.PathLike) -> bool:
    return os.fspath(path).lower().endswith(".gz")


def progress_bar(total: int, description: str, progress: bool | None, *, unit: str = "B",
                 size_in_bytes: int | None = None) -> tqdm:
    """A tqdm bar on stderr counting ``unit``; ``progress=None`` shows it for large files only.

    ``size_in_bytes`` (default ``total``) is what the automatic choice compares
    with :data:`AUTO_PROGRESS_BYTES`.
    """
    size = total if size_in_bytes is None else size_in_bytes
    show = size >= AUTO_PROGRESS_BYTES if progress is None else bool(progress)
    return tqdm(total=total, desc=description, unit=unit, unit_scale=True, file=sys.stderr,
                disable=not show, leave=False)


def check_readable(path: str) -> None:
    """Raise GraphFileNotFoundError / GraphFormatError unless ``path`` is an existing file."""
    if not os.path.exists(path):
        raise GraphFileNotFoundError(path, "no such file")
    if os.path.isdir(path):
        raise GraphFormatError(path, "is a directory, not a graph file")


def _read_gzip(path: str, progress: bool | None) -> np.ndarray:
    parts = []
    with gzip.open(path, "rb") as f, progress_bar(os.path.getsize(path), f"reading {path}",
                                                    progress) as bar:
        raw = f.fileobj  # the compressed stream: its position measures progress
        try:
            while chunk := f.read(CHUNK_BYTES):
                parts.append(chunk)
                bar.update(raw.tell() - bar.n)
        except (OSError, EOFError, zlib.error) as exc:
            raise GraphFormatError(path, f"cannot decompress gzip data: {exc}") from exc
    return np.frombuffer(b"".join(parts), dtype=np.uint8)


def read_bytes(path: str | os.PathLike, progress: bool | None = None) -> np.ndarray:
    """The file's bytes as a read-only uint8 array (memory-mapped; gzip decompressed).

    Raises
    ------
    GraphFileNotFoundError
        The file does not exist.
    GraphFormatError
        It is a directory or corrupt gzip data.
    """
    path = os.fspath(path)
    check_readable(path)
    if is_gzip(path):
        return _read_gzip(path, progress)
    if os.path.getsize(path) == 0:
        return np.zeros(0, dtype=np.uint8)
    return np.asarray(np.memmap(path, dtype=np.uint8, mode="r"))


def copy_out(view: np.ndarray, dtype: np.dtype, bar: tqdm) -> np.ndarray:
    """Copy a (memory-mapped) array into memory as ``dtype``, chunk by chunk for the bar."""
    out = np.empty(len(view), dtype=dtype)
    step = max(1, CHUNK_BYTES // max(1, view.itemsize))
    for start in range(0, len(view), step):
        out[start:start + step] = view[start:start + step]
        bar.update(min(step, len(view) - start) * view.itemsize)
    return out


@contextlib.contextmanager
def open_output(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file for writing (gzip when the name ends in ``.gz``); removed if writing fails."""
    path = os.fspath(path)
    opener = gzip.open if is_gzip(path) else open
    try:
        f = opener(path, "wb")
    except OSError as exc:
        raise GraphFormatError(path, f"cannot open for writing: {exc.strerror or exc}") from exc
    try:
        with f:
            yield f
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(path)
        raise
