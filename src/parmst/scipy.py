"""A drop-in for ``scipy.sparse.csgraph.minimum_spanning_tree``, computed by parmst.

Change one import and nothing else::

    from parmst.scipy import minimum_spanning_tree   # was: from scipy.sparse.csgraph import ...

It takes the same inputs (dense arrays, ``np.matrix``, masked arrays, every
SciPy sparse matrix and array format, PyData Sparse arrays), validates them
with SciPy's own routine (same conversions, same errors), and returns what
SciPy returns: a ``csr_matrix`` for matrix input, a ``csr_array`` otherwise,
shape ``(N, N)``, float64, holding the chosen entries at their stored
positions. SciPy's semantics are kept exactly, quirks included:

- every stored entry is an edge, so a symmetric matrix offers each edge twice
  and the entry that comes first in ``(weight, position in CSR order)`` wins;
- in a dense matrix, zeros (and values within 1e-8 of zero), infinities and
  NaN are "no edge"; a sparse matrix's explicitly stored zero *is* an edge
  that joins its components and is then left out of the result, as is the
  zero SciPy writes over every entry it does not keep;
- a stored NaN sorts after every number;
- ``overwrite=True`` lets it reuse and overwrite the input's buffers as SciPy does.

The tree is unique under ``(weight, position)``, which is exactly parmst's
``(weight, edge_id)`` rule with edge ids in CSR order, so any parmst solver
gives SciPy's answer. parmst's native API differs on purpose: there a stored
zero is an ordinary edge of weight 0 that stays in the forest, and ties are
always broken by the input's edge ids (``parmst.minimum_spanning_forest``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst._optional import require

require("scipy.sparse.csgraph", "parmst.scipy")  # one clear error, naming the extra

from scipy.sparse import csr_array, csr_matrix, spmatrix
from scipy.sparse._sputils import is_pydata_spmatrix, safely_cast_index_arrays
from scipy.sparse.csgraph._validation import validate_graph

__all__ = ["minimum_spanning_tree"]


def minimum_spanning_tree(csgraph: Any, overwrite: bool = False, *, solver: str = "auto"):
    """Return a minimum spanning tree of an undirected graph, as SciPy does.

    Parameters
    ----------
    csgraph : array_like or sparse array or matrix, shape (N, N)
        The graph; see the module documentation for how entries become edges.
    overwrite : bool
        Allow the input's buffers to be reused and overwritten.
    solver : str
        parmst solver to run (keyword only; ``"auto"`` picks one, see
        ``parmst.available_solvers()``); the answer is the same for all.

    Returns
    -------
    csr_array or csr_matrix, shape (N, N)
        The forest's entries (a ``csr_matrix`` for ``np.matrix`` or
        ``spmatrix`` input; a PyData Sparse array for PyData Sparse input).

    Examples
    --------
    >>> from scipy.sparse import csr_array
    >>> X = csr_array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]])
    >>> minimum_spanning_tree(X).toarray().astype(int)
    array([[0, 0, 0, 3],
           [0, 0, 2, 5],
           [0, 0, 0, 0],
           [0, 0, 0, 0]])
    """
    original = csgraph
    # Without overwrite nothing is written into the input, so it need not be copied.
    csgraph = validate_graph(csgraph, True, np.float64, dense_output=False,
                             copy_if_sparse=False)
    n = csgraph.shape[0]
    data = csgraph.data
    indices, indptr = safely_cast_index_arrays(csgraph, np.intc, "csgraph")
    chosen = _forest_entries(data, indices, indptr, n, solver)
    if overwrite:
        # SciPy zeroes the input's entries outside the tree and eliminates zeros in its
        # buffers; overwrite=True leaves the input exactly as SciPy's would be left.
        data[np.setdiff1d(np.arange(len(data)), chosen)] = 0
        tree = csr_array((data, indices, indptr), shape=(n, n))
        tree.eliminate_zeros()
        tree_arrays = (tree.data, tree.indices, tree.indptr)
    else:
        out_indptr, out_indices, out_data = _kept_entries(indptr, indices, data, chosen)
        tree_arrays = (out_data, out_indices, out_indptr)
    if isinstance(original, (np.matrix, spmatrix)):
        return csr_matrix(tree_arrays, shape=(n, n))
    tree = csr_array(tree_arrays, shape=(n, n))
    if is_pydata_spmatrix(original):
        cls = type(original)
        try:
            return cls.from_scipy_sparse(tree, fill_value=original.fill_value)
        except TypeError:  # PyData Sparse before 0.15.4 has no fill_value keyword
            return cls.from_scipy_sparse(tree)
    return tree


def _numpy_route(data: np.ndarray) -> bool:
    """Whether this matrix is converted by NumPy alone: while no compiled kernel is loaded,
    on matrices of at most :data:`parmst._jit.SMALL_EDGES` entries, as the "auto" rule
    picks the NumPy solver, so that a small first call loads no Numba."""
    from parmst._jit import compiled_pays

    return not compiled_pays(len(data))


def _kept_entries(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,
                  chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`parmst.interop._csgraph.kept_entries` (the result's CSR arrays: chosen entries
    that are not zero), by NumPy on the NumPy route."""
    if not _numpy_route(data):
        from parmst.interop._csgraph import kept_entries

        return kept_entries(indptr, indices, data, chosen)
    keep = np.zeros(len(indices), dtype=bool)
    keep[chosen] = True
    keep &= data != 0
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    out_indptr = np.zeros(len(indptr), dtype=indptr.dtype)
    np.cumsum(np.bincount(rows[keep], minlength=len(indptr) - 1), out=out_indptr[1:])
    return out_indptr, indices[keep], data[keep]


