"""The harness's OpenCL parts: the prefix-scan experiment (Sun and Skadron Figures 5-8) and
the device option, on whatever OpenCL device pyopencl finds (PoCL in CI); skipped, with the
reason, without one."""

from __future__ import annotations

import json

import numpy as np
import pytest

import parmst.bench
from parmst._opencl import runtime as _runtime
from parmst.bench import scan
from parmst.bench.markdown import to_markdown
from parmst.bench.store import save
from parmst.bench.timing import Scheme

_READY = _runtime.probe()()
pytestmark = [pytest.mark.opencl,
              pytest.mark.skipif(_READY is not True, reason=f"OpenCL unavailable: {_READY}")]


def test_every_method_is_timed_and_exact(tmp_path):
    result = parmst.bench.run(scans=[1], repeat=2, progress=False, solvers=[],
                              peers=["none"])
    records = [r for r in result.records if r.kind == "scan"]
    assert [r.solver for r in records] == list(scan.SCAN_METHODS)
    assert all(r.ok and len(r.times) == 2 and r.graph == "uint32 1 MB" for r in records)
    assert records[0].extra["elements"] == 2**18 and records[0].extra["total_time"] > 0
    text = to_markdown(result)
    assert "## Prefix scan" in text and "| uint32 1 MB |" in text and "## Graphs" not in text
    written = save(result, tmp_path, plots=False)
    assert json.loads(written[1].read_text())["config"]["scans"] == [1]


def test_a_wrong_scan_is_a_mismatch(monkeypatch):
    real = np.cumsum

    def off_by_one(values, *args, **kwargs):  # the expected answer the scans are checked against
        out = kwargs.get("out")
        result = real(values, *args, **kwargs)
        if out is not None:
            out[-1] += 1
        return result

    monkeypatch.setattr(scan.np, "cumsum", off_by_one)
    records = scan.time_scans([1], Scheme("median", 1))
    wrong = {r.solver: r for r in records if r.status == "MISMATCH"}
    assert set(wrong) == {"reduce-then-scan", "multi-pass scan"}
    assert all(not r.times and "differs from NumPy" in r.note for r in wrong.values())


def test_cli_takes_scan_sizes_and_a_device(tmp_path, capsys):
    from parmst.cli import main

    assert main(["bench", "--scan-mb", "1", "--opencl-device", "0", "--repeat", "1",
                 "--no-progress", "--no-plots", "--out", str(tmp_path)]) == 0
    assert "uint32 1 MB" in (tmp_path / "bench_custom.md").read_text()
    with pytest.raises(SystemExit):
        main(["bench", "--scan-mb", "0"])
    assert "scan sizes must be positive" in capsys.readouterr().err


def test_opencl_device_reaches_the_solvers_that_take_it():
    graph = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    result = parmst.bench.run([graph], ["ecl/opencl", "kruskal/serial", "ecl/opencl[device=0]"],
                              opencl_device="no-such-device", repeat=1, progress=False,
                              peers=["none"])
    by_label = {r.label: r for r in result.records}
    assert by_label["kruskal/serial"].ok and "device" not in by_label["kruskal/serial"].options
    named = by_label["ecl/opencl"]  # the sweep's device, which does not exist here
    assert named.status == "error" and "no OpenCL device matches" in named.note
    assert by_label["ecl/opencl[device=0]"].ok  # brackets win over the sweep
