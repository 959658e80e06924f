"""The immutable weighted graph: an edge list plus a lazily built CSR view.

The edge list (COO) is canonical: edge ``i`` is ``(src[i], dst[i], weight[i])``
and ``i`` is its id, the tie-breaker of the ``(weight, edge_id)`` order. Index
arrays are int32 while ``num_vertices`` and ``2 * num_edges`` fit, int64
beyond.

A graph built from arrays in GPU memory (CuPy, PyTorch CUDA tensors, anything
with ``__cuda_array_interface__`` or DLPack on a CUDA device) keeps its edge
list there: it is validated by kernels on the device, the GPU solvers read
it in place, and ``src``/``dst``/``weight`` are copied to the host only when
something on the host reads them (a host solver, ``verify``, a converter).
A host graph caches its device copy (:meth:`Graph.to_device`), so a second
GPU solve transfers nothing.
"""

from __future__ import annotations

import math
import operator
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst import _edge_checks, _memory, _optional
from parmst.errors import GraphValueError

__all__ = ["CSR", "DeviceEdges", "Graph", "index_dtype_for", "is_device_array"]

_INT32_LIMIT = 2**31 - 1
WEIGHT_DTYPES = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32),
                 np.dtype(np.float64))


#: DLPack device types of CUDA memory (``kDLCUDA``, ``kDLCUDAManaged``).
_DLPACK_CUDA = (2, 13)


def is_device_array(obj: Any) -> bool:
    """Whether ``obj`` is an array in CUDA device memory: ``__cuda_array_interface__``
    (CuPy, PyTorch CUDA tensors, Numba, JAX), a numba-cuda (simulator) device array, or a
    DLPack producer on a CUDA device. Imports nothing.

    Examples
    --------
    >>> import numpy as np
    >>> is_device_array(np.zeros(3))
    False
    """
    if isinstance(obj, np.ndarray):
        return False
    if hasattr(obj, "__cuda_array_interface__") or getattr(obj, "__cuda_ndarray__", False):
        return True
    probe = getattr(obj, "__dlpack_device__", None)
    if probe is None:
        return False
    try:
        return int(probe()[0]) in _DLPACK_CUDA
    except Exception:  # noqa: BLE001 - a producer that cannot say where it lives is not ours
        return False


def index_dtype_for(num_vertices: int, num_edges: int) -> np.dtype:
    """int32 while ``num_vertices`` and ``2 * num_edges`` fit, else int64."""
    if num_vertices <= _INT32_LIMIT and 2 * num_edges <= _INT32_LIMIT:
        return np.dtype(np.int32)
    return np.dtype(np.int64)


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


@dataclass(frozen=True)
class DeviceEdges:
    """A graph's edge list in GPU memory, as numba-cuda device arrays.

    CuPy (``cupy.asarray``) and PyTorch (``torch.as_tensor``) read these
    without a copy through ``__cuda_array_interface__``.

    Attributes
    ----------
    src, dst : device array of int32 or int64
    weight : device array of int32, int64, float32 or float64
    kind : str
        Whose arrays the graph was built from (``"cupy"``, ``"torch"``,
        ``"numba"``), or ``"host"`` for a host graph's device copy; results
        on the device come back as the same kind (:attr:`parmst.Forest.edge_ids_device`).
    """

    src: Any
    dst: Any
    weight: Any
    kind: str


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _as_array(name: str, values: Any) -> np.ndarray:
    """``values`` as a one-dimensional array, or GraphValueError naming what it is instead."""
    try:
        a = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged nested lists, objects NumPy cannot read
        raise GraphValueError(f"{name} must be a one-dimensional array: {exc}") from None
    if a.ndim != 1:
        what = "a scalar" if a.ndim == 0 else f"shape {a.shape}"
        raise GraphValueError(f"{name} must be a one-dimensional array, got {what}")
    return a


# Narrow integer and boolean GPU weights widened on the device, as the host path does.
_DEVICE_WEIGHT_WIDENING = {"b1": np.int32, "i1": np.int32, "i2": np.int32, "u1": np.int32,
                           "u2": np.int32, "u4": np.int64}


