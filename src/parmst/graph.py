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

This module is the graph itself; its parts live beside it: the checks and
dtypes of edge arrays in :mod:`parmst._edge_input`, the device path in
:mod:`parmst._graph_device`, the CSR view in :mod:`parmst._csr`, other
libraries' graphs and tables in :mod:`parmst._graph_convert` and
:mod:`parmst._tables`, the checks of ``from_edges`` in :mod:`parmst._host_edges`,
a graph split over several GPUs in :mod:`parmst.graph_parts`. Files are read
and written by :mod:`parmst.formats` (edge arrays in, edge arrays out), which
:meth:`Graph.read` and :meth:`Graph.write` import on their first call: its row
parser compiles, and most programs read no file. Every one of these modules
sits below this one; :mod:`parmst.io` sits above it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from parmst import _graph_convert, _graph_device, _host_edges, _tables, graph_parts
from parmst._csr import CSR, build_csr
from parmst._edge_input import WEIGHT_DTYPES, coerce_weights, has_nan, index_dtype_for, readonly
from parmst._graph_device import DeviceEdges, is_device_array
from parmst._host_edges import EdgeArrays
from parmst._names import DEFAULT_COLUMNS, order_of
from parmst.errors import GraphValueError

__all__ = ["CSR", "DEFAULT_COLUMNS", "WEIGHT_DTYPES", "DeviceEdges", "Graph", "index_dtype_for",
           "is_device_array"]


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
    labels : ndarray or None
        The name of each vertex (``labels[v]`` for vertex ``v``) where the
        graph was built from names (strings, any hashable, sparse ids; see
        :mod:`parmst._names`); None where the vertices are the ids
        ``0..n-1`` themselves. Solvers never read it; every output of a
        :class:`~parmst.Forest` gives the names back.
    columns : tuple of str
        The names of the source, target and weight columns of the table or
        file the graph came from (``("source", "target", "weight")`` where
        none were named); a forest's tables use them.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], [3.0, 1.0, 2.0])
    >>> g.num_vertices, g.num_edges
    (3, 3)
    >>> named = Graph.from_edges(["ann", "bob"], ["bob", "cy"], [1, 2])
    >>> named.src.tolist(), named.labels.tolist()
    ([0, 1], ['ann', 'bob', 'cy'])
    """

    __slots__ = ("_cache", "_device", "_host", "columns", "labels", "num_vertices")

    def __init__(self, src: np.ndarray, dst: np.ndarray, weight: np.ndarray,
                 num_vertices: int, labels: np.ndarray | None = None,
                 columns: tuple[str, str, str] = DEFAULT_COLUMNS) -> None:
        # Trusted constructor: callers have validated; public code uses from_edges.
        object.__setattr__(self, "_host", (readonly(src), readonly(dst), readonly(weight)))
        object.__setattr__(self, "_device", None)
        object.__setattr__(self, "num_vertices", int(num_vertices))
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "columns", tuple(columns))

    @classmethod
    def _on_device(cls, edges: DeviceEdges, num_vertices: int) -> Graph:
        """Trusted constructor of a graph that lives on the device (validated by the caller)."""
        graph = cls.__new__(cls)
        object.__setattr__(graph, "_host", None)
        object.__setattr__(graph, "_device", edges)
        object.__setattr__(graph, "num_vertices", int(num_vertices))
        object.__setattr__(graph, "_cache", {})
        object.__setattr__(graph, "labels", None)
        object.__setattr__(graph, "columns", DEFAULT_COLUMNS)
        return graph

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Graph is immutable")

    def __repr__(self) -> str:
        where = ", on the device" if self.is_on_device else ""
        named = ", named" if self.labels is not None else ""
        return (f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges}, "
                f"weight={self.weight_dtype}, index={self.index_dtype}{named}{where})")

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The host edge list; a device graph copies it back once (until :meth:`clear_cache`)."""
        if self._host is None:
            edges = self._device
            object.__setattr__(self, "_host", tuple(
                readonly(a.copy_to_host()) for a in (edges.src, edges.dst, edges.weight)))
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
            edges = _graph_device.copy_to_device(*self._host)
            self._cache["device"] = edges
        return edges

    def to_device_parts(self, devices: Any) -> list:
        """The edges in ``len(devices)`` consecutive, equal id ranges, part ``k`` copied to GPU
        ``devices[k]``: a :class:`~parmst._graph_device.DevicePart` list for
        :meth:`from_device_parts` (see :func:`parmst.graph_parts.to_device_parts`).

        Examples
        --------
        >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
        >>> [p.count for p in g.to_device_parts([0, 0])]  # doctest: +SKIP
        [1, 2]
        """
        return graph_parts.to_device_parts(self, devices)

    @classmethod
    def from_device_parts(cls, parts: Any) -> Any:
        """A graph held as parts on one or more GPUs (consecutive id ranges, in order), checked
        on the devices: a :class:`parmst.graph_parts.SplitGraph`, which ``ecl/multigpu``
        solves without copying the edges to the host.

        Examples
        --------
        >>> import parmst
        >>> g = Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
        >>> split = Graph.from_device_parts(g.to_device_parts([0, 0]))  # doctest: +SKIP
        >>> parmst.minimum_spanning_forest(split, "ecl/multigpu").edge_ids.tolist()
        ... # doctest: +SKIP
        [1, 2, 3]
        """
        return graph_parts.from_device_parts(parts, cls)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(cls, src: Any, dst: Any, weight: Any = None,
                   num_vertices: int | None = None, *, allow_nan: bool = False,
                   copy: bool = True, relabel: bool | str | None = None) -> Graph:
        """Build a graph from edge arrays, validating them.

        Parameters
        ----------
        src, dst : array_like
            Endpoints of each edge: vertex ids in ``0..num_vertices-1``, or
            vertex names of any kind (strings, any hashable objects), which
            are numbered ``0..n-1`` and kept in :attr:`labels`.
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
        relabel : None, bool, "first" or "sorted"
            How ends become vertex numbers (the rule of :mod:`parmst._names`):
            by default names are numbered in order of first appearance and
            integer ids are kept; ``True``/``"sorted"`` numbers any values
            (sparse or negative ids too) in increasing order, ``"first"`` by
            first appearance; ``False`` refuses names.

        Raises
        ------
        GraphValueError
            Arrays that are not one-dimensional, unequal lengths, non-integer
            or out-of-range ids, non-numeric or NaN weights, a vertex count
            that is negative or not an integer, and sizes this machine cannot
            hold (a vertex count or largest id above what
            :func:`parmst._memory.shortfall` allows; sparse ids need
            ``relabel=True``), ``num_vertices`` given with names.

        Examples
        --------
        >>> g = Graph.from_edges([0, 0], [1, 2], [5, 7], num_vertices=4)
        >>> g.num_vertices, g.weight.dtype.name
        (4, 'int64')
        >>> g = Graph.from_edges([10**12, 5], [5, 7], [1, 2], relabel=True)
        >>> g.src.tolist(), g.labels.tolist()
        ([2, 0], [5, 7, 1000000000000])

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
            if order_of(relabel, names=False) is not None:
                raise GraphValueError("relabel applies to host arrays; number the ids 0..n-1 "
                                      "before moving them to the device")
            return cls._from_device_arrays(src, dst, weight, num_vertices, allow_nan=allow_nan,
                                           copy=copy)
        return cls._of(_host_edges.checked(src, dst, weight, num_vertices, allow_nan=allow_nan,
                                           copy=copy, relabel=relabel))

    @classmethod
    def _of(cls, edges: EdgeArrays) -> Graph:
        """The graph of checked host arrays (:class:`parmst._host_edges.EdgeArrays`), taken as
        they are: from :meth:`from_edges`, :meth:`from_table` and the files (:meth:`read`)."""
        graph = cls(edges.src, edges.dst, edges.weight, edges.num_vertices, edges.labels,
                    edges.columns)
        if edges.nan_free:
            graph._cache["has_nan"] = False  # searched when checked: the solve need not scan
        return graph

    @classmethod
    def _from_device_arrays(cls, src: Any, dst: Any, weight: Any, num_vertices: Any, *,
                            allow_nan: bool, copy: bool) -> Graph:
        """:meth:`from_edges` for GPU arrays: checked on the device
        (:func:`parmst._graph_device.validated`); where a check fails, the arrays are copied
        to the host and :meth:`from_edges` words the error exactly as for host arrays."""
        checked = _graph_device.validated(src, dst, weight, num_vertices, allow_nan=allow_nan,
                                          copy=copy)
        if checked is None:
            return cls.from_edges(*_graph_device.host_copies(src, dst, weight),
                                  num_vertices=num_vertices, allow_nan=allow_nan)
        graph = cls._on_device(*checked)
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
        src, dst, weight, n = _graph_convert.scipy_edges(matrix, symmetric)
        return cls.from_edges(src, dst, weight, num_vertices=n)

    @classmethod
    def from_networkx(cls, graph: Any, weight: str = "weight", default: float = 1.0) -> Graph:
        """Build a graph from a NetworkX (Multi)Graph.

        Nodes are numbered in ``graph.nodes`` order and keep their names in
        :attr:`labels` (unless they are ``0..n-1`` in that order); edge ids
        follow ``graph.edges`` order. A missing ``weight`` attribute counts as
        ``default``.

        Examples
        --------
        >>> import networkx as nx
        >>> g = Graph.from_networkx(nx.path_graph(4))
        >>> g.num_vertices, g.num_edges, g.labels
        (4, 3, None)
        >>> Graph.from_networkx(nx.path_graph(["a", "b"])).labels.tolist()
        ['a', 'b']
        """
        src, dst, w, n, labels = _graph_convert.networkx_edges(graph, weight, default)
        return cls.from_edges(src, dst, w, num_vertices=n)._labelled(labels)

    @classmethod
    def from_table(cls, table: Any, source: str = "source", target: str = "target",
                   weight: str | None = "weight", num_vertices: int | None = None, *,
                   allow_nan: bool = False, relabel: bool | str | None = None) -> Graph:
        """Build a graph from a table with two vertex columns and a weight column.

        Takes a pandas or polars DataFrame, a pyarrow Table or RecordBatch,
        or anything indexable by column name that yields arrays (a dict of
        arrays, a NumPy record array). Integer id columns are not copied
        where their dtype is already the graph's (ids int32 while the graph
        fits int32, int64 beyond; weights int32, int64, float32 or float64)
        and their buffer is contiguous: the graph then views the table's
        memory, so leave the table unchanged. Vertex columns of names
        (strings, categories, objects) are numbered once, by pandas, Arrow or
        NumPy, and the names kept in :attr:`labels`; ``relabel`` is the rule
        of :meth:`from_edges` (``True`` also numbers sparse integer ids).
        The column names are kept in :attr:`columns`. Missing values are an
        error, and errors name the table's columns.

        Examples
        --------
        >>> g = Graph.from_table({"source": [0, 1], "target": [1, 2], "weight": [1, 2]})
        >>> g.num_edges
        2
        >>> import pandas as pd
        >>> roads = pd.DataFrame({"from": ["Oslo", "Bergen"], "to": ["Bergen", "Voss"],
        ...                       "km": [463, 104]})
        >>> g = Graph.from_table(roads, "from", "to", "km")
        >>> g.labels.tolist(), g.columns
        (['Oslo', 'Bergen', 'Voss'], ('from', 'to', 'km'))
        """
        return cls._of(_tables.edge_arrays(table, source, target, weight, num_vertices,
                                           allow_nan=allow_nan, relabel=relabel))

    @classmethod
    def from_igraph(cls, graph: Any, weight: str | None = "weight") -> Graph:
        """Build a graph from an ``igraph.Graph``; edge ids follow igraph's edge ids.

        Edge directions are ignored, as igraph's own ``spanning_tree`` does.
        The ``weight`` edge attribute gives the weights; with the default
        name a graph without that attribute gets unit weights (igraph's
        unweighted case), a name given explicitly must exist. The ``name``
        vertex attribute, where present, becomes :attr:`labels`.

        Examples
        --------
        >>> import igraph
        >>> g = Graph.from_igraph(igraph.Graph([(0, 1), (1, 2)], edge_attrs={"weight": [2.0, 1.0]}))
        >>> g.num_vertices, g.weight.tolist()
        (3, [2.0, 1.0])
        """
        src, dst, w, n, labels = _graph_convert.igraph_edges(graph, weight)
        return cls.from_edges(src, dst, w, num_vertices=n)._labelled(labels)

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
        from parmst import formats  # its row parser compiles: loaded for the first file only

        return cls._of(formats.read(path, format, **options))

    def write(self, path: str | os.PathLike, format: str | None = None, **options: Any) -> None:
        """Write the graph to a file (format from the extension unless named)."""
        from parmst import formats

        formats.write(self, path, format, **options)

    # ------------------------------------------------------------------ views
    def csr(self) -> CSR:
        """The CSR view with both directions of every non-loop edge (cached).

        Building it is initialization work, timed apart from computation.
        """
        view = self._cache.get("csr")
        if view is None:
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
                self._cache["has_nan"] = _graph_device.has_nan(self._device)
            else:
                self._cache["has_nan"] = has_nan(self.weight)
        return self._cache["has_nan"]

    def subgraph_edges(self, keep: np.ndarray) -> tuple[Graph, np.ndarray]:
        """The graph of the edges where ``keep`` is true, and their ids here.

        The vertex set (and its labels) is unchanged. Solving the subgraph and
        mapping its forest's edge ids through the returned array gives ids of
        this graph.
        """
        ids = np.flatnonzero(keep)
        sub = Graph(self.src[ids], self.dst[ids], self.weight[ids], self.num_vertices,
                    self.labels, self.columns)
        return sub, ids

    def with_weights(self, weight: np.ndarray) -> Graph:
        """The same edges (and vertex labels) with other weights (same length, validated dtype)."""
        w = coerce_weights(weight, self.num_edges)
        if len(w) != self.num_edges:
            raise GraphValueError(f"{self.num_edges} edges but {len(w)} weights")
        return Graph(self.src, self.dst, np.array(w), self.num_vertices, self.labels,
                     self.columns)

    def with_labels(self, labels: Any) -> Graph:
        """The same graph with other vertex names (:attr:`labels`); ``None`` drops them.

        The edge arrays are shared, not copied. ``labels`` holds one name per
        vertex, all different.

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], [4, 5]).with_labels(["x", "y", "z"])
        >>> g.labels.tolist(), g.with_labels(None).labels is None
        (['x', 'y', 'z'], True)
        """
        if labels is not None:
            if not isinstance(labels, np.ndarray):
                labels = np.fromiter(labels, dtype=object)
            if labels.shape != (self.num_vertices,):
                raise GraphValueError(f"labels must hold one name per vertex "
                                      f"({self.num_vertices}), got shape {labels.shape}")
            if len(set(labels.tolist())) != len(labels):
                raise GraphValueError("labels must all differ (each names one vertex)")
        return self._labelled(labels)

    def _labelled(self, labels: np.ndarray | None) -> Graph:
        """:meth:`with_labels` without the checks (the caller's labels are one per vertex)."""
        if labels is self.labels:
            return self
        if self.is_on_device:
            raise GraphValueError("a graph on the device has no vertex labels")
        graph = Graph(*self._arrays(), self.num_vertices, labels, self.columns)
        if "has_nan" in self._cache:
            graph._cache["has_nan"] = self._cache["has_nan"]
        return graph

    def to_scipy(self):
        """A symmetric ``scipy.sparse.csr_array`` (parallel edges keep their minimum).

        Self-loops are dropped, as no spanning forest uses them.
        """
        return _graph_convert.scipy_matrix(self.src, self.dst, self.weight, self.num_vertices)

    def to_networkx(self):
        """A ``networkx.MultiGraph`` with ``weight`` and ``edge_id`` edge attributes, its nodes
        named by :attr:`labels` where the graph has them."""
        return _graph_convert.networkx_multigraph(self.src, self.dst, self.weight,
                                                  self.num_vertices, self.labels)
