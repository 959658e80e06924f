"""Optional dependencies: one table, one status line each, one way to ask for them.

``import parmst`` needs only NumPy, Numba and tqdm. Everything else is
imported lazily, where a feature needs it, through :func:`require`, so that a
missing package gives one :class:`~parmst.errors.MissingDependencyError`
naming the feature and the pip extra (never an ``ImportError`` traceback),
and ``parmst info`` lists every row of :data:`OPTIONAL` with its version or
how to install it.

To add a dependency, add a row to :data:`OPTIONAL` (and the package to that
extra in ``pyproject.toml``), then import it with :func:`require`.

Examples
--------
>>> [dep.module for dep in OPTIONAL if dep.extra == "interop"]
['scipy', 'networkx']
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from types import ModuleType

from parmst.errors import MissingDependencyError

__all__ = ["OPTIONAL", "Dependency", "installed", "require", "status"]


@dataclass(frozen=True)
class Dependency:
    """An optional package: its import name, its distribution name, its extra, what it enables."""

    module: str
    distribution: str
    extra: str
    enables: str

    @property
    def hint(self) -> str:
        return f"pip install 'parmst[{self.extra}]'"


OPTIONAL: tuple[Dependency, ...] = (
    Dependency("scipy", "scipy", "interop",
               "Graph.from_scipy/to_scipy, the delaunay generator, the SciPy benchmark peer"),
    Dependency("networkx", "networkx", "interop",
               "Graph/Forest.to_networkx, the NetworkX benchmark peer"),
    Dependency("igraph", "igraph", "igraph",
               "Graph.from_igraph/Forest.to_igraph, the igraph benchmark peer"),
    Dependency("pandas", "pandas", "tables",
               "Graph.from_table on pandas DataFrames, Forest.to_pandas"),
    Dependency("polars", "polars", "tables", "Graph.from_table on polars DataFrames"),
    Dependency("pyarrow", "pyarrow", "parquet",
               "Parquet edge lists, Arrow tables, Forest.to_table, the streaming CSV reader"),
    Dependency("networkit", "networkit", "peers", "the NetworKit benchmark peer"),
    Dependency("pymetis", "pymetis", "metis", "parmst.partition(method='metis')"),
    Dependency("matplotlib", "matplotlib", "plot", "PNG plots from parmst bench"),
    Dependency("numba_cuda", "numba-cuda", "gpu", "the gpu solvers (NVIDIA CUDA)"),
    Dependency("mpi4py", "mpi4py", "mpi", "the mpi solvers"),
    Dependency("pyopencl", "pyopencl", "opencl",
               "the opencl solvers and parmst.opencl.prefix_scan"),
)
_BY_MODULE = {dep.module: dep for dep in OPTIONAL}


def _lookup(module: str) -> Dependency:
    top = module.split(".", 1)[0]
    if top not in _BY_MODULE:
        raise KeyError(f"{top} is not in parmst._optional.OPTIONAL")
    return _BY_MODULE[top]


def installed(module: str) -> bool:
    """Whether the optional package of ``module`` can be found (it is not imported).

    Examples
    --------
    >>> isinstance(installed("scipy"), bool)
    True
    """
    top = _lookup(module).module
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):  # a broken package or an odd sys.modules entry
        return False


def status(module: str) -> str:
    """The package's version, or ``not installed (pip install 'parmst[extra]')``.

    Examples
    --------
    >>> status("scipy").startswith(("1.", "not installed (pip install 'parmst[interop]')"))
    True
    """
    dep = _lookup(module)
    if not installed(dep.module):
        return f"not installed ({dep.hint})"
    try:
        return importlib.metadata.version(dep.distribution)
    except importlib.metadata.PackageNotFoundError:
        return "installed (version unknown)"


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` (may be dotted, e.g. ``scipy.sparse``) for ``feature``.

    Raises
    ------
    MissingDependencyError
        The package is absent or fails to import; the message names the
        feature, the package and the pip extra. It is also an ImportError.

    Examples
    --------
    >>> require("scipy.sparse", "Graph.to_scipy").__name__
    'scipy.sparse'
    """
    dep = _lookup(module)
    if not installed(dep.module):
        raise MissingDependencyError(f"{feature} needs {dep.distribution}, which is not "
                                     f"installed: {dep.hint}")
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(f"{feature} needs {dep.distribution}, which failed to "
                                     f"import ({exc}); reinstall it: {dep.hint}") from exc
