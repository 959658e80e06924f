"""The distributed graph: one rank's share of the edges, built collectively by every rank.

Its four constructors each agree on a :class:`~parmst.distributed.routing.Slice`
of the input on every rank (read from a file, generated, given, or cut from a
graph every rank holds) and then route it (:func:`~parmst.distributed.routing.route`).
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from parmst.distributed.generation import generate_slice
from parmst.distributed.ownership import Ownership, check_ownership
from parmst.distributed.reading import read_slice
from parmst.distributed.routing import Slice, agree_weight_dtype, route
from parmst.errors import GraphValueError
from parmst.formats._ranges import slice_bounds
from parmst.graph import Graph


class DistributedGraph:
    """One rank's share of a graph spread over an MPI communicator.

    Build it collectively with :meth:`read`, :meth:`generate`,
    :meth:`from_local_edges` or :meth:`from_graph`; solve it with
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

    is_distributed = True  # how the registry tells a distributed graph from a Graph

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
            check_ownership(ownership)
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
        weight_array = agree_weight_dtype(channel, local.weight)
        return cls._routed(channel, Slice(local.src, local.dst, weight_array, int(first_edge_id),
                                          int(num_vertices), int(counts.sum())),
                           ownership, start)

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
        lo, hi = slice_bounds(graph.num_edges, channel.rank, channel.size)
        return cls._routed(channel, Slice(graph.src[lo:hi], graph.dst[lo:hi],
                                          graph.weight[lo:hi], lo, graph.num_vertices,
                                          graph.num_edges), ownership, start)

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
            ``general`` (Matrix Market), ``allow_nan``; see :func:`parmst.io.read_part`.

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
        return cls._routed(channel, read_slice(channel, path, format, ownership, options),
                           ownership, start)

    @classmethod
    def generate(cls, spec: str, comm: Any = None, *,
                 ownership: str = "block") -> DistributedGraph:
        """Generate a graph in parallel: each rank builds only its share (collective).

        The graph is exactly ``parmst.generate(spec)`` (same edges, ids and
        weights, whatever the rank count), but no rank ever holds all of it:
        rank ``r`` draws block ``r`` of the edges (or of the raw draws, for
        families that remove repeats, then the ranks sort the pairs among
        themselves), and the edges are routed to their vertex owners as
        after :meth:`read`; see :mod:`parmst.distributed.generation`.

        Parameters
        ----------
        spec : str
            A generator spec, e.g. ``"rmat:scale=26,seed=1"``; the family must
            be one that ranks can share
            (:func:`parmst.distributed.generation.parallel_families`).
        comm : mpi4py communicator, optional
            Defaults to ``MPI.COMM_WORLD``.
        ownership : {"block", "cyclic"}

        Raises
        ------
        DistributedError
            On every rank: a malformed spec, a family that cannot be generated
            in parallel (the message lists those that can), or a share too
            big for a rank's memory.

        Examples
        --------
        Under ``mpiexec -n 4 python script.py`` (or plainly, as one rank):

        >>> import parmst                                                      # doctest: +SKIP
        >>> dg = DistributedGraph.generate("rmat:scale=20,seed=1")             # doctest: +SKIP
        >>> forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")  # doctest: +SKIP
        """
        channel, start = _channel(comm), time.perf_counter()
        return cls._routed(channel, generate_slice(channel, spec, ownership), ownership, start)

    @classmethod
    def _routed(cls, channel: Any, part: Slice, ownership: str,
                start: float) -> DistributedGraph:
        """The graph of ``part`` routed to its owners; ``start`` began the build's clock."""
        held = route(channel, part, ownership)
        graph = cls(channel, held.src, held.dst, held.weight, held.edge_ids, part.num_vertices,
                    part.num_edges, held.ownership, len(part.src))
        graph.build_time = time.perf_counter() - start
        return graph


def _channel(comm: Any) -> Any:
    from parmst._mpi.channel import Channel

    return comm if isinstance(comm, Channel) else Channel(comm)


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
