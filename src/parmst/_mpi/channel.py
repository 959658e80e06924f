"""One rank's view of the communicator: counted collectives and agreement on errors.

Every MPI call of the ``mpi`` backend goes through :class:`Channel`, which
times it (communication time, reported apart from local work), counts the
point-to-point messages and bytes this rank sends, and gives two rules that
keep a distributed run from hanging:

- :meth:`Channel.agree` is called by every rank at the same point after a
  step that may fail on some ranks only (parsing a file slice, validating
  arrays). If any rank failed, every rank raises the same
  :class:`DistributedError` (the lowest failing rank's message), so all
  ranks stop together with one message.
- A failure that cannot be agreed on (a rank raising inside a round while
  the others wait in a collective) must abort the job: the CLI calls
  :func:`abort` with the rank named, never leaves the others waiting.
"""

from __future__ import annotations

import logging
import resource
import sys
import time
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst._optional import require
from parmst.errors import ParmstError

_SIGN64 = np.uint64(1 << 63)
_ARRAYS_TAG = 7  # the tag of send_arrays / recv_arrays (MPI keeps their order per pair)

__all__ = ["Channel", "DistributedError", "abort", "group_order", "grouped_by_range", "owner_of",
           "peak_memory_bytes", "world"]

log = logging.getLogger(__name__)


class DistributedError(ParmstError):
    """An error seen by one or more ranks, raised on every rank with the same message.

    Attributes
    ----------
    rank : int
        The lowest rank that saw it.
    """

    def __init__(self, message: str, rank: int) -> None:
        self.rank = rank
        super().__init__(message)


@numba.njit(cache=True)
def _counting_order(keys, bins, order):
    """Stable counting sort: positions of ``keys`` (each in ``0..bins-1``) grouped by key.

    Returns False, writing nothing, if a key is out of range.
    """
    start = np.zeros(bins + 1, dtype=np.int64)
    for k in keys:
        if k < 0 or k >= bins:
            return False
        start[k + 1] += 1
    for b in range(bins):
        start[b + 1] += start[b]
    for i in range(len(keys)):
        k = keys[i]
        order[start[k]] = i
        start[k] += 1
    return True


