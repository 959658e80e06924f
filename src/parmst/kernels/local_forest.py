"""The local-forest filter: keep each share's local forest and the edges no share holds whole.

Cycle property: an edge that is the heaviest on some cycle is in no minimum
spanning forest. The minimum spanning forest of any subset of the edges
leaves out only edges that are the heaviest on a cycle of that subset, so it
keeps every edge of the global forest that lies in the subset. Split the
edges into shares, solve each share's local forest independently, and the
local forests together with the edges no share held (the crossing edges of
a vertex split) contain the whole global forest, usually in far fewer
edges; a last solve on those survivors gives the exact answer. Sousa's
partitioned Prim (section 4.3.2), ``ecl/multigpu`` and filter-first
distributed Borůvka all build on it.

Ties break exactly as in the whole graph as long as every share keeps its
edges in global id order: a share's local ids then order ties as the
global ids do, and :meth:`Share.global_ids` maps them back. A share's graph
keeps the whole graph's vertex ids.

The steps here are the same for every backend; only the per-share solve
differs, and it is the caller's:

* :func:`split_edges` (contiguous ranges of edge ids, no copy) or
  :func:`split_vertices` (the edges inside each part of a vertex partition,
  the crossing edges apart) make the shares;
* :func:`local_forest_filter` solves each share with the caller's
  ``solve(graph) -> local edge ids`` and returns the surviving global ids.

Users: on the CPU the per-share solve is a Prim instance
(:func:`parmst.kernels.prim_instances.prim_instance_forest`; the partitioned
Prims grow all parts at once on the whole graph with
:func:`~parmst.kernels.prim_instances.local_forests`, without copying the
shares). ``ecl/multigpu`` makes a host graph's shares here (a graph already
split over the GPUs comes as its parts), but solves them with
``ecl/gpu`` on several devices at once and gathers the survivors on the
device, so it calls the split functions and not :func:`local_forest_filter`
(which gathers on the host). An MPI rank holds one share: its local edges
(both ends owned), built as a :class:`Share` with local vertex ids and the
edges' positions as ``ids``; it passes its cut edges as ``crossing`` and a
registered solver's kernel as ``solve``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from parmst.graph import Graph
from parmst.partition import check_part, crossing_mask

__all__ = ["Share", "local_forest_filter", "split_edges", "split_vertices"]


class Share(NamedTuple):
    """Some of a graph's edges, in global id order, and where their ids start or lie.

    ``ids`` is the first global id of a contiguous range (an int), or the
    global id of each edge of ``graph`` (an ascending array).
    """

    graph: Graph
    ids: np.ndarray | int

    def global_ids(self, local: np.ndarray) -> np.ndarray:
        """Global ids of the share's edges at positions ``local``."""
        local = np.asarray(local, dtype=np.int64)
        return local + self.ids if isinstance(self.ids, int) else self.ids[local]


def split_edges(graph: Graph, parts: int) -> list[Share]:
    """Contiguous, equal ranges of edge ids: views of the edge arrays, nothing copied.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> [(s.ids, s.graph.num_edges) for s in split_edges(g, 2)]
    [(0, 2), (2, 2)]
    """
    bounds = np.arange(parts + 1, dtype=np.int64) * graph.num_edges // parts
    return [Share(Graph(graph.src[lo:hi], graph.dst[lo:hi], graph.weight[lo:hi],
                        graph.num_vertices), int(lo))
            for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist())]


def split_vertices(graph: Graph, part: np.ndarray) -> tuple[list[Share], np.ndarray]:
    """Each vertex part's own edges as a share, and the ids of the edges that cross parts.

    One stable sort of the edges by part (crossing edges last) groups them,
    each group in id order.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> shares, crossing = split_vertices(g, np.array([0, 0, 1, 1]))
    >>> [s.ids.tolist() for s in shares], crossing.tolist()
    ([[0], [2]], [1, 3])
    """
    part, parts = check_part(graph, part)
    crossing = crossing_mask(graph, part)
    label = np.where(crossing, parts, part[graph.src]).astype(np.int16 if parts < 2**15
                                                              else np.int64)
    order = np.argsort(label, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(label, minlength=parts + 1))])
    shares = []
    for p in range(parts):
        ids = order[bounds[p]:bounds[p + 1]]
        shares.append(Share(Graph(graph.src[ids], graph.dst[ids], graph.weight[ids],
                                  graph.num_vertices), ids))
    return shares, order[bounds[parts]:]


def local_forest_filter(shares: Sequence[Share], solve: Callable[[Graph], np.ndarray],
                        crossing: np.ndarray | None = None) -> np.ndarray:
    """Ascending global ids of the edges that can be in the minimum spanning forest.

    Parameters
    ----------
    shares : sequence of Share
        Disjoint subsets of the edges, each in global id order.
    solve : callable
        ``solve(graph)`` gives the ids (positions in ``graph``) of its minimum
        spanning forest; any exact solver's kernel.
    crossing : ndarray of int, optional
        Global ids of edges no share holds; all kept.

    Returns
    -------
    ndarray of int64
        Every share's local forest, as global ids, and ``crossing``: a set
        that holds the whole minimum spanning forest (cycle property).

    Examples
    --------
    >>> import parmst
    >>> from parmst.kernels.prim_instances import prim_instance_forest
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2, 3], [1, 2, 2, 3, 0], [1, 2, 3, 5, 4])
    >>> shares, crossing = split_vertices(g, np.array([0, 0, 0, 1]))
    >>> local_forest_filter(shares, prim_instance_forest, crossing).tolist()
    [0, 1, 3, 4]
    """
    kept = [share.global_ids(solve(share.graph)) for share in shares]
    if crossing is not None:
        kept.append(np.asarray(crossing, dtype=np.int64))
    return np.sort(np.concatenate(kept)) if kept else np.empty(0, dtype=np.int64)
