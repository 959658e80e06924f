"""CSV/TSV edge tables: named columns, names or ids, both engines, one clear error per problem."""

import gzip

import numpy as np
import pytest

import parmst
from parmst import GraphFormatError, io
from parmst.cli import main
from parmst.formats import csv as csv_format

ENGINES = ["python", pytest.param("pyarrow", marks=pytest.mark.skipif(
    not parmst._optional.installed("pyarrow"), reason="pyarrow not installed"))]

ROADS = ('from,to,km,note\n'
         'Oslo,Bergen,463,"long, slow"\n'
         '\n'
         'Bergen,Voss,104,\n'
         'Oslo,Voss,330,x\n'
         '"Hel ""north""",Tor,7,\n')


def write(tmp_path, text, name="g.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def read(path, engine, **options):
    return io.read(path, engine=engine, **options)


@pytest.mark.parametrize("engine", ENGINES)
def test_names_columns_and_quoting(tmp_path, engine):
    g = read(write(tmp_path, ROADS), engine)
    assert g.labels.tolist() == ["Oslo", "Bergen", "Voss", 'Hel "north"', "Tor"]
    assert g.columns == ("from", "to", "km") and g.weight.tolist() == [463, 104, 330, 7]
    assert g.src.tolist() == [0, 1, 0, 3] and g.weight.dtype == np.int64
    forest = parmst.minimum_spanning_forest(g)
    out = tmp_path / "forest.csv"
    forest.write(out)
    assert out.read_text().splitlines() == [
        "from,to,km", "Bergen,Voss,104", "Oslo,Voss,330", '"Hel ""north""",Tor,7']
    assert read(out, engine).labels.tolist() == ["Bergen", "Voss", "Oslo", 'Hel "north"', "Tor"]


@pytest.mark.parametrize("engine", ENGINES)
def test_default_columns_ids_tsv_and_gzip(tmp_path, engine):
    path = write(tmp_path, "weight\tx\ttarget\tsource\n2.5\t9\t1\t0\n-1\t9\t2\t1\n", "g.tsv")
    g = read(path, engine)
    assert g.labels is None and g.src.tolist() == [0, 1] and g.dst.tolist() == [1, 2]
    assert g.weight.tolist() == [2.5, -1.0] and g.columns == ("source", "target", "weight")
    two = write(tmp_path, "a,b\n3,4\n", "two.csv")
    assert read(two, engine).weight.tolist() == [1] and read(two, engine).num_vertices == 5
    chosen = read(path, engine, source="x", target="target", weight="weight")
    assert chosen.src.tolist() == [9, 9]
    packed = tmp_path / "g.csv.gz"
    packed.write_bytes(gzip.compress(ROADS.encode()))
    assert read(packed, engine).num_edges == 4
    sparse = write(tmp_path, "u,v\n10,999999999999\n7,10\n", "s.csv")
    assert read(sparse, engine, relabel=True).labels.tolist() == [7, 10, 999999999999]
    mixed = write(tmp_path, "u,v\n7,x\n8,7\n", "m.csv")  # one name makes both columns names
    assert read(mixed, engine).labels.tolist() == ["7", "x", "8"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "options", "message"), [
    ("a,b,cost\n1,2,3\n\n2,3,abc\n", {}, "line 4: weight column 'cost' holds 'abc'"),
    ("a,b,c\n1,2,3\n2,3\n", {}, "line 3: expected 3 fields (as the header), found 2"),
    ("a,b,c\n1,2,3\n", {"weight": "cost"}, "line 1: no weight column 'cost'; the header"),
    ("a,b,c\n1,2,nan\n", {}, "line 2: weight column 'c' holds NaN; pass allow_nan=True"),
    ("a,b,c\n1,2,100000000000000000000000\n", {},
     "line 2: weight column 'c' holds the integer 100000000000000000000000, beyond int64"),
    ("a,b,c\n1,2,3000000000\n", {"weight_dtype": "int32"},
     "line 2: weight column 'c' holds 3000000000, beyond int32"),
    ("a,b,c\nx,,3\n", {}, "line 2: target column 'b' is empty"),
    ("", {}, "no header row: the file is empty"),
    ("a\n1\n", {}, "an edge needs a source and a target column"),
])
def test_bad_tables_give_one_error_naming_file_line_and_column(tmp_path, engine, text, options,
                                                               message):
    path = write(tmp_path, text)
    with pytest.raises(GraphFormatError) as caught:
        read(path, engine, **options)
    assert str(caught.value).startswith(str(path)) and message in str(caught.value)


