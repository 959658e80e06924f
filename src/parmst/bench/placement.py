"""Where a timed solve takes its input from: host arrays, or arrays already on the GPU.

``"host"``: the graph as loaded, NumPy arrays. ``"device"``: the same edges
copied once to the GPU (outside every timing) and a :class:`~parmst.graph.Graph`
built from those device arrays, as a user holding CuPy or PyTorch arrays
builds it; a GPU solver then reads its input and leaves its result on the
device, and every other solver copies the edges back as it would for that
user. Device placement needs numba-cuda and a CUDA device (or numba-cuda's
simulator); without them :func:`place` raises and the harness skips the graph
with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parmst.graph import Graph

__all__ = ["PLACEMENTS", "Placed", "place"]

PLACEMENTS = ("host", "device")


def _no_wait() -> None:
    """Host work is done when the call returns."""


@dataclass(frozen=True)
class Placed:
    """A graph where a run takes it from.

    Attributes
    ----------
    graph : Graph
        What a solver's solve function solves: the host graph, or the graph
        built from the device arrays.
    arrays : tuple
        ``(src, dst, weight)`` that an end-to-end call builds its graph from.
    num_vertices : int
    on_device : bool
    sync : callable
        Waits for the device's queued work, so a clock read after it counts it.
    """

    graph: Graph
    arrays: tuple[Any, Any, Any]
    num_vertices: int
    on_device: bool = False
    sync: Callable[[], None] = _no_wait


def place(graph: Graph, placement: str) -> Placed:
    """``graph``'s input at ``placement`` (one of :data:`PLACEMENTS`).

    Examples
    --------
    >>> g = Graph.from_edges([0, 1], [1, 2], [1.5, 2.5])
    >>> placed = place(g, "host")
    >>> placed.graph is g, placed.on_device
    (True, False)
    """
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}, got {placement!r}")
    if placement == "host":
        return Placed(graph, (graph.src, graph.dst, graph.weight), graph.num_vertices)
    from numba import cuda

    edges = graph.to_device()
    arrays = (edges.src, edges.dst, edges.weight)
    graph.clear_cache()  # the host graph keeps no device copy; `arrays` hold the only one
    on_device = Graph.from_edges(*arrays, num_vertices=graph.num_vertices)
    cuda.synchronize()
    return Placed(on_device, arrays, graph.num_vertices, True, cuda.synchronize)