def _forest_entries(data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, n: int,
                    solver: str) -> np.ndarray:
    """Positions of the entries SciPy keeps: the forest under ``(weight, position)``."""
    from parmst.graph import Graph, index_dtype_for
    from parmst.interop._solve import forest_edge_ids

    idx = index_dtype_for(n, len(data))
    if _numpy_route(data) and not np.isnan(data).any():
        rows = np.repeat(np.arange(n, dtype=idx), np.diff(indptr))
        # Copies: a Graph marks its arrays read-only, and these are the caller's.
        graph = Graph(rows, indices.astype(idx), data.copy(), n)
        return forest_edge_ids(graph, solver)  # every entry an edge: ids are positions
    from parmst.interop._csgraph import candidate_edges, canonical_without_nan

    if canonical_without_nan(indptr, indices, data):
        src, dst, weight, candidates, count = candidate_edges(indptr, indices, data, idx)
        graph = Graph(src[:count], dst[:count], weight[:count], n)
        return candidates[:count][forest_edge_ids(graph, solver)]
    # Duplicates, unsorted rows or NaN: every entry but NaN goes to the solver.
    nan = np.isnan(data)
    candidates = np.flatnonzero(~nan)
    rows = np.repeat(np.arange(n, dtype=idx), np.diff(indptr))
    graph = Graph(rows[candidates], indices[candidates].astype(idx, copy=False),
                  data[candidates], n)
    chosen = candidates[forest_edge_ids(graph, solver)]
    if nan.any():
        chosen = _join_with_nan(rows, indices, nan, chosen, n)
    return chosen


def _join_with_nan(rows: np.ndarray, indices: np.ndarray, nan: np.ndarray, chosen: np.ndarray,
                   n: int) -> np.ndarray:
    """SciPy sorts NaN after every number: NaN entries join what is left, in position order."""
    from parmst.kernels.unionfind import scan_in_order

    order = np.concatenate([chosen, np.flatnonzero(nan)])
    picked = np.empty(max(n - 1, 0), dtype=np.int64)
    count = scan_in_order(order, rows, indices, np.full(n, -1, dtype=np.int64), picked, 0)
    return picked[:count]
