"""Which rank owns each vertex of a distributed graph: blocks of consecutive ids, or cyclic."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parmst.partition import block_bounds, block_owner, block_size

OWNERSHIPS = ("block", "cyclic")


def check_ownership(kind: str) -> None:
    """ValueError unless ``kind`` is one of :data:`OWNERSHIPS`."""
    if kind not in OWNERSHIPS:
        raise ValueError(f"ownership must be one of {', '.join(OWNERSHIPS)}; got {kind!r}")


@dataclass(frozen=True)
class Ownership:
    """Which rank owns each vertex, and its index among that rank's vertices.

    ``"block"`` is the block rule of :mod:`parmst.partition`: rank ``r`` owns
    the ids ``r*b .. (r+1)*b - 1`` with ``b = ceil(n / p)`` (the last ranks may
    own fewer, or none). ``"cyclic"`` gives rank ``r`` the ids ``v`` with
    ``v % p == r``.

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
        check_ownership(self.kind)

    @property
    def block(self) -> int:
        """Ids per rank under block ownership (:func:`parmst.partition.block_size`)."""
        return block_size(self.num_vertices, self.size)

    def owner(self, v: np.ndarray) -> np.ndarray:
        """Owner rank of each vertex id."""
        v = np.asarray(v, dtype=np.int64)
        return v % self.size if self.kind == "cyclic" else block_owner(v, self.num_vertices,
                                                                       self.size)

    def local(self, v: np.ndarray) -> np.ndarray:
        """Index of each vertex among its owner's vertices."""
        v = np.asarray(v, dtype=np.int64)
        return v // self.size if self.kind == "cyclic" else v % self.block

    def count(self, rank: int) -> int:
        """Number of vertices ``rank`` owns."""
        if self.kind == "cyclic":
            return max(0, (self.num_vertices - rank + self.size - 1) // self.size)
        lo, hi = block_bounds(self.num_vertices, self.size)[rank:rank + 2]
        return int(hi - lo)

    def starts(self) -> np.ndarray:
        """Bounds of the ranks' vertex ranges once each rank's vertices are numbered
        consecutively in rank order: vertex ``v`` becomes ``starts[owner(v)] + local(v)``
        (``v`` itself under block ownership); ``p + 1`` bounds, no communication."""
        if self.kind == "block":
            return block_bounds(self.num_vertices, self.size)
        counts = [self.count(r) for r in range(self.size)]
        return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    def global_ids(self, rank: int) -> np.ndarray:
        """The vertex ids ``rank`` owns, increasing (local index order)."""
        if self.kind == "cyclic":
            return np.arange(rank, self.num_vertices, self.size, dtype=np.int64)
        lo, hi = block_bounds(self.num_vertices, self.size)[rank:rank + 2]
        return np.arange(lo, hi, dtype=np.int64)
