"""Graph generators for the seed papers' benchmark families, deterministic by seed.

A spec string names a family and its parameters::

    "grid2d"                            the family at its small default size
    "rmat:scale=16,edge_factor=16,seed=3"
    "seed000-dense:size=large"          Shou and He's dense/large.txt counts
    "road:size=medium,weights=float,max_weight=16"

Values are read as int, then float, then string. Every family takes
``size`` (a named preset of its size parameters, see :data:`SIZES`),
``seed`` (of ``numpy.random.default_rng``; same seed, same arrays),
``weights`` (``"int"``, ``"float"`` or ``"unique"``) and ``max_weight``
(the number of distinct weights, to force ties); see
:mod:`parmst.generators._weights` for the weight rules. Generation is
vectorized over all edges.

========================  ==========================================================
family                    stands in for
========================  ==========================================================
``grid2d``                Fallin et al.'s 2d-2e20.sym (4-neighbour grid)
``road``                  Fallin et al.'s road maps (grid with 32 % of links removed)
``random-degree``         Fallin et al.'s r4-2e23.sym (each vertex links to 4 others)
``rmat``                  Fallin et al.'s rmat16.sym / rmat22.sym
``kronecker``             Fallin et al.'s kron_g500-logn21 (Graph500)
``delaunay``              Fallin et al.'s delaunay_n24
``seed000-sparse``        Shou and He's sparse/{small,...,extreme}.txt, exact counts
``seed000-dense``         Shou and He's dense/{small,...,extreme}.txt, exact counts
``dense``                 Pugliese's dense graphs for dense Prim (n = 64 ... 4096)
========================  ==========================================================

Examples
--------
>>> from parmst.generators import generate, describe
>>> g = generate("grid2d:side=4,seed=1")
>>> g.num_vertices, g.num_edges
(16, 24)
>>> describe("seed000-sparse:size=large")["m"]
15000571
"""

from __future__ import annotations

from typing import Any

from parmst.errors import GraphValueError
from parmst.generators._family import Family
from parmst.generators._params import WEIGHT_KINDS, parse_spec
from parmst.generators._weights import DEFAULT_MAX_WEIGHT
from parmst.generators.delaunay import DELAUNAY_SIZES, delaunay, delaunay_counts
from parmst.generators.dense import DENSE_SIZES, dense, dense_counts
from parmst.generators.lattice import (
    GRID2D_SIZES,
    ROAD_SIZES,
    grid2d,
    grid_counts,
    road,
    road_counts,
)
from parmst.generators.random_degree import (
    RANDOM_DEGREE_SIZES,
    random_degree,
    random_degree_counts,
    random_degree_drawn,
)
from parmst.generators.rmat import (
    KRONECKER_SIZES,
    RMAT_SIZES,
    kronecker,
    kronecker_drawn,
    rmat,
    rmat_counts,
    rmat_drawn,
)
from parmst.generators.seed000 import DENSE_SIZES as SEED000_DENSE_SIZES
from parmst.generators.seed000 import SPARSE_SIZES as SEED000_SPARSE_SIZES
from parmst.generators.seed000 import (
    seed000_dense,
    seed000_dense_counts,
    seed000_sparse,
    seed000_sparse_counts,
)
from parmst.graph import Graph

__all__ = [
    "DEFAULT_MAX_WEIGHT",
    "FAMILIES",
    "SIZES",
    "WEIGHT_KINDS",
    "Family",
    "delaunay",
    "dense",
    "describe",
    "generate",
    "grid2d",
    "kronecker",
    "parse_spec",
    "random_degree",
    "rmat",
    "road",
    "seed000_dense",
    "seed000_sparse",
]

