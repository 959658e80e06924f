"""The examples in parmst.io's docstrings run and show what they claim."""

import doctest
import importlib

import pytest

MODULES = ["parmst.io", "parmst.io.edgelist", "parmst.io.snap", "parmst.io.dimacs",
           "parmst.io.mtx", "parmst.io.pbbs", "parmst.io.egr", "parmst.io.npz",
           "parmst.io._mirror", "parmst.io._ranges"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