def _device_column(name: str, values: Any) -> Any:
    """One edge array as a numba-cuda device array: GPU arrays as they are (no copy),
    host arrays copied over (a graph mixing both)."""
    from parmst.solvers.gpu import _device

    if is_device_array(values):
        a = _device.as_device_array(values)
    else:
        a = _device.to_device(_as_array(name, values))
    if len(a.shape) != 1:
        raise GraphValueError(f"{name} must be a one-dimensional array, got shape {a.shape}")
    return a


def _coerce_weights(weight: Any, m: int) -> np.ndarray:
    if weight is None:
        return np.ones(m, dtype=np.int32)
    w = _as_array("weight", weight)
    if w.dtype == object or w.dtype.kind not in "biuf":
        raise GraphValueError(f"weights must be real numbers, got dtype {w.dtype}")
    if w.dtype.kind == "b" or (w.dtype.kind in "iu" and w.dtype.itemsize < 4):
        return w.astype(np.int32)
    if w.dtype == np.uint32:
        return w.astype(np.int64)
    if w.dtype == np.uint64:
        if m and int(w.max()) > np.iinfo(np.int64).max:
            raise GraphValueError(
                f"weight {int(w.max())} does not fit int64 (the widest integer weight type)")
        return w.astype(np.int64)
    if w.dtype.kind == "f" and w.dtype.itemsize < 4:
        return w.astype(np.float32)
    if w.dtype.kind == "f" and w.dtype.itemsize > 8:
        raise GraphValueError(f"weight dtype {w.dtype} is wider than float64")
    return w


def _has_nan(w: np.ndarray) -> bool:
    """Whether a float weight array holds a NaN (one parallel pass on large arrays)."""
    if len(w) >= _edge_checks.PARALLEL_FROM_EDGES and w.dtype.isnative:
        return _edge_checks.first_nan(w) >= 0
    return bool(np.isnan(w).any())


def _coerce_ids(name: str, ids: Any) -> np.ndarray:
    a = _as_array(name, ids)
    if a.dtype == object or (a.size and a.dtype.kind not in "iub"):
        if a.dtype.kind == "f" and a.size and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
            largest = float(np.abs(a).max())
            if largest >= 2.0**63:
                raise GraphValueError(f"{name} holds vertex id {largest!r}, beyond int64")
            return a.astype(np.int64)
        raise GraphValueError(f"{name} must hold integer vertex ids, got dtype {a.dtype}")
    return a


def _vertex_count(value: Any) -> int:
    """The ``num_vertices`` argument as an int (integral floats allowed), or GraphValueError."""
    number = None
    if not isinstance(value, (bool, np.bool_)):
        try:
            number = operator.index(value)
        except TypeError:
            if (isinstance(value, (float, np.floating)) and math.isfinite(value)
                    and value == int(value)):
                number = int(value)
    if number is None or number < 0:
        raise GraphValueError(f"num_vertices must be a non-negative integer, got {value!r}")
    return number


def _check_memory(num_vertices: int, inferred: bool, s: np.ndarray, d: np.ndarray,
                  w: np.ndarray, idx: np.dtype) -> None:
    """GraphValueError before the copies and the solvers' per-vertex arrays outgrow memory."""
    problem = _memory.shortfall(num_vertices)
    if problem is not None:
        if not inferred:
            raise GraphValueError(f"num_vertices={num_vertices} {problem}")
        hi = num_vertices - 1
        where = int(np.flatnonzero((s == hi) | (d == hi))[0])
        raise GraphValueError(
            f"vertex id {hi} (edge {where}) {problem}; vertex ids must be 0..n-1, so number "
            "sparse ids densely first (the edge-list and SNAP readers take relabel=True)")
    problem = _memory.shortfall(len(s), "edges", 2 * idx.itemsize + w.dtype.itemsize)
    if problem is not None:
        raise GraphValueError(f"the graph's arrays {problem}")


