"""ECL-MST's filtering threshold, shared by its CPU, GPU and OpenCL solvers.

Fallin et al. section 3.2, fourth bullet: sample 20 edge weights to estimate
the weight of the ``c * |V|``-th lightest edge, process the light edges
first, drop heavy edges whose endpoints are already joined, then process
what is left. The paper finds ``c`` between 2 and 4 works and its code uses
3 (:data:`FILTER_TARGET`, the default of :func:`filter_threshold`), counting
CSR entries, i.e. both directions of each edge. Our solvers count undirected
edges and use their own measured constants, named here once:
``ecl/cpu`` :data:`CPU_FILTER_TARGET` with :data:`CPU_FILTER_DEGREE`
(:mod:`parmst.solvers.cpu.ecl` says why), ``ecl/gpu`` and ``ecl/opencl`` :data:`DEVICE_FILTER_TARGET`.
The paper filters only graphs of average degree ``>= 4`` over CSR entries,
``|E| >= 2 |V|`` for our undirected edge count (:data:`FILTER_DEGREE`).

The keys the threshold is drawn from are those of :mod:`parmst.order.keys`
(packed or two-pass): light edges then all precede heavy ones in the
``(weight, edge_id)`` order, which is what makes processing them first exact.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CPU_FILTER_DEGREE", "CPU_FILTER_TARGET", "DEVICE_FILTER_TARGET", "FILTER_DEGREE",
           "FILTER_SAMPLES", "FILTER_TARGET", "GPU_FILTER_SAMPLES", "GPU_FILTER_TARGET",
           "NO_THRESHOLD", "VERTEX_SELECT_RATIO",
           "filter_threshold", "light_threshold", "sample_plan"]

FILTER_SAMPLES = 20
"""Number of sampled weights (Fallin et al. section 3.2)."""

FILTER_DEGREE = 2
"""Filter only when ``|E| >= FILTER_DEGREE * |V|``: Fallin et al.'s "average degree at least 4"
counts both directions of each undirected edge, so ``2 |E| / |V| >= 4``."""

FILTER_TARGET = 3
"""``c``: the threshold aims at the ``c |V|``-th lightest edge (Fallin et al.'s code)."""

CPU_FILTER_TARGET = 1.0
"""``ecl/cpu``'s ``c``: the ``|V|`` lightest edges are light (:mod:`parmst.solvers.cpu.ecl`
says why)."""

CPU_FILTER_DEGREE = 1.25
"""``ecl/cpu`` filters from ``|E| >= 1.25 |V|`` on (:mod:`parmst.solvers.cpu.ecl` says why)."""

DEVICE_FILTER_TARGET = 1.5
"""The GPU solvers' ``c`` (``ecl/gpu``, ``ecl/opencl``): Fallin et al.'s filter aims at 3|V|
light CSR entries, i.e. 1.5|V| of our undirected edges."""

GPU_FILTER_TARGET = 1.0
"""``ecl/gpu``'s ``c``: the ``|V|`` lightest edges are light. Measured on RMAT and random-degree
graphs (H100 and H200), the solve is fastest with about ``|V|`` light edges on both; the
differences seen between targets came from the 20-sample estimate (docs/gpu.md)."""

GPU_FILTER_SAMPLES = 1024
"""``ecl/gpu``'s sample size for the threshold: picked on the device, so a larger sample costs
no copy, and on RMAT 22 it puts the light set within about 12 % of its target (one standard
deviation), where 20 samples gave 0.1 |V| and 2.1 |V| light edges for a target of 1.5 |V|
(docs/gpu.md)."""

VERTEX_SELECT_RATIO = 8
"""The GPU solvers select by sweeping the vertices in a round with at most this many vertices
per worklist record. Selecting and resetting by records costs two 16-byte reads and four
scattered 8-byte accesses per record (~160 bytes of traffic); the sweep reads 8 bytes per
vertex in order, plus a few scattered reads per set that joins."""

NO_THRESHOLD = np.uint64(np.iinfo(np.uint64).max)
"""Threshold meaning "no filtering": every key is light."""


def filter_threshold(keys: np.ndarray, num_vertices: int, *, seed: int = 0,
                     samples: int = FILTER_SAMPLES, degree: float = FILTER_DEGREE,
                     target: float = FILTER_TARGET) -> np.uint64:
    """Key below which an edge is "light" in ECL-MST's filtering, or :data:`NO_THRESHOLD`.

    Fallin et al. section 3.2: sample ``samples`` edge weights at random and take
    the one at the fraction ``target * |V| / |E|`` of the sorted sample as the
    estimated weight of the ``target * |V|``-th lightest edge. Edges with a key
    strictly below it are light; the rest are heavy. Works on either kind of
    :class:`parmst.order.EdgeKeys` ``keys`` (packed or two-pass): light edges then all
    precede heavy ones in the ``(weight, edge_id)`` order, which is what makes
    processing them first exact.

    Parameters
    ----------
    keys : ndarray of uint64
        One key per edge (self-loops included or not; only the count matters).
    num_vertices : int
    seed : int
        Seed of the sampling generator, so runs are reproducible.
    samples : int
        Sample size.
    degree : float
        No filtering when ``|E| < degree * |V|``.
    target : float
        The light set aims at the ``target * |V|`` lightest edges.

    Returns
    -------
    numpy.uint64

    Examples
    --------
    >>> import numpy as np
    >>> keys = np.arange(1000, dtype=np.uint64)
    >>> int(filter_threshold(keys, num_vertices=100)) > 0
    True
    >>> bool(filter_threshold(keys, num_vertices=600) == NO_THRESHOLD)
    True
    """
    plan = sample_plan(len(keys), num_vertices, seed, samples, degree, target)
    if plan is None:
        return NO_THRESHOLD
    positions, pick = plan
    return np.uint64(np.sort(keys[positions])[pick])


def sample_plan(num_edges: int, num_vertices: int, seed: int, samples: int = FILTER_SAMPLES,
                degree: float = FILTER_DEGREE,
                target: float = FILTER_TARGET) -> tuple[np.ndarray, int] | None:
    """:func:`filter_threshold`'s draw without the keys: the sampled edge positions and the
    rank (0-based) of the threshold among their keys, or ``None`` where it does not filter.

    The GPU solver picks the threshold on the device from this plan, so that no key comes
    back to the host.

    >>> positions, pick = sample_plan(1000, 100, seed=0)
    >>> len(positions), pick
    (20, 6)
    """
    m = int(num_edges)
    if m == 0 or m < degree * num_vertices:
        return None
    rng = np.random.default_rng(seed)
    pick = min(samples - 1, int(samples * target * num_vertices / m))
    return rng.integers(0, m, size=samples), pick


def light_threshold(keys: np.ndarray, num_vertices: int, seed: int,
                    target: float = FILTER_TARGET) -> np.uint64 | None:
    """:func:`filter_threshold` at Fallin et al.'s degree rule, or ``None`` where it does not filter.

    Fallin et al. count degree over CSR entries (both directions), so "average
    degree >= 4" is ``|E| >= 2 |V|`` for our undirected edge count (the
    default ``FILTER_DEGREE``). ``keys`` is anything :func:`filter_threshold`
    reads: a NumPy array, or an object with ``len`` and indexing by an array of
    positions (the GPU solvers pass a device array's sampler).

    >>> light_threshold(np.arange(10, dtype=np.uint64), num_vertices=10, seed=0) is None
    True
    """
    threshold = filter_threshold(keys, num_vertices, seed=seed, degree=FILTER_DEGREE,
                                 target=target)
    return None if threshold == NO_THRESHOLD else threshold
