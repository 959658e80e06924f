"""Graphs spread over MPI ranks: each rank holds only its share, never the whole edge list.

A :class:`DistributedGraph` is one rank's part of a graph whose edges are
spread over an MPI communicator. Global edge ids are positions in the whole
input, so the ``(weight, edge_id)`` order, and with it the unique minimum
spanning forest, are those of the same graph on one machine.

How it is built (collective: every rank calls the same constructor):

1. Every rank reads only its own part of the input, with the format's own
   parser from :mod:`parmst.io`. A text file (edge list, SNAP, DIMACS
   ``.gr``, Matrix Market ``.mtx``) is cut into ``p`` byte ranges at line
   boundaries (a range starts after the first line break at or after
   ``r * size / p``), so every line belongs to exactly one rank; a PBBS file
   the same way, each rank taking the rows whose first word lies in its
   range (an exclusive prefix sum of word counts says where rows start); an
   ECL ``.egr`` file into whole CSR rows of near-equal entry counts, its
   mirror checksums summed over the ranks; a binary ``.npz`` archive into
   ``p`` equal slices of its arrays, read through the archive member without
   loading the rest. Line numbers and edge ids come from an exclusive prefix
   sum of the ranks' line and row counts.
2. Vertices are owned by ranks: ``ownership="block"`` gives rank ``r`` the
   ids ``r*b .. (r+1)*b - 1`` with ``b = ceil(n / p)`` (the last ranks may own
   none), ``"cyclic"`` gives it the ids ``v`` with ``v % p == r``.
3. Edges are routed with one ``Alltoallv`` to the owner of each endpoint:
   an edge whose ends have different owners (a *cut* edge) is held by both,
   so each rank sees every edge incident to its vertices.

Memory: a rank holds ``O(m/p)`` input edges while reading and ``O((m + c)/p)``
after routing (``c`` cut edges, at most ``m``), plus ``O(n/p)`` per-vertex
data. Shou and He's first MPI version gave every rank a copy of the whole graph
and ran out of memory at 8 ranks; here no rank ever holds more than its
share (the solvers' own replicated state is documented with each solver).

Errors seen by any rank (a malformed line in one rank's range, an id out of
range) are agreed on: every rank raises the same
:class:`~parmst.solvers.mpi._comm.DistributedError` with the lowest failing
rank's message (file, line), so no rank is left waiting.

Example
-------
Run under ``mpiexec -n 4 python script.py`` (or plainly, as one rank):

>>> import parmst, parmst.distributed as pd                    # doctest: +SKIP
>>> dg = pd.DistributedGraph.read("roads.gr")                   # doctest: +SKIP
>>> forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")  # doctest: +SKIP
"""

from __future__ import annotations

import os
import time
import zipfile
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from parmst.errors import GraphFormatError, GraphValueError
from parmst.graph import WEIGHT_DTYPES, Graph, index_dtype_for
from parmst.io._numbers import _is_space

__all__ = ["OWNERSHIPS", "DistributedGraph", "Ownership", "byte_range", "read_part"]

OWNERSHIPS = ("block", "cyclic")
TEXT_FORMATS = ("edgelist", "snap", "dimacs", "mtx")
FORMATS = (*TEXT_FORMATS, "pbbs", "egr", "npz")
NEWLINE = 10


# ---------------------------------------------------------------------------- ownership
def _check_ownership(kind: str) -> None:
    if kind not in OWNERSHIPS:
        raise ValueError(f"ownership must be one of {', '.join(OWNERSHIPS)}; got {kind!r}")


