"""``boruvka-kdtree/cpu``: k-d tree Borůvka with its tree build, core distances and
per-point queries split over Numba threads (:mod:`parmst.solvers.kdtree_boruvka`)."""

from __future__ import annotations

import numpy as np

from parmst.solvers import kdtree_boruvka
from parmst.stats import Stats

__all__ = ["solve"]


def solve(x: np.ndarray, stats: Stats, *, min_samples: int | None, leaf_size: int | None,
          threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimum spanning tree of the float64 points ``x`` on ``threads`` threads (None:
    all; ``leaf_size`` None: by dimension,
    :func:`parmst.solvers.kdtree_boruvka.default_leaf_size`).

    Examples
    --------
    >>> import numpy as np, parmst
    >>> first, second, key = solve(np.array([[0.0], [5.0], [1.0]]), parmst.Stats(),
    ...                            min_samples=None, leaf_size=1, threads=1)
    >>> sorted(zip(first.tolist(), second.tolist()))
    [(0, 2), (1, 2)]
    """
    return kdtree_boruvka.solve(x, stats, min_samples=min_samples, leaf_size=leaf_size,
                                threads=threads)
