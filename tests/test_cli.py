import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import parmst
from parmst.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def graph_file(tmp_path):
    path = tmp_path / "g.txt"
    parmst.Graph.from_edges([0, 1, 2, 0, 3], [1, 2, 0, 3, 3], [4, 1, 3, 2, 9]).write(path)
    return path


def test_solve_prints_the_summary(graph_file, capsys):
    assert main(["solve", str(graph_file), "--solver", "kruskal/serial", "--verify"]) == 0
    out = capsys.readouterr().out
    for field in ("solver", "num_vertices", "num_edges", "forest_edges", "components",
                  "total_weight", "init_time_s", "compute_time_s", "verified"):
        assert field in out
    assert re.search(r"total_weight\s+6\b", out)


def test_solve_json_stats_and_ids_output(graph_file, tmp_path, capsys):
    ids = tmp_path / "forest.ids"
    assert main(["solve", str(graph_file), "--json", "--stats", "-o", str(ids)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["forest_edges"] == 3 and "phases" in report
    assert ids.read_text().split() == ["1", "2", "3"]
    assert main(["verify", str(graph_file), str(ids)]) == 0
    ids.write_text("0\n1\n2\n")
    assert main(["verify", str(graph_file), str(ids)]) == 1


def test_solve_generated_graph(capsys):
    assert main(["solve", "--generate", "grid2d:side=8,seed=1", "--verify"]) == 0
    assert re.search(r"forest_edges\s+63\b", capsys.readouterr().out)


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "missing.txt"], "missing.txt"),
    (["solve", "{graph}", "--solver", "nope"], "unknown solver 'nope'"),
    (["solve", "{graph}", "--solver", "kruskal/serial", "--option", "bogus=1"], "unknown option"),
    (["solve", "{graph}", "--option", "novalue"], "KEY=VALUE"),
    (["solve"], "give a graph FILE or --generate SPEC"),
    (["verify", "{graph}", "nothere.ids"], "nothere.ids: no such file"),
])
def test_bad_input_gives_one_line_and_status_2(graph_file, argv, message, capsys):
    argv = [a.replace("{graph}", str(graph_file)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("parmst: error:") and message in err
    assert "Traceback" not in err


def test_malformed_file_names_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1 5\n1 x 2\n")
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.txt" in err and "line 2" in err


def test_generate_convert_round_trip(tmp_path, capsys):
    txt, gr = tmp_path / "r.txt", tmp_path / "r.gr"
    assert main(["generate", "grid2d:side=5,seed=2", "-o", str(txt)]) == 0
    assert main(["convert", str(txt), str(gr)]) == 0
    a, b = parmst.Graph.read(txt), parmst.Graph.read(gr)
    assert np.array_equal(a.weight, b.weight) and a.num_vertices == b.num_vertices
    assert main(["generate", "--list"]) == 0
    assert "grid2d" in capsys.readouterr().out


def test_info_lists_solvers_and_reasons(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "kruskal/serial" in out and "available" in out


def test_python_dash_m_entry_point(graph_file):
    done = subprocess.run([sys.executable, "-m", "parmst", "solve", str(graph_file)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "forest_edges" in done.stdout


def test_readme_commands_match_ci():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, flags=re.DOTALL)
    assert len(blocks) >= 2 and "parmst solve" in blocks[0]
    ci_lines = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci_lines[-1] == blocks[1]
