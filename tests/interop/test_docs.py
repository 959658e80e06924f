"""The examples in the front doors' docstrings run and show what they claim."""

import doctest
import importlib

import pytest

MODULES = ["parmst.interop.networkx_backend", "parmst._tables", "parmst.interop._solve",
           "parmst.scipy", "parmst.io.parquet"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_graph_and_forest_igraph_examples():
    from parmst.forest import Forest
    from parmst.graph import Graph

    for function in (Graph.from_igraph, Graph.from_table, Forest.to_igraph):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner()
        for test in finder.find(function, globs={"Graph": Graph}):
            runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.attempted > 0 and result.failed == 0
