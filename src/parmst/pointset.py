"""Point sets: validating the coordinates, and the tree of a point set as a :class:`Forest`.

A point set of ``n`` points stands for the complete graph on them (docs/points.md): the
edge of the pair ``(i, j)``, ``i < j``, has the id
:func:`~parmst.order.scalar.pair_id` (its rank in the lexicographic order of pairs) and
its distance as weight, so the project's ``(weight, edge_id)`` order is ``(distance, i, j)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst._graph_device import is_device_array
from parmst.errors import PointsValueError
from parmst.forest import Forest, exact_sum
from parmst.stats import Stats

__all__ = ["as_points", "check_layout", "check_min_samples", "forest_of_pairs"]


def as_points(points: Any) -> np.ndarray:
    """The points as a C-contiguous float64 array of shape (n, d), checked.

    Accepts any array-like of float or integer coordinates (float32 and integers
    are converted exactly to float64, integers beyond 2**53 rounded). Raises
    :class:`~parmst.errors.PointsValueError` naming the problem: a GPU array, a
    ragged or non-numeric input, not two dimensions, fewer than 2 points, no
    coordinates, a NaN or infinite coordinate (with its row and column).

    Examples
    --------
    >>> as_points([[0, 1], [2, 3]]).dtype
    dtype('float64')
    >>> as_points([[0.0, float("nan")], [1.0, 2.0]])
    Traceback (most recent call last):
    ...
    parmst.errors.PointsValueError: point 0 has a NaN coordinate (column 1)
    """
    if is_device_array(points):
        raise PointsValueError(
            f"the points are a GPU array ({type(points).__name__}); only the GPU point solver "
            "(boruvka-bvh/gpu) takes them: pass solver='auto' or 'boruvka-bvh/gpu', or copy "
            "them to the host first, e.g. with cupy.asnumpy")
    try:
        array = np.asarray(points)
    except (ValueError, TypeError) as exc:
        raise PointsValueError(f"the points are not a rectangular array: {exc}") from None
    check_layout(array.shape, array.dtype)
    x = np.ascontiguousarray(array, dtype=np.float64)
    finite = np.isfinite(x)
    if not finite.all():
        row, column = np.argwhere(~finite)[0]
        what = "NaN" if np.isnan(x[row, column]) else "infinite"
        raise PointsValueError(f"point {row} has a {what} coordinate (column {column})")
    return x


def check_layout(shape: tuple[int, ...], dtype: Any) -> None:
    """Raise :class:`~parmst.errors.PointsValueError` unless ``shape`` and ``dtype`` are those
    of a point set: float or integer, two dimensions, at least 2 points, at least one
    coordinate (host and device arrays alike).

    Examples
    --------
    >>> check_layout((3, 0), np.float64)
    Traceback (most recent call last):
    ...
    parmst.errors.PointsValueError: the points have no coordinates (shape (3, 0))
    """
    if np.dtype(dtype).kind not in "fiu":
        raise PointsValueError(f"the points must be float or integer coordinates, got dtype "
                               f"{np.dtype(dtype)}")
    if len(shape) != 2:
        raise PointsValueError(f"the points must be a 2-D array of shape (n, d), got "
                               f"{len(shape)} dimension(s), shape {tuple(shape)}")
    n, d = shape
    if d == 0:
        raise PointsValueError(f"the points have no coordinates (shape {tuple(shape)})")
    if n < 2:
        raise PointsValueError(f"a spanning tree needs at least 2 points, got {n}")


def check_min_samples(min_samples: Any, n: int) -> int | None:
    """``min_samples`` checked: None, or an integer from 1 to ``n``.

    Examples
    --------
    >>> check_min_samples(5, 10)
    5
    """
    if min_samples is None:
        return None
    if isinstance(min_samples, (bool, np.bool_)) or not isinstance(min_samples,
                                                                   (int, np.integer)):
        raise PointsValueError(f"min_samples must be an integer, got {min_samples!r}")
    if not 1 <= min_samples <= n:
        raise PointsValueError(f"min_samples must be between 1 and the number of points "
                               f"({n}), got {min_samples}")
    return int(min_samples)


def forest_of_pairs(first: np.ndarray, second: np.ndarray, key: np.ndarray, n: int,
                    solver: str = "", stats: Stats | None = None) -> Forest:
    """The :class:`Forest` of a point set's tree from its pairs (input indices,
    ``first < second``, any order) and their squared keys: sorted by edge id (the
    ``(i, j)`` order), weight ``sqrt(key)``.

    Examples
    --------
    >>> f = forest_of_pairs(np.array([1, 0]), np.array([2, 1]), np.array([4.0, 1.0]), 3)
    >>> f.edge_ids.tolist(), f.weight.tolist(), f.total_weight
    ([0, 2], [1.0, 2.0], 3.0)
    """
    # Compiled: loads with the first tree.
    from parmst._pair_order import in_lexicographic_order, lexicographic_fields, sorted_fields

    key = np.asarray(key, dtype=np.float64)
    if in_lexicographic_order(first, second):
        first, second, ids, weight = sorted_fields(first, second, key, n)
    else:
        first, second, ids, weight = lexicographic_fields(
            first.astype(np.int64, copy=False), second.astype(np.int64, copy=False), key, n)
    return Forest(edge_ids=ids, src=first, dst=second, weight=weight,
                  num_vertices=n, num_components=n - len(first), total_weight=exact_sum(weight),
                  solver=solver, stats=stats if stats is not None else Stats())
