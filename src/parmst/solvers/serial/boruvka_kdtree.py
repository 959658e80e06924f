"""``boruvka-kdtree/serial``: k-d tree Borůvka on one core (the rounds of
:mod:`parmst.solvers.kdtree_boruvka`, run on one thread)."""

from __future__ import annotations

import numpy as np

from parmst.solvers import kdtree_boruvka
from parmst.stats import Stats

__all__ = ["solve"]


def solve(x: np.ndarray, stats: Stats, *, min_samples: int | None, leaf_size: int | None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimum spanning tree of the float64 points ``x`` on one core (``leaf_size``
    None: by dimension, :func:`parmst.solvers.kdtree_boruvka.default_leaf_size`).

    Examples
    --------
    >>> import numpy as np, parmst
    >>> first, second, key = solve(np.array([[0.0], [5.0], [1.0]]), parmst.Stats(),
    ...                            min_samples=None, leaf_size=1)
    >>> sorted(zip(first.tolist(), second.tolist()))
    [(0, 2), (1, 2)]
    """
    return kdtree_boruvka.solve(x, stats, min_samples=min_samples, leaf_size=leaf_size,
                                threads=1)
