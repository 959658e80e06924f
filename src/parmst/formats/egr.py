"""ECL binary CSR graphs (``.egr``), as ECL-MST (Fallin et al.) and the ECL codes read them.

Layout, little-endian int32 throughout (ECLgraph.h, ``readECLgraph``):
``n``, ``E``, ``nindex[n+1]``, ``nlist[E]``, ``eweight[E]``. Row ``v``
lists the neighbours ``nlist[nindex[v]:nindex[v+1]]`` and the weights of
those entries. An undirected graph stores every edge in both rows, so
``E = 2m``. As in ECL's reader, a file that ends after ``nlist`` is
unweighted (unit weights).

Reading
-------
Each edge ``{u, v}`` with ``u != v`` appears as ``(u, v, w)`` in row ``u``
and ``(v, u, w)`` in row ``v``. The edge is the entry with ``u < v`` and
edge ids follow CSR order: edges are numbered by their smaller endpoint,
then by position within that row; ``src < dst`` always. Every entry must
have its mirror with the same weight (multi-edges pair up k-th with k-th;
:mod:`parmst.formats._mirror`); this is checked in linear time with an
order-independent 64-bit hash of both sides, and on a mismatch the first
entry without a mirror is reported with its byte offset. A self-loop
``(v, v)`` is stored twice in row ``v`` by parmst; two equal loop entries
make one edge, and a lone loop entry is an edge too (some tools store
loops once). Weights are int32; ids int32.

Writing
-------
Integer weights that fit int32 only, ``n`` and ``2m`` below 2**31
(GraphFormatError otherwise, naming the limit). Rows list entries by edge
id (via :meth:`parmst.Graph.csr`), loops as two adjacent entries. A graph
whose edges are sorted by smaller endpoint and oriented ``src <= dst``
reads back identically; any other graph reads back as the same edges in
that canonical order (the CSR layout cannot hold edge order).

Errors (all GraphFormatError with the byte offset): a file shorter than
its header announces (truncated), a negative ``n`` or ``E``, ``nindex``
not starting at 0, decreasing, or not ending at ``E``, an ``nlist`` id
outside ``0..n-1``, trailing bytes, an entry without its mirror.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.egr")
>>> write(Graph.from_edges([0, 1], [1, 2], [5, 6]), path)
>>> os.path.getsize(path)  # 4 * (2 + 4 + 4 + 4)
56
>>> read(path).weight.tolist()
[5, 6]
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numba
import numpy as np

from parmst._hash import mix64
from parmst._host_edges import EdgeArrays
from parmst.errors import GraphFormatError
from parmst.formats._common import EdgeList, check_declared_vertices
from parmst.formats._files import copy_out, open_output, progress_bar, read_bytes
from parmst.formats._mirror import mirror_pairs
from parmst.formats._ranges import Part, file_bytes

_INT32 = np.dtype("<i4")
_INT32_RANGE = np.iinfo(np.int32)
_HEADER_BYTES = 8


@numba.njit(cache=True)
def _mirror_checksums(nindex, nlist, eweight, row0):
    """Counts and wrapping sums of hash(min, max, w) over entries with u < v and with u > v.

    ``nindex`` holds rows ``row0 ..`` (``nindex[0]`` is the first entry of
    ``nlist``). Over the whole file both sides are equal when every entry has
    its mirror (the multisets agree). Also returns the number of self-loop
    entries.
    """
    forward = np.zeros(2, dtype=np.uint64)
    backward = np.zeros(2, dtype=np.uint64)
    loops = 0
    base = nindex[0]
    for i in range(len(nindex) - 1):
        u = row0 + i
        for k in range(nindex[i] - base, nindex[i + 1] - base):
            v = nlist[k]
            if v == u:
                loops += 1
                continue
            lo, hi = min(u, v), max(u, v)
            key = np.uint64(lo) | (np.uint64(hi) << np.uint64(32))
            h = mix64(mix64(key) ^ np.uint64(np.uint32(eweight[k])))
            side = forward if u < v else backward
            side[0] += np.uint64(1)
            side[1] += h
    return forward, backward, loops


@numba.njit(cache=True)
def _gather_edges(nindex, nlist, eweight, keep_loop, row0, src, dst, weight):
    """One edge per entry with u < v, and per loop entry flagged in ``keep_loop``, in CSR order."""
    m = 0
    base = nindex[0]
    for i in range(len(nindex) - 1):
        u = row0 + i
        for k in range(nindex[i] - base, nindex[i + 1] - base):
            v = nlist[k]
            if u < v or (u == v and keep_loop[k]):
                src[m] = u
                dst[m] = v
                weight[m] = eweight[k]
                m += 1
    return m


def layout(path: str, data: np.ndarray) -> tuple[int, int, bool]:
    """Check the header and the file size; returns (n, E, weighted)."""
    size = len(data)
    if size < _HEADER_BYTES:
        raise GraphFormatError(path, f"truncated: expected an 8-byte header (int32 n, int32 E), "
                                     f"found {size} bytes", offset=size)
    n, e = (int(x) for x in data[:_HEADER_BYTES].view(_INT32))
    if n < 0:
        raise GraphFormatError(path, f"negative vertex count n={n} in the header", offset=0)
    if e < 0:
        raise GraphFormatError(path, f"negative entry count E={e} in the header", offset=4)
    check_declared_vertices(path, n, f"n={n} in the header", offset=0)
    unweighted = _HEADER_BYTES + 4 * (n + 1) + 4 * e
    weighted = unweighted + 4 * e
    if size < unweighted or unweighted < size < weighted:
        part = "nindex and nlist" if size < unweighted else "eweight"
        need = unweighted if size < unweighted else weighted
        raise GraphFormatError(path, f"truncated: the header (n={n}, E={e}) needs {need} bytes "
                                     f"for {part}, the file ends after {size}", offset=size)
    if size > weighted:
        raise GraphFormatError(path, f"{size - weighted} unexpected bytes after eweight "
                                     f"(n={n}, E={e} make {weighted} bytes)", offset=weighted)
    return n, e, size == weighted


def _check_nindex(path: str, n: int, e: int, nindex: np.ndarray, row0: int) -> None:
    """Check ``nindex[row0 : row0 + len(nindex)]`` (the whole array when ``row0 = 0`` and it has n+1)."""
    nindex_at = _HEADER_BYTES + 4 * row0
    if row0 == 0 and nindex[0] != 0:
        raise GraphFormatError(path, f"nindex[0] must be 0, found {nindex[0]}", offset=nindex_at)
    drops = np.flatnonzero(nindex[1:] < nindex[:-1])
    if len(drops):
        i = int(drops[0]) + 1
        v = row0 + i
        raise GraphFormatError(path, f"nindex must not decrease, found nindex[{v}]={nindex[i]} "
                                     f"< nindex[{v - 1}]={nindex[i - 1]}",
                               offset=nindex_at + 4 * i)
    last = row0 + len(nindex) - 1
    if last == n and nindex[-1] != e:
        raise GraphFormatError(path, f"nindex[n] must equal E={e}, found {nindex[-1]}",
                               offset=nindex_at + 4 * (len(nindex) - 1))
    outside = np.flatnonzero((nindex < 0) | (nindex > e))  # a part's slice, before the ends'
    if len(outside):                                       # checks on other ranks
        i = int(outside[0])
        raise GraphFormatError(path, f"nindex[{row0 + i}]={nindex[i]} is outside 0..E={e}",
                               offset=nindex_at + 4 * i)


def _check_nlist(path: str, n: int, nlist: np.ndarray, entry0: int) -> None:
    bad = np.flatnonzero((nlist < 0) | (nlist >= n))
    if len(bad):
        k = entry0 + int(bad[0])
        raise GraphFormatError(path, f"nlist[{k}]={nlist[k - entry0]} is not a vertex id "
                                     f"0..{n - 1}", offset=_HEADER_BYTES + 4 * (n + 1) + 4 * k)


def _unmirrored(path: str, n: int, rows: np.ndarray, nlist: np.ndarray,
                eweight: np.ndarray) -> GraphFormatError:
    """The error naming the first entry whose mirror is missing (exact search, error path only)."""
    _, unpaired = mirror_pairs(rows, nlist, eweight)
    unpaired &= rows != nlist
    k = int(np.flatnonzero(unpaired)[0]) if unpaired.any() else 0
    u, v, w = int(rows[k]), int(nlist[k]), int(eweight[k])
    return GraphFormatError(path, f"entry {k} (row {u}, neighbour {v}, weight {w}) has no mirror "
                                  f"entry (row {v}, neighbour {u}, weight {w}); egr stores both "
                                  "directions of every edge",
                            offset=_HEADER_BYTES + 4 * (n + 1) + 4 * k)


def row_bounds(data: np.ndarray, n: int, e: int, parts: int) -> np.ndarray:
    """Rows ``bounds[r] .. bounds[r+1]-1`` of part ``r``: near-equal entry counts, whole rows.

    Binary searches in the memory-mapped ``nindex`` touch a few pages only:
    the targets are int32 like ``nindex`` (``E`` is an int32), since
    ``np.searchsorted`` would first cast the whole map to a common dtype,
    reading all of it. The bounds never decrease, even where ``nindex`` is
    broken (each part then checks its own slice).
    """
    nindex = data[_HEADER_BYTES:_HEADER_BYTES + 4 * (n + 1)].view(_INT32)
    targets = np.array([e * r // parts for r in range(parts + 1)], dtype=_INT32)
    bounds = np.clip(np.searchsorted(nindex, targets, side="left"), 0, n)
    bounds[0], bounds[-1] = 0, n
    return np.maximum.accumulate(bounds)


@dataclass
class CsrRows:
    """Edges of CSR rows ``first_row .. last_row-1``, and the mirror balance of their entries.

    ``balance`` is (forward - backward) of :func:`_mirror_checksums`, wrapping:
    the parts of a file sum to zero exactly when every entry has its mirror.
    """

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    balance: np.ndarray


def read_rows(path: str, data: np.ndarray, n: int, e: int, weighted: bool, first_row: int,
              last_row: int, progress: bool | None = False) -> CsrRows:
    """Parse rows ``first_row .. last_row-1`` of a checked layout, reading only their bytes."""
    body = data[_HEADER_BYTES:].view(_INT32)
    with progress_bar(len(data), f"reading {path}", progress) as bar:
        nindex = copy_out(body[first_row:last_row + 1], np.int32, bar)
        _check_nindex(path, n, e, nindex, first_row)
        k0, k1 = int(nindex[0]), int(nindex[-1])
        nlist = copy_out(body[n + 1 + k0:n + 1 + k1], np.int32, bar)
        eweight = (copy_out(body[n + 1 + e + k0:n + 1 + e + k1], np.int32, bar) if weighted
                   else np.ones(k1 - k0, dtype=np.int32))
    _check_nlist(path, n, nlist, k0)
    with np.errstate(over="ignore"):  # the hash wraps on purpose (warns only without JIT)
        forward, backward, num_loops = _mirror_checksums(nindex, nlist, eweight, first_row)
        balance = forward - backward
    keep_loop = np.zeros(len(nlist), dtype=np.bool_)
    if num_loops:  # a loop's entries all sit in its own row, so a part pairs them alone
        rows = np.repeat(np.arange(first_row, last_row, dtype=np.int32), np.diff(nindex))
        loops = np.flatnonzero(nlist == rows)
        second, _ = mirror_pairs(rows[loops], nlist[loops], eweight[loops])
        keep_loop[loops[~second]] = True
    m = int(forward[0]) + int(keep_loop.sum())
    src, dst, weight = (np.empty(m, dtype=np.int32) for _ in range(3))
    _gather_edges(nindex, nlist, eweight, keep_loop, first_row, src, dst, weight)
    return CsrRows(src, dst, weight, balance)


def unmirrored_error(path: str, data: np.ndarray, n: int, e: int,
                     weighted: bool) -> GraphFormatError:
    """The exact error of a file whose entries do not pair up (reads the whole file; error path)."""
    body = data[_HEADER_BYTES:].view(_INT32)
    nindex = np.asarray(body[:n + 1])
    nlist = np.asarray(body[n + 1:n + 1 + e])
    eweight = np.asarray(body[n + 1 + e:]) if weighted else np.ones(e, dtype=np.int32)
    rows = np.repeat(np.arange(n, dtype=np.int32), np.diff(nindex))
    return _unmirrored(path, n, rows, nlist, eweight)


def read_range(path: str | os.PathLike, rank: int, size: int) -> Part:
    """Read part ``rank`` of ``size`` of an ``.egr`` file: whole CSR rows, near-equal entry counts.

    The parts in rank order are the file's edges in id order. Each part
    checks its own slice of ``nindex`` and ``nlist``; the mirror check needs
    every part: their :attr:`Part.balance` must sum to zero (wrapping), else
    :func:`unmirrored_file_error` names the first entry without a mirror.

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.egr")
    >>> write(Graph.from_edges([0, 1], [1, 2], [5, 6]), path)
    >>> [read_range(path, r, 2).weight.tolist() for r in range(2)]
    [[5, 6], []]
    """
    path = os.fspath(path)
    data = file_bytes(path)
    n, e, weighted = layout(path, data)
    bounds = row_bounds(data, n, e, size)
    rows = read_rows(path, data, n, e, weighted, int(bounds[rank]), int(bounds[rank + 1]))
    return Part(path, rows.src, rows.dst, rows.weight, np.dtype(np.int32), n,
                balance=rows.balance)


def unmirrored_file_error(path: str) -> GraphFormatError:
    """:func:`unmirrored_error` of the file at ``path``, mapped again (the parts' error path)."""
    data = read_bytes(path)
    return unmirrored_error(path, data, *layout(path, data))


def read(path: str | os.PathLike, *, progress: bool | None = None) -> EdgeArrays:
    """Read an ECL ``.egr`` file (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "g.egr")
    >>> # n=2, E=2, nindex=[0,1,2], nlist=[1,0], eweight=[7,7]
    >>> np.array([2, 2, 0, 1, 2, 1, 0, 7, 7], dtype="<i4").tofile(path)
    >>> g = read(path)
    >>> g.src.tolist(), g.dst.tolist(), g.weight.tolist()
    ([0], [1], [7])
    """
    path = os.fspath(path)
    data = read_bytes(path, progress)
    n, e, weighted = layout(path, data)
    rows = read_rows(path, data, n, e, weighted, 0, n, progress)
    if rows.balance.any():
        raise unmirrored_error(path, data, n, e, weighted)
    return EdgeArrays(rows.src, rows.dst, rows.weight, n)


def _check_writable(path: str, graph: EdgeList) -> None:
    w = graph.weight
    if w.dtype.kind != "i":
        raise GraphFormatError(path, f"egr stores int32 weights; this graph has {w.dtype} "
                                     "weights (convert them with Graph.with_weights)")
    if len(w) and (int(w.min()) < _INT32_RANGE.min or int(w.max()) > _INT32_RANGE.max):
        raise GraphFormatError(path, f"egr stores int32 weights; weights range over "
                                     f"{int(w.min())}..{int(w.max())}")
    if graph.num_vertices > _INT32_RANGE.max or 2 * graph.num_edges > _INT32_RANGE.max:
        raise GraphFormatError(path, f"egr stores int32 counts; n={graph.num_vertices} and "
                                     f"E=2m={2 * graph.num_edges} must stay below 2**31")


@numba.njit(cache=True)
def _merge_loops(indptr, indices, weights, edge_ids, loop_vertex, loop_edge, loop_weight,
                 out_indices, out_weights):
    """Copy the CSR rows, inserting two adjacent entries per self-loop at its edge-id place.

    Loops come sorted by (vertex, edge id); rows are sorted by edge id.
    """
    pos = 0
    j = 0
    for v in range(len(indptr) - 1):
        for k in range(indptr[v], indptr[v + 1] + 1):
            while (j < len(loop_vertex) and loop_vertex[j] == v
                   and (k == indptr[v + 1] or loop_edge[j] < edge_ids[k])):
                out_indices[pos:pos + 2] = v
                out_weights[pos:pos + 2] = loop_weight[j]
                pos += 2
                j += 1
            if k < indptr[v + 1]:
                out_indices[pos] = indices[k]
                out_weights[pos] = weights[k]
                pos += 1
    return pos


def _csr_with_loops(graph: EdgeList) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Graph.csr() plus two adjacent entries per self-loop, rows kept in edge-id order."""
    csr = graph.csr()
    loops = np.flatnonzero(graph.src == graph.dst)
    if not len(loops):
        return csr.indptr, csr.indices, csr.weights
    loops = loops[np.argsort(graph.src[loops], kind="stable")]
    loop_vertex = graph.src[loops]
    degree = np.diff(csr.indptr) + 2 * np.bincount(loop_vertex, minlength=graph.num_vertices)
    indptr = np.concatenate([[0], np.cumsum(degree)])
    indices = np.empty(indptr[-1], dtype=csr.indices.dtype)
    weights = np.empty(indptr[-1], dtype=csr.weights.dtype)
    _merge_loops(csr.indptr, csr.indices, csr.weights, csr.edge_ids, loop_vertex, loops,
                 graph.weight[loops], indices, weights)
    return indptr, indices, weights


def write(graph: EdgeList, path: str | os.PathLike, *, progress: bool | None = None) -> None:
    """Write ``graph`` as an ECL ``.egr`` file (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.egr")
    >>> write(Graph.from_edges([0], [1], [3]), path)
    >>> np.fromfile(path, dtype="<i4").tolist()
    [2, 2, 0, 1, 2, 1, 0, 3, 3]
    """
    path = os.fspath(path)
    _check_writable(path, graph)
    indptr, indices, weights = _csr_with_loops(graph)
    header = np.array([graph.num_vertices, len(indices)], dtype=_INT32)
    parts = [header, indptr, indices, weights]
    total = sum(4 * len(p) for p in parts)
    with open_output(path) as f, progress_bar(total, f"writing {path}", progress) as bar:
        for part in parts:
            f.write(np.ascontiguousarray(part, dtype=_INT32).data)
            bar.update(4 * len(part))