class Graph:
    """An immutable undirected weighted graph (multi-edges and self-loops allowed).

    Build one with :meth:`from_edges`, :meth:`from_scipy`,
    :meth:`from_networkx`, :meth:`from_table` or :meth:`read`.

    Attributes
    ----------
    src, dst : ndarray of int32 or int64
        Endpoints of each edge; the position is the edge id.
    weight : ndarray of int32, int64, float32 or float64
    num_vertices : int

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], [3.0, 1.0, 2.0])
    >>> g.num_vertices, g.num_edges
    (3, 3)
    """

    __slots__ = ("_cache", "_device", "_host", "num_vertices")

    def __init__(self, src: np.ndarray, dst: np.ndarray, weight: np.ndarray,
                 num_vertices: int) -> None:
        # Trusted constructor: callers have validated; public code uses from_edges.
        object.__setattr__(self, "_host", (_readonly(src), _readonly(dst), _readonly(weight)))
        object.__setattr__(self, "_device", None)
        object.__setattr__(self, "num_vertices", int(num_vertices))
        object.__setattr__(self, "_cache", {})

    @classmethod
    def _on_device(cls, edges: DeviceEdges, num_vertices: int) -> Graph:
        """Trusted constructor of a graph that lives on the device (validated by the caller)."""
        graph = cls.__new__(cls)
        object.__setattr__(graph, "_host", None)
        object.__setattr__(graph, "_device", edges)
        object.__setattr__(graph, "num_vertices", int(num_vertices))
        object.__setattr__(graph, "_cache", {})
        return graph

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Graph is immutable")

    def __repr__(self) -> str:
        where = ", on the device" if self.is_on_device else ""
        return (f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges}, "
                f"weight={self.weight_dtype}, index={self.index_dtype}{where})")

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The host edge list; a device graph copies it back once (until :meth:`clear_cache`)."""
        if self._host is None:
            edges = self._device
            object.__setattr__(self, "_host", tuple(
                _readonly(a.copy_to_host()) for a in (edges.src, edges.dst, edges.weight)))
        return self._host

    @property
    def src(self) -> np.ndarray:
        """Source endpoint of each edge (host; a device graph copies its edge list back once)."""
        return self._arrays()[0]

    @property
    def dst(self) -> np.ndarray:
        """Other endpoint of each edge (host, as :attr:`src`)."""
        return self._arrays()[1]

    @property
    def weight(self) -> np.ndarray:
        """Weight of each edge (host, as :attr:`src`)."""
        return self._arrays()[2]

    @property
    def is_on_device(self) -> bool:
        """Whether the graph was built from GPU arrays (its edge list lives on the device)."""
        return self._device is not None

    @property
    def num_edges(self) -> int:
        return self._device.src.shape[0] if self._device is not None else len(self._host[0])

    @property
    def index_dtype(self) -> np.dtype:
        return np.dtype(self._device.src.dtype if self._device is not None else self._host[0].dtype)

    @property
    def weight_dtype(self) -> np.dtype:
        """The weights' dtype, read without copying a device graph's weights to the host."""
        return np.dtype(self._device.weight.dtype if self._device is not None
                        else self._host[2].dtype)

    def to_device(self) -> DeviceEdges:
        """The edge list in GPU memory: a device graph's own arrays, or a host graph's device
        copy, made on the first call and cached (:meth:`clear_cache` drops it).

        Needs numba-cuda and a CUDA device (or its simulator).

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], [1.5, 2.5])
        >>> g.to_device().weight.dtype  # doctest: +SKIP
        dtype('float64')
        """
        if self._device is not None:
            return self._device
        edges = self._cache.get("device")
        if edges is None:
            from parmst.solvers.gpu import _device

            edges = DeviceEdges(*(_device.to_device(a) for a in self._host), kind="host")
            self._cache["device"] = edges
        return edges

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(cls, src: Any, dst: Any, weight: Any = None,
                   num_vertices: int | None = None, *, allow_nan: bool = False,
                   copy: bool = True) -> Graph:
        """Build a graph from edge arrays, validating them.

        Parameters
        ----------
        src, dst : array_like of int
            Endpoints of each edge, vertex ids in ``0..num_vertices-1``.
        weight : array_like of numbers, optional
            One weight per edge (int32, int64, float32 or float64 after
            coercion; narrower types are widened). Unit weights if omitted.
        num_vertices : int, optional
            Defaults to ``max(src, dst) + 1``; isolated vertices need it.
        allow_nan : bool
            Keep NaN weights (solvers then need ``ignore_nan=True``);
            by default a NaN weight is an error.
        copy : bool
            With False, arrays that already have the graph's dtypes are used
            as read-only views instead of copies (the caller must then leave
            the underlying buffers unchanged).

        Raises
        ------
        GraphValueError
            Arrays that are not one-dimensional, unequal lengths, non-integer
            or out-of-range ids, non-numeric or NaN weights, a vertex count
            that is negative or not an integer, and sizes this machine cannot
            hold (a vertex count or largest id above what
            :func:`parmst._memory.shortfall` allows; sparse ids need
            relabelling to ``0..n-1``).

        Examples
        --------
        >>> g = Graph.from_edges([0, 0], [1, 2], [5, 7], num_vertices=4)
        >>> g.num_vertices, g.weight.dtype.name
        (4, 'int64')

        Arrays in GPU memory (CuPy, PyTorch CUDA tensors, anything with
        ``__cuda_array_interface__`` or DLPack on a CUDA device) give a graph
        that stays on the device: validated there, solved there by the GPU
        solvers, copied to the host only if something on the host reads its
        arrays. ``copy=True`` copies them device to device.

        >>> import cupy  # doctest: +SKIP
        >>> g = Graph.from_edges(cupy.array([0, 1]), cupy.array([1, 2]),
        ...                      cupy.array([1.5, 0.5]))  # doctest: +SKIP
        >>> g.is_on_device  # doctest: +SKIP
        True
        """
        if any(is_device_array(a) for a in (src, dst, weight)):
            return cls._from_device_arrays(src, dst, weight, num_vertices, allow_nan=allow_nan,
                                           copy=copy)
        s = _coerce_ids("src", src)
        d = _coerce_ids("dst", dst)
        if len(s) != len(d):
            raise GraphValueError(f"src has {len(s)} entries but dst has {len(d)}")
        m = len(s)
        w = _coerce_weights(weight, m)
        if len(w) != m:
            raise GraphValueError(f"{m} edges but {len(w)} weights")
        parallel = _edge_checks.takes(s, d, w)
        if parallel:
            lo, hi = _edge_checks.id_bounds(s, d)
        else:
            lo = min(int(s.min()), int(d.min())) if m else 0
            hi = max(int(s.max()), int(d.max())) if m else -1
        if lo < 0:
            where = int(np.flatnonzero((s < 0) | (d < 0))[0])
            raise GraphValueError(f"edge {where} has negative vertex id {min(s[where], d[where])}")
        inferred = num_vertices is None
        if inferred:
            num_vertices = hi + 1
        else:
            num_vertices = _vertex_count(num_vertices)
            if hi >= num_vertices:
                first = int(np.flatnonzero((s >= num_vertices) | (d >= num_vertices))[0])
                raise GraphValueError(
                    f"edge {first} has vertex id {max(int(s[first]), int(d[first]))} "
                    f"but num_vertices is {num_vertices}")
        if w.dtype.kind == "f" and not allow_nan and _has_nan(w):
            nan = np.isnan(w)
            raise GraphValueError(
                f"edge {int(np.flatnonzero(nan)[0])} has a NaN weight "
                f"({int(nan.sum())} NaN weights in all); pass allow_nan=True and solve "
                "with ignore_nan=True to leave them out")
        idx = index_dtype_for(int(num_vertices), m)
        _check_memory(num_vertices, inferred, s, d, w, idx)
        if copy and parallel:
            graph = cls(_edge_checks.copy_into(s, idx), _edge_checks.copy_into(d, idx),
                        _edge_checks.copy_into(w, w.dtype), int(num_vertices))
        elif copy:
            graph = cls(np.array(s, dtype=idx), np.array(d, dtype=idx), np.array(w),
                        int(num_vertices))
        else:
            # New array objects over the same buffers: the graph marks its arrays read-only,
            # which must not reach the caller's own array objects.
            graph = cls(np.asarray(s, dtype=idx).view(), np.asarray(d, dtype=idx).view(),
                        w.view(), int(num_vertices))
        if w.dtype.kind != "f" or not allow_nan:
            graph._cache["has_nan"] = False  # checked above: the solve need not scan again
        return graph

    @classmethod
    def _from_device_arrays(cls, src: Any, dst: Any, weight: Any, num_vertices: Any, *,
                            allow_nan: bool, copy: bool) -> Graph:
        """:meth:`from_edges` for GPU arrays: the checks run as kernels on the device.

        Only a few numbers come back to the host (lengths, smallest and largest
        id, a NaN count). When a check fails, the arrays are copied to the host
        and :meth:`from_edges` words the error exactly as for host arrays.
        """
        _optional.require("numba_cuda", "a Graph from GPU arrays")
        from parmst.solvers.gpu import _arrays, _device

        kind = next(_device.array_kind(a) for a in (src, dst, weight) if is_device_array(a))
        s, d = _device_column("src", src), _device_column("dst", dst)
        for name, a in (("src", s), ("dst", d)):
            if a.dtype.kind not in "iu":
                raise GraphValueError(f"{name} must hold integer vertex ids, got dtype {a.dtype} "
                                      "(GPU arrays are not converted from floats)")
        m = s.shape[0]
        if d.shape[0] != m:
            raise GraphValueError(f"src has {m} entries but dst has {d.shape[0]}")
        w = _arrays.fill(m, 1, np.int32) if weight is None else _device_column("weight", weight)
        if w.shape[0] != m:
            raise GraphValueError(f"{m} edges but {w.shape[0]} weights")
        wide = _DEVICE_WEIGHT_WIDENING.get(np.dtype(w.dtype).str[1:])
        if np.dtype(w.dtype) not in WEIGHT_DTYPES and wide is None:
            raise GraphValueError(
                f"GPU weights of dtype {w.dtype} are not converted on the device: pass int32, "
                "int64, float32 or float64")

        def on_host() -> Graph:
            w_host = None if weight is None else w.copy_to_host()
            return cls.from_edges(s.copy_to_host(), d.copy_to_host(), w_host,
                                  num_vertices=num_vertices, allow_nan=allow_nan)

        search_nan = np.dtype(w.dtype).kind == "f" and not allow_nan
        # One launch for the id bounds and the NaN search, one small copy back.
        lo, hi, nans = _arrays.edge_checks(s, d, w if search_nan else None) if m else (0, -1, 0)
        inferred = num_vertices is None
        n = hi + 1 if inferred else _vertex_count(num_vertices)
        nan = nans > 0
        if lo < 0 or hi >= n or nan or _memory.shortfall(n) is not None:
            return on_host()  # raises the host path's message for the first bad edge
        idx = index_dtype_for(n, m)
        ids = [a if a.dtype == idx and not copy else _arrays.cast(a, idx) for a in (s, d)]
        if wide is not None:
            w = _arrays.cast(w, wide)
        elif copy and weight is not None:
            w = _arrays.cast(w, w.dtype)
        graph = cls._on_device(DeviceEdges(*ids, w, kind=kind), n)
        if not allow_nan:
            graph._cache["has_nan"] = False
        return graph

    @classmethod
    def from_scipy(cls, matrix: Any, *, symmetric: str = "upper") -> Graph:
        """Build a graph from a SciPy sparse matrix or array.

        Each stored entry ``(i, j, w)`` is an edge. A symmetric matrix stores
        every edge twice: ``symmetric="upper"`` (default) keeps entries with
        ``i <= j`` only, ``"lower"`` keeps ``i >= j``, ``"all"`` keeps every
        stored entry (as ``scipy.sparse.csgraph.minimum_spanning_tree`` does).
        Explicitly stored zeros are edges of weight 0.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> g = Graph.from_scipy(sp.coo_array(([4.0, 4.0], ([0, 1], [1, 0])), shape=(2, 2)))
        >>> g.num_edges
        1
        """
        sp = _optional.require("scipy.sparse", "Graph.from_scipy")
        if not sp.issparse(matrix):
            raise GraphValueError(f"expected a SciPy sparse matrix, got {type(matrix).__name__}")
        rows, cols = matrix.shape
        if rows != cols:
            raise GraphValueError(f"adjacency matrix must be square, got shape {matrix.shape}")
        coo = matrix.tocoo()
        r, c, w = coo.row, coo.col, coo.data
        if symmetric == "upper":
            keep = r <= c
        elif symmetric == "lower":
            keep = r >= c
        elif symmetric == "all":
            keep = slice(None)
        else:
            raise GraphValueError(f"symmetric must be 'upper', 'lower' or 'all', got {symmetric!r}")
        return cls.from_edges(r[keep], c[keep], w[keep], num_vertices=rows)

    @classmethod
    def from_networkx(cls, graph: Any, weight: str = "weight", default: float = 1.0) -> Graph:
        """Build a graph from a NetworkX (Multi)Graph.

        Nodes are numbered in ``graph.nodes`` order; edge ids follow
        ``graph.edges`` order. A missing ``weight`` attribute counts as
        ``default``.

        Examples
        --------
        >>> import networkx as nx
        >>> g = Graph.from_networkx(nx.path_graph(4))
        >>> g.num_vertices, g.num_edges
        (4, 3)
        """
        index = {node: i for i, node in enumerate(graph.nodes)}
        edges = list(graph.edges(data=weight, default=default))
        src = np.fromiter((index[u] for u, _, _ in edges), dtype=np.int64, count=len(edges))
        dst = np.fromiter((index[v] for _, v, _ in edges), dtype=np.int64, count=len(edges))
        w = np.array([x for _, _, x in edges]) if edges else np.zeros(0)
        return cls.from_edges(src, dst, w, num_vertices=len(index))

    @classmethod
    def from_table(cls, table: Any, source: str = "source", target: str = "target",
                   weight: str | None = "weight", num_vertices: int | None = None, *,
                   allow_nan: bool = False) -> Graph:
        """Build a graph from a table with two id columns and a weight column.

        Takes a pandas or polars DataFrame, a pyarrow Table or RecordBatch,
        or anything indexable by column name that yields arrays (a dict of
        arrays, a NumPy record array). Columns are not copied where their
        dtype is already the graph's (ids int32 while the graph fits int32,
        int64 beyond; weights int32, int64, float32 or float64) and their
        buffer is contiguous: the graph then views the table's memory, so
        leave the table unchanged. Missing values are an error.

        Examples
        --------
        >>> g = Graph.from_table({"source": [0, 1], "target": [1, 2], "weight": [1, 2]})
        >>> g.num_edges
        2
        """
        from parmst.interop.tables import column_array

        w = column_array(table, weight) if weight is not None else None
        return cls.from_edges(column_array(table, source), column_array(table, target), w,
                              num_vertices=num_vertices, allow_nan=allow_nan, copy=False)

    @classmethod
    def from_igraph(cls, graph: Any, weight: str | None = "weight") -> Graph:
        """Build a graph from an ``igraph.Graph``; edge ids follow igraph's edge ids.

        Edge directions are ignored, as igraph's own ``spanning_tree`` does.
        The ``weight`` edge attribute gives the weights; with the default
        name a graph without that attribute gets unit weights (igraph's
        unweighted case), a name given explicitly must exist.

        Examples
        --------
        >>> import igraph
        >>> g = Graph.from_igraph(igraph.Graph([(0, 1), (1, 2)], edge_attrs={"weight": [2.0, 1.0]}))
        >>> g.num_vertices, g.weight.tolist()
        (3, [2.0, 1.0])
        """
        module = type(graph).__module__.split(".", 1)[0]
        if module != "igraph":
            raise GraphValueError(f"expected an igraph.Graph, got {type(graph).__name__}")
        ends = np.array(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
        w = None
        if weight is not None:
            if weight in graph.es.attributes():
                w = np.array(graph.es[weight])
            elif weight != "weight":
                raise GraphValueError(
                    f"igraph graph has no edge attribute {weight!r}; it has "
                    f"{', '.join(graph.es.attributes()) or 'none'}")
        return cls.from_edges(ends[:, 0], ends[:, 1], w, num_vertices=graph.vcount())

    @classmethod
    def read(cls, path: str | os.PathLike, format: str | None = None, **options: Any) -> Graph:
        """Read a graph file; the format comes from the extension unless named.

        See :mod:`parmst.io` for the formats and their options.

        Examples
        --------
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
        >>> Graph.from_edges([0], [1], [2]).write(p)
        >>> Graph.read(p).num_edges
        1
        """
        from parmst import io

        return io.read(path, format=format, **options)

    def write(self, path: str | os.PathLike, format: str | None = None, **options: Any) -> None:
        """Write the graph to a file (format from the extension unless named)."""
        from parmst import io

        io.write(self, path, format=format, **options)

    # ------------------------------------------------------------------ views
    def csr(self) -> CSR:
        """The CSR view with both directions of every non-loop edge (cached).

        Building it is initialization work, timed apart from computation.
        """
        view = self._cache.get("csr")
        if view is None:
            from parmst._csr import build_csr

            view = build_csr(self.src, self.dst, self.weight, self.num_vertices)
            self._cache["csr"] = view
        return view

    def clear_cache(self) -> None:
        """Drop cached views (CSR, a host graph's device copy, a device graph's host copy, GPU
        and host keys), so that the next solve times their construction again."""
        has_nan = self._cache.get("has_nan")
        self._cache.clear()
        if has_nan is not None:
            self._cache["has_nan"] = has_nan
        if self._device is not None:
            object.__setattr__(self, "_host", None)

    @property
    def has_nan(self) -> bool:
        """Whether any weight is NaN (only possible with ``allow_nan=True``)."""
        if "has_nan" not in self._cache:
            if self.weight_dtype.kind != "f":
                self._cache["has_nan"] = False
            elif self._device is not None and self._host is None:
                from parmst.solvers.gpu import _arrays

                self._cache["has_nan"] = _arrays.nan_count(self._device.weight) > 0
            else:
                self._cache["has_nan"] = _has_nan(self.weight)
        return self._cache["has_nan"]

    def subgraph_edges(self, keep: np.ndarray) -> tuple[Graph, np.ndarray]:
        """The graph of the edges where ``keep`` is true, and their ids here.

        The vertex set is unchanged. Solving the subgraph and mapping its
        forest's edge ids through the returned array gives ids of this graph.
        """
        ids = np.flatnonzero(keep)
        sub = Graph(self.src[ids], self.dst[ids], self.weight[ids], self.num_vertices)
        return sub, ids

    def with_weights(self, weight: np.ndarray) -> Graph:
        """The same edges with other weights (same length, validated dtype)."""
        w = _coerce_weights(weight, self.num_edges)
        if len(w) != self.num_edges:
            raise GraphValueError(f"{self.num_edges} edges but {len(w)} weights")
        return Graph(self.src, self.dst, np.array(w), self.num_vertices)

    def to_scipy(self):
        """A symmetric ``scipy.sparse.csr_array`` (parallel edges keep their minimum).

        Self-loops are dropped, as no spanning forest uses them.
        """
        sp = _optional.require("scipy.sparse", "Graph.to_scipy")

        loop = self.src == self.dst
        s = np.minimum(self.src, self.dst)[~loop]
        d = np.maximum(self.src, self.dst)[~loop]
        w = self.weight[~loop]
        order = np.lexsort((w, d, s))
        s, d, w = s[order], d[order], w[order]
        first = np.ones(len(s), dtype=bool)
        first[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
        s, d, w = s[first], d[first], w[first]
        n = self.num_vertices
        return sp.coo_array((np.concatenate([w, w]), (np.concatenate([s, d]), np.concatenate([d, s]))),
                            shape=(n, n)).tocsr()

    def to_networkx(self):
        """A ``networkx.MultiGraph`` with ``weight`` and ``edge_id`` edge attributes."""
        nx = _optional.require("networkx", "Graph.to_networkx")

        g = nx.MultiGraph()
        g.add_nodes_from(range(self.num_vertices))
        g.add_edges_from(
            (int(u), int(v), {"weight": w, "edge_id": i})
            for i, (u, v, w) in enumerate(zip(self.src.tolist(), self.dst.tolist(),
                                              self.weight.tolist())))
        return g
