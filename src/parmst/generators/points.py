"""Point sets for the Euclidean and mutual-reachability trees, from spec strings.

A spec names a family and its parameters, as for the graph families::

    "uniform-points:n=1000000,d=2,seed=1"
    "gaussian-clusters:n=100000,d=3,clusters=20,spread=0.01"
    "manifold-points:n=100000,d=10,intrinsic=2"
    "lattice-points:n=4096,d=2"
    "duplicate-points:n=10000,d=2,unique=1000"

Every family takes ``n`` (points), ``d`` (dimension), ``seed`` (of
``numpy.random.default_rng``: same seed, same array) and ``dtype``
(``float64`` or ``float32``), and returns a C-contiguous ``(n, d)`` array.

========================  ==========================================================
family                    what
========================  ==========================================================
``uniform-points``        uniform in the unit cube (the issue's mlpack and SciPy anchors)
``gaussian-clusters``     ``clusters`` Gaussian blobs of standard deviation ``spread``
                          around uniform centres (clustered, like cosmology sets)
``manifold-points``       an ``intrinsic``-dimensional smooth surface in ``d`` dimensions
``lattice-points``        the first ``n`` points of the integer grid (many equal distances)
``duplicate-points``      ``unique`` uniform points, each repeated (zero distances)
``cosmology-points``      power-law sized Gaussian clusters over a 10% uniform background
========================  ==========================================================

Examples
--------
>>> points = generate_points("gaussian-clusters:n=500,d=3,clusters=4,seed=2")
>>> points.shape, points.dtype.name
((500, 3), 'float64')
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._params import check_int, parse_spec

__all__ = ["POINT_FAMILIES", "describe_points", "generate_points"]

_DTYPES = ("float64", "float32")


def _start(n: int, d: int, seed: int, dtype: str) -> tuple[int, int, np.random.Generator]:
    """The shared parameters checked, and the seeded generator."""
    if dtype not in _DTYPES:
        raise GraphValueError(f"dtype must be one of {', '.join(_DTYPES)}, got {dtype!r}")
    rng = np.random.default_rng(check_int("seed", seed))
    return check_int("n", n), check_int("d", d, minimum=1), rng


def _finish(points: np.ndarray, dtype: str) -> np.ndarray:
    return np.ascontiguousarray(points, dtype=dtype)


def uniform_points(*, n: int = 1000, d: int = 2, seed: int = 0,
                   dtype: str = "float64") -> np.ndarray:
    """``n`` points uniform in the unit cube ``[0, 1)^d``.

    Examples
    --------
    >>> uniform_points(n=3, d=2, seed=1).shape
    (3, 2)
    """
    n, d, rng = _start(n, d, seed, dtype)
    return _finish(rng.random((n, d)), dtype)


def gaussian_clusters(*, n: int = 1000, d: int = 2, clusters: int = 10, spread: float = 0.01,
                      seed: int = 0, dtype: str = "float64") -> np.ndarray:
    """``n`` points in ``clusters`` Gaussian blobs: each point is a centre drawn uniformly
    from the unit cube plus normal noise of standard deviation ``spread`` per axis; points
    pick their blob uniformly at random.

    Examples
    --------
    >>> gaussian_clusters(n=100, d=3, clusters=2, seed=1).shape
    (100, 3)
    """
    n, d, rng = _start(n, d, seed, dtype)
    clusters = check_int("clusters", clusters, minimum=1)
    if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not spread >= 0:
        raise GraphValueError(f"spread must be a number >= 0, got {spread!r}")
    centres = rng.random((clusters, d))
    return _finish(centres[rng.integers(0, clusters, n)] + spread * rng.standard_normal((n, d)),
                   dtype)


def manifold_points(*, n: int = 1000, d: int = 10, intrinsic: int = 2, seed: int = 0,
                    dtype: str = "float64") -> np.ndarray:
    """``n`` points on a smooth ``intrinsic``-dimensional surface in ``d`` dimensions.

    Latent coordinates uniform in ``[0, 1)^intrinsic`` go through a random
    linear map to ``d`` axes and a sine on each (``sin(latent @ A)``, ``A``
    standard normal), so nearby points stay nearby while the set fills no
    ``d``-dimensional volume: the case where k-d trees stay fast in high ``d``.

    Examples
    --------
    >>> manifold_points(n=50, d=10, intrinsic=2, seed=1).shape
    (50, 10)
    """
    n, d, rng = _start(n, d, seed, dtype)
    intrinsic = check_int("intrinsic", intrinsic, minimum=1)
    if intrinsic > d:
        raise GraphValueError(f"intrinsic must be at most d = {d}, got {intrinsic}")
    mixing = rng.standard_normal((intrinsic, d))
    return _finish(np.sin(rng.random((n, intrinsic)) @ mixing), dtype)


def lattice_points(*, n: int = 1024, d: int = 2, seed: int = 0,
                   dtype: str = "float64") -> np.ndarray:
    """The first ``n`` points of the integer grid with ``ceil(n ** (1/d))`` points a side
    (row-major), in an order shuffled by ``seed``: most pairs of neighbours are at
    distance exactly 1, so the tree is decided by the tie order.

    Examples
    --------
    >>> lattice_points(n=6, d=2, seed=0).tolist() == sorted(lattice_points(n=6, d=2).tolist())
    False
    >>> sorted(lattice_points(n=4, d=2).tolist())
    [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    """
    n, d, rng = _start(n, d, seed, dtype)
    side = max(1, round(n ** (1 / d)))
    while side ** d < n:  # the floating-point root fell short
        side += 1
    grid = np.stack(np.unravel_index(np.arange(n), (side,) * d), axis=1)
    return _finish(grid[rng.permutation(n)], dtype)


def duplicate_points(*, n: int = 1000, d: int = 2, unique: int = 100, seed: int = 0,
                     dtype: str = "float64") -> np.ndarray:
    """``n`` points with only ``unique`` distinct positions (uniform in the unit cube), each
    used at least once when ``n >= unique``, the rest repeats drawn at random, all shuffled.

    Examples
    --------
    >>> points = duplicate_points(n=100, d=2, unique=7, seed=1)
    >>> len(np.unique(points, axis=0))
    7
    """
    n, d, rng = _start(n, d, seed, dtype)
    unique = check_int("unique", unique, minimum=1)
    positions = rng.random((unique, d))
    which = np.concatenate([np.arange(min(n, unique)), rng.integers(0, unique, n - min(n, unique))])
    return _finish(positions[rng.permutation(which)], dtype)


def cosmology_points(*, n: int = 1000, d: int = 3, seed: int = 0,
                     dtype: str = "float64") -> np.ndarray:
    """``n`` points clustered like a cosmology snapshot: 90% in ``n // 2000`` Gaussian
    clusters (at least one) whose sizes follow a power law (Pareto, shape 1.5) and whose
    widths are uniform in ``[0.001, 0.02)``, 10% uniform in the unit cube, shuffled. The
    37 M-point set of the GPU bar (Prokopenko, Sao and Lebrun-Grandié, ICPP 2022, measured
    a cosmology set of that size).

    Examples
    --------
    >>> cosmology_points(n=5000, seed=1).shape
    (5000, 3)
    """
    n, d, rng = _start(n, d, seed, dtype)
    background = n // 10
    clusters = max(1, n // 2000)
    sizes = rng.pareto(1.5, clusters) + 1.0
    counts = np.floor(sizes / sizes.sum() * (n - background)).astype(np.int64)
    counts[0] += n - background - counts.sum()
    centres = rng.random((clusters, d))
    widths = rng.uniform(0.001, 0.02, clusters)
    member = np.repeat(np.arange(clusters), counts)
    x = centres[member] + rng.standard_normal((len(member), d)) * widths[member, None]
    return _finish(np.concatenate([x, rng.random((background, d))])[rng.permutation(n)], dtype)


POINT_FAMILIES: dict[str, tuple[Callable[..., np.ndarray], str]] = {
    "uniform-points": (uniform_points, "uniform in the unit cube"),
    "gaussian-clusters": (gaussian_clusters, "Gaussian blobs around uniform centres"),
    "manifold-points": (manifold_points, "a smooth low-dimensional surface in d dimensions"),
    "lattice-points": (lattice_points, "integer grid points (many equal distances)"),
    "duplicate-points": (duplicate_points, "few distinct positions, each repeated"),
    "cosmology-points": (cosmology_points, "power-law clusters over a uniform background"),
}
"""``{family: (function, description)}`` of :func:`generate_points`."""


def generate_points(spec: str) -> np.ndarray:
    """The ``(n, d)`` point array a spec string names, e.g. ``"uniform-points:n=1000,d=3"``.

    Parameters
    ----------
    spec : str
        ``"family"`` or ``"family:key=value,..."``; see the module docstring.

    Returns
    -------
    ndarray of float64 (or float32 with ``dtype=float32``), shape (n, d)

    Raises
    ------
    GraphValueError
        Unknown family or parameter (the message lists the valid ones), or a
        value out of range.

    Examples
    --------
    >>> generate_points("lattice-points:n=9,d=2,dtype=float32").dtype.name
    'float32'
    """
    name, params = _resolve(spec)
    return POINT_FAMILIES[name][0](**params)


def describe_points(spec: str) -> tuple[int, int]:
    """``(n, d)`` of the points a spec names, without generating them.

    Examples
    --------
    >>> describe_points("manifold-points:n=500")
    (500, 10)
    """
    _, params = _resolve(spec)
    return check_int("n", params["n"]), check_int("d", params["d"], minimum=1)


def _resolve(spec: str) -> tuple[str, dict]:
    """The family of a spec and all its parameters, defaults filled in; unknown names are
    an error listing the valid ones."""
    name, params = parse_spec(spec)
    if name not in POINT_FAMILIES:
        raise GraphValueError(f"unknown point family {name!r}; valid: {', '.join(POINT_FAMILIES)}")
    accepted = inspect.signature(POINT_FAMILIES[name][0]).parameters
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise GraphValueError(f"{name} has no parameter {', '.join(map(repr, unknown))}; "
                              f"valid: {', '.join(accepted)}")
    return name, {**{key: p.default for key, p in accepted.items()}, **params}
