"""Building the CSR view of a graph (initialization work, DESIGN.md section 2)."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _count_degrees(src, dst, num_vertices, indptr):
    """Degree of each vertex over non-loop edges, stored shifted by one for the prefix sum."""
    for e in range(len(src)):
        u = src[e]
        v = dst[e]
        if u != v:
            indptr[u + 1] += 1
            indptr[v + 1] += 1


@numba.njit(cache=True)
def _scatter_both_directions(src, dst, weight, indptr, indices, weights, edge_ids):
    """Counting-sort placement: each non-loop edge lands in both endpoints' rows, by edge id."""
    cursor = indptr[:-1].copy()
    for e in range(len(src)):
        u = src[e]
        v = dst[e]
        if u == v:
            continue
        k = cursor[u]
        indices[k] = v
        weights[k] = weight[e]
        edge_ids[k] = e
        cursor[u] = k + 1
        k = cursor[v]
        indices[k] = u
        weights[k] = weight[e]
        edge_ids[k] = e
        cursor[v] = k + 1


def build_csr(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, num_vertices: int):
    """CSR of both directions of every non-loop edge; rows list neighbours by edge id."""
    from parmst.graph import CSR

    idx = src.dtype
    indptr = np.zeros(num_vertices + 1, dtype=np.int64)
    _count_degrees(src, dst, num_vertices, indptr)
    np.cumsum(indptr, out=indptr)
    nnz = int(indptr[-1])
    indices = np.empty(nnz, dtype=idx)
    weights = np.empty(nnz, dtype=weight.dtype)
    edge_ids = np.empty(nnz, dtype=idx)
    _scatter_both_directions(src, dst, weight, indptr, indices, weights, edge_ids)
    indptr = indptr.astype(idx)  # 2m fits the index type by construction
    for a in (indptr, indices, weights, edge_ids):
        a.setflags(write=False)
    return CSR(indptr, indices, weights, edge_ids)
