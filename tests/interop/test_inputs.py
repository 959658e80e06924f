"""Tables (pandas, polars, Arrow), igraph and Parquet in and out."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst import Graph
from parmst.errors import GraphFormatError, GraphValueError

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
igraph = pytest.importorskip("igraph")

SRC = np.array([0, 1, 2, 0], dtype=np.int32)
DST = np.array([1, 2, 3, 3], dtype=np.int32)
W = np.array([4.0, 1.0, 3.0, 2.0])


def _tables():
    columns = {"source": SRC, "target": DST, "weight": W}
    return {"pandas": pd.DataFrame(columns), "polars": pl.DataFrame(columns),
            "arrow": pa.table(columns), "batch": pa.record_batch(columns)}


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow", "batch"])
def test_from_table_views_the_columns(kind):
    table = _tables()[kind]
    g = Graph.from_table(table)
    assert g.src.tolist() == SRC.tolist() and g.weight.tolist() == W.tolist()
    weight = table["weight"]
    buffer = (np.asarray(weight.to_numpy()) if kind in ("pandas", "polars")
              else weight.to_numpy(zero_copy_only=True) if kind == "batch"
              else weight.chunk(0).to_numpy(zero_copy_only=True))
    assert np.shares_memory(g.weight, buffer) and np.shares_memory(g.src, np.asarray(
        table["source"].to_numpy() if kind != "arrow" else table["source"].chunk(0).to_numpy()))
    assert parmst.minimum_spanning_forest(g).edge_ids.tolist() == [1, 2, 3]


def test_from_table_copies_what_it_must_and_leaves_caller_arrays_writable():
    ids64 = pd.DataFrame({"s": SRC.astype(np.int64), "t": DST.astype(np.int64), "w": W})
    g = Graph.from_table(ids64, "s", "t", "w")
    assert g.src.dtype == np.int32 and not np.shares_memory(g.src, ids64["s"].to_numpy())
    mine = {"source": SRC.copy(), "target": DST.copy(), "weight": W.copy()}
    viewed = Graph.from_table(mine)
    assert np.shares_memory(viewed.weight, mine["weight"]) and mine["weight"].flags.writeable
    chunked = pa.concat_tables([pa.table({"source": SRC[:2], "target": DST[:2], "weight": W[:2]}),
                                pa.table({"source": SRC[2:], "target": DST[2:], "weight": W[2:]})])
    assert Graph.from_table(chunked).weight.tolist() == W.tolist()


@pytest.mark.parametrize("table", [
    pd.DataFrame({"source": pd.array([0, None], dtype="Int64"), "target": [1, 2], "weight": [1, 2]}),
    pl.DataFrame({"source": [0, None], "target": [1, 2], "weight": [1, 2]}),
    pa.table({"source": [0, None], "target": [1, 2], "weight": [1, 2]}),
])
def test_missing_values_are_one_clear_error(table):
    with pytest.raises(GraphValueError, match="'source' has 1 missing"):
        Graph.from_table(table)


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
def test_unknown_column_names_the_columns(kind):
    with pytest.raises(GraphValueError, match="no column 'w'.*source, target, weight"):
        Graph.from_table(_tables()[kind], weight="w")


def test_igraph_round_trip():
    ig = igraph.Graph([(0, 1), (1, 2), (2, 3), (0, 3)], directed=True,
                      edge_attrs={"weight": W.tolist()})
    g = Graph.from_igraph(ig)
    assert g.num_vertices == 4 and g.weight.tolist() == W.tolist()
    tree = parmst.minimum_spanning_forest(g).to_igraph()
    assert tree.vcount() == 4 and tree.es["edge_id"] == [1, 2, 3]
    assert sorted(tree.es["weight"]) == sorted(ig.spanning_tree(weights="weight").es["weight"])
    assert Graph.from_igraph(igraph.Graph([(0, 1)])).weight.tolist() == [1]
    with pytest.raises(GraphValueError, match="no edge attribute 'km'"):
        Graph.from_igraph(ig, weight="km")
    with pytest.raises(GraphValueError, match="expected an igraph.Graph"):
        Graph.from_igraph({"source": []})


def test_parquet_round_trip_and_errors(tmp_path):
    g = Graph.from_edges(SRC, DST, W.astype(np.float32), num_vertices=6)
    path = tmp_path / "g.parquet"
    g.write(path)
    back = Graph.read(path)
    assert back.num_vertices == 6 and back.weight.dtype == np.float32
    assert back.src.tolist() == SRC.tolist()
    with pytest.raises(GraphFormatError, match="no column"):
        Graph.read(path, weight="km")
    (tmp_path / "bad.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(GraphFormatError, match="not a Parquet file"):
        Graph.read(tmp_path / "bad.parquet")