FAMILIES: dict[str, Family] = {family.name: family for family in (
    Family("grid2d", grid2d, "side x side 4-neighbour grid, random weights "
           "(Fallin et al.: 2d-2e20)",
           GRID2D_SIZES, lambda p: (*grid_counts(p["side"]), True)),
    Family("road", road, "jittered grid less a fraction of links, length weights "
           "(Fallin et al.: road maps)", ROAD_SIZES,
           lambda p: (*road_counts(p["side"], p["remove"]), True)),
    Family("random-degree", random_degree, "each vertex links to `degree` random others, "
           "repeats removed (Fallin et al.: r4-2e23)", RANDOM_DEGREE_SIZES,
           lambda p: (*random_degree_counts(p["n"], p["degree"]), False),
           drawn=random_degree_drawn),
    Family("rmat", rmat, "R-MAT, scrambled ids, loops and repeats removed "
           "(Fallin et al.: rmat16/rmat22)", RMAT_SIZES,
           lambda p: (*rmat_counts(p["scale"], p["edge_factor"]), False), drawn=rmat_drawn),
    Family("kronecker", kronecker, "Graph500 Kronecker, edge factor 48 "
           "(Fallin et al.: kron_g500-logn21)", KRONECKER_SIZES,
           lambda p: (*rmat_counts(p["scale"], p["edge_factor"]), False), drawn=kronecker_drawn),
    Family("delaunay", delaunay, "Delaunay triangulation of random points in the unit square "
           "(Fallin et al.: delaunay_n24; needs SciPy)", DELAUNAY_SIZES,
           lambda p: (*delaunay_counts(p["n"]), False)),
    Family("seed000-sparse", seed000_sparse, "connected multigraph, m ~ 1.5 n, unique int "
           "weights (Shou and He section 4.1, exact counts)", SEED000_SPARSE_SIZES,
           lambda p: (*seed000_sparse_counts(p["n"], p["m"]), True)),
    Family("seed000-dense", seed000_dense, "connected graph on ~90 % of vertex pairs, unique "
           "int weights (Shou and He section 4.1, exact counts)", SEED000_DENSE_SIZES,
           lambda p: (*seed000_dense_counts(p["n"], p["m"]), True)),
    Family("dense", dense, "connected random graph on a `density` fraction of vertex pairs "
           "(Pugliese)", DENSE_SIZES, lambda p: (*dense_counts(p["n"], p["density"]), True)),
)}



def _sizes_by_name() -> dict[str, dict[str, dict[str, Any]]]:
    sizes: dict[str, dict[str, dict[str, Any]]] = {}
    for family in FAMILIES.values():
        for size, preset in family.sizes.items():
            sizes.setdefault(size, {})[family.name] = dict(preset)
    return sizes


#: ``SIZES[size][family]``: the parameters each named size sets, e.g.
#: ``SIZES["medium"]["rmat"] == {"scale": 16}``. "small" (the default) takes
#: a fraction of a second; "medium" is about 0.5-1.5 M edges; "large" is
#: Fallin et al.'s GPU sizes; Shou and He's families also have "extreme".
SIZES = _sizes_by_name()


def _family(name: str) -> Family:
    if name not in FAMILIES:
        raise GraphValueError(
            f"unknown generator family {name!r}; valid: {', '.join(FAMILIES)}")
    return FAMILIES[name]


def generate(spec: str) -> Graph:
    """Generate the graph a spec string names, e.g. ``"rmat:scale=16,seed=3"``.

    Parameters
    ----------
    spec : str
        ``"family"`` or ``"family:key=value,key=value"``; see the module
        docstring and :data:`FAMILIES` for families and parameters.

    Returns
    -------
    Graph

    Raises
    ------
    GraphValueError
        Unknown family or parameter (the message lists the valid ones),
        malformed spec, or a parameter value out of range.

    Examples
    --------
    >>> g = generate("seed000-dense:size=small,seed=2")
    >>> g.num_vertices, g.num_edges
    (200, 17847)
    """
    name, params = parse_spec(spec)
    family = _family(name)
    return family.function(**family.resolve(params))


def describe(spec: str) -> dict[str, Any]:
    """Vertex and edge counts of a spec without generating it.

    Returns
    -------
    dict
        ``family``, ``params`` (all of them, size preset applied), ``n``,
        ``m`` and ``m_exact``: for families that remove self-loops and
        repeated pairs (``rmat``, ``kronecker``, ``random-degree``) or
        triangulate (``delaunay``), ``m`` is an upper bound and
        ``m_exact`` is False.

    Examples
    --------
    >>> info = describe("grid2d:size=large")
    >>> info["n"], info["m"], info["m_exact"]
    (1048576, 2095104, True)
    """
    name, params = parse_spec(spec)
    family = _family(name)
    resolved = family.resolve(params)
    n, m, exact = family.counts(resolved)
    return {"family": name, "params": resolved, "n": n, "m": m, "m_exact": exact}
