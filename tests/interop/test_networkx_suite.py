"""NetworkX's own spanning-tree tests, run with every call dispatched to parmst.

NetworkX's test mode (``NETWORKX_TEST_BACKEND``) converts each graph to the
backend and calls the backend's function. A call the backend cannot run
becomes an xfail, or, with ``NETWORKX_FALLBACK_TO_NX``, runs NetworkX's own
function. Both modes run here, each as one pytest run of NetworkX's installed
test file in a subprocess:

- without fallback, the xfails must be exactly the tests ``on_start_tests``
  marks (functions parmst does not offer), each with its reason;
- with fallback, every test passes, each of those tests falls back to
  NetworkX at least once, and no other test falls back on a function parmst
  offers (read from NetworkX's debug log, kept per test in the JUnit report).

The first run sends every call down the backend's NumPy route for small graphs
(``nx_numpy_route_plugin``); the second leaves the route to the process, which
loads compiled kernels at its first Prim or Borůvka call and takes the compiled
route from then on. So NetworkX's tests check both.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import networkx
import pytest

from _parmst_nx import get_info
from parmst.interop.networkx_backend import NOT_OFFERED

HERE = Path(__file__).resolve().parent

#: NetworkX's debug messages for a call that ran NetworkX's function instead of the backend's.
FALLBACK = re.compile(
    r"[Ff]alling back to use 'networkx' instead of 'parmst' backend for call to '(\w+)'"
    r"|Backend 'parmst' raised when calling '(\w+)'")


@dataclass
class Case:
    """One test of NetworkX's file: outcome, skip/xfail message and the calls that fell back."""

    outcome: str
    message: str
    fallbacks: set[str]


def run_test_mst(env: dict[str, str], tmp_path, *plugins: str) -> dict[str, Case]:
    """Run NetworkX's ``test_mst.py`` in test mode, with ``plugins`` (modules beside this
    file) loaded; its cases by ``class.name``."""
    report = tmp_path / "junit.xml"
    if plugins:
        env = {**env, "PYTHONPATH": os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         *(arg for plugin in plugins for arg in ("-p", plugin)), "--rootdir",
         networkx.__path__[0], f"--junitxml={report}", "-o", "junit_logging=log",
         "-o", "log_level=DEBUG", "--pyargs", "networkx.algorithms.tree.tests.test_mst"],
        env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    cases = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        log = "".join(out.text or "" for out in case.iter("system-out"))
        skipped = case.find("skipped")
        if skipped is None:
            outcome, message = "passed", ""
        else:
            outcome, message = skipped.get("type", "skipped"), skipped.get("message", "")
        fallbacks = {a or b for a, b in FALLBACK.findall(log)}
        cases[f"{case.get('classname')}.{case.get('name')}"] = Case(outcome, message, fallbacks)
    return cases


def not_offered_reason(name: str) -> str | None:
    """The :data:`NOT_OFFERED` reason of test ``name``, or None for a test parmst answers."""
    return next((reason for test, reason in NOT_OFFERED.items() if test in name), None)


def assert_algorithms_pass(cases: dict[str, Case]) -> None:
    passed = [name for name, case in cases.items() if case.outcome == "passed"]
    for algorithm in ("TestKruskal", "TestPrim", "TestBoruvka"):
        assert sum(algorithm in name for name in passed) >= 15, (algorithm, passed)


@pytest.mark.slow
def test_networkx_mst_suite_passes_with_parmst(backend_env, tmp_path):
    env = {**backend_env, "NETWORKX_TEST_BACKEND": "parmst"}
    env.pop("NETWORKX_FALLBACK_TO_NX", None)
    cases = run_test_mst(env, tmp_path, "nx_numpy_route_plugin")
    assert_algorithms_pass(cases)
    for name, case in cases.items():
        if case.outcome == "pytest.xfail":
            assert not_offered_reason(name) is not None, \
                f"{name} xfailed without being marked: {case.message}"
        assert not case.fallbacks, (name, case.fallbacks)


@pytest.mark.slow
def test_networkx_mst_suite_passes_with_fallback_to_networkx(backend_env, tmp_path):
    env = {**backend_env, "NETWORKX_TEST_BACKEND": "parmst", "NETWORKX_FALLBACK_TO_NX": "True"}
    cases = run_test_mst(env, tmp_path)
    assert_algorithms_pass(cases)
    offered = set(get_info()["functions"])
    for name, case in cases.items():
        assert case.outcome in ("passed", "pytest.skip"), (name, case.outcome, case.message)
        if case.outcome == "pytest.skip":
            assert "--runslow" in case.message, (name, case.message)
        elif not_offered_reason(name) is not None:
            assert case.fallbacks, f"{name} is marked as not offered but never fell back"
        else:
            assert not case.fallbacks & offered, (name, case.fallbacks & offered)