def group_order(keys: np.ndarray, bins: int) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for small non-negative integer keys, in linear time.

    Ranks (``bins = p``) and local indices are such keys; a sort of them
    dominated the distributed rounds' local time.

    Examples
    --------
    >>> group_order(np.array([2, 0, 2, 1, 0]), 3).tolist()
    [1, 4, 3, 0, 2]
    """
    order = np.empty(len(keys), dtype=np.int64)
    if not _counting_order(np.asarray(keys, dtype=np.int64), int(bins), order):
        raise ValueError(f"group_order: a key outside 0..{bins - 1}")
    return order


@numba.njit(parallel=True, cache=True)
def _range_owners(ids, starts, size):
    """Owner rank of each id under contiguous ranges (rank ``r`` holds ``starts[r]`` up to
    ``starts[r + 1] - 1``), or -1 for an id outside them.

    A table of 4,096 buckets names the first rank whose range meets each
    bucket, so most ids take one table read and one comparison: a binary
    search over the ranges mispredicted a branch at almost every step on
    random ids, and made the request side of a fetch cost several times its
    reply side at 16 ranks.
    """
    total = starts[size]
    shift = 0
    while (total >> shift) > 4096:
        shift += 1
    buckets = (total >> shift) + 1
    first = np.empty(buckets, dtype=np.int64)
    r = 0
    for b in range(buckets):
        while r < size - 1 and starts[r + 1] <= (b << shift):
            r += 1
        first[b] = r
    owner = np.empty(len(ids), dtype=np.int64)
    for i in numba.prange(len(ids)):
        x = ids[i]
        if x < 0 or x >= total:
            owner[i] = -1
            continue
        rank = first[x >> shift]
        while starts[rank + 1] <= x:
            rank += 1
        owner[i] = rank
    return owner


@numba.njit(parallel=True, cache=True)
def _requests_by_owner(ids, owner, starts, size):
    """Fetch's request side: ``ids`` grouped by owner rank (stable), where each grouped
    request came from, and the requests per rank.

    Owners are ``owner`` or, where it is empty, found in the ranges ``starts``
    (:func:`_range_owners`). ``ok`` is False, the rest unwritten, if an
    owner is outside ``0..size-1``. Replaces a counting sort, a ``bincount``
    and a gather of the ids; blocks of ids count their requests per rank and
    write them from prefix-summed offsets, on all threads
    (:mod:`parmst._blocks`).
    """
    if len(owner) or len(ids) == 0:
        owner = owner.astype(np.int64)
    else:
        owner = _range_owners(ids, starts, size)
    n = len(ids)
    blocks = num_blocks(n)
    per_block = np.zeros((blocks, size + 1), dtype=np.int64)  # column size: bad owners
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        for i in range(lo, hi):
            r = owner[i]
            per_block[b, r if 0 <= r < size else size] += 1
    offsets = exclusive_sums(per_block)
    if offsets[blocks, size]:
        none = np.zeros(0, dtype=np.int64)
        return False, none, none, none
    counts = offsets[blocks, :size].copy()
    base = np.zeros(size, dtype=np.int64)
    for r in range(1, size):
        base[r] = base[r - 1] + counts[r - 1]
    grouped = np.empty(n, dtype=np.int64)
    came_from = np.empty(n, dtype=np.int64)
    for b in numba.prange(blocks):
        at = base + offsets[b, :size]
        lo, hi = block_span(b, n)
        for i in range(lo, hi):
            r = owner[i]
            j = at[r]
            at[r] = j + 1
            grouped[j], came_from[j] = ids[i], i
    return True, grouped, came_from, counts


@numba.njit(parallel=True, cache=True)
def _answers(values, asked, first):
    """Fetch's reply side: ``values[id - first]`` for each asked id, in one pass."""
    out = np.empty(len(asked), dtype=values.dtype)
    for j in numba.prange(len(asked)):
        out[j] = values[asked[j] - first]
    return out


@numba.njit(parallel=True, cache=True)
def _placed(answer, came_from):
    """Fetch's answers put back in the order of the request."""
    out = np.empty(len(answer), dtype=answer.dtype)
    for j in numba.prange(len(answer)):
        out[came_from[j]] = answer[j]
    return out


