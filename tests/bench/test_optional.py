"""Optional libraries missing: ``parmst bench`` says so in one line each and still succeeds."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

from parmst.bench import cli, plots
from parmst.bench.peers import PEERS

PLOTS_LINE = "plots skipped: matplotlib is not installed (pip install 'parmst[plot]')"


def _hide(monkeypatch, *packages):
    """Make ``packages`` (and any of their submodules already imported) unimportable."""
    for name in list(sys.modules):
        if name.split(".")[0] in packages:
            monkeypatch.setitem(sys.modules, name, None)
    for package in packages:
        monkeypatch.setitem(sys.modules, package, None)


def _bench(*argv):
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return cli.run(parser.parse_args([*argv, "--repeat", "1", "--no-cache", "--no-progress"]))


def test_without_matplotlib_tables_are_written_and_one_line_says_why(monkeypatch, tmp_path,
                                                                     capsys):
    _hide(monkeypatch, "matplotlib")
    assert plots.unavailable() == "matplotlib is not installed (pip install 'parmst[plot]')"
    status = _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial",
                    "--peers", "none", "--out", str(tmp_path))
    assert status == 0
    err = capsys.readouterr().err
    assert err.count("plots skipped") == 1 and PLOTS_LINE in err.splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench_custom.json",
                                                          "bench_custom.md"]


def test_a_missing_peer_is_one_line_and_an_empty_column(monkeypatch, capsys):
    _hide(monkeypatch, "scipy")
    assert not PEERS["scipy"].installed()
    status = _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial",
                    "--peers", "scipy")
    assert status == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "peer scipy skipped: scipy is not installed (pip install 'parmst[peers]')"]
    report = (Path(cli.DEFAULT_OUT) / "bench_custom.md").read_text()
    assert "| grid2d:side=4,seed=1 | 16 | 24 |" not in report  # no stray columns
    assert "| graph | edges | kruskal/serial | scipy |" in report and "| — |" in report
    # no SciPy time: the summary compares with the baseline instead
    assert out.splitlines()[1].split() == ["graph", "fastest", "M", "edges/s", "vs",
                                           "kruskal/serial"]


def test_default_peers_name_the_missing_ones(monkeypatch, capsys):
    _hide(monkeypatch, "networkx", "igraph")
    assert _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial") == 0
    err = capsys.readouterr().err.splitlines()
    assert "peer networkx-prim skipped: networkx is not installed (pip install 'parmst[peers]')" \
        in err
    assert "peer igraph skipped: igraph is not installed (pip install 'parmst[peers]')" in err
    assert not any("cugraph" in line for line in err)  # not a pip extra: no nagging


def test_bench_without_any_optional_library_in_a_fresh_process(tmp_path):
    """No matplotlib, SciPy, NetworkX or igraph: exit 0, one line per missing part, no traceback."""
    hide = ("matplotlib", "scipy", "networkx", "igraph")
    script = ("import sys\n"
              f"for name in {hide!r}:\n"
              "    sys.modules[name] = None\n"
              "from parmst.bench.__main__ import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        [sys.executable, "-c", script, "--graph", "grid2d:side=4,seed=1", "--graph",
         "delaunay:n=20,seed=1", "--solver", "kruskal/serial", "--peers", "scipy,igraph",
         "--repeat", "1", "--no-cache", "--no-progress", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONWARNINGS": ""})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("wrote ")]
    assert lines == [
        "peer scipy skipped: scipy is not installed (pip install 'parmst[peers]')",
        "peer igraph skipped: igraph is not installed (pip install 'parmst[peers]')",
        ("graph delaunay:n=20,seed=1 skipped: the delaunay generator (SciPy's Qhull binding) "
        "needs scipy, which is not installed: pip install 'parmst[interop]'"),
        PLOTS_LINE]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench_custom.json",
                                                          "bench_custom.md"]
