"""Vertex partitions: the parts of multi-instance Prim and multi-GPU ECL, and the block rule.

:func:`partition` maps each vertex to a part (contiguous blocks, parts grown
by breadth-first search to equal edge counts, or METIS through ``pymetis``);
:func:`cut` reports what a partition costs: the edges that cross parts and
the boundary vertices at their ends (Sousa, section 4.3.2, lists the
three qualities a partition should have: balanced vertices, balanced edges,
few crossing edges).

The *block rule* (:func:`block_size`, :func:`block_bounds`,
:func:`block_owner`) cuts the ids ``0..n-1`` into blocks of ``ceil(n / p)``
consecutive ids, so the block of ``v`` is one division away and its index
in the block one remainder; the last blocks are smaller or empty when ``p``
does not divide ``n``. ``partition(method="blocks")`` is this rule, and so
is the ``"block"`` ownership that gives the ranks of the ``mpi`` backend
their vertices (:class:`parmst.distributed.Ownership`).

The local forests of a partition's parts, and the local-forest filter built
on them, are in :mod:`parmst.kernels`: this module imports no
solver code, so ``import parmst`` (which exports :func:`partition`) stays
light.

``parmst.partition`` is the function (as ``parmst.verify`` is); import the
helpers by name: ``from parmst.partition import cut``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from parmst.errors import GraphValueError

if TYPE_CHECKING:
    from parmst.graph import Graph

__all__ = ["METHODS", "Cut", "block_bounds", "block_owner", "block_size", "check_part",
           "crossing_mask", "cut", "partition"]

METHODS = ("blocks", "bfs", "metis")
"""Partitioning methods :func:`partition` accepts."""


def block_size(n: int, parts: int) -> int:
    """Ids per block of the block rule: ``ceil(n / parts)``, at least 1.

    Examples
    --------
    >>> block_size(5, 4), block_size(16, 2), block_size(0, 3)
    (2, 8, 1)
    """
    return max(1, -(-n // parts))


def block_bounds(n: int, parts: int) -> np.ndarray:
    """The ``parts + 1`` bounds of the block rule: block ``r`` is ``bounds[r] .. bounds[r+1]-1``.

    Examples
    --------
    >>> block_bounds(5, 4).tolist()
    [0, 2, 4, 5, 5]
    """
    return np.minimum(np.arange(parts + 1, dtype=np.int64) * block_size(n, parts), n)


def block_owner(v: np.ndarray, n: int, parts: int) -> np.ndarray:
    """The block of each id ``v`` (int64) under the block rule of ``n`` ids in ``parts`` blocks.

    Examples
    --------
    >>> block_owner(np.arange(5), 5, 4).tolist()
    [0, 0, 1, 1, 2]
    """
    return np.asarray(v, dtype=np.int64) // block_size(n, parts)


def partition(graph: Graph, parts: int, method: str = "bfs") -> np.ndarray:
    """Assign each vertex to one of ``parts`` parts.

    Parameters
    ----------
    graph : Graph
    parts : int
        Number of parts, at least 1. Parts may come out empty when there are
        fewer vertices than parts; under ``"blocks"`` the last part is empty
        whenever ``(parts - 1) * ceil(n / parts) >= n``.
    method : {"bfs", "blocks", "metis"}
        ``"blocks"``: the block rule, contiguous ranges of ``ceil(n / parts)``
        vertex ids (the last ones smaller). ``"bfs"``: each part grown by breadth-first search from one
        seed until it holds its share of edge endpoints; connected, except
        where a search is enclosed first and for pockets the last part
        takes to keep the balance (see :func:`parmst.kernels.grow_parts.grow_parts`). ``"metis"``: METIS k-way partitioning through
        ``pymetis`` (``pip install 'parmst[metis]'``).

    Returns
    -------
    ndarray of int32
        ``part[v]`` in ``0 .. parts-1`` for every vertex ``v``.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.generate("grid2d:side=4,seed=1")
    >>> part = parmst.partition(g, 2, method="bfs")
    >>> part.shape, sorted(set(part.tolist()))
    ((16,), [0, 1])
    >>> parmst.partition(g, 2, method="blocks").tolist()[:9]
    [0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    if isinstance(parts, bool) or not isinstance(parts, (int, np.integer)) or parts < 1:
        raise ValueError(f"parts must be a positive integer, got {parts!r}")
    parts = int(parts)
    n = graph.num_vertices
    if method == "blocks":
        return block_owner(np.arange(n), n, parts).astype(np.int32)
    if method == "bfs":
        from parmst.kernels.grow_parts import grow_parts

        csr = graph.csr()
        return grow_parts(csr.indptr, csr.indices, parts)
    if method == "metis":
        return _metis_parts(graph, parts)
    raise ValueError(f"unknown partition method {method!r}; methods: {', '.join(METHODS)}")


def _metis_parts(graph: Graph, parts: int) -> np.ndarray:
    from parmst._optional import require

    pymetis = require("pymetis", "partition(method='metis')")
    n = graph.num_vertices
    if parts == 1 or n == 0:
        return np.zeros(n, dtype=np.int32)

    csr = graph.csr()
    adjacency = pymetis.CSRAdjacency(np.asarray(csr.indptr), np.asarray(csr.indices))
    _, membership = pymetis.part_graph(parts, adjacency)
    return np.asarray(membership, dtype=np.int32)


@dataclass(frozen=True)
class Cut:
    """What a partition costs.

    Attributes
    ----------
    parts : int
    crossing_edges : int
        Edges whose endpoints lie in different parts (self-loops never cross).
    boundary_vertices : int
        Vertices with at least one crossing edge.
    vertices : ndarray
        Vertices per part.
    endpoints : ndarray
        Edge endpoints (degree sum, self-loops left out) per part: the work
        a part's Prim instance does.
    """

    parts: int
    crossing_edges: int
    boundary_vertices: int
    vertices: np.ndarray
    endpoints: np.ndarray

    @property
    def imbalance(self) -> float:
        """Largest part's endpoints over the mean (1.0: perfectly balanced)."""
        mean = self.endpoints.sum() / max(self.parts, 1)
        return float(self.endpoints.max() / mean) if mean else 1.0

    def as_dict(self) -> dict:
        """Plain data, for JSON reports."""
        return {"parts": self.parts, "crossing_edges": self.crossing_edges,
                "boundary_vertices": self.boundary_vertices,
                "vertices": self.vertices.tolist(), "endpoints": self.endpoints.tolist(),
                "imbalance": self.imbalance}


def check_part(graph: Graph, part: np.ndarray) -> tuple[np.ndarray, int]:
    """``part`` as an array of one part id per vertex, and the number of parts; or one error."""
    part = np.asarray(part)
    if part.shape != (graph.num_vertices,) or part.dtype.kind not in "iu":
        raise GraphValueError(f"a partition must be an integer array of one part per vertex "
                              f"({graph.num_vertices}), got {part.dtype} of shape {part.shape}")
    if len(part) and int(part.min()) < 0:
        raise GraphValueError(f"part ids must be non-negative, got {int(part.min())}")
    return part, int(part.max()) + 1 if len(part) else 1


def crossing_mask(graph: Graph, part: np.ndarray) -> np.ndarray:
    """Which edges join two different parts."""
    return part[graph.src] != part[graph.dst]


def cut(graph: Graph, part: np.ndarray) -> Cut:
    """The cut of a partition: crossing edges, boundary vertices, sizes per part.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.generate("grid2d:side=4,seed=1")
    >>> c = parmst.cut(g, parmst.partition(g, 2, method="blocks"))
    >>> c.crossing_edges, c.boundary_vertices, c.vertices.tolist()
    (4, 8, [8, 8])
    """
    part, parts = check_part(graph, part)
    crossing = crossing_mask(graph, part)
    boundary = np.zeros(graph.num_vertices, dtype=bool)
    boundary[graph.src[crossing]] = True
    boundary[graph.dst[crossing]] = True
    degree = np.diff(graph.csr().indptr)
    return Cut(parts, int(crossing.sum()), int(boundary.sum()),
               np.bincount(part, minlength=parts),
               np.bincount(part, weights=degree, minlength=parts).astype(np.int64))
