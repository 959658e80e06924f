"""``parmst.bench``: reproduce the papers' experiments and compare with other libraries.

One call runs chosen solvers on chosen graphs (files, generator specs or the
named suites of :mod:`parmst.bench.suites`), verifies every result against the
``kruskal/serial`` reference, times peers (SciPy, NetworkX, igraph, cuGraph)
where installed, runs Sun and Skadron's OpenCL prefix-scan experiment when given
sizes (:mod:`parmst.bench.scan`), and returns a :class:`BenchResult` that writes
Markdown, JSON and PNG reports. ``parmst bench`` is the same from the command line.

Examples
--------
>>> import parmst, parmst.bench
>>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
>>> result = parmst.bench.run([g], ["kruskal/serial"], peers=["scipy"], repeat=3,
...                           progress=False)
>>> [r.status for r in result.records]
['ok', 'ok']
>>> "| graph |" in result.to_markdown()
True
"""

from parmst.bench.harness import choose_solvers, run
from parmst.bench.report import BenchResult, GraphInfo, Record, compare, format_compare, load
from parmst.bench.suites import SUITES, BenchGraph, Suite, get_suite, load_graph
from parmst.bench.timing import KBEST, MEDIAN, Scheme, select

__all__ = ["KBEST", "MEDIAN", "SUITES", "BenchGraph", "BenchResult", "GraphInfo", "Record",
           "Scheme", "Suite", "choose_solvers", "compare", "format_compare", "get_suite", "load",
           "load_graph", "run", "select"]
