"""``parmst.bench``: reproduce the papers' experiments and compare with other libraries.

One call runs chosen solvers on chosen graphs (files, generator specs or the
named suites of :mod:`parmst.bench.suites`), verifies every result against the
``kruskal/serial`` reference, times peers (SciPy, NetworkX, igraph, cuGraph)
where installed, runs Sun and Skadron's OpenCL prefix-scan experiment when given
sizes (:mod:`parmst.bench.scan`), and returns a :class:`BenchResult`;
:func:`to_markdown` and :func:`save` write its Markdown, JSON and PNG reports. The run's
settings are a :class:`RunConfig`. ``parmst bench`` is the same from the command line.

Examples
--------
>>> import parmst, parmst.bench
>>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
>>> result = parmst.bench.run([g], ["kruskal/serial"], peers=["scipy"], repeat=3,
...                           progress=False)
>>> [r.status for r in result.records]
['ok', 'ok']
>>> "| graph |" in parmst.bench.to_markdown(result)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parmst.bench.config import RunConfig
    from parmst.bench.result import BenchResult
    from parmst.bench.suite_types import BenchGraph
    from parmst.graph import Graph

# Loaded on first use, not with the package: ``parmst`` builds its command line with
# ``parmst.bench.cli``, and the harness, peers and plots it does not need would cost
# every ``parmst`` command their import time.
_LAZY = {
    "KBEST": "timing", "MEDIAN": "timing", "Scheme": "timing", "select": "timing",
    "SUITES": "suites", "BenchGraph": "suites", "Suite": "suites", "get_suite": "suites",
    "load_graph": "suites", "BenchResult": "result", "GraphInfo": "result", "Record": "result",
    "RunConfig": "config", "choose_solvers": "specs", "compare": "compare",
    "format_compare": "compare", "load": "store", "save": "store", "to_json": "store",
    "to_markdown": "markdown",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'parmst.bench' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"parmst.bench.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["KBEST", "MEDIAN", "SUITES", "BenchGraph", "BenchResult", "GraphInfo", "Record",
           "RunConfig", "Scheme", "Suite", "choose_solvers", "compare", "format_compare",
           "get_suite", "load", "load_graph", "run", "save", "select", "to_json", "to_markdown"]


def run(graphs: Iterable[str | Graph | BenchGraph] | None = None,
        solvers: Sequence[str] | None = None, **settings: Any) -> BenchResult:
    """Benchmark solvers, peers and file formats on graphs, verifying every result.

    ``graphs``, ``solvers`` and the keyword arguments are the fields of
    :class:`RunConfig` (an unknown one raises TypeError); the run is
    :func:`parmst.bench.harness.run` of that configuration.

    Examples
    --------
    >>> import parmst, parmst.bench
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> result = parmst.bench.run([g], ["kruskal/serial"], peers=["none"], repeat=2,
    ...                           progress=False)
    >>> result.records[0].status, len(result.records[0].times)
    ('ok', 2)
    """
    from parmst.bench import harness
    from parmst.bench.config import RunConfig

    return harness.run(RunConfig(graphs, solvers, **settings))
