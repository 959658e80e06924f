"""What a part's reader touches of its file, measured, for the reading-bound tests.

The readers map their file (:func:`parmst.formats._ranges.file_bytes`); here that
map is replaced by a map of an in-memory copy (a ``memfd``), whose pages
enter this process's page table only when a read touches them, and
``/proc/self/pagemap`` tells which did. A read fault also maps its
neighbours, up to ``fault_around_bytes`` (64 KiB by default) in an aligned
window, so the pages are compared by window. A copy in memory, not the
file's own map, because the page cache of a file system may hold large
folios (ext4 on Linux 6.16+) that a fault maps whole.

``.npz`` parts read with ``pread``, not a map: ``/proc/self/io``'s
``rchar`` counts the bytes read.
"""

from __future__ import annotations

import mmap
import os

import numpy as np

from parmst.formats import dimacs, edgelist, egr, mtx, pbbs

PAGE = os.sysconf("SC_PAGE_SIZE")
WINDOW = 64 * 1024  # the kernel's default fault-around window
MAPPED_FORMATS = (edgelist, dimacs, mtx, pbbs, egr)  # snap reads through edgelist


def memory_copy(path: str | os.PathLike) -> np.ndarray:
    """The bytes of ``path`` in a fresh shared-memory map that nothing has touched yet."""
    fd = os.memfd_create("part")
    try:
        with open(path, "rb") as f:
            os.write(fd, f.read())
        mapped = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    finally:
        os.close(fd)
    return np.frombuffer(mapped, dtype=np.uint8)


class Recorder:
    """Replaces the readers' ``file_bytes`` with :func:`memory_copy`, keeping each copy."""

    def __init__(self, monkeypatch) -> None:
        self.maps: list[np.ndarray] = []
        for module in MAPPED_FORMATS:
            monkeypatch.setattr(module, "file_bytes", self._copy)

    def _copy(self, path):
        self.maps.append(memory_copy(path))
        return self.maps[-1]

    def last_windows(self) -> set[int]:
        """The windows of the last map that reads touched."""
        return touched_windows(self.maps[-1])


def touched_windows(data: np.ndarray) -> set[int]:
    """Indices of the ``WINDOW``-sized windows of ``data`` with a page in this process."""
    address = data.__array_interface__["data"][0]
    first, last = address // PAGE, (address + len(data) + PAGE - 1) // PAGE
    with open("/proc/self/pagemap", "rb") as f:
        f.seek(first * 8)
        entries = np.frombuffer(f.read((last - first) * 8), dtype=np.uint64)
    present = np.flatnonzero(entries >> np.uint64(63))
    return set((present * PAGE // WINDOW).tolist())


def windows(lo: int, hi: int) -> set[int]:
    """The windows that bytes ``lo .. hi-1`` lie in, and one more on each side."""
    if hi <= lo:
        return set()
    return set(range(max(0, lo // WINDOW - 1), (hi - 1) // WINDOW + 2))


def bytes_read() -> int:
    """Bytes this process has read with ``read``/``pread`` so far."""
    with open("/proc/self/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("rchar"))


def egr_windows(path, rank: int, size: int) -> tuple[set[int], set[int]]:
    """The windows part ``rank`` of an ``.egr`` file may touch: its rows of ``nindex`` and its
    entries of ``nlist`` and ``eweight``; and the windows of the whole ``nindex``, where the
    row bounds' binary searches may touch a few more."""
    raw = np.fromfile(path, dtype="<i4")
    n, e = int(raw[0]), int(raw[1])
    bounds = egr.row_bounds(np.fromfile(path, dtype=np.uint8), n, e, size)
    first, last = int(bounds[rank]), int(bounds[rank + 1])
    k0, k1 = int(raw[2 + first]), int(raw[2 + last])
    body = 8 + 4 * (n + 1)
    share = (windows(0, 8) | windows(8 + 4 * first, 8 + 4 * (last + 1))
             | windows(body + 4 * k0, body + 4 * k1)
             | windows(body + 4 * (e + k0), body + 4 * (e + k1)))
    return share, windows(8, body)
