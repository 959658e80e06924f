"""The two passes of :func:`parmst._csr.build_csr`, compiled: degrees, then placement.

Imported when a CSR view is first built, so that a graph that never needs one never
loads Numba.
"""

from __future__ import annotations

import numba

__all__ = ["count_degrees", "scatter_both_directions"]


@numba.njit(parallel=True, cache=True)
def count_degrees(src, dst, bounds, indptr):
    """Degree of each vertex over non-loop edges, stored shifted by one for the prefix sum."""
    for part in numba.prange(len(bounds) - 1):
        lo = bounds[part]
        hi = bounds[part + 1]
        for e in range(len(src)):
            u = src[e]
            v = dst[e]
            if u == v:
                continue
            if lo <= u < hi:
                indptr[u + 1] += 1
            if lo <= v < hi:
                indptr[v + 1] += 1


@numba.njit(parallel=True, cache=True)
def scatter_both_directions(src, dst, weight, bounds, indptr, indices, weights, edge_ids):
    """Counting-sort placement: each non-loop edge lands in both endpoints' rows, by edge id."""
    for part in numba.prange(len(bounds) - 1):
        lo = bounds[part]
        hi = bounds[part + 1]
        cursor = indptr[lo:hi].copy()
        for e in range(len(src)):
            u = src[e]
            v = dst[e]
            if u == v:
                continue
            if lo <= u < hi:
                k = cursor[u - lo]
                indices[k] = v
                weights[k] = weight[e]
                edge_ids[k] = e
                cursor[u - lo] = k + 1
            if lo <= v < hi:
                k = cursor[v - lo]
                indices[k] = u
                weights[k] = weight[e]
                edge_ids[k] = e
                cursor[v - lo] = k + 1
