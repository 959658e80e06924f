"""The public entry point of point sets: validate -> select -> run -> Forest."""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst import registry
from parmst._graph_device import is_device_array
from parmst.errors import PointsValueError, SolverUnavailable
from parmst.forest import Forest
from parmst.pointset import as_points, check_min_samples, forest_of_pairs

__all__ = ["euclidean_mst"]


def euclidean_mst(points: Any, *, solver: str = "auto", min_samples: int | None = None,
                  leaf_size: int | None = None, threads: int | None = None,
                  device: Any = None, **options: Any) -> Forest:
    """The exact minimum spanning tree of a point set under the Euclidean distance.

    The tree of the complete graph of the points, under the total order
    ``(distance, i, j)``: unique, so every solver returns the same pairs. Distances are
    compared squared, in float64, summed in coordinate order (docs/points.md, "The
    order").

    Parameters
    ----------
    points : array_like, shape (n, d)
        ``n >= 2`` points of ``d >= 1`` float or integer coordinates (float32 and
        integers are converted to float64): host memory, or a CuPy, PyTorch or other
        ``__cuda_array_interface__`` / DLPack GPU array, which stays on its device and
        goes to ``boruvka-bvh/gpu``. NaN and infinite coordinates are refused.
    solver : str
        ``"auto"`` (docs/points.md, "Solvers"), ``"prim-dense/points"``,
        ``"boruvka-kdtree/serial"``, ``"boruvka-kdtree/cpu"`` or ``"boruvka-bvh/gpu"``.
    min_samples : int, optional
        Build HDBSCAN's tree instead: the mutual-reachability distance
        ``max(core(a), core(b), d(a, b))``, where ``core(p)`` is the distance from
        ``p`` to its ``min_samples``-th nearest point, ``p`` itself counted first (so
        ``min_samples=1`` gives the Euclidean tree), as scikit-learn's
        ``HDBSCAN(min_samples=...)`` and ``hdbscan``'s ``min_samples`` count.
    leaf_size : int, optional
        Points per k-d tree leaf (k-d tree solvers; by default 16 up to three
        dimensions and 32 above on the host, 32 on the GPU).
    threads : int, optional
        Numba threads of a multi-core solver (all cores when not given).
    device : int, optional
        CUDA device number for ``boruvka-bvh/gpu`` ("auto" then picks it; default: the
        current device, or the GPU array's).
    **options
        Further options of the solver (``parmst info`` lists them), e.g.
        ``boruvka-bvh/gpu``'s ``neighbours`` (nearest points listed per point before
        its rounds; 0 for none) and ``pair_sort`` (docs/points.md); a solver that does
        not take one raises :class:`~parmst.errors.UnknownOptionError`.

    Returns
    -------
    Forest
        ``num_vertices = n`` and ``n - 1`` edges: edge ``(i, j)`` with ``i < j`` as
        ``src``, ``dst``, its id ``i*n - i*(i+1)/2 + (j - i - 1)``, its distance as
        ``weight`` (float64), sorted by id.

    Examples
    --------
    >>> import parmst
    >>> tree = parmst.euclidean_mst([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    >>> tree.src.tolist(), tree.dst.tolist(), tree.weight.tolist()
    ([0, 1], [2, 2], [1.0, 4.242640687119285])
    """
    solver, x, placed = _placed(points, solver, device)
    options = {**options, **placed}
    options["min_samples"] = check_min_samples(min_samples, len(x))
    if leaf_size is not None:
        if (isinstance(leaf_size, (bool, np.bool_)) or not isinstance(leaf_size, (int, np.integer))
                or leaf_size < 1):
            raise PointsValueError(f"leaf_size must be a positive integer, got {leaf_size!r}")
        options["leaf_size"] = int(leaf_size)
    if threads is not None:
        options["threads"] = threads
    chosen, (first, second, key), stats = registry.run_points(solver, x, **options)
    return forest_of_pairs(first, second, key, len(x), solver=chosen.name, stats=stats)


GPU_POINT_SOLVER = "boruvka-bvh/gpu"
"""The point solver of points on a GPU, or of a call that names a ``device``."""


def _placed(points: Any, solver: str, device: Any) -> tuple[str, Any, dict[str, Any]]:
    """The solver, the checked points and the device option: a GPU array stays on its
    device (checked there) and goes to the GPU point solver, as does a call naming
    ``device``; anything else is checked on the host."""
    if device is not None and (isinstance(device, bool) or not isinstance(device, int)
                               or device < 0):
        raise PointsValueError(f"device must be a CUDA device number (0, 1, ...), got "
                               f"{device!r}")
    on_device = is_device_array(points)
    if (on_device or device is not None) and solver == "auto":
        solver = GPU_POINT_SOLVER
    if on_device and solver != GPU_POINT_SOLVER:
        raise PointsValueError(f"the points are a GPU array ({type(points).__name__}) and "
                               f"solver {solver!r} runs on the host: pass solver='auto' or "
                               f"{GPU_POINT_SOLVER!r}, or copy them to the host first, e.g. "
                               "with cupy.asnumpy")
    options: dict[str, Any] = {} if device is None else {"device": device}
    if not on_device:
        return solver, as_points(points), options
    ok = registry.get(GPU_POINT_SOLVER).can_run()
    if ok is not True:
        raise SolverUnavailable(f"solver {GPU_POINT_SOLVER!r} cannot run here: {ok}")
    from parmst.pointset_device import as_device_points

    return solver, as_device_points(points), options
