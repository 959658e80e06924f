"""``parmst bench`` through its argument parser: end to end, compare, usage and failures."""

import argparse
import json

import pytest

from parmst.bench import cli


def _bench(*argv):
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(list(argv)))


def test_tiny_end_to_end_run_writes_table_json_and_plots(tmp_path, capsys):
    status = _bench("--graph", "grid2d:side=5,seed=1", "--graph", "dense:n=16,seed=2",
                    "--solver", "kruskal/serial,prim/serial", "--peers", "scipy",
                    "--repeat", "2", "--cache-dir", str(tmp_path / "cache"),
                    "--out", str(tmp_path / "out"), "--name", "tiny", "--no-progress")
    assert status == 0
    out = capsys.readouterr().out.splitlines()
    # the terminal gets a summary and the report's path; the report is in its file
    assert out[0] == "tiny: 2 graphs, 2 solver variants, 1 peer; fastest per graph:"
    assert out[1].split() == ["graph", "fastest", "M", "edges/s", "vs", "scipy"]
    assert [line.split()[0] for line in out[2:4]] == ["grid2d:side=5,seed=1", "dense:n=16,seed=2"]
    report_line = (f"report: {tmp_path / 'out' / 'bench_tiny.md'} (beside it: "
                   "bench_tiny.json, bench_tiny.png)")
    assert out[4:] == [report_line]
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["bench_tiny.json", "bench_tiny.md", "bench_tiny.png"]
    report = (tmp_path / "out" / "bench_tiny.md").read_text()
    assert "| graph | edges | kruskal/serial | prim/serial | scipy |" in report
    data = json.loads((tmp_path / "out" / "bench_tiny.json").read_text())
    assert [g["name"] for g in data["graphs"]] == ["grid2d:side=5,seed=1", "dense:n=16,seed=2"]
    assert all(r["status"] == "ok" for r in data["records"])
    assert data["config"]["command"].startswith("parmst bench --repeat 2")
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 2


def test_compare_prints_ratios_of_two_saved_runs(tmp_path, capsys):
    for name in ("a", "b"):
        assert _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial",
                      "--peers", "none", "--repeat", "1", "--no-cache", "--no-plots",
                      "--out", str(tmp_path), "--name", name, "--no-progress") == 0
    capsys.readouterr()
    a, b = str(tmp_path / "bench_a.json"), str(tmp_path / "bench_b.json")
    assert _bench("--compare", a, b) == 0
    text = capsys.readouterr().out
    assert f"| graph | solver | {a} time (s) | {b} time (s) | {a}/{b} |" in text
    assert "| grid2d:side=4,seed=1 | kruskal/serial |" in text


def test_usage_errors_exit_2(tmp_path, capsys):
    assert _bench() == 2
    assert "--suite" in capsys.readouterr().err
    assert _bench("--graph", "nosuchfamily:n=3", "--no-cache", "--no-progress") == 2
    assert _bench("--graph", "grid2d:side=3", "--solver", "bogus/x", "--no-progress") == 2
    assert _bench("--compare", str(tmp_path / "missing.json"), str(tmp_path / "x.json")) == 2


def test_bad_thread_list_is_rejected():
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--threads", "0,2"])


def test_list_shows_suites_and_peers(capsys):
    assert _bench("--list") == 0
    text = capsys.readouterr().out
    assert "ecl-small" in text and "scipy" in text and "kronecker:scale=13" in text


def test_planted_mismatch_fails_the_command(tmp_path, capsys, wrong_solver):
    status = _bench("--graph", "grid2d:side=5,seed=1", "--solver", f"kruskal/serial,{wrong_solver}",
                    "--peers", "none", "--repeat", "1", "--no-cache", "--no-progress",
                    "--no-plots", "--out", str(tmp_path))
    assert status == 1
    out = capsys.readouterr()
    assert f"  MISMATCH: {wrong_solver} on grid2d:side=5,seed=1: " in out.out
    assert "**MISMATCH**" in (tmp_path / "bench_custom.md").read_text()
    assert "FAILED" in out.err
    record = json.loads((tmp_path / "bench_custom.json").read_text())["records"][1]
    assert (record["solver"], record["status"], record["times"]) == (wrong_solver, "MISMATCH", [])


def _front_doors_like(tmp_path, *extra):
    """A front-doors run in miniature: kruskal/serial, parmst's SciPy drop-in and SciPy."""
    pytest.importorskip("scipy", reason="the front-door peers need SciPy")
    pytest.importorskip("matplotlib", reason="plots need matplotlib")
    return _bench("--graph", "grid2d:side=5,seed=1", "--graph", "dense:n=16,seed=2",
                  "--solver", "kruskal/serial", "--peers", "parmst-scipy,scipy",
                  "--repeat", "1", "--no-cache", "--no-progress", "--out", str(tmp_path),
                  "--name", "front-doors-tiny", *extra)


