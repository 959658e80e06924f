"""Pugliese's GPU Prim: O(V^2) Prim on a dense key matrix, block min-reduction per step.

Each step runs Pugliese's two kernels: ``local_closest_node`` (every block
reduces its slice of the distance vector to the closest vertex outside the
tree, in shared memory with sequential addressing) and, after the host
reduces the per-block results (section 3.1: "we can perform the search of the
global closest node host side"), ``update_distances`` from the new tree
vertex's matrix row. The matrix holds packed ``(weight, id)`` keys (the
lightest of parallel edges), so every comparison is one unsigned compare and
ties follow the edge id. When no edge reaches out of the tree, the smallest
vertex outside starts the next tree: a forest, not only a tree.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst._cuda import arrays, pool, runtime
from parmst.kernels.dense import build_key_matrix
from parmst.solvers.gpu import _device
from parmst.solvers.gpu._kernels import NO_EDGE
from parmst.solvers.gpu._keys import graph_keys
from parmst.stats import Stats

# Threads per block: shared-memory arrays need a compile-time size. Pugliese
# uses 1024; the simulator runs each thread in Python, so it gets one warp.
BLOCK = runtime.WARP_SIZE if runtime.simulator_active() else 1024
_NONE = np.int64(-1)


@cuda.jit(cache=True)
def _local_closest(dist, in_tree, block_key, block_node):
    """Pugliese ``local_closest_node``: per-block (key, vertex) minimum of vertices outside.

    Sequential-addressing reduction in shared memory; ties go to the smaller
    vertex, and vertices in the tree never win (vertex -1 marks "none").
    """
    keys = cuda.shared.array(BLOCK, dtype=np.uint64)
    nodes = cuda.shared.array(BLOCK, dtype=np.int64)
    tid = cuda.threadIdx.x
    v = cuda.grid(1)
    keys[tid] = NO_EDGE
    nodes[tid] = _NONE
    if v < dist.shape[0] and not in_tree[v]:
        keys[tid] = dist[v]
        nodes[tid] = v
    cuda.syncthreads()
    step = BLOCK // 2
    while step > 0:
        if tid < step:
            other = nodes[tid + step]
            if other != _NONE and (nodes[tid] == _NONE or keys[tid + step] < keys[tid]):
                keys[tid] = keys[tid + step]
                nodes[tid] = other
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        block_key[cuda.blockIdx.x] = keys[0]
        block_node[cuda.blockIdx.x] = nodes[0]


@cuda.jit(cache=True)
def _update_distances(matrix, dist, in_tree, u):
    """Pugliese ``update_distances``: lower ``dist`` from row ``u``; ``u`` joins the tree."""
    v = cuda.grid(1)
    if v < dist.shape[0]:
        if v == u:
            in_tree[v] = 1
        elif not in_tree[v] and matrix[u, v] < dist[v]:
            dist[v] = matrix[u, v]


def _host_closest(block_key: np.ndarray, block_node: np.ndarray) -> tuple[int, np.uint64]:
    """Pugliese section 3.1: the host's final reduction over the blocks' results."""
    best_node, best_key = -1, NO_EDGE
    for key, node in zip(block_key, block_node):
        if node >= 0 and (best_node < 0 or key < best_key):
            best_node, best_key = int(node), key
    return best_node, best_key


def solve(graph, stats: Stats, *, keys: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by Pugliese's GPU Prim.

    Parameters
    ----------
    graph : Graph
    stats : Stats
    keys : {"auto", "packed", "rank"}
        Key method of :func:`parmst.solvers.gpu._keys.device_keys`: packed
        ``(weight, edge_id)`` keys where they fit (``"auto"``), or the edges'
        ranks in that order from a sort on the device (``"rank"``, the route
        for weights that do not pack).

    Examples
    --------
    >>> import parmst  # doctest: +SKIP
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])  # doctest: +SKIP
    >>> parmst.minimum_spanning_forest(g, "prim-dense/gpu").edge_ids.tolist()  # doctest: +SKIP
    [1, 2, 3]
    """
    n = graph.num_vertices
    blocks = runtime.blocks_for(n, BLOCK)
    with stats.init():
        keys = graph_keys(graph, keys, stats)
        with stats.phase("build-matrix"):
            # Dense graphs are small (at most 2**16 vertices): the matrix is built on the host.
            matrix = build_key_matrix(graph.src, graph.dst, keys.keys.copy_to_host(), n)
        pool.ensure_memory("prim-dense/gpu", matrix.nbytes + 9 * n)
        with runtime.timed_transfer(stats, "transfer_time"):
            d_matrix = runtime.to_device(matrix)
            dist = arrays.fill(n, NO_EDGE, np.uint64)
            in_tree = arrays.fill(n, 0, np.uint8)
            block_key = cuda.device_array(blocks, dtype=np.uint64)
            block_node = cuda.device_array(blocks, dtype=np.int64)
    slots, trees = [], 0
    with stats.compute():
        for _ in range(n):
            _local_closest[blocks, BLOCK](dist, in_tree, block_key, block_node)
            u, key = _host_closest(block_key.copy_to_host(), block_node.copy_to_host())
            if key == NO_EDGE:
                trees += 1
            else:
                slots.append(int(key & keys.slot_mask))
            _update_distances[blocks, BLOCK](d_matrix, dist, in_tree, u)
        runtime.synchronize()
    stats.rounds = trees
    stats.extra.update(matrix_bytes=matrix.nbytes, key_method=keys.mode)
    _device.record_device(stats, matrix.nbytes + 9 * n)
    edge_ids = keys.edge_ids(np.array(slots, dtype=np.int64))
    return runtime.to_device(np.sort(edge_ids)) if graph.is_on_device else edge_ids
