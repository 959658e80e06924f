"""What the partitioned Prims (prim-union/cpu, prim-bmv/cpu) share: options, boundary, stats.

Seed 003 section 4.3.2: the algorithm receives the graph and an array
mapping each vertex to its part; each thread grows the local forest of one
part. Partitioning is preparation, like building the CSR view, so it is
timed as initialization; its cut is reported in ``stats.extra``.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.prim_instances import LocalForests, local_forests
from parmst.order import edge_keys
from parmst.partition import cut, partition
from parmst.stats import Stats


@numba.njit(parallel=True, cache=True)
def _mark_boundary(indptr, indices, part, boundary):
    """Seed 003 section 4.3.2: a boundary vertex has an edge to a vertex of another part."""
    for v in numba.prange(len(part)):
        mine = part[v]
        found = False
        for k in range(indptr[v], indptr[v + 1]):
            if part[indices[k]] != mine:
                found = True
                break
        boundary[v] = found


def partitioned_start(graph, stats: Stats, threads: int, parts: int | None,
                      method: str | np.ndarray) -> tuple[np.ndarray, np.ndarray, LocalForests,
                                                         np.ndarray]:
    """Partition (init), edge keys, the local forests and the boundary flags.

    ``method`` is a :func:`parmst.partition` method, with ``parts`` parts
    (default: one per thread, as in the thesis), or a part id per vertex
    (``parts`` must then be omitted). Returns ``(part, keys, forests, boundary)``.
    """
    with stats.init():
        csr = graph.csr()
        if isinstance(method, str):
            part = partition(graph, threads if parts is None else parts, method=method)
        elif parts is not None:
            raise TypeError("give either parts= with a partition method, or a partition array")
        else:
            part = np.asarray(method)
        report = cut(graph, part)
    stats.extra["cut"] = report.as_dict()
    stats.extra["parts"] = report.parts
    stats.extra["partition"] = method if isinstance(method, str) else "given"
    with stats.compute():
        with stats.phase("keys"):
            keys = edge_keys(graph.weight).keys
        with stats.phase("local trees"):
            forests = local_forests(graph, part, keys)
        with stats.phase("boundary"):
            boundary = np.empty(graph.num_vertices, dtype=np.bool_)
            _mark_boundary(csr.indptr, csr.indices, part, boundary)
    return part, keys, forests, boundary


@numba.njit(cache=True, inline="always")
def other_end(e, v, src, dst):
    """The endpoint of edge ``e`` that is not ``v``."""
    return src[e] + dst[e] - v
