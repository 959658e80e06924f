"""Arrays that the ranks of one host hold in one copy: a file the host's ranks map.

A distributed verify needs the whole forest's ``O(n)`` structure on every rank
(:mod:`parmst.verify.distributed`). Sixteen ranks of one host holding sixteen
copies ran a 128 GB host out of memory at 179 M vertices. Here one rank per host
(the *holder*, the host's lowest rank) builds each such array and writes it to a
file in ``directory`` (the system's temporary directory unless told otherwise);
the host's other ranks map that file read-only, so the host's page cache holds
the one copy they all read, and clean pages of a disk-backed file can even be
dropped and read back under memory pressure. The file is unlinked as soon as
every rank has mapped it, so nothing is left behind, whatever happens next.

Arrays under :data:`FILE_MIN_BYTES` go to each rank by ``MPI_Bcast``: a copy
each costs less than a file then.

Where the directory lacks the space or cannot be written, or a rank cannot map
the file, the holder sends the array to each rank instead (``MPI_Bcast``: a
private copy on every rank, as before) and logs one warning saying why.

The host's ranks are those of ``MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)``.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from typing import TYPE_CHECKING

import numpy as np

from parmst._mpi.channel import Channel

if TYPE_CHECKING:
    from typing import Self  # Python 3.11+; annotations here are never evaluated

log = logging.getLogger("parmst")

__all__ = ["FILE_MIN_BYTES", "HostShare"]

#: Arrays smaller than this go to each rank as a copy: writing, mapping and unlinking a file
#: costs more than a copy each of a small array (a verify of a small graph shares ten arrays).
FILE_MIN_BYTES = 1 << 20


class HostShare:
    """The ranks of this rank's host, and arrays they share (collective on ``channel``).

    Parameters
    ----------
    channel : Channel
        The communicator of every rank taking part.
    directory : str, optional
        Where the holder writes the shared files; default: :func:`tempfile.gettempdir`
        (``TMPDIR``).

    Attributes
    ----------
    host : Channel
        This host's ranks; rank 0 of it is the holder.
    holders : Channel or None
        The holders of every host, on the holders only.
    """

    def __init__(self, channel: Channel, directory: str | None = None) -> None:
        MPI = channel.MPI
        self.host = Channel(channel.comm.Split_type(MPI.COMM_TYPE_SHARED, key=channel.rank))
        self.holder = self.host.rank == 0
        holders = channel.comm.Split(0 if self.holder else MPI.UNDEFINED, channel.rank)
        self.holders = Channel(holders) if self.holder else None
        self.directory = tempfile.gettempdir() if directory is None else directory
        self.shared_bytes = 0  # written to files, held once on this host
        self.copied_bytes = 0  # sent to every rank: the fallback

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        """Free the two communicators (the shared arrays stay valid while referenced)."""
        self.host.comm.Free()
        if self.holders is not None:
            self.holders.comm.Free()

    def gathered(self, array: np.ndarray) -> np.ndarray | None:
        """Every rank's ``array`` concatenated on the holders (hosts in order, ranks in order
        within a host); None on the other ranks."""
        on_host = self.host.gatherv(array)
        return self.holders.allgatherv(on_host) if self.holder else None

    def share(self, array: np.ndarray | None) -> np.ndarray:
        """The holder's ``array`` on every rank of the host: the holder's own, a read-only map
        of its file elsewhere (a copy each under :data:`FILE_MIN_BYTES`). Collective on the
        host; ``array`` is read on the holder only."""
        if self.host.size == 1:
            return array
        dtype, shape = self.host.bcast_object((array.dtype.str, array.shape)
                                              if self.holder else None)
        dtype = np.dtype(dtype)
        if dtype.itemsize * int(np.prod(shape)) < FILE_MIN_BYTES:
            return self._copied(array, dtype, shape)
        path, failure = self.host.bcast_object(self._write(array) if self.holder else None)
        view = array
        if failure is None and not self.holder:
            try:
                view = np.memmap(path, dtype=dtype, mode="r", shape=shape)
            except OSError as exc:  # a rank that does not see the holder's folder
                failure = f"rank {self.host.rank} of the host cannot map {path}: {exc}"
        # Every rank has tried to map it (the exchange waits for all): the name can go.
        failures = [f for f in self.host.comm.allgather(failure) if f is not None]
        if self.holder and path is not None:
            os.unlink(path)
        if failures:
            return self._copied(array, dtype, shape, failures[0])
        return view

    def _write(self, array: np.ndarray) -> tuple[str | None, str | None]:
        """Write ``array`` to a new file in the directory: its path, or why it could not."""
        path = None
        try:
            free = shutil.disk_usage(self.directory).free
            if free < array.nbytes:
                return None, f"{free:,} bytes free in {self.directory}, {array.nbytes:,} needed"
            handle, path = tempfile.mkstemp(prefix="parmst-host-", suffix=".bin",
                                            dir=self.directory)
            with os.fdopen(handle, "wb") as file:
                np.ascontiguousarray(array).tofile(file)
        except OSError as exc:
            if path is not None:
                os.unlink(path)
            return None, f"{self.directory}: {exc}"
        self.shared_bytes += array.nbytes
        return path, None

    def _copied(self, array: np.ndarray | None, dtype: np.dtype, shape: tuple,
                failure: str | None = None) -> np.ndarray:
        """The holder's array broadcast to a private copy on every rank: a small array, or
        the fallback (``failure`` says why: one warning, at the first)."""
        if failure is not None and self.holder and not self.copied_bytes:
            log.warning("parmst: cannot share an array among this host's ranks (%s); every "
                        "rank gets its own copy (set TMPDIR to a directory with room)", failure)
        out = np.ascontiguousarray(array) if self.holder else np.empty(shape, dtype=dtype)
        self.host.comm.Bcast(out, root=0)
        if failure is not None:
            self.copied_bytes += out.nbytes
        return out
