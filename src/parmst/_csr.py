"""The CSR view of a graph and how it is built (initialization work, timed apart from computation).

Both passes over the edges (degree count, placement) are split by *vertex
range* across the Numba threads: every thread scans all edges in id order
and handles only the endpoints in its own range. No two threads write the
same row, no atomics are needed, and each row still lists its neighbours in
edge-id order, so the result is the same for every thread count. A thread
reads the whole edge list, but reading is sequential and cheap next to the
random writes it shares out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CSR", "build_csr", "entry_balanced_bounds"]


@dataclass(frozen=True)
class CSR:
    """Both directions of every non-loop edge, grouped by source vertex.

    ``indices[indptr[v]:indptr[v+1]]`` are the neighbours of ``v``;
    ``weights`` and ``edge_ids`` run parallel to ``indices``, so vertex-centric
    solvers keep the ``(weight, edge_id)`` tie rule. Self-loops are left out.
    """

    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray
    edge_ids: np.ndarray

    @property
    def num_vertices(self) -> int:
        return len(self.indptr) - 1


def entry_balanced_bounds(indptr: np.ndarray, parts: int) -> np.ndarray:
    """Vertex boundaries of up to ``parts`` ranges holding about equal numbers of CSR entries.

    Examples
    --------
    >>> entry_balanced_bounds(np.array([0, 6, 7, 8, 12]), 2).tolist()
    [0, 1, 4]
    """
    targets = np.linspace(0, indptr[-1], max(1, parts) + 1)
    bounds = np.searchsorted(indptr, targets, side="left")
    bounds[-1] = len(indptr) - 1
    return np.unique(bounds)


def build_csr(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, num_vertices: int) -> CSR:
    """CSR of both directions of every non-loop edge; rows list neighbours by edge id."""
    import numba

    from parmst._csr_kernels import count_degrees, scatter_both_directions

    idx = src.dtype
    parts = numba.get_num_threads()
    indptr = np.zeros(num_vertices + 1, dtype=np.int64)
    even = np.linspace(0, num_vertices, parts + 1).astype(np.int64)
    count_degrees(src, dst, np.unique(even), indptr)
    np.cumsum(indptr, out=indptr)
    nnz = int(indptr[-1])
    indices = np.empty(nnz, dtype=idx)
    weights = np.empty(nnz, dtype=weight.dtype)
    edge_ids = np.empty(nnz, dtype=idx)
    scatter_both_directions(src, dst, weight, entry_balanced_bounds(indptr, parts), indptr,
                             indices, weights, edge_ids)
    indptr = indptr.astype(idx)  # 2m fits the index type by construction
    for a in (indptr, indices, weights, edge_ids):
        a.setflags(write=False)
    return CSR(indptr, indices, weights, edge_ids)
