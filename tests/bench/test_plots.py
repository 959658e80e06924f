"""The PNG plots: which ones a result gets, and that they are written."""

from parmst.bench.result import BenchResult, GraphInfo, Record
from parmst.bench.store import plot


def _sweep_result(size_series):
    graphs = [GraphInfo(f"dense-{n}", f"dense:n={n}", n, n * (n - 1) // 2, "int32")
              for n in (64, 128, 256)]
    records = []
    for i, g in enumerate(graphs):
        base = 0.001 * 4**i
        records.append(Record(g.name, "kruskal/serial", times=[base], time=base))
        records.append(Record(g.name, "prim-dense/serial", times=[base / 2], time=base / 2))
        for threads in (1, 2, 4):
            t = base / threads**0.8
            records.append(Record(g.name, "prim-dense/cpu", threads=threads, times=[t], time=t))
        records.append(Record(g.name, "scipy", kind="peer", times=[base * 3], time=base * 3))
    records.append(Record("dense-64", "broken/cpu", status="MISMATCH", note="planted"))
    return BenchResult({"label": "test box"},
                       {"name": "series", "size_series": size_series,
                        "scheme_text": "median of 1 runs"}, graphs, records)


def test_sweep_and_series_get_scaling_and_size_plots(tmp_path):
    written = plot(_sweep_result(True), tmp_path)
    assert [p.name for p in written] == ["bench_series.png", "bench_series_scaling.png",
                                         "bench_series_size.png"]
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plain_result_gets_only_the_throughput_chart(tmp_path):
    result = _sweep_result(False)
    result.records = [r for r in result.records if r.threads is None]
    assert [p.name for p in plot(result, tmp_path, stem="plain")] == ["plain.png"]


def test_reference_figures_are_drawn_beside_ours(tmp_path):
    graphs = [GraphInfo("grid2d", "grid2d:side=4", 16, 2_000_000, "int32")]
    result = BenchResult({"label": "gpu box"},
                         {"name": "ref", "measure": "compute",
                          "reference": {"name": "ECL-MST H100", "source": "s",
                                        "values": {"grid2d": 1117}, "measure": "compute"}},
                         graphs, [Record("grid2d", "ecl/gpu", times=[0.04], time=0.04,
                                         compute_time=0.002)])
    (path,) = plot(result, tmp_path)
    assert path.name == "bench_ref.png" and path.read_bytes()[:4] == b"\x89PNG"
