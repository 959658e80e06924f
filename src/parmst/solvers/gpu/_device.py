"""What every GPU solve does around its kernels: size limits, the graph in, the ids out, stats.

The device itself (probe, launches, copies, buffers) is :mod:`parmst._cuda`;
this module is the GPU solvers' use of it for a graph: whether a graph fits
(:func:`graph_limit`, :func:`dense_limit`), its edge list and CSR view on the
device, the forest's ids compacted there and timed back, and the device
fields of the solve's :class:`~parmst.stats.Stats`.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from parmst._cuda import pool
from parmst._cuda.runtime import (
    device_name,
    read,
    simulator_active,
    timed_transfer,
    to_device,
)

if TYPE_CHECKING:
    from parmst.stats import Stats

logger = logging.getLogger(__name__)

#: The simulator runs every GPU thread in Python: graphs above this stay off it.
SIMULATOR_MAX_ITEMS = 4096


def graph_limit(graph: Any) -> bool | str:
    """Whether ``graph`` fits the GPU solvers (and, under the simulator, is small enough)."""
    if graph.num_vertices >= 2**31:
        return (f"{graph.num_vertices} vertices: the GPU solvers store vertex ids in 32 bits "
                "(at most 2**31 - 1 vertices)")
    if simulator_active() and max(graph.num_vertices, graph.num_edges) > SIMULATOR_MAX_ITEMS:
        return (f"{graph.num_vertices} vertices, {graph.num_edges} edges: too slow for the CUDA "
                f"simulator (limit {SIMULATOR_MAX_ITEMS} of each)")
    return True


#: Dense Prim keeps an n-by-n matrix of 8-byte keys: 2**16 vertices is 32 GiB already.
DENSE_MAX_VERTICES = 2**16
#: Dense Prim runs 2n launches of n threads: the simulator takes only tiny graphs.
SIMULATOR_DENSE_MAX_VERTICES = 40


def dense_limit(graph: Any) -> bool | str:
    """Whether ``graph`` fits dense Prim's n-by-n key matrix (and the simulator's patience)."""
    fits = graph_limit(graph)
    if fits is not True:
        return fits
    n = graph.num_vertices
    if n > DENSE_MAX_VERTICES:
        return f"dense key matrix of {n} vertices is too large (limit {DENSE_MAX_VERTICES})"
    if simulator_active() and n > SIMULATOR_DENSE_MAX_VERTICES:
        return (f"{n} vertices: dense Prim is too slow for the CUDA simulator "
                f"(limit {SIMULATOR_DENSE_MAX_VERTICES})")
    return True


#: The point solver's queries run one Python thread per point under the simulator.
SIMULATOR_MAX_POINTS = 400


def points_limit(points: Any) -> bool | str:
    """Whether a point set (shape (n, d)) fits ``boruvka-bvh/gpu`` (and the simulator)."""
    n = points.shape[0]
    if n >= 2**31:
        return f"{n} points: the GPU point solver stores positions in 32 bits (at most 2**31 - 1)"
    if simulator_active() and n > SIMULATOR_MAX_POINTS:
        return (f"{n} points: too slow for the CUDA simulator (limit {SIMULATOR_MAX_POINTS})")
    return True


def device_graph(graph: Any, stats: Stats) -> Any:
    """The graph's edge list on the device (:meth:`parmst.Graph.to_device`): a device graph's
    own arrays, or a host graph's cached copy, made now and timed as ``transfer_time``."""
    if graph.is_on_device or "device" in graph._cache:
        return graph.to_device()  # nothing moves: no wait, no transfer time
    with timed_transfer(stats, "transfer_time"):
        return graph.to_device()


def device_csr(graph: Any, stats: Stats) -> tuple[Any, Any, Any]:
    """``indptr``, ``indices`` and ``edge_ids`` of the graph's CSR view on the device, cached
    on the graph. The CSR is built on the host (a device graph's edge list comes back once
    for it): only the vertex-centric initializations need it."""
    arrays = graph._cache.get("device-csr")
    if arrays is None:
        csr = graph.csr()
        with timed_transfer(stats, "transfer_time"):
            arrays = tuple(to_device(a) for a in (csr.indptr, csr.indices, csr.edge_ids))
        graph._cache["device-csr"] = arrays
    return arrays


def result_ids(graph: Any, keys: Any, in_forest: Any, stats: Stats,
               size: int | None = None) -> Any:
    """The forest's ascending edge ids from the per-slot flags, compacted on the device.

    They stay on the device for a device graph (:attr:`parmst.Forest.edge_ids_device`) and
    come back to the host for a host graph, timed as ``copy_back_time``. Where the solver
    counted them (``size``), nothing waits but the copy back to the host: a device graph's
    ids are queued into an array lent by the device pool (one item per vertex, so a call
    repeated on a graph of the same size allocates nothing; the ids are its first ``size``),
    and its ``copy_back_time`` is the host time of queueing them. Otherwise the ids are
    counted first (one read), with the device drained at both ends of the timing.
    """
    if size is None:
        with timed_transfer(stats, "copy_back_time"):
            ids = keys.forest_ids(in_forest)
            return ids if graph.is_on_device else read(ids)
    start = time.perf_counter()
    if graph.is_on_device:
        ids = keys.forest_ids(in_forest, size, pool.lend(graph.num_vertices, np.int64))
    else:
        with pool.lease() as lease:
            ids = read(keys.forest_ids(in_forest, size,
                                       lease.take(graph.num_vertices, np.int64)))
    stats.extra["copy_back_time"] = stats.extra.get("copy_back_time", 0.0) \
        + time.perf_counter() - start
    return ids


def record_device(stats: Stats, device_bytes: int) -> None:
    """Fill in where the solve ran and how much device memory it held."""
    stats.device = device_name()
    stats.threads = None
    stats.extra["device_memory_bytes"] = int(device_bytes)
    stats.extra["end_to_end_time"] = (stats.total_time
                                      + stats.extra.get("copy_back_time", 0.0))
    logger.debug("%s held %.1f MiB of device memory", stats.device, device_bytes / 2**20)
