import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import parmst
from faults import plant
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
    (["solve", "{graph}", "--solver", "ecl/cpu", "--threads", "0"], "ecl/cpu: --threads 0: must be"),
    (["verify", "{graph}", "{graph}", "--max-listed", "-1"], "--max-listed must be 0 or more"),
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
    from parmst.cli.info import APPROXIMATE

    marked = [line.split()[0] for line in out.splitlines() if APPROXIMATE in line]
    assert marked == [s.name for s in parmst.registry.solvers().values() if not s.exact]
    assert "prim-bmv/cpu" in marked


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


# ---------------------------------------------------------------------- verify never lies
@pytest.mark.parametrize("max_listed", [0, 1, 3])
@pytest.mark.parametrize("fault", ["heavier_swap", "cycle", "missing_edge", "duplicate_id",
                                   "out_of_range_id", "wrong_tie"])
def test_verify_command_never_prints_verified_for_a_wrong_forest(tmp_path, capsys, fault,
                                                                 max_listed):
    rng = np.random.default_rng(5)
    g = parmst.Graph.from_edges(rng.integers(0, 9, 30), rng.integers(0, 9, 30),
                                rng.integers(0, 4, 30), num_vertices=10)
    g, ids = plant(fault, g, random.Random(max_listed))
    graph_file, ids_file = tmp_path / "g.txt", tmp_path / "f.ids"
    g.write(graph_file)
    ids_file.write_text("".join(f"{i}\n" for i in ids))
    assert main(["verify", str(graph_file), str(ids_file), "--max-listed", str(max_listed)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("verification failed") and "verified" not in out


@pytest.fixture
def solvers_drop_an_edge(monkeypatch):
    """Every solver's result loses its first edge: no longer a spanning forest."""
    import parmst.api

    real_run = parmst.api._run

    def drops_an_edge(graph, solver, options):
        forest = real_run(graph, solver, options)
        return parmst.Forest.from_edge_ids(graph, forest.edge_ids[1:], solver=forest.solver)

    monkeypatch.setattr(parmst.api, "_run", drops_an_edge)


def test_solve_verify_reports_a_wrong_solver_result_and_never_verified(graph_file, capsys,
                                                                        solvers_drop_an_edge):
    assert main(["solve", str(graph_file), "--verify"]) == 1
    captured = capsys.readouterr()
    assert "verified" not in captured.out and "verification failed" in captured.err
    assert "verification failed: verification failed" not in captured.err


@pytest.mark.parametrize(("flags", "verdict"), [
    ([], "verified        a spanning forest, 11.17 % heavier than the minimum"),
    (["--maximum"], "% lighter than the maximum"),
])
def test_solve_verify_reports_how_far_an_approximate_solver_is(capsys, flags, verdict):
    argv = ["solve", "--generate", "random-degree:n=64,seed=1", "--solver", "prim-bmv/cpu",
            "--option", "parts=2", "--verify", *flags]
    assert main(argv) == 0
    assert verdict in capsys.readouterr().out


def test_solve_verify_fails_an_approximate_result_that_does_not_span(graph_file, capsys,
                                                                       solvers_drop_an_edge):
    assert main(["solve", str(graph_file), "--solver", "prim-bmv/cpu", "--verify"]) == 1
    captured = capsys.readouterr()
    assert "verified" not in captured.out
    assert captured.err == ("parmst: verification failed: the prim-bmv/cpu result is not a "
                            "spanning forest (failed checks: spanning)\n")


@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe\x00garbage\n", "line 1: expected an edge id (int64)"),
    (b"1\n99999999999999999999\n", "line 2: expected an edge id (int64)"),
])
def test_damaged_edge_id_files_give_one_line(graph_file, tmp_path, capsys, content, message):
    ids = tmp_path / "f.ids"
    ids.write_bytes(content)
    assert main(["verify", str(graph_file), str(ids)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_damaged_npy_edge_ids_give_one_line(graph_file, tmp_path, capsys):
    objects, huge = tmp_path / "objects.npy", tmp_path / "huge.npy"
    np.save(objects, np.array([1, None], dtype=object), allow_pickle=True)
    with open(huge, "wb") as f:  # the header claims 10^12 ids; the file holds three
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<i8", "fortran_order": False, "shape": (10**12,)})
        f.write(np.arange(3, dtype="<i8").tobytes())
    for path in (objects, huge):
        assert main(["verify", str(graph_file), str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("parmst: error:") and "not a NumPy .npy array" in err


# ---------------------------------------------------------------------- --relabel
@pytest.fixture
def sparse_snap(tmp_path):
    """A SNAP file whose ids are sparse: the largest would need 10^12 vertices."""
    path = tmp_path / "sparse.snap"
    path.write_text("# FromNodeId\tToNodeId\tWeight\n"
                    "7\t999999999999\t5\n"
                    "999999999999\t-3\t1\n"
                    "-3\t7\t2\n"
                    "42\t7\t9\n")
    return path


def test_huge_sparse_id_fails_with_file_line_and_the_relabel_hint(sparse_snap, capsys):
    sparse_snap.write_text(sparse_snap.read_text().replace("-3", "3"))
    assert main(["solve", str(sparse_snap)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "sparse.snap, line 2: vertex id 999999999999 would need 10^12 vertices, 7.28 TiB" in err
    assert "--relabel" in err


def test_solve_relabel_writes_the_forest_in_the_files_own_ids(sparse_snap, tmp_path, capsys):
    out = tmp_path / "forest.snap"
    assert main(["solve", str(sparse_snap), "--relabel", "--verify", "-o", str(out)]) == 0
    assert re.search(r"num_vertices\s+4\b", capsys.readouterr().out)
    rows = [line.split("\t") for line in out.read_text().splitlines() if not line.startswith("#")]
    assert rows == [["999999999999", "-3", "1"], ["-3", "7", "2"], ["42", "7", "9"]]
    ids = tmp_path / "forest.ids"
    assert main(["solve", str(sparse_snap), "--relabel", "first", "-o", str(ids)]) == 0
    assert ids.read_text().split() == ["1", "2", "3"]  # edge ids do not depend on relabelling
    assert main(["verify", str(sparse_snap), str(ids), "--relabel"]) == 0
    assert "verified" in capsys.readouterr().out


def test_relabel_refuses_outputs_and_inputs_that_cannot_hold_sparse_ids(sparse_snap, tmp_path,
                                                                          capsys):
    assert main(["solve", str(sparse_snap), "--relabel", "-o", str(tmp_path / "f.gr")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before solving
    assert "dimacs files cannot hold" in captured.err and "edgelist or snap" in captured.err
    gr = tmp_path / "g.gr"
    gr.write_text("p sp 2 1\na 1 2 3\n")
    assert main(["solve", str(gr), "--relabel"]) == 2
    assert "dimacs files number their vertices densely" in capsys.readouterr().err
    assert main(["solve", "--generate", "grid2d:side=3", "--relabel"]) == 2
    assert "not to --generate" in capsys.readouterr().err
    assert main(["info", "--relabel"]) == 2
    assert "--relabel applies to the graph of --explain FILE" in capsys.readouterr().err
    assert main(["info", "--explain", str(sparse_snap), "--relabel"]) == 0
    assert "auto picks" in capsys.readouterr().out


def test_convert_relabel_writes_dense_ids_and_the_label_file(sparse_snap, tmp_path, capsys):
    gr, labels = tmp_path / "g.gr", tmp_path / "labels.txt"
    assert main(["convert", str(sparse_snap), str(gr), "--relabel", "--labels", str(labels)]) == 0
    assert "relabelled 4 vertices to 0..3" in capsys.readouterr().out
    g = parmst.Graph.read(gr)
    assert g.num_vertices == 4 and g.src.tolist() == [1, 3, 0, 2]
    assert labels.read_text().split() == ["-3", "7", "42", "999999999999"]
    assert main(["convert", str(sparse_snap), str(gr), "--labels", str(labels)]) == 2
