"""Reading a file collectively: each rank reads its part, and the ranks agree on the whole file.

Each rank reads part ``rank`` of ``size`` with :func:`parmst.io.read_part`
(the format's own ``read_range``); the line numbers of its messages come
from one ``Exscan`` of the ranks' line (and word) counts. Then the ranks
agree on what only the whole file can tell: the vertex count, the header's
edge count, the ``.egr`` mirror check, one weight dtype, and where each
rank's global edge ids start; slices far from an equal share of the edges
are evened out by id range (:func:`balanced`). An error found by any rank is raised on every
rank (:meth:`~parmst._mpi.channel.Channel.agree`), so none is left waiting.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from parmst.distributed.ownership import check_ownership
from parmst.distributed.routing import Slice, agree_weight_dtype
from parmst.errors import GraphFormatError, GraphValueError
from parmst.formats import Part, egr, read_part


class _Collective(Exception):
    """Wraps an error already agreed on by every rank (raised inside a collective step)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Before:
    """Sums over the ranks before this one of per-rank counts (lines, words): one Exscan."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel

    def __call__(self, mine: tuple[int, ...], of_rank: Any) -> tuple[int, ...]:
        try:
            return tuple(self.channel.exscan_ints(np.array(mine, dtype=np.int64)).tolist())
        except Exception as exc:  # pragma: no cover - MPI failure
            raise _Collective(exc) from exc


def _check_mirrors(channel: Any, part: Part) -> None:
    """An ``.egr`` file's entries must pair up over the whole file: the ranks' balances sum to 0."""
    balances = channel.allgatherv(part.balance).reshape(-1, 2)
    with np.errstate(over="ignore"):  # wrapping sums, as the one-process reader's
        total = balances.sum(axis=0, dtype=np.uint64)
    error = None
    if total.any() and channel.rank == 0:  # error path: rank 0 finds the first bad entry
        error = egr.unmirrored_file_error(part.path)
    channel.agree(error)


def read_slice(channel: Any, path: str | os.PathLike, format: str | None, ownership: str,
               options: dict[str, Any]) -> Slice:
    """This rank's part of the file at ``path``, checked with the other ranks (collective).

    ``ownership`` is only checked here, with the other errors, so that a bad
    value fails every rank alike.
    """
    part, error = None, None
    try:
        check_ownership(ownership)
        part = read_part(path, channel.rank, channel.size, format=format,
                         before=_Before(channel), **options)
    except _Collective as exc:
        raise exc.error from None
    except (GraphFormatError, GraphValueError, ValueError, TypeError, OSError) as exc:
        error = exc
    channel.agree(error)
    error = None
    try:
        num_vertices = part.num_vertices
        top = channel.allreduce_int(part.max_id, "max")
        total = channel.allreduce_int(len(part.src), "sum")
        counted = channel.allreduce_int(part.counted, "sum")
        if num_vertices is None:
            num_vertices = top + 1
        elif top >= num_vertices:
            raise GraphFormatError(part.path, f"vertex id {top} needs more than "
                                              f"num_vertices={num_vertices} vertices")
        if part.expected_edges is not None and counted != part.expected_edges:
            raise GraphFormatError(part.path, part.count_message(counted),
                                   line=part.count_line)
    except GraphFormatError as exc:
        error = exc
    channel.agree(error)
    if part.balance is not None:
        _check_mirrors(channel, part)
    weight = agree_weight_dtype(channel, part.weight, part.weight_dtype)
    return balanced(channel, Slice(part.src, part.dst, weight, channel.exscan_int(len(part.src)),
                                   num_vertices, total))


def balanced(channel: Any, part: Slice) -> Slice:
    """``part`` as near-equal id ranges (rank ``r`` of ``p``: ids ``r*m//p ..``), if it is not.

    A format's parts balance the bytes each rank reads, not always the edges:
    an ``.egr`` part of whole rows holds an edge for each entry ``(u, v)``
    with ``u < v`` only, so on a graph with random ids part ``r`` of ``p``
    holds about ``(2(p - r) - 1) / p**2`` of the edges (7/16 for rank 0 of 4,
    1/16 for rank 3), and that slice then sized the routing buffers and the
    rank's peak memory. One ``Alltoallv`` by id range moves the surplus,
    keeping id order; slices within an eighth of their range stay put.
    """
    counts = channel.allgather_int(len(part.src))
    size, total = channel.size, part.num_edges
    starts = np.array([total * r // size for r in range(size + 1)], dtype=np.int64)
    if (np.abs(counts - np.diff(starts)) <= total // (8 * size)).all():
        return part
    mine = np.clip(starts - part.first_id, 0, len(part.src))
    (src, dst, weight), _ = channel.alltoallv([part.src, part.dst, part.weight], np.diff(mine))
    return Slice(src, dst, weight, int(starts[channel.rank]), part.num_vertices, total)