def test_a_run_stopped_part_way_leaves_its_plot_beside_its_tables(tmp_path, monkeypatch):
    """The report written after each graph includes the PNG, not only the md and json."""
    from parmst.bench import harness

    load_graph = harness.load_graph

    def stop_at_the_second_graph(spec, cache_dir):
        if spec.startswith("dense"):
            raise KeyboardInterrupt
        return load_graph(spec, cache_dir)

    monkeypatch.setattr(harness, "load_graph", stop_at_the_second_graph)
    with pytest.raises(KeyboardInterrupt):
        _front_doors_like(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bench_front-doors-tiny.json", "bench_front-doors-tiny.md", "bench_front-doors-tiny.png"]
    data = json.loads((tmp_path / "bench_front-doors-tiny.json").read_text())
    assert {r["solver"] for r in data["records"]} == {"kruskal/serial", "parmst-scipy", "scipy"}


def test_a_plot_that_fails_is_one_line_naming_why_and_the_tables_stay(tmp_path, monkeypatch,
                                                                      capsys):
    from parmst.bench import plots

    def broken(result, path):
        raise RuntimeError("planted plot failure")

    monkeypatch.setattr(plots, "plot_throughput", broken)
    assert _front_doors_like(tmp_path) == 0
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith("plots")] == [
        "plots not written: RuntimeError: planted plot failure"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bench_front-doors-tiny.json", "bench_front-doors-tiny.md"]


def test_weights_placement_and_end_to_end_options_reach_the_run(tmp_path, monkeypatch):
    from parmst.bench import harness

    place = harness.place

    def no_device(graph, placement):
        if placement == "device":
            raise ImportError("numba-cuda is not installed")
        return place(graph, placement)

    monkeypatch.setattr(harness, "place", no_device)
    status = _bench("--graph", "grid2d:side=4,weights=float,seed=1", "--solver",
                    "kruskal/serial", "--peers", "none", "--repeat", "1", "--no-cache",
                    "--no-plots", "--no-progress", "--weights", "given,ranked",
                    "--placement", "host,device", "--end-to-end", "--out", str(tmp_path))
    assert status == 0
    data = json.loads((tmp_path / "bench_custom.json").read_text())
    assert [g["name"] for g in data["graphs"]] == ["grid2d:side=4,weights=float,seed=1",
                                                   "grid2d:side=4,weights=float,seed=1~ranked"]
    assert sorted(data["config"]["skipped_graphs"]) == [
        "grid2d:side=4,weights=float,seed=1@device",
        "grid2d:side=4,weights=float,seed=1~ranked@device"]
    assert data["config"]["end_to_end"] is True
    command = data["config"]["command"]
    assert "--weights given,ranked --placement host,device" in command
    assert command.endswith("--end-to-end")
    assert _bench("--graph", "grid2d:side=4,seed=1", "--weights", "squared",
                  "--no-progress") == 2


@pytest.mark.parametrize("source", ["nosuch.gr", "data/nosuch", "nosuch.txt.gz"])
def test_graph_that_looks_like_a_missing_file_is_named_so(source, capsys):
    assert _bench("--graph", source) == 2
    assert capsys.readouterr().err == f"parmst bench: {source}: no such file\n"


def test_graph_spec_with_an_unknown_family_is_not_taken_for_a_file(capsys):
    assert cli.missing_graph_file("nosuchfamily:n=10") is None
    assert cli.missing_graph_file("rmat:scale=5,a=0.5") is None
    assert cli.missing_graph_file("real:nosuch") is None


def test_without_out_the_report_goes_to_bench_results(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial",
                  "--peers", "none", "--repeat", "1", "--no-cache", "--no-plots",
                  "--no-progress") == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"report: {cli.DEFAULT_OUT}/bench_custom.md (beside it: bench_custom.json)")
    assert sorted(p.name for p in (tmp_path / cli.DEFAULT_OUT).iterdir()) == [
        "bench_custom.json", "bench_custom.md"]


def test_out_dash_prints_the_markdown_report_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _bench("--graph", "grid2d:side=4,seed=1", "--solver", "kruskal/serial",
                  "--peers", "none", "--repeat", "1", "--no-cache", "--no-progress",
                  "--out", "-") == 0
    assert capsys.readouterr().out.startswith("# parmst bench: custom\n")
    assert list(tmp_path.iterdir()) == []


def test_an_out_folder_that_cannot_be_made_is_refused_before_any_run(tmp_path, monkeypatch,
                                                                      capsys):
    from parmst.bench import harness

    monkeypatch.setattr(harness, "run", lambda config: pytest.fail("ran anyway"))
    (tmp_path / "file").write_text("")
    assert _bench("--graph", "grid2d:side=4,seed=1", "--out", str(tmp_path / "file" / "x")) == 2
    assert capsys.readouterr().err.startswith(f"parmst bench: --out {tmp_path / 'file' / 'x'}: "
                                              "cannot write there: ")
