"""The result of a solve: the minimum spanning forest and how it was found."""

from __future__ import annotations

import importlib
import math
import os
import sys
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from parmst._graph_convert import names_of
from parmst._jit import compiled_pays
from parmst._names import DEFAULT_COLUMNS
from parmst._optional import require
from parmst._text import plural
from parmst.stats import Stats

if TYPE_CHECKING:
    from parmst.graph import Graph

__all__ = ["Forest", "exact_sum"]

def exact_sum(weights: np.ndarray) -> int | float:
    """Sum weights exactly: Python integers for int weights, correctly rounded for floats.

    Float sums are the exact sum rounded once (``math.fsum``'s result, also
    where ``math.fsum`` overflows midway); infinite weights give inf, -inf or
    nan as plain summation does.

    Examples
    --------
    >>> import numpy as np
    >>> exact_sum(np.array([2**62, 2**62], dtype=np.int64))
    9223372036854775808
    >>> exact_sum(np.array([1e16, 1.0, -1e16]))
    1.0
    """
    w = np.asarray(weights)
    if w.size == 0:
        return 0 if w.dtype.kind in "iu" else 0.0
    if w.dtype.kind in "iu":
        bound = max(abs(int(w.min())), abs(int(w.max())))
        if bound * len(w) < 2**63:
            return int(w.sum(dtype=np.int64))
        return sum(w.tolist())
    w = w.astype(np.float64, copy=False).ravel()
    if not compiled_pays(len(w)) and np.isfinite(w).all():
        try:
            return math.fsum(w.tolist())
        except OverflowError:  # a partial sum beyond float64: the digits below hold it
            pass
    kernels = _kernels()
    digits, finite = kernels.fixed_point_digits(np.ascontiguousarray(w))
    if not finite:  # inf, -inf or nan, as plain summation gives them
        with np.errstate(invalid="ignore", over="ignore"):
            return float(w.sum())
    exact = sum(int(d) << (kernels.DIGIT_BITS * i) for i, d in enumerate(digits.tolist()) if d)
    try:
        return exact / (1 << 1074)  # int / int is correctly rounded (half to even)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def _ascending(ids: np.ndarray, num_edges: int) -> np.ndarray:
    """``np.sort(ids)``, through a bit per edge where that is faster
    (:func:`parmst._forest_kernels.ids_in_order`)."""
    if not compiled_pays(len(ids)):
        return np.sort(ids)
    ascending, complete = _kernels().ids_in_order(ids, num_edges)
    return ascending if complete else np.sort(ids)


def _kernels() -> Any:
    """:mod:`parmst._forest_kernels`, imported on first use (from ``sys.modules`` after
    that: an import statement costs a microsecond on every forest)."""
    return (sys.modules.get("parmst._forest_kernels")
            or importlib.import_module("parmst._forest_kernels"))


_LAZY = object()
"""Placeholder of a forest's fields that are filled when first read."""


