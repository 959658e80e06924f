"""A graph split over several GPUs: consecutive ranges of edge ids, each in one GPU's memory.

A graph too big for one GPU is held as parts
(:class:`~parmst._graph_device.DevicePart`): part ``k`` holds the edges
``first_id .. first_id + count - 1`` of the whole graph on one device, with
the whole graph's vertex ids. :class:`SplitGraph` checks such a list once
(on the devices: only a few numbers per part come back) and is what
``ecl/multigpu`` solves without copying the edges to the host
(:meth:`parmst.Graph.from_device_parts`). :func:`to_device_parts` makes the
parts from a host graph (tests, and users whose graph starts on the host);
a generator on the devices makes them without any host copy.

This module sits below :mod:`parmst.graph`, which calls it: the graphs a
:class:`SplitGraph` gives back (the whole graph on the host, one part as a
device graph) are built by the graph class that made it, which
``Graph.from_device_parts`` passes in.

Global ids may pass 2**31 while each part's own ids (positions inside it)
stay small, so a part keeps 32-bit ids and its forest's ids are mapped back
to int64 global ids on its device.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from parmst._edge_input import WEIGHT_DTYPES, index_dtype_for, part_index_dtype
from parmst._graph_device import DeviceEdges, DevicePart
from parmst._names import DEFAULT_COLUMNS
from parmst.errors import GraphValueError

__all__ = ["SplitGraph", "from_device_parts", "part_index_dtype", "to_device_parts"]


@contextmanager
def _on(device: int) -> Iterator[None]:
    """Make CUDA ``device`` current on this thread for the block."""
    from numba import cuda

    with cuda.gpus[device]:
        yield


class SplitGraph:
    """A graph held as :class:`~parmst._graph_device.DevicePart`\\ s on one or more GPUs.

    Build one with :meth:`parmst.Graph.from_device_parts`; solve it with
    ``parmst.minimum_spanning_forest(split, "ecl/multigpu")``. The edges stay
    on the devices; :attr:`src`, :attr:`dst` and :attr:`weight` copy the whole
    edge list to the host on first use (a forest's endpoints, a check).

    Attributes
    ----------
    parts : tuple of DevicePart
        In id order.
    num_vertices, num_edges : int
        Of the whole graph.
    labels : None
        Vertices are their ids (as for any graph built from GPU arrays).
    columns : tuple of str
        Default column names.
    graph_type : type
        The class of the graphs :meth:`to_host` and :meth:`as_device_graph`
        return (:class:`parmst.Graph`).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> split = parmst.Graph.from_device_parts(g.to_device_parts([0, 0]))  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(split, "ecl/multigpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """

    labels = None
    columns = DEFAULT_COLUMNS
    #: The forest's ids come back to the host: no single device holds the whole edge list.
    is_on_device = False
    has_nan = False

    def __init__(self, parts: Sequence[DevicePart], graph_type: type) -> None:
        # Trusted constructor: from_device_parts checks the parts.
        self.parts = tuple(parts)
        self.graph_type = graph_type
        self.num_vertices = self.parts[0].num_vertices
        self.num_edges = self.parts[0].num_edges
        self._host: Any = None

    def __repr__(self) -> str:
        devices = sorted({p.device for p in self.parts})
        return (f"SplitGraph(num_vertices={self.num_vertices}, num_edges={self.num_edges}, "
                f"parts={len(self.parts)}, devices={devices})")

    @property
    def index_dtype(self) -> np.dtype:
        return np.dtype(self.parts[0].edges.src.dtype)

    @property
    def weight_dtype(self) -> np.dtype:
        return np.dtype(self.parts[0].edges.weight.dtype)

    @property
    def devices(self) -> tuple[int, ...]:
        """Each part's device, in part order."""
        return tuple(p.device for p in self.parts)

    def to_host(self) -> Any:
        """The whole graph on the host (every part copied back once, then cached), with the
        index dtype the whole graph's size needs (int64 past 2**30 edges)."""
        if self._host is None:
            columns = []
            for name in ("src", "dst", "weight"):
                pieces = []
                for part in self.parts:
                    with _on(part.device):
                        pieces.append(getattr(part.edges, name).copy_to_host())
                columns.append(np.concatenate(pieces))
            index = index_dtype_for(self.num_vertices, self.num_edges)
            self._host = self.graph_type(columns[0].astype(index, copy=False),
                                         columns[1].astype(index, copy=False), columns[2],
                                         self.num_vertices)
        return self._host

    def as_device_graph(self) -> Any:
        """A graph of one part as a plain device :class:`~parmst.Graph` on its GPU, the part's
        arrays themselves (no copy, its vertex id dtype kept), for the one-GPU solvers.

        Examples
        --------
        >>> import parmst  # doctest: +SKIP
        >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])  # doctest: +SKIP
        >>> parmst.Graph.from_device_parts(g.to_device_parts([0])).as_device_graph()
        ... # doctest: +SKIP
        Graph(num_vertices=3, num_edges=2, weight=float64, index=int32, on the device)
        """
        if len(self.parts) != 1:
            raise GraphValueError(f"this graph is {len(self.parts)} parts on devices "
                                  f"{list(self.devices)}, not one device graph; solve it with "
                                  "ecl/multigpu")
        return self.graph_type._on_device(self.parts[0].edges, self.num_vertices)

    @property
    def src(self) -> np.ndarray:
        return self.to_host().src

    @property
    def dst(self) -> np.ndarray:
        return self.to_host().dst

    @property
    def weight(self) -> np.ndarray:
        return self.to_host().weight


def _check_part(k: int, part: Any, first: DevicePart, expected_first: int) -> None:
    """One part against the first and its predecessors: type, sizes, id range, dtypes."""
    if not isinstance(part, DevicePart):
        raise GraphValueError(f"part {k} is a {type(part).__name__}, not a DevicePart")
    if (part.num_vertices, part.num_edges) != (first.num_vertices, first.num_edges):
        raise GraphValueError(
            f"part {k} says the graph has {part.num_vertices} vertices and {part.num_edges} "
            f"edges, part 0 says {first.num_vertices} and {first.num_edges}")
    if part.first_id != expected_first:
        raise GraphValueError(f"part {k} starts at edge id {part.first_id}, expected "
                              f"{expected_first} (parts hold consecutive id ranges, in order)")
    edges = part.edges
    if not (len(edges.src) == len(edges.dst) == len(edges.weight)):
        raise GraphValueError(f"part {k} has {len(edges.src)} sources, {len(edges.dst)} "
                              f"targets and {len(edges.weight)} weights")
    for name in ("src", "dst", "weight"):
        dtype, want = np.dtype(getattr(edges, name).dtype), np.dtype(getattr(first.edges,
                                                                             name).dtype)
        if dtype != want:
            raise GraphValueError(f"part {k}'s {name} has dtype {dtype}, part 0's {want}")
    if np.dtype(edges.src.dtype) not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise GraphValueError(f"part {k}'s vertex ids have dtype {edges.src.dtype}: "
                              "pass int32 or int64")
    if np.dtype(edges.weight.dtype) not in WEIGHT_DTYPES:
        raise GraphValueError(f"part {k}'s weights have dtype {edges.weight.dtype}: pass "
                              "int32, int64, float32 or float64")


def _check_values(k: int, part: DevicePart) -> None:
    """Vertex ids in range and no NaN weight, counted on the part's device."""
    from parmst._cuda import edge_scan

    if not part.count:
        return
    edges = part.edges
    search_nan = np.dtype(edges.weight.dtype).kind == "f"
    with _on(part.device):
        lo, hi, nans = edge_scan.edge_checks(edges.src, edges.dst,
                                             edges.weight if search_nan else None)
    if lo < 0 or hi >= part.num_vertices:
        bad = lo if lo < 0 else hi
        raise GraphValueError(f"part {k} (device {part.device}, edge ids {part.first_id}.."
                              f"{part.first_id + part.count - 1}) holds vertex id {bad}, "
                              f"outside 0..{part.num_vertices - 1}")
    if nans:
        raise GraphValueError(f"part {k} (device {part.device}) has {nans} NaN weight"
                              f"{'s' if nans != 1 else ''}; a graph split over GPUs takes no "
                              "NaN (leave those edges out when generating it)")


def from_device_parts(parts: Sequence[DevicePart], graph_type: type) -> SplitGraph:
    """Check ``parts`` (consecutive id ranges of one graph, in order) and hold them as one graph,
    whose whole and one-part views are ``graph_type`` graphs (:class:`parmst.Graph`).

    Raises :class:`~parmst.errors.GraphValueError` naming the first bad part:
    a gap or overlap in the ids, sizes that disagree, mixed dtypes, a vertex
    id out of range or a NaN weight (the last two counted on the devices).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])  # doctest: +SKIP
    >>> from_device_parts(to_device_parts(g, [0, 0]), parmst.Graph).num_edges  # doctest: +SKIP
    3
    """
    parts = list(parts) if not isinstance(parts, (str, bytes)) else []
    if not parts:
        raise GraphValueError("a graph split over GPUs needs at least one DevicePart")
    first = parts[0]
    expected = 0
    for k, part in enumerate(parts):
        _check_part(k, part, first, expected)
        expected = part.first_id + part.count
    if expected != first.num_edges:
        raise GraphValueError(f"the parts hold edge ids 0..{expected - 1} but the graph has "
                              f"{first.num_edges} edges")
    for k, part in enumerate(parts):
        _check_values(k, part)
    return SplitGraph(parts, graph_type)


def to_device_parts(graph: Any, devices: Sequence[int]) -> list[DevicePart]:
    """``graph``'s edges (a host :class:`parmst.Graph`, or anything with its ``src``, ``dst``,
    ``weight``, ``num_vertices`` and ``num_edges``) in ``len(devices)`` consecutive, equal id
    ranges, part ``k`` copied to ``devices[k]`` (a device may be named several times: its
    parts are solved one after another there).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])  # doctest: +SKIP
    >>> [(p.device, p.first_id, p.count) for p in to_device_parts(g, [0, 1])]  # doctest: +SKIP
    [(0, 0, 1), (1, 1, 2)]
    """
    from parmst._cuda import runtime

    devices = list(devices) if not isinstance(devices, (str, bytes)) else []
    if not devices or any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0
                          for d in devices):
        raise ValueError(f"devices must be a non-empty list of CUDA device ids, got {devices!r}")
    m = graph.num_edges
    bounds = np.arange(len(devices) + 1, dtype=np.int64) * m // len(devices)
    index = part_index_dtype(graph.num_vertices, int(np.diff(bounds).max()))
    parts = []
    for device, lo, hi in zip(devices, bounds[:-1].tolist(), bounds[1:].tolist()):
        columns = (graph.src[lo:hi].astype(index), graph.dst[lo:hi].astype(index),
                   np.ascontiguousarray(graph.weight[lo:hi]))
        with _on(int(device)):
            edges = DeviceEdges(*(runtime.to_device(a) for a in columns), kind="host")
        parts.append(DevicePart(int(device), edges, lo, graph.num_vertices, m))
    return parts
