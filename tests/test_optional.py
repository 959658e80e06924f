"""Optional packages: absence gives one line naming the pip extra, never an ImportError."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

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


_RUNNER = Path(__file__).with_name("_hidden_package_run.py")
_GENERIC = ["solve", "verify", "generate", "convert to parquet", "emst"]
_TOUCHING = {  # beyond the cases that need it, those that look for it and go on without it
    **dict.fromkeys(["scipy", "networkx", "igraph", "networkit", "matplotlib"], ("bench",)),
    **dict.fromkeys(["numba_cuda", "mpi4py", "pyopencl"], ("info",)),
    **dict.fromkeys(["pyarrow", "pandas"], ("solve csv",)),
}
_NEEDS_HARDWARE = {"solve gpu", "solve opencl", "solve mpi", "emst gpu"}  # may be unavailable here anyway


def _run_hidden(tmp_path, hidden, cases=()):
    graph = parmst.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], [3, 1, 2, 5])
    graph.write(tmp_path / "g.txt")
    (tmp_path / "g.csv").write_text("from,to,km\nOslo,Bergen,3\nBergen,Voss,1\nVoss,Oslo,2\n")
    if _optional.installed("pyarrow"):
        graph.write(tmp_path / "g.parquet")
    else:  # never read: the missing pyarrow is reported first
        (tmp_path / "g.parquet").write_bytes(b"")
    done = subprocess.run([sys.executable, str(_RUNNER), ",".join(hidden), str(tmp_path),
                           *cases], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _check(results, hidden):
    """Every case either works or, when a package it needs is absent, fails with one line
    (exit 2, or MissingDependencyError) naming that package's pip extra."""
    absent = {m for m in HIDDEN if m in hidden or not _optional.installed(m)}
    for name, got in results.items():
        where = f"{name} without {sorted(hidden)}: {got}"
        status, stderr = got["status"], got["stderr"]
        assert status != "escaped" and "Traceback" not in "\n".join(stderr), where
        missing = [m for m in got["needs"] if m in absent]
        if missing:
            hint = next(d.hint for d in _optional.OPTIONAL if d.module == missing[0])
            assert status in (2, "MissingDependencyError"), where
            assert len(stderr) == 1 and hint in stderr[0], where
        elif status == 2 and name in _NEEDS_HARDWARE:
            assert len(stderr) == 1 and stderr[0].startswith("parmst: error: "), where
        else:
            assert status == 0, where


def test_every_command_and_converter_without_any_optional_package(tmp_path):
    _check(_run_hidden(tmp_path, HIDDEN), HIDDEN)


@pytest.mark.parametrize("module", HIDDEN)
def test_commands_and_converters_without_one_optional_package(tmp_path, module):
    cases = ["needing", *_GENERIC, *_TOUCHING.get(module, ())]
    _check(_run_hidden(tmp_path, [module], cases), [module])