@dataclass(frozen=True)
class Ownership:
    """Which rank owns each vertex, and its index among that rank's vertices.

    Examples
    --------
    >>> o = Ownership("block", num_vertices=5, size=4)
    >>> o.owner(np.arange(5)).tolist(), [o.count(r) for r in range(4)]
    ([0, 0, 1, 1, 2], [2, 2, 1, 0])
    >>> c = Ownership("cyclic", num_vertices=5, size=2)
    >>> c.owner(np.arange(5)).tolist(), c.local(np.arange(5)).tolist()
    ([0, 1, 0, 1, 0], [0, 0, 1, 1, 2])
    >>> o.starts().tolist(), c.starts().tolist()
    ([0, 2, 4, 5, 5], [0, 3, 5])
    """

    kind: str
    num_vertices: int
    size: int

    def __post_init__(self) -> None:
        _check_ownership(self.kind)

    @property
    def block(self) -> int:
        return max(1, -(-self.num_vertices // self.size))

    def owner(self, v: np.ndarray) -> np.ndarray:
        """Owner rank of each vertex id."""
        v = np.asarray(v, dtype=np.int64)
        return v % self.size if self.kind == "cyclic" else v // self.block

    def local(self, v: np.ndarray) -> np.ndarray:
        """Index of each vertex among its owner's vertices."""
        v = np.asarray(v, dtype=np.int64)
        return v // self.size if self.kind == "cyclic" else v % self.block

    def count(self, rank: int) -> int:
        """Number of vertices ``rank`` owns."""
        n = self.num_vertices
        if self.kind == "cyclic":
            return max(0, (n - rank + self.size - 1) // self.size)
        return max(0, min(n, (rank + 1) * self.block) - rank * self.block)

    def starts(self) -> np.ndarray:
        """Bounds of the ranks' vertex ranges once each rank's vertices are numbered
        consecutively in rank order: vertex ``v`` becomes ``starts[owner(v)] + local(v)``
        (``v`` itself under block ownership); ``p + 1`` bounds, no communication."""
        counts = [self.count(r) for r in range(self.size)]
        return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    def global_ids(self, rank: int) -> np.ndarray:
        """The vertex ids ``rank`` owns, increasing (local index order)."""
        if self.kind == "cyclic":
            return np.arange(rank, self.num_vertices, self.size, dtype=np.int64)
        return np.arange(rank * self.block, rank * self.block + self.count(rank), dtype=np.int64)


# ---------------------------------------------------------------------------- the graph
class DistributedGraph:
    """One rank's share of a graph spread over an MPI communicator.

    Build it collectively with :meth:`read`, :meth:`from_local_edges` or
    :meth:`from_graph`; solve it with
    ``parmst.minimum_spanning_forest(dgraph, solver="filter-boruvka/mpi")``.

    Attributes
    ----------
    src, dst, weight, edge_ids : ndarray
        The edges this rank holds after routing: every edge with at least one
        endpoint owned here (cut edges are held by both owners). ``edge_ids``
        are global (positions in the whole input), increasing.
    num_vertices, num_edges : int
        Global counts.
    ownership : Ownership
    input_edges : int
        Edges this rank read or was given (its slice of the input).
    """

    is_distributed = True  # the registry sends graphs that say so to the distributed entries

    def __init__(self, channel: Any, src: np.ndarray, dst: np.ndarray, weight: np.ndarray,
                 edge_ids: np.ndarray, num_vertices: int, num_edges: int,
                 ownership: Ownership, input_edges: int) -> None:
        # Trusted: built by the collective constructors below.
        self.channel = channel
        self.src, self.dst, self.weight, self.edge_ids = src, dst, weight, edge_ids
        self.num_vertices = int(num_vertices)
        self.num_edges = int(num_edges)
        self.ownership = ownership
        self.input_edges = int(input_edges)
        self.build_time = 0.0  # seconds spent reading and routing (set by the constructors)

    def __repr__(self) -> str:
        return (f"DistributedGraph(rank={self.rank} of {self.size}, "
                f"num_vertices={self.num_vertices}, num_edges={self.num_edges}, "
                f"held_edges={len(self.src)}, weight={self.weight.dtype}, "
                f"ownership={self.ownership.kind!r})")

    @property
    def comm(self) -> Any:
        return self.channel.comm

    @property
    def rank(self) -> int:
        return self.channel.rank

    @property
    def size(self) -> int:
        return self.channel.size

    @property
    def primary(self) -> np.ndarray:
        """Mask of the held edges this rank is responsible for: those whose ``src`` it owns.

        Every edge is primary on exactly one rank, so primaries partition the edges.
        """
        return self.ownership.owner(self.src) == self.rank

    @property
    def nbytes(self) -> int:
        """Bytes of this rank's edge arrays."""
        return sum(a.nbytes for a in (self.src, self.dst, self.weight, self.edge_ids))

    def without_nan(self) -> DistributedGraph:
        """The same graph without its NaN-weight edges (ids unchanged; not collective)."""
        if self.weight.dtype.kind != "f":
            return self
        keep = ~np.isnan(self.weight)
        return DistributedGraph(self.channel, self.src[keep], self.dst[keep], self.weight[keep],
                                self.edge_ids[keep], self.num_vertices, self.num_edges,
                                self.ownership, self.input_edges)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_local_edges(cls, src: Any, dst: Any, weight: Any, first_edge_id: int,
                         num_vertices: int, comm: Any = None, *, ownership: str = "block",
                         allow_nan: bool = False) -> DistributedGraph:
        """Build from edges already spread over the ranks (collective).

        Parameters
        ----------
        src, dst, weight : array_like
            This rank's edges; their global ids are ``first_edge_id + k``.
        first_edge_id : int
            Global id of this rank's first edge. The ranks' id ranges must
            tile ``0..m-1`` without gaps or overlaps (in any rank order).
        num_vertices : int
            Global vertex count (the same on every rank).
        comm : mpi4py communicator, optional
            Defaults to ``MPI.COMM_WORLD``.
        ownership : {"block", "cyclic"}
        allow_nan : bool
            Keep NaN weights (solvers then need ``ignore_nan``; not supported by
            the mpi solvers, which reject NaN).

        Raises
        ------
        DistributedError
            On every rank, if any rank's arrays are invalid or the id ranges do
            not tile; the message names the rank.

        Examples
        --------
        >>> dg = DistributedGraph.from_local_edges([0, 1], [1, 2], [5, 6], 0, 3)  # doctest: +SKIP
        >>> dg.num_edges                                                          # doctest: +SKIP
        2
        """
        channel, start = _channel(comm), time.perf_counter()
        error, local = None, None
        try:
            _check_ownership(ownership)
            local = Graph.from_edges(src, dst, weight, num_vertices, allow_nan=allow_nan)
            if int(first_edge_id) != first_edge_id or first_edge_id < 0:
                raise GraphValueError(f"first_edge_id must be a non-negative integer, "
                                      f"got {first_edge_id!r}")
        except (GraphValueError, ValueError, TypeError) as exc:
            error = GraphValueError(f"rank {channel.rank}: {exc}")
        channel.agree(error)
        firsts = channel.allgather_int(int(first_edge_id))
        counts = channel.allgather_int(local.num_edges)
        counts_n = channel.allgather_int(int(num_vertices))
        _check_tiling(channel, firsts, counts, counts_n)
        weight_array = _agree_weight_dtype(channel, local.weight)
        return _route(channel, local.src, local.dst, weight_array, int(first_edge_id),
                      int(num_vertices), int(counts.sum()), ownership, start)

    @classmethod
    def from_graph(cls, graph: Graph, comm: Any = None, *,
                   ownership: str = "block") -> DistributedGraph:
        """Spread a graph that every rank holds whole (each rank keeps its slice; collective).

        Meant for tests and for graphs that fit one machine; large inputs
        should be read with :meth:`read`.

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], [1, 2])
        >>> DistributedGraph.from_graph(g).num_edges  # doctest: +SKIP
        2
        """
        channel, start = _channel(comm), time.perf_counter()
        lo, hi = _slice_bounds(graph.num_edges, channel.rank, channel.size)
        return _route(channel, graph.src[lo:hi], graph.dst[lo:hi], graph.weight[lo:hi], lo,
                      graph.num_vertices, graph.num_edges, ownership, start)

    @classmethod
    def read(cls, path: str | os.PathLike, comm: Any = None, format: str | None = None, *,
             ownership: str = "block", **options: Any) -> DistributedGraph:
        """Read a graph file in parallel: each rank parses only its own part (collective).

        Parameters
        ----------
        path : str or PathLike
            An uncompressed edge list (``.txt``...), SNAP (``.snap``), DIMACS
            (``.gr``), Matrix Market (``.mtx``), PBBS (``.pbbs``), ECL
            binary CSR (``.egr``) or NumPy (``.npz``) file.
        comm : mpi4py communicator, optional
        format : str, optional
            Format name if the extension does not tell.
        ownership : {"block", "cyclic"}
        **options
            ``num_vertices``, ``weight_dtype``, ``header`` (edge lists),
            ``general`` (Matrix Market), ``allow_nan``; see :func:`read_part`.

        Raises
        ------
        DistributedError
            On every rank, with the file, line (or array) and problem of the
            first rank that found one.

        Examples
        --------
        >>> dg = DistributedGraph.read("g.txt")  # doctest: +SKIP
        """
        channel, start = _channel(comm), time.perf_counter()
        part, error = None, None
        try:
            _check_ownership(ownership)
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
        weight = _agree_weight_dtype(channel, part.weight, part.weight_dtype)
        first = channel.exscan_int(len(part.src))
        return _route(channel, part.src, part.dst, weight, first, num_vertices, total, ownership,
                      start)


# ---------------------------------------------------------------------------- routing
def _channel(comm: Any) -> Any:
    from parmst.solvers.mpi._comm import Channel

    return comm if isinstance(comm, Channel) else Channel(comm)


def _slice_bounds(total: int, rank: int, size: int) -> tuple[int, int]:
    """Rank ``rank``'s share ``[lo, hi)`` of ``total`` items cut into ``size`` near-equal slices."""
    return total * rank // size, total * (rank + 1) // size


def _check_tiling(channel: Any, firsts: np.ndarray, counts: np.ndarray,
                  vertex_counts: np.ndarray) -> None:
    error = None
    if (vertex_counts != vertex_counts[0]).any():
        error = GraphValueError(f"num_vertices differs between ranks: {vertex_counts.tolist()}")
    else:
        order = np.lexsort((counts, firsts))  # an empty range may share its start with another
        expected = np.concatenate(([0], np.cumsum(counts[order])[:-1]))
        bad = np.flatnonzero(firsts[order] != expected)
        if len(bad):
            r = int(order[bad[0]])
            error = GraphValueError(
                f"edge ids must tile 0..m-1: rank {r} starts at first_edge_id={int(firsts[r])} "
                f"but the ranks before it in id order end at {int(expected[bad[0]])}")
    if error is not None and channel.rank != 0:
        error = None  # every rank sees the same figures; rank 0 speaks for them
    channel.agree(error)


def _check_mirrors(channel: Any, part: Part) -> None:
    """An ``.egr`` file's entries must pair up over the whole file: the ranks' balances sum to 0."""
    from parmst.io import egr
    from parmst.io._files import read_bytes

    balances = channel.allgatherv(part.balance).reshape(-1, 2)
    with np.errstate(over="ignore"):  # wrapping sums, as the one-process reader's
        total = balances.sum(axis=0, dtype=np.uint64)
    error = None
    if total.any() and channel.rank == 0:  # error path: rank 0 finds the first bad entry
        data = read_bytes(part.path)
        error = egr.unmirrored_error(part.path, data, *egr.layout(part.path, data))
    channel.agree(error)


def _agree_weight_dtype(channel: Any, weight: np.ndarray,
                        named: np.dtype | None = None) -> np.ndarray:
    """Weights of one dtype on every rank, as the one-process reader would give for the file.

    Ranks whose weights mix integer and float kinds all get float64 (a text
    file with one non-integer weight reads as float64); otherwise the widest
    dtype of the ranks that hold edges wins.
    """
    if named is not None:
        return weight.astype(named, copy=False)
    mine = WEIGHT_DTYPES.index(weight.dtype)
    codes = channel.allgather_int(mine if len(weight) else -1 - mine)  # negative: no edges
    used = [WEIGHT_DTYPES[c] for c in codes if c >= 0] or [WEIGHT_DTYPES[-1 - c] for c in codes]
    if len({d.kind for d in used}) > 1:
        target = np.dtype(np.float64)
    else:
        target = max(used, key=lambda d: d.itemsize)
    return weight.astype(target, copy=False)


@numba.njit(cache=True)
def _scatter_by_owner(src, dst, owner_src, owner_dst, offsets, out_src, out_dst, out_pos):
    """Place each edge in the send buffer of its source's owner, and of its target's if different.

    ``offsets[r]`` is the next free slot of rank ``r``'s segment; ``out_pos``
    receives the input position of each placed copy (edge order within a
    segment stays increasing, so received edges stay in global id order).
    """
    for e in range(len(src)):
        r = owner_src[e]
        k = offsets[r]
        out_src[k], out_dst[k], out_pos[k] = src[e], dst[e], e
        offsets[r] = k + 1
        q = owner_dst[e]
        if q != r:
            k = offsets[q]
            out_src[k], out_dst[k], out_pos[k] = src[e], dst[e], e
            offsets[q] = k + 1


def _route(channel: Any, src: np.ndarray, dst: np.ndarray, weight: np.ndarray, first_id: int,
           num_vertices: int, num_edges: int, ownership: str, start: float) -> DistributedGraph:
    """Send every edge to the owners of its endpoints with one Alltoallv per array."""
    owners = Ownership(ownership, num_vertices, channel.size)
    owner_src = owners.owner(src)
    owner_dst = owners.owner(dst)
    cut = owner_src != owner_dst
    counts = (np.bincount(owner_src, minlength=channel.size)
              + np.bincount(owner_dst[cut], minlength=channel.size)).astype(np.int64)
    total = int(counts.sum())
    idx = index_dtype_for(num_vertices, num_edges)
    out_src = np.empty(total, dtype=idx)
    out_dst = np.empty(total, dtype=idx)
    out_pos = np.empty(total, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    _scatter_by_owner(src, dst, owner_src, owner_dst, offsets, out_src, out_dst, out_pos)
    send_w = weight[out_pos]
    out_pos += first_id
    (rs, rd, rw, rid), _ = channel.alltoallv([out_src, out_dst, send_w, out_pos], counts)
    if (np.diff(rid) < 0).any():  # from_local_edges: id ranges need not follow rank order
        order = np.argsort(rid, kind="stable")
        rs, rd, rw, rid = rs[order], rd[order], rw[order], rid[order]
    graph = DistributedGraph(channel, rs, rd, rw, rid, num_vertices, num_edges, owners, len(src))
    graph.build_time = time.perf_counter() - start
    return graph


# ---------------------------------------------------------------------------- partitioned reading
@dataclass
class Part:
    """What one rank read: its rows and what the whole file must agree on."""

    path: str
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    weight_dtype: np.dtype | None
    num_vertices: int | None
    expected_edges: int | None = None
    count_line: int | None = None
    count_what: str = "edges"
    rows_read: int | None = None  # rows parsed, where some were then dropped (.mtx general=)
    balance: np.ndarray | None = None  # .egr: mirror checksums to sum over the parts

    @property
    def max_id(self) -> int:
        return max(int(self.src.max()), int(self.dst.max())) if len(self.src) else -1

    @property
    def counted(self) -> int:
        """Rows this part holds as the header counts them."""
        return len(self.src) if self.rows_read is None else self.rows_read

    def count_message(self, found: int) -> str:
        if self.count_what == "entries":
            from parmst.io.mtx import count_message

            return count_message(self.expected_edges, found)
        return (f"the header announces m={self.expected_edges} {self.count_what} but the file "
                f"has {found} {self.count_what} lines")


class _Collective(Exception):
    """Wraps an error already agreed on by every rank (raised inside a collective step)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Before:
    """Sums over the ranks before this one of per-rank counts (lines, tokens): one Exscan."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel

    def __call__(self, mine: tuple[int, ...], of_rank: Any) -> tuple[int, ...]:
        try:
            return tuple(self.channel.exscan_ints(np.array(mine, dtype=np.int64)).tolist())
        except Exception as exc:  # pragma: no cover - MPI failure
            raise _Collective(exc) from exc


def _simulated_before(rank: int):
    """The ``before`` of one process reading one part (tests): counts the parts before it."""
    def before(mine: tuple[int, ...], of_rank: Any) -> tuple[int, ...]:
        sums = [0] * len(mine)
        for r in range(rank):
            sums = [a + b for a, b in zip(sums, of_rank(r), strict=True)]
        return tuple(sums)
    return before


@numba.njit(cache=True)
def _count_newlines(buf, lo, hi):
    count = 0
    for k in range(lo, hi):
        if buf[k] == NEWLINE:
            count += 1
    return count


@numba.njit(cache=True)
def _is_blank(c):
    return c == NEWLINE or _is_space(c)


@numba.njit(cache=True)
def _count_token_starts(buf, lo, hi):
    """Words (PBBS tokens) starting in ``buf[lo:hi]``; ``lo`` follows a space or line break."""
    count = 0
    for k in range(lo, hi):
        if not _is_blank(buf[k]) and (k == 0 or _is_blank(buf[k - 1])):
            count += 1
    return count


@numba.njit(cache=True)
def _token_span(buf, lo, skip, take):
    """Start of the word ``skip`` from ``lo`` and the end of word ``skip + take - 1``.

    May read past the part's range to finish its last row; stops at the end
    of the buffer (the row parser then reports an incomplete row).
    """
    pos, seen, start = lo, 0, len(buf)
    n = len(buf)
    while pos < n:
        while pos < n and _is_blank(buf[pos]):
            pos += 1
        if pos >= n:
            break
        if seen == skip:
            start = pos
        while pos < n and not _is_blank(buf[pos]):
            pos += 1
        seen += 1
        if seen == skip + take:
            return start, pos
    return min(start, n), n


@numba.njit(cache=True)
def _line_start_at_or_after(buf, pos, floor):
    """First line start at or after ``pos`` (``pos`` itself if a line starts there)."""
    if pos <= floor:
        return floor
    while pos < len(buf) and buf[pos - 1] != NEWLINE:
        pos += 1
    return pos


def byte_range(data: np.ndarray, start: int, rank: int, size: int) -> tuple[int, int]:
    """Rank ``rank``'s byte range of ``data[start:]``, cut at line boundaries.

    The ranges of ranks ``0..size-1`` tile ``[start, len(data))`` and each
    begins at a line start, so every line is in exactly one range (a line
    longer than a range leaves that range empty).

    Examples
    --------
    >>> data = np.frombuffer(b"0 1 5\\n1 2 7\\n2 3 1\\n", dtype=np.uint8)
    >>> [byte_range(data, 0, r, 2) for r in range(2)]
    [(0, 12), (12, 18)]
    """
    end = len(data)
    lo, hi = (start + (end - start) * k // size for k in (rank, rank + 1))
    lo = int(_line_start_at_or_after(data, lo, start))
    hi = end if rank == size - 1 else int(_line_start_at_or_after(data, hi, start))
    return lo, max(lo, hi)


def read_part(path: str | os.PathLike, rank: int, size: int, format: str | None = None, *,
              before: Any = None, num_vertices: int | None = None,
              weight_dtype: str | None = None, header: bool | None = None,
              general: str | None = None, allow_nan: bool = False) -> Part:
    """Parse rank ``rank``'s part of a graph file (of ``size`` parts), reading nothing else.

    Text files are cut into byte ranges at line starts (PBBS files, whose
    line breaks do not matter, at word boundaries: a rank takes the rows
    whose first word lies in its range); ``.egr`` files into whole CSR rows of
    near-equal entry counts (edge ids follow CSR order, so the parts in rank
    order are the file's edges in order); ``.npz`` files into equal slices.

    ``before(mine, of_rank)`` must return, for the tuple of counts ``mine``
    of this part (lines, words), the sums over the parts before it (an
    exclusive prefix sum; ``of_rank(r)`` gives part ``r``'s counts to one
    process that simulates the ranks, the default). Options as in
    :func:`parmst.io.read`; gzip files, ``symmetric="dedupe"``,
    ``general="dedupe"`` and ``relabel`` need the whole file and are not
    offered here.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("0 1 5\\n1 2 7\\n2 3 1\\n")
    >>> [read_part(path, r, 2).src.tolist() for r in range(2)]
    [[0, 1], [2]]
    """
    from parmst import io
    from parmst.io._files import check_readable, is_gzip

    path = os.fspath(path)
    check_readable(path)
    fmt = io.detect_format(path, format)
    if is_gzip(path):
        raise GraphFormatError(path, "distributed reading needs an uncompressed file "
                                     "(each rank seeks to its own byte range); gunzip it first")
    if before is None:
        before = _simulated_before(rank)
    _check_options(fmt.name, num_vertices, weight_dtype, header, general)
    if fmt.name in TEXT_FORMATS:
        return _read_text_part(path, fmt.name, rank, size, before, num_vertices,
                               weight_dtype, header, general or "keep", allow_nan)
    if fmt.name == "pbbs":
        return _read_pbbs_part(path, rank, size, before, num_vertices, weight_dtype, allow_nan)
    if fmt.name == "egr":
        return _read_egr_part(path, rank, size)
    if fmt.name == "npz":
        return _read_npz_part(path, rank, size, num_vertices, allow_nan)
    raise GraphFormatError(path, f"distributed reading supports {', '.join(FORMATS)} files, "
                                 f"not {fmt.name}; convert it with 'parmst convert'")


# Options each format takes in read_part (as its one-process reader does).
_OPTIONS = {"edgelist": {"num_vertices", "weight_dtype", "header"},
            "snap": {"num_vertices", "weight_dtype", "header"},
            "dimacs": {"weight_dtype"}, "mtx": {"weight_dtype", "general"},
            "pbbs": {"num_vertices", "weight_dtype"}, "egr": set(),
            "npz": {"num_vertices"}}


def _check_options(name: str, num_vertices: int | None, weight_dtype: str | None,
                   header: bool | None, general: str | None) -> None:
    given = {k for k, v in (("num_vertices", num_vertices), ("weight_dtype", weight_dtype),
                            ("header", header), ("general", general)) if v is not None}
    extra = sorted(given - _OPTIONS.get(name, given))
    if extra:
        raise TypeError(f"{', '.join(extra)}= does not apply to {name} files (they take "
                        f"{', '.join(sorted(_OPTIONS[name])) or 'no options'})")
    if general is not None:
        from parmst.io._common import check_choice
        from parmst.io.mtx import GENERAL_CHOICES

        check_choice("general", general, GENERAL_CHOICES)
        if general == "dedupe":
            raise ValueError("general='dedupe' pairs entries across the whole file; distributed "
                             "reading offers keep, upper and lower")


def _range_counts(data: np.ndarray, start: int, size: int, words: bool = False):
    """``of_rank`` for text files: the lines (and words) in each rank's byte range."""
    def of_rank(r: int) -> tuple[int, ...]:
        lo, hi = byte_range(data, start, r, size)
        lines = int(_count_newlines(data, lo, hi))
        return (lines, int(_count_token_starts(data, lo, hi))) if words else (lines,)
    return of_rank


def _text_start(path: str, name: str, data: np.ndarray, header: bool | None = None,
                weight_dtype: str | None = None, allow_nan: bool = False):
    """Where edge lines start, their first line number, and the format's head information."""
    from parmst.io import dimacs, edgelist, mtx
    from parmst.io._rows import TextFile

    text = TextFile(path, data)
    if name == "dimacs":
        n, m, pos, p_line, metadata = dimacs._problem_line(text)
        return pos, p_line + 1, (n, m, p_line, metadata)
    if name == "mtx":
        spec, dtype, n, nnz, pos, size_line, symmetry = mtx.entry_spec(text, weight_dtype,
                                                                       allow_nan)
        return pos, size_line + 1, (spec, dtype, n, nnz, size_line, symmetry)
    comments = "#" if name == "snap" else edgelist.COMMENTS
    layout = edgelist._layout(text, header, comments)
    return layout.pos, layout.line, (layout, comments)


def _read_text_part(path: str, name: str, rank: int, size: int, before: Any,
                    num_vertices: int | None, weight_dtype: str | None, header: bool | None,
                    general: str, allow_nan: bool) -> Part:
    from parmst.io._common import (
        check_vertex_count,
        finish_weights,
        resolve_weight_dtype,
        weight_limits,
    )
    from parmst.io._files import read_bytes
    from parmst.io._rows import INT64_MAX, RowSpec, TextFile, parse_rows

    check_vertex_count(num_vertices)
    data = read_bytes(path)  # a memory map: only this rank's range is ever touched
    start, first_line, head = _text_start(path, name, data, header, weight_dtype, allow_nan)
    lo, hi = byte_range(data, start, rank, size)
    lines = int(_count_newlines(data, lo, hi))
    line = first_line + before((lines,), _range_counts(data, start, size))[0]
    text = TextFile(path, data[lo:hi])
    expected, count_line, what, rows_read = None, None, "edges", None
    if name == "dimacs":
        n, m, p_line, metadata = head
        dtype = resolve_weight_dtype(path, weight_dtype, metadata)
        weight_range, integers = weight_limits(dtype)
        spec = RowSpec(("u", "v", "w"), prefix="a", comments=b"c", id_range=(1, n),
                       id_hint=f" (ids are 1-based; the problem line on line {p_line} says n={n})",
                       weight_range=weight_range, integer_weights=integers, allow_nan=allow_nan)
        num_vertices, expected, count_line, what = n, m, p_line, "arc"
    elif name == "mtx":
        spec, dtype, num_vertices, expected, count_line, symmetry = head
        what = "entries"
    else:
        from parmst.io.edgelist import _vertex_count

        layout, comments = head
        num_vertices, source = _vertex_count(TextFile(path, data), num_vertices, layout)
        dtype = resolve_weight_dtype(path, weight_dtype, layout.metadata)
        weight_range, integers = weight_limits(dtype)
        if num_vertices is None:
            id_range, hint = (0, INT64_MAX), ""
        else:
            id_range, hint = (0, num_vertices - 1), f" (num_vertices={num_vertices} from {source})"
        spec = RowSpec(("u", "v", "w")[:layout.ncols], comments=comments.encode(),
                       id_range=id_range, id_hint=hint, weight_range=weight_range,
                       integer_weights=integers, allow_nan=allow_nan)
        if layout.header is not None:
            expected, count_line = layout.header[1], layout.header[2]
    rows = parse_rows(text, 0, line, spec, progress=False)
    if name == "mtx" and symmetry == "general":
        from parmst.io.mtx import select_general

        rows_read = len(rows.src)  # the size line counts entries before the choice
        rows = select_general(rows, general)
    src, dst = rows.src, rows.dst
    if name in ("dimacs", "mtx"):
        src, dst = src - 1, dst - 1
    weight = finish_weights(rows, dtype)
    if weight is None:
        weight = np.ones(len(src), dtype=np.int32)
    return Part(path, src, dst, weight, dtype, num_vertices, expected, count_line, what,
                rows_read)


def _read_pbbs_part(path: str, rank: int, size: int, before: Any, num_vertices: int | None,
                    weight_dtype: str | None, allow_nan: bool) -> Part:
    """Rows whose first word lies in this rank's byte range (PBBS ignores line breaks)."""
    from parmst.io import pbbs
    from parmst.io._common import check_vertex_count, finish_weights
    from parmst.io._files import read_bytes
    from parmst.io._rows import TextFile, parse_rows

    check_vertex_count(num_vertices)
    data = read_bytes(path)
    spec, dtype, start, first_line = pbbs.row_spec(TextFile(path, data), num_vertices,
                                                   weight_dtype, allow_nan)
    lo, hi = byte_range(data, start, rank, size)
    mine = (int(_count_newlines(data, lo, hi)), int(_count_token_starts(data, lo, hi)))
    lines_before, words_before = before(mine, _range_counts(data, start, size, words=True))
    width = len(spec.columns)
    skip = -words_before % width  # the words that finish the previous rank's last row
    rows_here = max(0, -(-(words_before + mine[1]) // width) - -(-words_before // width))
    if rows_here:
        first, last = (int(x) for x in _token_span(data, lo, skip, rows_here * width))
    else:
        first = last = lo
    line = first_line + lines_before + int(_count_newlines(data, lo, first))
    rows = parse_rows(TextFile(path, data[first:last]), 0, line, spec, progress=False)
    weight = finish_weights(rows, dtype)
    if weight is None:
        weight = np.ones(len(rows.src), dtype=np.int32)
    return Part(path, rows.src, rows.dst, weight, dtype, num_vertices)


def _read_egr_part(path: str, rank: int, size: int) -> Part:
    """Whole CSR rows of near-equal entry counts; the mirror check sums over the parts."""
    from parmst.io import egr
    from parmst.io._files import read_bytes

    data = read_bytes(path)
    n, e, weighted = egr.layout(path, data)
    bounds = egr.row_bounds(data, n, e, size)
    rows = egr.read_rows(path, data, n, e, weighted, int(bounds[rank]), int(bounds[rank + 1]))
    return Part(path, rows.src, rows.dst, rows.weight, np.dtype(np.int32), n,
                balance=rows.balance)


def _npz_member(archive: zipfile.ZipFile, path: str, name: str):
    """The ``.npy`` member ``name`` opened for seeking, with its dtype, length and data offset."""
    try:
        f = archive.open(name + ".npy")
    except KeyError:
        raise GraphFormatError(path, f"missing array {name!r}; a graph archive holds src, dst, "
                                     "weight, num_vertices") from None
    version = np.lib.format.read_magic(f)
    header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
              else np.lib.format.read_array_header_2_0)
    shape, _, dtype = header(f)
    if dtype.hasobject:
        raise GraphFormatError(path, f"array {name!r} holds Python objects; never loaded")
    if name != "num_vertices" and len(shape) != 1:
        raise GraphFormatError(path, f"{name} must be one-dimensional, found shape {shape}")
    return f, dtype, shape, f.tell()


def _npz_slice(archive: zipfile.ZipFile, path: str, name: str, lo: int, hi: int,
               length: int | None) -> np.ndarray:
    f, dtype, shape, data_start = _npz_member(archive, path, name)
    with f:
        if length is not None and shape[0] != length:
            raise GraphFormatError(path, f"src has {length} entries but {name} has {shape[0]}")
        f.seek(data_start + lo * dtype.itemsize)
        raw = f.read((hi - lo) * dtype.itemsize)
    return np.frombuffer(raw, dtype=dtype).copy()


def _read_npz_part(path: str, rank: int, size: int, num_vertices: int | None,
                   allow_nan: bool) -> Part:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise GraphFormatError(path, f"not a NumPy .npz archive ({exc})") from exc
    with archive:
        f, dtype, shape, _ = _npz_member(archive, path, "num_vertices")
        with f:
            stored = np.frombuffer(f.read(dtype.itemsize), dtype=dtype)[0] \
                if shape == () and dtype.kind in "iu" else None
        if stored is None:
            raise GraphFormatError(path, f"num_vertices must be an integer scalar, found shape "
                                         f"{shape} dtype {dtype}")
        n = int(stored) if num_vertices is None else num_vertices
        f, _, shape, _ = _npz_member(archive, path, "src")
        f.close()
        m = shape[0]
        lo, hi = _slice_bounds(m, rank, size)
        src = _npz_slice(archive, path, "src", lo, hi, m)
        dst = _npz_slice(archive, path, "dst", lo, hi, m)
        weight = _npz_slice(archive, path, "weight", lo, hi, m)
    try:
        local = Graph.from_edges(src, dst, weight, n, allow_nan=allow_nan)
    except GraphValueError as exc:
        raise GraphFormatError(path, f"edges {lo}..{hi - 1}: {exc}") from exc
    return Part(path, local.src, local.dst, local.weight, local.weight.dtype, n)