@pytest.mark.parametrize("engine", ENGINES)
def test_nan_on_request_and_float_integers_on_request(tmp_path, engine):
    path = write(tmp_path, "a,b,c\n1,2,nan\n2,3,100000000000000000000000\n")
    g = read(path, engine, allow_nan=True, weight_dtype="float64")
    assert np.isnan(g.weight[0]) and g.weight[1] == 1e23


def test_engines_agree_on_a_larger_table(tmp_path, monkeypatch):
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(2)
    names = np.array([f"n{k}" for k in range(300)])
    rows = [f"{names[u]},{names[v]},{w!r}" for u, v, w in
            zip(rng.integers(0, 300, 3000), rng.integers(0, 300, 3000),
                rng.random(3000).tolist())]
    path = write(tmp_path, "s,t,w\n" + "\n".join(rows) + "\n")
    a = read(path, "python")
    monkeypatch.setattr(csv_format, "_read_python", None)  # pyarrow reads it alone
    b = read(path, "pyarrow")
    assert a.src.tolist() == b.src.tolist() and a.dst.tolist() == b.dst.tolist()
    assert a.labels.tolist() == b.labels.tolist() and a.weight.tobytes() == b.weight.tobytes()


def test_without_pyarrow_the_default_engine_is_parmsts_own(tmp_path, monkeypatch):
    monkeypatch.setattr(csv_format, "installed", lambda module: False)
    monkeypatch.setattr(csv_format, "_read_arrow", None)  # would fail if it were called
    assert io.read(write(tmp_path, ROADS)).num_edges == 4


def test_integer_labels_are_written_by_the_fast_path(tmp_path):
    g = parmst.Graph.from_edges([10**12, 5], [5, 7], [1.5, 2.0], relabel=True)
    io.write(g, tmp_path / "g.tsv")
    assert (tmp_path / "g.tsv").read_text() == "source\ttarget\tweight\n" \
        "1000000000000\t5\t1.5\n5\t7\t2.0\n"


def test_mpi_ranks_cannot_read_csv_in_parts(tmp_path):
    with pytest.raises(GraphFormatError, match="distributed reading supports .* not csv"):
        io.read_part(write(tmp_path, ROADS), 0, 2)


def test_cli_reads_named_columns_and_writes_the_names(tmp_path, capsys):
    path = write(tmp_path, ROADS)
    out = tmp_path / "f.csv"
    assert main(["solve", str(path), "--src-col", "to", "--dst-col", "from",
                 "--weight-col", "km", "--verify", "-o", str(out)]) == 0
    assert out.read_text().splitlines()[:2] == ["to,from,km", "Voss,Bergen,104"]
    assert "wrote" in capsys.readouterr().err
    assert main(["solve", str(path), "-o", str(tmp_path / "f.gr")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dimacs files cannot hold" in err
    nan = write(tmp_path, "a,b,w\nx,y,nan\ny,z,1\n", "nan.csv")
    assert main(["solve", str(nan)]) == 2
    assert "line 2: weight column 'w' holds NaN; give --ignore-nan to leave those edges out" \
        in capsys.readouterr().err
    assert main(["solve", str(nan), "--ignore-nan"]) == 0
    assert "total_weight" in capsys.readouterr().out
    assert main(["solve", str(path), "--weight-col", "note"]) == 2
    err = capsys.readouterr().err
    assert "line 2: weight column 'note' holds 'long, slow'" in err and err.count("\n") == 1
    labels = tmp_path / "names.txt"
    assert main(["convert", str(path), str(tmp_path / "g.gr"), "--relabel", "first",
                 "--labels", str(labels)]) == 0
    assert labels.read_text().splitlines()[:2] == ["Oslo", "Bergen"]
    assert main(["convert", str(path), str(tmp_path / "h.gr")]) == 2
    assert "give --relabel" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "g.gr"), "--src-col", "a"]) == 2
    assert "--src-col names the columns of parquet and csv files" in capsys.readouterr().err
