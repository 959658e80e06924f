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

from collections.abc import Iterable, Sequence
from typing import Any

from parmst.bench import harness
from parmst.bench.compare import compare, format_compare
from parmst.bench.config import RunConfig
from parmst.bench.markdown import to_markdown
from parmst.bench.result import BenchResult, GraphInfo, Record
from parmst.bench.specs import choose_solvers
from parmst.bench.store import load, save, to_json
from parmst.bench.suites import SUITES, BenchGraph, Suite, get_suite, load_graph
from parmst.bench.timing import KBEST, MEDIAN, Scheme, select
from parmst.graph import Graph

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
    return harness.run(RunConfig(graphs, solvers, **settings))
