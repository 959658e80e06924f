"""Optional packages: absence gives one line naming the pip extra, never an ImportError."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import parmst
from parmst import _optional
from parmst.cli import main
from parmst.errors import MissingDependencyError, ParmstError

HIDDEN = [dep.module for dep in _optional.OPTIONAL]


@pytest.fixture
def absent(monkeypatch):
    """Make every optional package look uninstalled, as on a default install."""
    for module in HIDDEN:
        monkeypatch.setitem(sys.modules, module, None)


def test_every_table_row_names_a_pyproject_extra():
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    for dep in _optional.OPTIONAL:
        listed = [req.split(">")[0].split("<")[0].split("=")[0].strip()
                  for req in extras[dep.extra]]
        assert dep.distribution in listed, f"{dep.distribution} is not in the {dep.extra} extra"


def test_status_reports_versions_or_the_install_hint(absent):
    for dep in _optional.OPTIONAL:
        assert _optional.status(dep.module) == f"not installed (pip install 'parmst[{dep.extra}]')"
        assert not _optional.installed(dep.module)


def test_status_gives_the_version_when_present():
    pytest.importorskip("scipy")
    import scipy

    assert _optional.status("scipy") == scipy.__version__


def test_require_names_feature_package_and_extra(absent):
    with pytest.raises(MissingDependencyError) as caught:
        _optional.require("scipy.sparse", "Graph.to_scipy")
    assert str(caught.value) == ("Graph.to_scipy needs scipy, which is not installed: "
                                 "pip install 'parmst[interop]'")
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, ParmstError)


def test_require_reports_a_package_that_fails_to_import(monkeypatch):
    pytest.importorskip("networkx")

    def broken(name, *args):
        raise ImportError(f"{name} is broken here")

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(MissingDependencyError, match="failed to import .networkx is broken here.; "
                                                     "reinstall it: pip install 'parmst.interop.'"):
        _optional.require("networkx", "Graph.to_networkx")


def test_require_rejects_modules_outside_the_table():
    with pytest.raises(KeyError, match="not in parmst._optional.OPTIONAL"):
        _optional.require("tensorflow", "a tensor")


def test_converters_without_their_packages(absent):
    g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
    calls = {"Graph.to_scipy": g.to_scipy, "Graph.to_networkx": g.to_networkx,
             "Forest.to_networkx": f.to_networkx, "Forest.to_scipy": f.to_scipy,
             "Graph.from_scipy": lambda: parmst.Graph.from_scipy(np.eye(2))}
    for feature, call in calls.items():
        with pytest.raises(MissingDependencyError, match="pip install 'parmst.interop.'") as caught:
            call()
        assert str(caught.value).split(" needs ")[0] in (feature, "Graph.to_scipy")


def test_info_lists_every_optional_package(absent, capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    for dep in _optional.OPTIONAL:
        assert f"{dep.distribution:<12} not installed (pip install 'parmst[{dep.extra}]')" in out


_WITHOUT_OPTIONAL = """
import sys
sys.modules.update(dict.fromkeys({hidden!r}))
import parmst
from parmst.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("argv", "status", "expected"), [
    (["info"], 0, "matplotlib   not installed (pip install 'parmst[plot]')"),
    (["solve", "{graph}", "--verify"], 0, "forest_edges"),
    (["solve", "--generate", "delaunay:n=20"], 2,
     ("parmst: error: the delaunay generator (SciPy's Qhull binding) needs scipy, which is "
      "not installed: pip install 'parmst[interop]'")),
])
def test_cli_runs_in_a_process_without_optional_packages(tmp_path, argv, status, expected):
    graph = tmp_path / "g.txt"
    parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 1, 2]).write(graph)
    argv = [a.replace("{graph}", str(graph)) for a in argv]
    done = subprocess.run([sys.executable, "-c", _WITHOUT_OPTIONAL.format(hidden=HIDDEN), *argv],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == status, done.stderr
    assert expected in done.stdout + done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 1
