"""parmst: minimum spanning forests of large weighted graphs, fast and verified.

Every solver returns the unique forest under the ``(weight, edge_id)`` order.

Examples
--------
>>> import parmst
>>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
>>> f = parmst.minimum_spanning_forest(g)
>>> f.edge_ids.tolist(), f.total_weight
([0, 1], 3.0)
>>> bool(parmst.verify(g, f))
True
"""

import numpy as np

from parmst.api import maximum_spanning_forest, minimum_spanning_forest
from parmst.api_points import euclidean_mst
from parmst.errors import (
    GraphFileNotFoundError,
    GraphFormatError,
    GraphValueError,
    ParmstError,
    PointsValueError,
    SolverUnavailable,
    UnknownOptionError,
    UnknownSolverError,
    VerificationError,
)
from parmst.forest import Forest
from parmst.graph import Graph

# Imported eagerly, as verify below: parmst.partition is the function, not the module.
from parmst.partition import cut, partition
from parmst.registry import available_solvers
from parmst.stats import Stats

# Imported eagerly: importing the submodule later would rebind the name parmst.verify
# from this function to the module.
from parmst.verify import verify, verify_points

__version__ = "0.1.0"


def generate(spec: str, device: int | str | None = None) -> Graph:
    """Generate a graph from a spec string such as ``"rmat:scale=16,seed=3"``.

    See :mod:`parmst.generators` for the families. With ``device`` (a CUDA
    device number, or ``"cuda"`` for device 0) the graph is built by kernels
    in that GPU's memory (:mod:`parmst.generators.device`: ``rmat``,
    ``kronecker``, ``random-degree``, ``seed000-sparse``, ``grid2d``,
    ``road``), with the same edges, ids and weights as on the host.

    Examples
    --------
    >>> import parmst
    >>> parmst.generate("grid2d:side=4,seed=1").num_vertices
    16
    >>> parmst.generate("rmat:scale=20", device=0).is_on_device  # doctest: +SKIP
    True
    """
    if device is not None:
        from parmst.generators.device import generate as _generate_on_device

        return _generate_on_device(spec, device)
    from parmst.generators import generate as _generate

    return _generate(spec)


def generate_points(spec: str) -> np.ndarray:
    """Generate an ``(n, d)`` point array from a spec such as ``"uniform-points:n=1000,d=3"``.

    See :mod:`parmst.generators.points` for the families.

    Examples
    --------
    >>> import parmst
    >>> parmst.generate_points("lattice-points:n=16,d=2").shape
    (16, 2)
    """
    from parmst.generators.points import generate_points as _generate_points

    return _generate_points(spec)


__all__ = [
    "Forest",
    "Graph",
    "GraphFileNotFoundError",
    "GraphFormatError",
    "GraphValueError",
    "ParmstError",
    "PointsValueError",
    "SolverUnavailable",
    "Stats",
    "UnknownOptionError",
    "UnknownSolverError",
    "VerificationError",
    "available_solvers",
    "cut",
    "euclidean_mst",
    "generate",
    "generate_points",
    "maximum_spanning_forest",
    "minimum_spanning_forest",
    "partition",
    "verify",
    "verify_points",
]
