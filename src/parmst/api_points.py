"""The public entry point of point sets: validate -> select -> run -> Forest."""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst import registry
from parmst.errors import PointsValueError
from parmst.forest import Forest
from parmst.pointset import as_points, check_min_samples, forest_of_pairs

__all__ = ["euclidean_mst"]


def euclidean_mst(points: Any, *, solver: str = "auto", min_samples: int | None = None,
                  leaf_size: int | None = None, threads: int | None = None,
                  device: Any = None) -> Forest:
    """The exact minimum spanning tree of a point set under the Euclidean distance.

    The tree of the complete graph of the points, under the total order
    ``(distance, i, j)``: unique, so every solver returns the same pairs. Distances are
    compared squared, in float64, summed in coordinate order (docs/points.md, "The
    order").

    Parameters
    ----------
    points : array_like, shape (n, d)
        ``n >= 2`` points of ``d >= 1`` float or integer coordinates (float32 and
        integers are converted to float64), host memory. NaN and infinite
        coordinates are refused.
    solver : str
        ``"auto"`` (docs/points.md, "Solvers"), ``"prim-dense/points"``,
        ``"boruvka-kdtree/serial"`` or ``"boruvka-kdtree/cpu"``.
    min_samples : int, optional
        Build HDBSCAN's tree instead: the mutual-reachability distance
        ``max(core(a), core(b), d(a, b))``, where ``core(p)`` is the distance from
        ``p`` to its ``min_samples``-th nearest point, ``p`` itself counted first (so
        ``min_samples=1`` gives the Euclidean tree), as scikit-learn's
        ``HDBSCAN(min_samples=...)`` and ``hdbscan``'s ``min_samples`` count.
    leaf_size : int, optional
        Points per k-d tree leaf (k-d tree solvers; their default 32).
    threads : int, optional
        Numba threads of a multi-core solver (all cores when not given).
    device : optional
        Reserved for the GPU point solver to come; must be None.

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
    if device is not None:
        raise PointsValueError(f"device={device!r}: no GPU point solver is available yet "
                               "(boruvka-bvh/gpu is planned); leave device unset")
    x = as_points(points)
    options: dict[str, Any] = {"min_samples": check_min_samples(min_samples, len(x))}
    if leaf_size is not None:
        if (isinstance(leaf_size, (bool, np.bool_)) or not isinstance(leaf_size, (int, np.integer))
                or leaf_size < 1):
            raise PointsValueError(f"leaf_size must be a positive integer, got {leaf_size!r}")
        options["leaf_size"] = int(leaf_size)
    if threads is not None:
        options["threads"] = threads
    chosen, (first, second, key), stats = registry.run_points(solver, x, **options)
    return forest_of_pairs(first, second, key, len(x), solver=chosen.name, stats=stats)
