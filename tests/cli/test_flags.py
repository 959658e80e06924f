"""The command line does what its flags say: NaN rows kept and left out, threads with "auto",
conflicting inputs and unwritable outputs refused before any work, and every write announced."""

import os

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.cli import main
from parmst.cli.report import cli_words


@pytest.fixture
def nan_file(tmp_path):
    path = tmp_path / "nan.txt"
    path.write_text("0 1 1\n1 2 nan\n0 2 3\n2 3 2\n")
    return path


def test_ignore_nan_reads_nan_rows_and_leaves_them_out(nan_file, tmp_path, capsys):
    ids = tmp_path / "f.ids"
    assert main(["solve", str(nan_file), "--ignore-nan", "-o", str(ids)]) == 0
    assert ids.read_text().split() == ["0", "2", "3"]
    assert f"parmst: wrote {ids}: 3 forest edge ids" in capsys.readouterr().err


def test_nan_error_names_the_flag_not_the_keyword(nan_file, capsys):
    assert main(["solve", str(nan_file)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "--ignore-nan" in err and "allow_nan" not in err


def test_cli_words_maps_each_keyword_to_its_flag():
    assert cli_words("edge 3 has a NaN weight (2 NaN weights in all); pass allow_nan=True and "
                     "solve with ignore_nan=True to leave them out") == (
        "edge 3 has a NaN weight (2 NaN weights in all); give --ignore-nan to leave those "
        "edges out")
    assert cli_words("threads=0: must be between 1 and 2") == "--threads 0: must be between 1 and 2"
    assert "--relabel" in cli_words("id 10**12; read with relabel=True (parmst CLI: --relabel) "
                                    "for sparse ids")


def test_threads_with_auto_picks_a_solver_that_takes_threads(tmp_path, capsys):
    sparse = parmst.Graph.from_edges([0, 1, 2], [1, 2, 3], [3, 1, 2])
    dense = parmst.Graph.from_edges([0, 0, 1], [1, 2, 2], [3, 1, 2])
    assert registry.select(sparse).name == "kruskal/serial"
    assert registry.select(sparse, {"threads": 2}).name == "ecl/cpu"
    assert registry.select(dense, {"threads": 2}).name == "prim-dense/cpu"
    forest = parmst.minimum_spanning_forest(sparse, threads=2)
    assert forest.solver == "ecl/cpu" and forest.edge_ids.tolist() == [0, 1, 2]
    path = tmp_path / "g.gr"
    sparse.write(path)
    assert main(["solve", str(path), "--threads", "2"]) == 0
    assert "ecl/cpu" in capsys.readouterr().out
    with pytest.raises(parmst.errors.SolverUnavailable, match="no solver that takes"):
        registry.select(sparse, {"no_such_option": 1})


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"parmst {parmst.__version__}"


@pytest.mark.parametrize("argv, message", [
    (["solve", "{file}", "--generate", "grid2d:side=3"], "not both"),
    (["solve", "--generate", "grid2d:side=3", "-o", "{tmp}/missing/x.ids"], "does not exist"),
    (["solve", "{file}", "-o", "{tmp}"], "is a directory"),
    (["generate", "grid2d:side=3", "-o", "{tmp}/missing/g.gr"], "does not exist"),
    (["convert", "{file}", "{tmp}/missing/g.mtx"], "does not exist"),
])
def test_refused_before_any_work_with_one_line(argv, message, nan_file, tmp_path, capsys,
                                               monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.setattr(parmst.io, "read", no_work)
    monkeypatch.setattr(parmst.generators, "generate", no_work)
    argv = [a.format(file=nan_file, tmp=tmp_path) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("parmst: error: ")


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert main(["generate", "grid2d:side=3", "-o", str(folder / "g.gr")]) == 2
    finally:
        folder.chmod(0o700)
    assert "permission denied" in capsys.readouterr().err


def test_every_writing_command_says_what_it_wrote(tmp_path, capsys):
    gr, mtx, out = tmp_path / "g.gr", tmp_path / "g.mtx", tmp_path / "f.gr"
    assert main(["generate", "grid2d:side=1", "-o", str(gr)]) == 0
    assert capsys.readouterr().err == f"parmst: wrote {gr}: 1 vertex, 0 edges\n"
    assert main(["convert", str(gr), str(mtx)]) == 0
    assert capsys.readouterr().err == f"parmst: wrote {mtx}: 1 vertex, 0 edges\n"
    parmst.Graph.from_edges([0], [1], [5]).write(gr)
    assert main(["solve", str(gr), "-o", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"parmst: wrote {out}: 1 forest edge\n"
    assert '"components": 1' in captured.out
    assert np.array_equal(parmst.io.read(out).src, [0])


def test_plurals_in_summaries():
    forest = parmst.minimum_spanning_forest(parmst.Graph.from_edges([0], [1], [5]))
    assert "1 forest edge, 1 component," in forest.summary()
    assert "forest of 1 edge, 1 component, minimal" in str(parmst.verify(
        parmst.Graph.from_edges([0], [1], [5]), forest))


@pytest.mark.mpi
def test_ignore_nan_with_the_mpi_solvers(tmp_path):
    """Each mpi solver on one process (in this one), filter-boruvka/mpi on two ranks: the NaN
    rows are read, left out, and the forest's ids are the file's."""
    from mpi_launch import run_ranks
    from parmst.distributed import DistributedGraph

    path = tmp_path / "nan.txt"
    path.write_text("0 1 1\n1 2 nan\n0 2 3\n2 3 2\n3 4 nan\n1 4 5\n")
    expected = [0, 2, 3, 5]
    dg = DistributedGraph.read(path, allow_nan=True)
    for name, solver in registry.solvers().items():
        if solver.distributed_entry is not None and solver.can_run() is True:
            forest = parmst.minimum_spanning_forest(dg, solver=name, ignore_nan=True)
            assert forest.edge_ids.tolist() == expected, name
    out = tmp_path / "f.npy"  # written by the ranks in parallel, announced once
    done = run_ranks(2, ["-m", "parmst", "solve", str(path), "--ignore-nan", "--solver",
                         "filter-boruvka/mpi", "-o", str(out)], timeout=300)
    assert done.returncode == 0, done.stderr
    assert np.load(out).tolist() == expected
    assert done.stderr.count(f"parmst: wrote {out}: 4 forest edges\n") == 1, done.stderr