@dataclass(frozen=True, eq=False)
class Forest:
    """A minimum spanning forest of a :class:`~parmst.Graph`.

    Attributes
    ----------
    edge_ids : ndarray of int64
        Ids (positions in the graph's edge list) of the forest's edges, sorted (when
        first read: a caller that reads only the count or the total never sorts them).
    edge_ids_device : device array of int64
        The same ids in GPU memory, as the graph's own array kind (CuPy array,
        PyTorch tensor, else a numba-cuda device array). A GPU solve of a graph
        built from GPU arrays leaves them there, and ``edge_ids``, ``src``,
        ``dst``, ``weight`` and ``total_weight`` are copied to the host only
        when read; for host graphs this is a copy made when first read.
    src, dst, weight : ndarray
        The endpoints and weight of each forest edge, parallel to ``edge_ids``;
        gathered from the graph when first read.
    num_vertices : int
    num_components : int
        Trees in the forest; isolated vertices count as one each.
    total_weight : int or float
        Exact for integer weights, correctly rounded (as ``math.fsum``) for floats;
        summed when first read.
    solver : str
        Id of the solver that produced it, e.g. ``"kruskal/serial"``.
    stats : Stats
        Initialization and computation time, phases, rounds.
    labels : ndarray or None
        The graph's vertex names (:attr:`parmst.Graph.labels`, the same
        array): :meth:`to_pandas`, :meth:`to_table`, :meth:`to_networkx`,
        :meth:`to_igraph` and :meth:`write` give the names back.
    columns : tuple of str
        The graph's source, target and weight column names
        (:attr:`parmst.Graph.columns`), used by :meth:`to_pandas` and
        :meth:`to_table`.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 1])
    >>> f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
    >>> f.edge_ids.tolist(), f.total_weight, f.num_components
    ([0, 1], 2, 1)
    """

    edge_ids: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    num_vertices: int
    num_components: int
    total_weight: int | float
    solver: str = ""
    stats: Stats = field(default_factory=Stats)
    labels: Any = field(default=None, repr=False)
    columns: tuple[str, str, str] = field(default=DEFAULT_COLUMNS, repr=False)
    # A forest's graph until its lazy fields are filled; a host forest's ids in the solver's
    # order until they are sorted; for a device forest its ids on the device and the array
    # kind to hand them out as.
    _graph: Any = field(default=None, init=False, repr=False)
    _unsorted: Any = field(default=None, init=False, repr=False)
    _device_ids: Any = field(default=None, init=False, repr=False)
    _kind: str = field(default="numba", init=False, repr=False)

    def __getattribute__(self, name: str) -> Any:
        # Fields holding _LAZY are filled on first read (dataclasses.replace, repr and
        # pickling read them through here too, so they see the filled values).
        value = object.__getattribute__(self, name)
        if value is _LAZY:
            object.__getattribute__(self, "_fill")(name)
            value = object.__getattribute__(self, name)
        return value

    def __getstate__(self) -> dict[str, Any]:
        # Pickle the filled fields, not the placeholders (which do not survive a pickle).
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def _set(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @classmethod
    def from_edge_ids(cls, graph: Graph, edge_ids: Any, solver: str = "",
                      stats: Stats | None = None, ascending: bool = False) -> Forest:
        """Assemble a forest from the chosen edge ids of ``graph`` (any order; with
        ``ascending``, host ids the caller knows to be strictly ascending, kept as they are).

        The ids are sorted when ``edge_ids`` (or ``src``, ``dst``, ``weight``) is
        first read; the endpoints, weights and total weight are gathered and
        summed when first read, so a caller that wants only the count, the
        total or the ids pays for nothing else (the total is summed from the
        unsorted ids when it is read first: an exact sum does not depend on the
        order). Ids in GPU memory (a numba-cuda device array, ascending, from a
        GPU solve of a device graph) stay there until read.
        """
        on_device = not isinstance(edge_ids, np.ndarray) and hasattr(edge_ids, "copy_to_host")
        if on_device:
            count = edge_ids.shape[0]
            held = {"edge_ids": _LAZY, "_device_ids": edge_ids}
        else:
            edge_ids = np.asarray(edge_ids, dtype=np.int64)
            count = len(edge_ids)
            # Ids known to ascend are the field itself: reading them costs nothing.
            held = ({"edge_ids": edge_ids} if ascending
                    else {"edge_ids": _LAZY, "_unsorted": edge_ids})
        # The instance's fields set in one step: the frozen dataclass's __init__ sets them
        # one object.__setattr__ at a time, 5 us of a 10^4-edge call's 30 us outside the solve.
        forest = object.__new__(cls)
        object.__getattribute__(forest, "__dict__").update(
            _UNSET, src=_LAZY, dst=_LAZY, weight=_LAZY,
            num_vertices=graph.num_vertices, num_components=graph.num_vertices - count,
            total_weight=_LAZY, solver=solver, stats=stats if stats is not None else Stats(),
            labels=graph.labels, columns=graph.columns, _graph=graph, **held)
        if graph.is_on_device:
            forest._set(_kind=graph.to_device().kind)
        return forest

    def _fill(self, name: str) -> None:
        """Fill the lazy field ``name``: the ids sorted first where they are still in the
        solver's order (a device forest copies all its host fields at once)."""
        graph = object.__getattribute__(self, "_graph")
        unsorted = object.__getattribute__(self, "_unsorted")
        if name == "total_weight" and unsorted is not None:
            # The solver's order will do: an exact sum does not depend on the order.
            self._set(total_weight=exact_sum(graph.weight[unsorted]))
            return
        if unsorted is not None:
            self._set(edge_ids=_ascending(unsorted, graph.num_edges), _unsorted=None)
            if name == "edge_ids":
                return
        elif object.__getattribute__(self, "edge_ids") is _LAZY:
            self._copy_to_host(graph)
        if object.__getattribute__(self, name) is not _LAZY:  # the ids, or a device forest's
            pass
        elif name == "total_weight":
            self._set(total_weight=exact_sum(self.weight))
        else:
            self._set(**{name: getattr(graph, name)[self.edge_ids]})
        if all(object.__getattribute__(self, f) is not _LAZY for f in ("src", "dst", "weight")):
            self._set(_graph=None)  # all gathered: the forest no longer keeps the graph alive

    def _copy_to_host(self, graph: Graph) -> None:
        """A device forest's host fields: ids and their endpoints and weights gathered on the
        device, copied back once."""
        from parmst._cuda.arrays import gather

        ids = self._device_ids
        edges = graph.to_device()
        src, dst, weight = (gather(a, ids).copy_to_host()
                            for a in (edges.src, edges.dst, edges.weight))
        self._set(edge_ids=ids.copy_to_host(), src=src, dst=dst, weight=weight,
                  total_weight=exact_sum(weight))

    @property
    def edge_ids_device(self) -> Any:
        """The sorted edge ids in GPU memory, as the graph's array kind (see the class doc).

        Examples
        --------
        >>> import cupy, parmst  # doctest: +SKIP
        >>> g = parmst.Graph.from_edges(cupy.array([0, 1, 0]), cupy.array([1, 2, 2]),
        ...                             cupy.array([1.0, 2.0, 3.0]))  # doctest: +SKIP
        >>> parmst.minimum_spanning_forest(g, "ecl/gpu").edge_ids_device  # doctest: +SKIP
        array([0, 1])
        """
        from parmst._cuda import foreign, runtime

        if self._device_ids is None:
            self._set(_device_ids=runtime.to_device(self.edge_ids))
        return foreign.export(self._device_ids, self._kind)

    @property
    def num_edges(self) -> int:
        ids = object.__getattribute__(self, "edge_ids")
        if ids is not _LAZY:
            return len(ids)
        unsorted = object.__getattribute__(self, "_unsorted")
        return len(unsorted) if unsorted is not None else self._device_ids.shape[0]

    def __len__(self) -> int:
        return self.num_edges

    def summary(self) -> str:
        """A one-paragraph description: solver, sizes, weight, times."""
        s = self.stats
        return (f"solver {self.solver}: {plural(self.num_edges, 'forest edge')}, "
                f"{plural(self.num_components, 'component')}, total weight {self.total_weight}, "
                f"init {s.init_time:.4f} s, compute {s.compute_time:.4f} s")

    def component_labels(self) -> np.ndarray:
        """Component id of each vertex: the smallest vertex id in its tree."""
        from parmst._labels import smallest_vertex_labels

        return smallest_vertex_labels(self.src, self.dst, self.num_vertices)

    def to_numpy(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(src, dst, weight)`` arrays of the forest's edges."""
        return self.src, self.dst, self.weight

    def to_linkage(self) -> np.ndarray:
        """SciPy's single-linkage matrix of the tree (``scipy.cluster.hierarchy`` format).

        Rows ``[a, b, height, size]``, one per edge, taken in the ``(weight,
        edge_id)`` order: each merges clusters ``a < b`` (points ``0 .. n-1``,
        then the clusters of earlier rows, ``n, n + 1, ...``) at the edge's
        weight. For the Euclidean tree of points this is ``linkage(points,
        "single")`` up to the order of rows of equal height, so ``fcluster``,
        ``dendrogram`` and ``cophenet`` take it. The forest must be one tree
        (SciPy's format has one root); several trees raise GraphValueError.

        Examples
        --------
        >>> import parmst
        >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [2.0, 1.0, 3.0])
        >>> parmst.minimum_spanning_forest(g).to_linkage().tolist()
        [[1.0, 2.0, 1.0, 2.0], [0.0, 3.0, 2.0, 3.0]]
        """
        from parmst._linkage import single_linkage

        return single_linkage(self.src, self.dst, self.weight, self.edge_ids, self.num_vertices)

    def to_graph(self) -> Graph:
        """The forest as a :class:`~parmst.Graph` on the same vertices (and their labels)."""
        from parmst.graph import Graph

        graph = Graph.from_edges(self.src, self.dst, self.weight, num_vertices=self.num_vertices)
        return Graph(graph.src, graph.dst, graph.weight, graph.num_vertices, self.labels,
                     self.columns)

    def to_scipy(self):
        """The forest as a symmetric ``scipy.sparse.csr_array`` (vertices ``0..n-1``)."""
        return self.to_graph().to_scipy()

    def _named_columns(self) -> dict[str, Any]:
        """The forest's edges as columns: the graph's column names, its vertex names where it
        has them, and ``edge_id``."""
        source, target, weight = self.columns
        ends = (self.src, self.dst) if self.labels is None else (self.labels[self.src],
                                                                 self.labels[self.dst])
        return {source: ends[0], target: ends[1], weight: self.weight, "edge_id": self.edge_ids}

    def to_pandas(self):
        """The forest's edges as a ``pandas.DataFrame``: the graph's source, target and weight
        columns (:attr:`columns`) holding vertex names (:attr:`labels`) where the graph has
        them, and ``edge_id`` (the edge's row in the input).

        Examples
        --------
        >>> import pandas as pd, parmst
        >>> roads = pd.DataFrame({"from": ["Oslo", "Bergen", "Oslo"], "to": ["Bergen", "Voss",
        ...                       "Voss"], "km": [463, 104, 330]})
        >>> g = parmst.Graph.from_table(roads, "from", "to", "km")
        >>> parmst.minimum_spanning_forest(g).to_pandas()
             from    to   km  edge_id
        0  Bergen  Voss  104        1
        1    Oslo  Voss  330        2
        """
        pd = require("pandas", "Forest.to_pandas")
        return pd.DataFrame(self._named_columns())

    def to_table(self):
        """The forest's edges as a ``pyarrow.Table`` with the columns of :meth:`to_pandas`.

        Examples
        --------
        >>> import parmst
        >>> g = parmst.Graph.from_edges(["a", "b", "a"], ["b", "c", "c"], [1, 2, 3])
        >>> parmst.minimum_spanning_forest(g).to_table().column("source").to_pylist()
        ['a', 'b']
        """
        pa = require("pyarrow", "Forest.to_table")
        return pa.table(self._named_columns())

    def to_networkx(self):
        """The forest as a ``networkx.Graph`` with ``weight`` and ``edge_id`` attributes, its
        nodes named by :attr:`labels` where the graph has them (a graph from
        :meth:`parmst.Graph.from_networkx` gives its own nodes back).

        Examples
        --------
        >>> import networkx as nx, parmst
        >>> G = nx.Graph([("a", "b", {"weight": 1}), ("b", "c", {"weight": 2}),
        ...               ("a", "c", {"weight": 3})])
        >>> t = parmst.minimum_spanning_forest(parmst.Graph.from_networkx(G)).to_networkx()
        >>> sorted(t.edges)
        [('a', 'b'), ('b', 'c')]
        """
        nx = require("networkx", "Forest.to_networkx")

        names = names_of(self.labels, self.num_vertices)
        g = nx.Graph()
        g.add_nodes_from(names)
        g.add_edges_from(
            (names[u], names[v], {"weight": w, "edge_id": i})
            for u, v, w, i in zip(self.src.tolist(), self.dst.tolist(), self.weight.tolist(),
                                  self.edge_ids.tolist()))
        return g

    def to_igraph(self):
        """The forest as an ``igraph.Graph`` with ``weight`` and ``edge_id`` edge attributes and,
        where the graph has :attr:`labels`, the ``name`` vertex attribute.

        Examples
        --------
        >>> import parmst
        >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1.0, 2.0, 3.0])
        >>> t = parmst.minimum_spanning_forest(g).to_igraph()
        >>> t.vcount(), t.es["edge_id"]
        (3, [0, 1])
        """
        igraph = require("igraph", "Forest.to_igraph")
        names = {} if self.labels is None else {"name": self.labels.tolist()}
        return igraph.Graph(n=self.num_vertices,
                            edges=np.column_stack([self.src, self.dst]).tolist(),
                            edge_attrs={"weight": self.weight.tolist(),
                                        "edge_id": self.edge_ids.tolist()},
                            vertex_attrs=names)

    def write(self, path: str | os.PathLike, format: str | None = None, **options: Any) -> None:
        """Write the forest's edges as a graph file (format from the extension), under the
        graph's vertex names where it has them (formats that can hold them: see
        :mod:`parmst.io`)."""
        self.to_graph().write(path, format=format, **options)


_UNSET = {f.name: f.default for f in fields(Forest) if f.default is not MISSING}
"""The fields :meth:`Forest.from_edge_ids` leaves at their defaults (it sets the rest)."""
