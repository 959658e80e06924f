"""Vertex names of any type: numbered once by one rule, kept by the graph, given back by every
output of the forest."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import parmst
from parmst import Graph, GraphValueError, _names
from parmst.cli import main

pd = pytest.importorskip("pandas")

# Roads between towns: the minimum spanning forest is Bergen-Voss, Oslo-Voss, and the
# island pair Hel-Tor on its own.
ROADS = {"from": ["Oslo", "Bergen", "Oslo", "Hel", "Voss"],
         "to": ["Bergen", "Voss", "Voss", "Tor", "Bergen"],
         "km": [463, 104, 330, 7, 120]}
FIRST = ["Oslo", "Bergen", "Voss", "Hel", "Tor"]
FOREST_ROWS = [("Bergen", "Voss", 104, 1), ("Oslo", "Voss", 330, 2), ("Hel", "Tor", 7, 3)]


def rows(frame):
    return [tuple(r) for r in frame.itertuples(index=False)]


def test_string_names_are_numbered_by_first_appearance_and_kept():
    g = Graph.from_edges(ROADS["from"], ROADS["to"], ROADS["km"])
    assert g.labels.tolist() == FIRST
    assert g.src.tolist() == [0, 1, 0, 3, 2] and g.dst.tolist() == [1, 2, 2, 4, 1]
    assert "named" in repr(g)
    by_name = Graph.from_edges(ROADS["from"], ROADS["to"], ROADS["km"], relabel="sorted")
    assert by_name.labels.tolist() == sorted(FIRST)


def test_dense_ids_keep_the_zero_copy_path_and_sparse_ids_need_relabel():
    src, dst = np.array([0, 1, 2], dtype=np.int32), np.array([1, 2, 0], dtype=np.int32)
    g = Graph.from_edges(src, dst, np.ones(3, dtype=np.int32), copy=False)
    assert g.labels is None and np.shares_memory(g.src, src)
    huge = [10**12, 5, 10**12 + 1]
    with pytest.raises(GraphValueError, match="relabel=True"):
        Graph.from_edges(huge, [5, 7, 7], [1, 2, 3])
    g = Graph.from_edges(huge, [5, 7, 7], [1, 2, 3], relabel=True)
    assert g.labels.tolist() == [5, 7, 10**12, 10**12 + 1]
    assert Graph.from_edges([-4, 9], [9, 2], relabel="first").labels.tolist() == [-4, 9, 2]


@pytest.mark.parametrize("order", ["first", "sorted"])
def test_every_numbering_path_gives_the_same_numbers(order, monkeypatch):
    """Sorting (fixed-width strings), hashing (objects, with and without pandas) and Arrow."""
    rng = np.random.default_rng(5)
    words = np.array([f"v{k}" for k in rng.integers(0, 40, size=200)])
    src, dst = words[:100], words[100:]
    expected = _names.vertex_ids(src, dst, order)
    results = [_names.vertex_ids(src.astype(object), dst.astype(object), order)]
    monkeypatch.setattr(_names, "installed", lambda module: False)
    results.append(_names.vertex_ids(src.astype(object), dst.astype(object), order))
    monkeypatch.undo()
    pa = pytest.importorskip("pyarrow")
    results.append(_names.arrow_ids(pa.array(src), pa.array(dst.tolist(), pa.large_string()),
                                    order))
    for s, d, labels in results:
        assert s.tolist() == expected[0].tolist() and d.tolist() == expected[1].tolist()
        assert labels.tolist() == expected[2].tolist()


def _pandas_tables():
    frame = pd.DataFrame(ROADS)
    yield "object", frame
    yield "category", frame.astype({"from": "category", "to": "category"})
    yield "string", frame.astype({"from": "string", "to": "string"})


def _arrow_tables():
    pa = pytest.importorskip("pyarrow")
    yield "arrow", pa.table(ROADS)
    yield "arrow-dictionary", pa.table({"from": pa.array(ROADS["from"]).dictionary_encode(),
                                        "to": pa.array(ROADS["to"]).dictionary_encode(),
                                        "km": ROADS["km"]})
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame(ROADS)
    yield "polars", frame
    yield "polars-categorical", frame.with_columns(pl.col("from").cast(pl.Categorical),
                                                   pl.col("to").cast(pl.Categorical))


def test_tables_of_names_give_the_names_back_under_the_users_columns():
    tables = [*_pandas_tables(), *_arrow_tables()]
    for kind, table in tables:
        g = Graph.from_table(table, "from", "to", "km")
        assert g.labels.tolist() == FIRST, kind
        assert g.columns == ("from", "to", "km")
        forest = parmst.minimum_spanning_forest(g)
        out = forest.to_pandas()
        assert list(out.columns) == ["from", "to", "km", "edge_id"]
        assert rows(out) == FOREST_ROWS, kind
        assert forest.to_table().column("from").to_pylist() == ["Bergen", "Oslo", "Hel"]
        assert parmst.verify(g, forest)  # labels ride along: the checks see 0..n-1


def test_sparse_integer_columns_and_relabel_in_from_table():
    frame = pd.DataFrame({"a": [10**12, 3, 3], "b": [3, 10**12 + 8, 10**12], "w": [1.0, 2, 3]})
    g = Graph.from_table(frame, "a", "b", "w", relabel=True)
    assert g.labels.tolist() == [3, 10**12, 10**12 + 8]
    assert rows(parmst.minimum_spanning_forest(g).to_pandas()) == [
        (10**12, 3, 1.0, 0), (3, 10**12 + 8, 2.0, 1)]
    dense = Graph.from_table({"source": [0, 1], "target": [1, 2]}, weight=None)
    assert dense.labels is None and dense.columns == ("source", "target", "weight")


@pytest.mark.parametrize(("table", "message"), [
    ({"s": ["a"], "t": ["b"], "cost": ["abc"]}, "weight column 'cost' must be real numbers"),
    ({"s": [0.5], "t": [1.0], "cost": [1]}, "column 's' must hold integer vertex ids or names"),
    ({"s": ["a"], "t": ["b"]}, "table has no column 'cost'"),
])
def test_table_errors_name_the_users_columns(table, message):
    with pytest.raises(GraphValueError, match=message):
        Graph.from_table(pd.DataFrame(table), "s", "t", "cost")


def test_missing_names_and_a_vertex_count_beside_names_are_refused():
    with pytest.raises(GraphValueError, match="column 'to' has 1 missing"):
        Graph.from_table(pd.DataFrame({"from": ["a", "b"], "to": ["b", None]}), "from", "to",
                         None)
    with pytest.raises(GraphValueError, match="num_vertices applies to integer vertex ids"):
        Graph.from_edges(["a"], ["b"], num_vertices=3)


def test_networkx_round_trip_keeps_tuple_and_string_nodes():
    nx = pytest.importorskip("networkx")
    G = nx.grid_2d_graph(4, 5)  # tuple nodes
    G.add_edges_from([((0, 0), "hub"), ("hub", "far")])
    G.add_node("alone")
    rng = np.random.default_rng(3)
    for (u, v), w in zip(G.edges, rng.permutation(G.number_of_edges())):
        G.edges[u, v]["weight"] = float(w)  # distinct: one minimum spanning forest
    g = Graph.from_networkx(G)
    assert g.labels.tolist() == list(G.nodes)
    tree = parmst.minimum_spanning_forest(g).to_networkx()
    assert set(tree.nodes) == set(G.nodes)
    expected = nx.minimum_spanning_tree(G)
    assert {frozenset(e) for e in tree.edges} == {frozenset(e) for e in expected.edges}
    assert {frozenset(e) for e in g.to_networkx().edges()} == {frozenset(e) for e in G.edges}
    assert Graph.from_networkx(nx.path_graph(3)).labels is None


def test_igraph_names_come_back_as_the_name_attribute():
    igraph = pytest.importorskip("igraph")
    ig = igraph.Graph.TupleList([("x", "y", 2.0), ("y", "z", 1.0), ("x", "z", 3.0)],
                                weights=True)
    g = Graph.from_igraph(ig)
    tree = parmst.minimum_spanning_forest(g).to_igraph()
    assert tree.vs["name"] == ig.vs["name"]
    assert sorted(tuple(sorted(tree.vs[e.tuple]["name"])) for e in tree.es) == [
        ("x", "y"), ("y", "z")]


def test_labels_survive_maximum_forests_nan_edges_and_files(tmp_path):
    g = Graph.from_edges(["a", "b", "c"], ["b", "c", "a"], [1.0, np.nan, 3.0], allow_nan=True)
    assert parmst.minimum_spanning_forest(g, ignore_nan=True).to_pandas()["source"].tolist() \
        == ["a", "c"]
    assert parmst.maximum_spanning_forest(g, ignore_nan=True).labels is g.labels
    forest = parmst.minimum_spanning_forest(g, ignore_nan=True)
    forest.write(tmp_path / "f.csv")
    assert (tmp_path / "f.csv").read_text().splitlines() == [
        "source,target,weight", "a,b,1.0", "c,a,3.0"]
    with pytest.raises(parmst.GraphFormatError, match="dimacs files cannot hold"):
        forest.write(tmp_path / "f.gr")
    forest.to_graph().with_labels(None).write(tmp_path / "f.gr")


def test_with_labels_checks_its_names():
    g = Graph.from_edges([0, 1], [1, 2])
    assert g.with_labels(["x", "y", "z"]).to_networkx().has_edge("y", "z")
    with pytest.raises(GraphValueError, match="one name per vertex"):
        g.with_labels(["x"])
    with pytest.raises(GraphValueError, match="must all differ"):
        g.with_labels(["x", "y", "x"])


def test_parquet_keeps_names_and_relabels_sparse_ids(tmp_path):
    pytest.importorskip("pyarrow")
    g = Graph.from_edges(ROADS["from"], ROADS["to"], ROADS["km"])
    g.write(tmp_path / "g.parquet")
    back = Graph.read(tmp_path / "g.parquet")
    assert back.labels.tolist() == FIRST and back.src.tolist() == g.src.tolist()
    sparse = Graph.from_table({"source": [10**12, 3], "target": [3, 5], "weight": [1, 2]},
                              relabel=True)
    sparse.write(tmp_path / "sparse.parquet")
    read, labels = parmst.io.read_with_labels(tmp_path / "sparse.parquet", relabel=True)
    assert labels.tolist() == [3, 5, 10**12] and read.num_vertices == 3


def _object_array(values):
    return np.fromiter(values, dtype=object, count=len(values))


NAMES = st.one_of(st.text(max_size=3), st.integers(-5, 5),
                  st.tuples(st.sampled_from("ab"), st.integers(0, 2)))


@given(ends=st.lists(st.tuples(NAMES, NAMES), max_size=12))
def test_any_hashable_names_follow_the_one_rule(ends):
    """Each edge keeps its two names, and vertices are numbered by first appearance (the
    order of a dict built from the ends row by row); on every hashing path."""
    src, dst = _object_array([u for u, _ in ends]), _object_array([v for _, v in ends])
    expected = list(dict.fromkeys(x for pair in ends for x in pair))
    for pandas_present in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            if not pandas_present:
                patch.setattr(_names, "installed", lambda module: False)
            g = Graph.from_edges(src, dst, relabel="first")
        labels = g.labels.tolist() if g.num_edges else []
        assert labels == expected
        assert [(labels[u], labels[v]) for u, v in zip(g.src, g.dst)] == list(ends)


@given(ends=st.lists(st.tuples(st.text(max_size=3), st.text(max_size=3)), max_size=12))
def test_sorted_names_are_numbered_in_increasing_order(ends):
    src, dst = [u for u, _ in ends], [v for _, v in ends]
    g = Graph.from_edges(_object_array(src), _object_array(dst), relabel="sorted")
    assert (g.labels.tolist() if ends else []) == sorted({*src, *dst})
    assert Graph.from_edges(np.array(src, dtype=str), np.array(dst, dtype=str),
                            relabel="sorted").labels.tolist() == (g.labels.tolist() if ends
                                                                   else [])


def test_edge_lists_of_names_need_relabel_and_keep_the_names(tmp_path, capsys):
    path = tmp_path / "people.txt"
    path.write_text("# who knows whom\nalice bob 3\nbob carl 1\n\ncarl alice 2\n")
    with pytest.raises(parmst.GraphFormatError, match="line 2: vertex 'alice' is not an integer"):
        parmst.io.read(path)
    g, labels = parmst.io.read_with_labels(path, relabel="first")
    assert labels.tolist() == ["alice", "bob", "carl"] and g.weight.tolist() == [3, 1, 2]
    snap = tmp_path / "people.snap"
    snap.write_text("# x\na\tb\nb\ta\nc\t7\n")
    g = parmst.io.read(snap, relabel=True, symmetric="dedupe")
    assert [(g.labels[u], g.labels[v]) for u, v in zip(g.src, g.dst)] == [("a", "b"), ("c", "7")]
    for text, message in (("alice bob 3\nbob carl\n", "line 2: expected 3 fields"),
                          ("alice bob 3\nbob carl x\n", "line 2: weight holds 'x'")):
        path.write_text(text)
        with pytest.raises(parmst.GraphFormatError, match=message):
            parmst.io.read(path, relabel=True)
    path.write_text("alice bob 3\nbob carl 1\n")
    assert main(["solve", str(path)]) == 2
    assert "give --relabel to take vertex names" in capsys.readouterr().err
    out = tmp_path / "forest.csv"
    assert main(["solve", str(path), "--relabel", "first", "-o", str(out)]) == 0
    assert out.read_text().splitlines() == ["source,target,weight", "alice,bob,3", "bob,carl,1"]