def owner_of(starts: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Owner rank of each id under contiguous ranges: rank ``r`` holds
    ``starts[r] .. starts[r + 1] - 1`` (-1 for an id outside them); see
    :func:`_range_owners`."""
    starts = np.asarray(starts, dtype=np.int64)
    return _range_owners(np.asarray(ids, dtype=np.int64), starts, len(starts) - 1)


def grouped_by_range(ids: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``ids`` grouped by the contiguous range of ``starts`` each falls in (stable), and
    how many fall in each: the send buffer and counts of an ``Alltoallv`` to the ranges'
    ranks, in the two passes of :func:`_requests_by_owner`. Every id must lie in
    ``starts[0] .. starts[-1] - 1``.

    Examples
    --------
    >>> grouped, counts = grouped_by_range(np.array([7, 1, 5, 2]), np.array([0, 3, 6, 9]))
    >>> grouped.tolist(), counts.tolist()
    ([1, 2, 5, 7], [2, 1, 1])
    """
    starts = np.asarray(starts, dtype=np.int64)
    ok, grouped, _, counts = _requests_by_owner(np.asarray(ids, dtype=np.int64),
                                                np.zeros(0, dtype=np.int64), starts,
                                                len(starts) - 1)
    if not ok:
        raise ValueError(f"grouped_by_range: an id outside {starts[0]}..{starts[-1] - 1}")
    return grouped, counts


def _mpi() -> Any:
    """mpi4py's ``MPI`` module, or one MissingDependencyError naming the pip extra."""
    return require("mpi4py.MPI", "an mpi solver")


def world() -> Any:
    """``MPI.COMM_WORLD`` (importing mpi4py initialises MPI; one rank without mpiexec)."""
    return _mpi().COMM_WORLD


def peak_memory_bytes() -> int:
    """This process's peak resident memory so far (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def abort(comm: Any, message: str, code: int = 2) -> None:
    """Log ``message`` naming this rank and abort the whole job (no rank is left waiting).

    Logging's stream handlers flush each record, so the line is out before
    ``Abort`` ends the process.
    """
    log.error("error on rank %d of %d: %s", comm.Get_rank(), comm.Get_size(), message)
    comm.Abort(code)


class Channel:
    """A communicator with counters: time in MPI, messages and bytes this rank sent.

    Parameters
    ----------
    comm : mpi4py communicator, optional
        Defaults to ``MPI.COMM_WORLD``.
    """

    def __init__(self, comm: Any = None) -> None:
        self.MPI = _mpi()
        self.comm = world() if comm is None else comm
        self.rank = self.comm.Get_rank()
        self.size = self.comm.Get_size()
        self.time = 0.0
        self.collectives = 0
        self.messages = 0
        self.bytes_sent = 0

    def _count(self, start: float, messages: int, nbytes: int) -> None:
        self.time += time.perf_counter() - start
        self.collectives += 1
        self.messages += messages
        self.bytes_sent += int(nbytes)

    def counters(self) -> dict[str, Any]:
        """The counters as plain data."""
        return {"comm_time_s": self.time, "collectives": self.collectives,
                "messages": self.messages, "bytes_sent": self.bytes_sent}

    # ------------------------------------------------------------ agreement
    def agree(self, error: BaseException | None) -> None:
        """Raise the same :class:`DistributedError` on every rank if any rank had ``error``.

        Collective: every rank must call it at the same point, with ``None``
        when its step succeeded.
        """
        if error is None:
            note = None
        elif isinstance(error, ParmstError):
            note = str(error)
        else:
            note = f"rank {self.rank}: {type(error).__name__}: {error}"
        start = time.perf_counter()
        notes = self.comm.allgather(note)
        self._count(start, self.size - 1, 0 if note is None else len(note))
        for rank, found in enumerate(notes):
            if found is not None:
                raise DistributedError(found, rank) from error

    # ------------------------------------------------------------ reductions
    def allreduce(self, array: np.ndarray, op: str) -> np.ndarray:
        """Element-wise ``op`` ("min", "max" or "sum") of ``array`` over ranks, in place.

        uint64 arrays are reduced (min or max) as order-preserving int64, their
        sign bit flipped: Open MPI 4.1 through mpi4py 4.1 was seen to compare
        unsigned 64-bit integers as signed ones, which silently picked wrong
        minima (Open MPI 5 does not).
        """
        mpi_op = {"min": self.MPI.MIN, "max": self.MPI.MAX, "sum": self.MPI.SUM}[op]
        start = time.perf_counter()
        if self.size > 1 and array.dtype == np.uint64:
            if op == "sum":
                raise ValueError("uint64 arrays are reduced by min or max only")
            array ^= _SIGN64
            self.comm.Allreduce(self.MPI.IN_PLACE, array.view(np.int64), op=mpi_op)
            array ^= _SIGN64
        elif self.size > 1:
            self.comm.Allreduce(self.MPI.IN_PLACE, array, op=mpi_op)
        self._count(start, 1 if self.size > 1 else 0, array.nbytes if self.size > 1 else 0)
        return array

    def allreduce_int(self, value: int, op: str) -> int:
        """``op`` of one integer over ranks."""
        return int(self.allreduce(np.array([value], dtype=np.int64), op)[0])

    def exscan_int(self, value: int) -> int:
        """Sum of ``value`` over the ranks before this one (0 on rank 0)."""
        start = time.perf_counter()
        result = self.comm.exscan(int(value)) if self.size > 1 else None
        self._count(start, 1 if self.size > 1 else 0, 8)
        return 0 if result is None else int(result)

    def exscan_ints(self, values: np.ndarray) -> np.ndarray:
        """Element-wise sums of int64 ``values`` over the ranks before this one (0 on rank 0)."""
        start = time.perf_counter()
        values = np.ascontiguousarray(values, dtype=np.int64)
        out = np.zeros_like(values)
        if self.size > 1:
            self.comm.Exscan(values, out, op=self.MPI.SUM)
            if self.rank == 0:  # MPI leaves rank 0's result undefined
                out[:] = 0
        self._count(start, 1 if self.size > 1 else 0, values.nbytes if self.size > 1 else 0)
        return out

    def allgather_int(self, value: int) -> np.ndarray:
        """``value`` of every rank, in rank order."""
        start = time.perf_counter()
        out = np.empty(self.size, dtype=np.int64)
        self.comm.Allgather(np.array([value], dtype=np.int64), out)
        self._count(start, self.size - 1, 8)
        return out

    def range_starts(self, count: int) -> np.ndarray:
        """Bounds of contiguous ranges where this rank owns ``count`` ids: rank ``r`` owns
        ``starts[r] .. starts[r + 1] - 1`` (``p + 1`` bounds, one Allgather)."""
        return np.concatenate(([0], np.cumsum(self.allgather_int(count))))

    # ------------------------------------------------------------ personalised exchange
    def alltoallv(self, arrays: Sequence[np.ndarray], counts: np.ndarray
                  ) -> tuple[list[np.ndarray], np.ndarray]:
        """Send ``arrays[k][sum(counts[:r]):sum(counts[:r+1])]`` to rank ``r``, for each k.

        Each array must already be grouped by destination rank. An item is one
        element of a 1-D array or one row of a 2-D array: several columns sent
        as the rows of one array cost one exchange instead of one each. Returns
        the received arrays, grouped by source rank (so in source-rank order),
        and how many items came from each rank.
        """
        counts = np.asarray(counts, dtype=np.int64)
        start = time.perf_counter()
        recv_counts = np.empty(self.size, dtype=np.int64)
        self.comm.Alltoall(counts, recv_counts)
        send_displ = np.concatenate(([0], np.cumsum(counts)[:-1]))
        recv_displ = np.concatenate(([0], np.cumsum(recv_counts)[:-1]))
        total = int(recv_counts.sum())
        received, sent_bytes = [], 0
        others = np.arange(self.size) != self.rank
        for array in arrays:
            array = np.ascontiguousarray(array)
            width = array.shape[1] if array.ndim == 2 else 1
            out = np.empty((total,) + array.shape[1:], dtype=array.dtype)
            kind = self.MPI._typedict[array.dtype.char]
            self.comm.Alltoallv([array, (counts * width, send_displ * width), kind],
                                [out, (recv_counts * width, recv_displ * width), kind])
            received.append(out)
            sent_bytes += int(counts[others].sum()) * width * array.itemsize
        self._count(start, int(np.count_nonzero(counts[others])) * max(1, len(arrays)), sent_bytes)
        return received, recv_counts

    def fetch(self, ids: np.ndarray, owner: np.ndarray | None, first: int,
              values: Sequence[np.ndarray], starts: np.ndarray | None = None
              ) -> list[np.ndarray]:
        """``values[k][id - first_of_owner]`` held by each id's owner, for every array k.

        ``owner`` is the owner rank of each id, or None where ids are owned in
        contiguous ranges: rank ``r`` owns ``starts[r] .. starts[r + 1] - 1``
        (then no array of owners is made). ``first`` is the first id this rank
        owns (its ids are ``first .. first + len(values[k]) - 1``). One request
        and one reply Alltoallv, however many arrays.
        """
        no_owner = np.zeros(0, dtype=np.int64)
        ok, grouped, came_from, counts = _requests_by_owner(
            np.asarray(ids, dtype=np.int64),
            no_owner if owner is None else np.asarray(owner, dtype=np.int64),
            no_owner if starts is None else np.asarray(starts, dtype=np.int64), self.size)
        if not ok:
            raise ValueError(f"fetch: an owner outside 0..{self.size - 1}")
        (asked,), asked_counts = self.alltoallv([grouped], counts)
        answers = [_answers(v, asked, first) for v in values]
        if len(answers) > 1 and len({a.dtype for a in answers}) == 1:
            # One exchange of rows instead of one per array.
            (rows,), _ = self.alltoallv([np.stack(answers, axis=1)], asked_counts)
            answers = [rows[:, k] for k in range(len(answers))]
        else:
            answers, _ = self.alltoallv(answers, asked_counts)
        return [_placed(answer, came_from) for answer in answers]

    # ------------------------------------------------------------ point to point
    def send_arrays(self, arrays: Sequence[np.ndarray], dest: int) -> None:
        """Send 1-D ``arrays`` of one length to rank ``dest`` (which calls :meth:`recv_arrays`).

        The length goes first in a small message, so the receiver allocates
        exactly what comes; then one message per array.
        """
        start = time.perf_counter()
        count = len(arrays[0]) if arrays else 0
        self.comm.Send(np.array([count], dtype=np.int64), dest=dest, tag=_ARRAYS_TAG)
        nbytes = 8
        for array in arrays:
            array = np.ascontiguousarray(array)
            self.comm.Send([array, self.MPI._typedict[array.dtype.char]], dest=dest,
                           tag=_ARRAYS_TAG)
            nbytes += array.nbytes
        self._count(start, 1 + len(arrays), nbytes)

    def recv_arrays(self, source: int, dtypes: Sequence[Any]) -> list[np.ndarray]:
        """The arrays rank ``source`` sent with :meth:`send_arrays`, one per dtype in
        ``dtypes`` (the sender's dtypes, in its order)."""
        start = time.perf_counter()
        count = np.empty(1, dtype=np.int64)
        self.comm.Recv(count, source=source, tag=_ARRAYS_TAG)
        received = []
        for dtype in dtypes:
            out = np.empty(int(count[0]), dtype=dtype)
            self.comm.Recv([out, self.MPI._typedict[out.dtype.char]], source=source,
                           tag=_ARRAYS_TAG)
            received.append(out)
        self._count(start, 0, 0)
        return received

    def allgatherv(self, array: np.ndarray) -> np.ndarray:
        """Concatenation of every rank's ``array`` (rank order), on every rank."""
        array = np.ascontiguousarray(array)
        start = time.perf_counter()
        counts = np.empty(self.size, dtype=np.int64)
        self.comm.Allgather(np.array([len(array)], dtype=np.int64), counts)
        out = np.empty(int(counts.sum()), dtype=array.dtype)
        kind = self.MPI._typedict[array.dtype.char]
        self.comm.Allgatherv([array, len(array), kind],
                             [out, (counts, np.concatenate(([0], np.cumsum(counts)[:-1]))), kind])
        self._count(start, self.size - 1, array.nbytes * (self.size - 1))
        return out

    def gatherv(self, array: np.ndarray, root: int = 0) -> np.ndarray | None:
        """Concatenation of every rank's ``array`` (rank order) on ``root``; None elsewhere."""
        array = np.ascontiguousarray(array)
        start = time.perf_counter()
        counts = np.empty(self.size, dtype=np.int64)
        self.comm.Allgather(np.array([len(array)], dtype=np.int64), counts)
        out = np.empty(int(counts.sum()), dtype=array.dtype) if self.rank == root else None
        kind = self.MPI._typedict[array.dtype.char]
        recv = [out, (counts, np.concatenate(([0], np.cumsum(counts)[:-1]))), kind] \
            if self.rank == root else None
        self.comm.Gatherv([array, len(array), kind], recv, root=root)
        self._count(start, 0 if self.rank == root else 1,
                    0 if self.rank == root else array.nbytes)
        return out

    def gather_object(self, value: Any, root: int = 0) -> list[Any] | None:
        """Small Python objects of every rank on ``root`` (pickled)."""
        start = time.perf_counter()
        out = self.comm.gather(value, root=root)
        self._count(start, 0 if self.rank == root else 1, 0)
        return out

    def bcast_object(self, value: Any, root: int = 0) -> Any:
        """A small Python object from ``root`` to every rank (pickled)."""
        start = time.perf_counter()
        out = self.comm.bcast(value, root=root)
        self._count(start, 0, 0)
        return out
