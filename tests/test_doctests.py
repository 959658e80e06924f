"""Every module's docstring examples run and show what they claim.

The modules are found by walking the installed package, so a new module's
examples run without being listed here. An example that needs hardware this
machine lacks (a GPU, an MPI launcher) carries ``# doctest: +SKIP`` in its
docstring; everything else runs.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import parmst

MODULES = ["parmst", *(m.name for m in pkgutil.walk_packages(parmst.__path__, "parmst.")
                       if not m.name.endswith("__main__"))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_every_layer_is_walked():
    assert {"parmst.order", "parmst.formats.edgelist", "parmst.io", "parmst.registry",
            "parmst.verify"} <= set(MODULES)
