"""Fuzzed graph files never crash the command line: every case is accepted or one clean error.

A fixed-seed campaign of :data:`CASES` mutants (``PARMST_FUZZ_CASES`` overrides it) runs
through ``parmst.cli.main`` in this process; a handful more run as ``python -m parmst`` to show
that the real process prints no traceback and exits 0 or 2. Larger campaigns:
``PYTHONPATH=src python tests/io/fuzz_inputs.py --cases 5000`` (see that module).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import fuzz_inputs
import pytest

CASES = int(os.environ.get("PARMST_FUZZ_CASES", "300"))


def test_mutated_files_of_every_format_are_accepted_or_cleanly_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", fuzz_inputs.MEMORY_LIMIT)
    report = fuzz_inputs.run_campaign(CASES, seed=1, folder=tmp_path)
    summary = report.summary()
    print(summary)
    assert summary["crashes"] == 0, "\n".join(report.crashes)
    assert summary["cases"] == CASES
    # Not a degenerate fuzzer: every seed format was mutated, and mutants both pass and fail.
    assert sorted(summary["by format"]) == sorted(report.seeds)
    assert summary["accepted"] >= CASES // 10 and summary["clean errors"] >= CASES // 2


@pytest.fixture
def subprocess_cases(tmp_path):
    """The two inputs that used to crash with a MemoryError, and three mutants of binary and
    compressed formats."""
    snap = tmp_path / "sparse.snap"
    snap.write_text("# Nodes: 2\n0\t1\n1\t999999999999\n")
    edges = tmp_path / "wide.txt"
    edges.write_text("0 1 1\n1 4294967296 2\n")
    seeds = {p.name: p for p in fuzz_inputs.write_seeds(tmp_path)}
    rnd = random.Random(3)
    mutants = []
    for name in ("g.egr", "packed.npz", "g.txt.gz"):
        mutant = tmp_path / f"mutant-{name}"
        fuzz_inputs.mutate(seeds[name], mutant, rnd)
        mutants.append(mutant)
    return [snap, edges, *mutants]


def test_python_dash_m_prints_no_traceback_and_exits_0_or_2(subprocess_cases):
    env = {**os.environ, "PARMST_MEMORY_LIMIT": fuzz_inputs.MEMORY_LIMIT}
    statuses = []
    for path in subprocess_cases:
        done = subprocess.run([sys.executable, "-m", "parmst", "solve", str(path), "--verify"],
                              capture_output=True, text=True, env=env, timeout=300, check=False)
        assert done.returncode in (0, 2), (path.name, done.returncode, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 1, done.stderr
        statuses.append(done.returncode)
    assert statuses[:2] == [2, 2]  # the huge ids: refused with the --relabel hint, not allocated
