"""Compilation is timed apart from computation, announced when slow, and done ahead by warmup."""

from __future__ import annotations

import json
import time

import numba
import numpy as np
import pytest
from numba.core import event

from parmst import _jit, cli
from parmst.errors import UnknownOptionError
from parmst.stats import Stats
from parmst.warmup import warmup


def _compile_span(seconds: float) -> None:
    """What Numba signals around a compilation, held for ``seconds``."""
    with event.trigger_event("numba:compiler_lock"):
        time.sleep(seconds)


def test_compile_seconds_counts_outermost_spans_once():
    before = _jit.compile_seconds()
    with event.trigger_event("numba:compiler_lock"):
        _compile_span(0.05)  # nested: kernels compile the kernels they call
    assert 0.05 <= _jit.compile_seconds() - before < 0.5


def test_stats_book_compilation_apart_from_compute_and_phases():
    @numba.njit
    def fresh_kernel(x):  # defined here, so its first call must compile
        return x.sum() * 2

    stats = Stats()
    start = time.perf_counter()
    with stats.compute(), stats.phase("kernel"):
        assert fresh_kernel(np.arange(10)) == 90
    wall = time.perf_counter() - start
    assert stats.compile_time > 0.05
    assert stats.compute_time < stats.compile_time
    assert stats.phases["kernel"] <= stats.compute_time + 1e-6
    assert stats.compute_time + stats.compile_time == pytest.approx(wall, abs=0.05)

    again = Stats()
    with again.compute():
        fresh_kernel(np.arange(10))
    assert again.compile_time == 0.0


def test_slow_compilation_is_announced_once():
    calls = []
    _jit.on_slow_compilation(lambda: calls.append(1), after=0.1)
    _compile_span(0.02)  # too short: nothing yet
    time.sleep(0.15)
    assert calls == []
    _compile_span(0.3)  # crosses the threshold counted over all spans
    _compile_span(0.3)
    assert calls == [1]


def test_warmup_compiles_each_runnable_solver_of_the_backend():
    report = warmup(["serial"], progress=False)
    assert {"kruskal/serial", "prim/serial", "boruvka/serial", "verify"} <= set(report)
    assert {"boruvka-kdtree/serial", "prim-dense/points", "verify_points"} <= set(report)
    assert all(isinstance(v, float) for v in report.values())
    assert not any(name.endswith("/cpu") for name in report)


def test_warmup_rejects_an_unknown_backend():
    with pytest.raises(UnknownOptionError, match="unknown backend"):
        warmup(["quantum"], progress=False)


def test_cli_warmup_and_solve_report_compile_time(capsys):
    assert cli.main(["warmup", "--backend", "serial", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "kruskal/serial" in out and "verify" in out
    assert cli.main(["solve", "--generate", "grid2d:side=8,seed=1",
                     "--solver", "kruskal/serial"]) == 0
    assert "compile_time_s" in capsys.readouterr().out


def test_cli_solve_reports_the_compilation_of_the_whole_command(capsys, monkeypatch):
    # The first kernel of a process is usually the reader's: its compilation (or cache
    # load) happens before the solver starts and must be in the report all the same.
    from parmst.cli import solve as solve_command

    command = ["solve", "--generate", "grid2d:side=8,seed=1", "--solver", "kruskal/serial",
               "--json"]
    assert cli.main(command) == 0  # every kernel of the command loaded: none compiles below
    capsys.readouterr()
    read = solve_command.load_graph

    def read_while_compiling(args, device=None):
        _compile_span(0.2)
        return read(args, device)

    monkeypatch.setattr(solve_command, "load_graph", read_while_compiling)
    assert cli.main(command) == 0
    assert json.loads(capsys.readouterr().out)["compile_time_s"] >= 0.2


def test_the_clock_counts_importing_numba_and_knows_when_a_kernel_ran():
    import subprocess
    import sys

    code = """
import json, sys, time
import parmst._jit as jit
assert "numba" not in sys.modules
started = time.perf_counter()
import numba
imported = time.perf_counter() - started
counted, loaded_after_import = jit.compile_seconds(), jit.numba_loaded()
numba.njit(lambda x: x + 1)(1)
print(json.dumps({"imported": imported, "counted": counted, "after_import": loaded_after_import,
                  "after_kernel": jit.numba_loaded(), "total": jit.compile_seconds()}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    r = json.loads(done.stdout)
    assert 0.5 * r["imported"] <= r["counted"] <= r["imported"]  # the import, from the hook
    assert r["after_import"] is False and r["after_kernel"] is True
    assert r["total"] > r["counted"]  # and the compilation after it
