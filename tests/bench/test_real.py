"""The real-graph suites: manifest, fetch-and-convert on tiny fixture files, cache, skips."""

import bz2
import dataclasses
import hashlib
import io
import re

import numpy as np
import pytest

import parmst
from parmst.bench import real
from parmst.bench.__main__ import main as bench_main
from parmst.bench.config import RunConfig
from parmst.bench.harness import run
from parmst.bench.inputs import load_graph
from parmst.bench.peers import PEERS
from parmst.bench.real.__main__ import main as real_main
from parmst.bench.real.convert import CONVERTERS, convert
from parmst.bench.suites import get_suite

# One tiny file per format, as the published files have them: a SNAP list with a
# reciprocal pair, a self-loop and sparse ids; TNTP links listed both ways with
# different lengths and a zero length; OSM ways (one not a highway, one cut at the
# extract's edge); an OBJ with a shared face side; a 2 x 3 image.
_SNAP = b"# Directed graph\n# FromNodeId\tToNodeId\n0\t1\n1\t0\n2\t2\n5\t1\n"
_TNTP = (b"<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 4\n<END OF METADATA>\n\n"
         b"~ init_node term_node capacity length free_flow_time ;\n"
         b"\t1\t2\t900\t0.5\t1\t;\n\t2\t1\t900\t0.7\t1\t;\n\t2\t3\t900\t0\t1\t;\n"
         b"\t3\t4\t900\t1.5\t1\t;\n")
_OSM = b"""<?xml version="1.0"?><osm version="0.6">
<node id="10" lat="0.0" lon="0.0"/><node id="11" lat="0.0" lon="0.001"/>
<node id="12" lat="0.001" lon="0.001"/><node id="13" lat="1.0" lon="1.0"/>
<way id="1"><nd ref="10"/><nd ref="11"/><nd ref="12"/><tag k="highway" v="residential"/></way>
<way id="2"><nd ref="10"/><nd ref="13"/><tag k="building" v="yes"/></way>
<way id="3"><nd ref="12"/><nd ref="99"/><tag k="highway" v="service"/></way>
</osm>"""
_OBJ = b"# two triangles\nv 0 0 0\nv 3 0 0\nv 0 4 0\nv 3 4 0\nf 1 2 3\nf 2/1/1 4/1/1 3/1/1\n"


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(np.array([[0, 0, 10], [0, 3, 10]], dtype=np.uint8)).save(out, "PNG")
    return out.getvalue()


def _fixtures() -> dict[str, tuple[str, str, bytes]]:
    """name -> (format, path, bytes)."""
    return {"tiny-snap": ("snap", "data/tiny.txt", _SNAP),
            "tiny-tntp": ("tntp", "net/tiny_net.tntp", _TNTP),
            "tiny-osm": ("osm", "tests/tiny.osm.bz2", bz2.compress(_OSM)),
            "tiny-obj": ("obj", "data/tiny.obj", _OBJ),
            "tiny-image": ("image", "data/tiny.png", _png())}


@pytest.fixture
def fixture_manifest(tmp_path, monkeypatch):
    """A manifest of the fixture files, and the folder (``--source``) that holds them."""
    source = tmp_path / "source"
    entries = {}
    for name, (fmt, path, data) in _fixtures().items():
        file = source / "owner" / "data" / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(data)
        converted = convert(fmt, data, path)
        entries[name] = real.RealGraph(name, "fixture", "owner/data", "0" * 40, path,
                                       hashlib.sha256(data).hexdigest(), len(data),
                                       converted.num_vertices, converted.num_edges, fmt, "test")
    monkeypatch.setattr(real, "manifest", lambda: entries)
    return entries, source


def test_manifest_is_well_formed():
    graphs = real.manifest()
    assert len(graphs) >= 15
    for name, g in graphs.items():
        assert g.name == name and re.fullmatch(r"[a-z0-9-]+", name)
        assert re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", g.repository), name
        assert re.fullmatch(r"[0-9a-f]{40}", g.commit), name
        assert re.fullmatch(r"[0-9a-f]{64}", g.sha256), name
        assert g.format in CONVERTERS and g.size > 0 and g.licence and g.kind, name
        assert 0 < g.num_edges and 0 < g.num_vertices, name
        assert g.url == f"https://raw.githubusercontent.com/{g.repository}/{g.commit}/{g.path}"
    # every class the issue names is there
    kinds = " ".join(g.kind for g in graphs.values())
    for word in ("co-authorship", "social", "road", "OpenStreetMap", "mesh", "image"):
        assert word in kinds


def test_real_suites_use_the_manifest_and_the_auto_peer():
    full, small = get_suite("real"), get_suite("real-small")
    assert {g.name for g in full.graphs} == set(real.manifest())
    assert {g.name for g in small.graphs} < {g.name for g in full.graphs}
    for suite in (full, small):
        assert all(g.spec == real.PREFIX + g.name for g in suite.graphs)
        assert {"parmst-auto", "scipy", "igraph", "networkit"} <= set(suite.peers)


def test_fixture_files_convert_as_the_data_have_them(fixture_manifest, tmp_path):
    _, source = fixture_manifest
    cache = tmp_path / "cache"
    graphs = {}
    for name in _fixtures():
        path = real.fetch(name, cache, source)
        assert path == real.cache_path(name, cache) and path.exists()
        graphs[name] = load_graph(real.PREFIX + name, cache)
    snap = graphs["tiny-snap"]  # reciprocal pair and self-loop kept, isolated ids 3 and 4 too
    assert (snap.num_vertices, snap.src.tolist(), snap.dst.tolist()) == (6, [0, 1, 2, 5],
                                                                         [1, 0, 2, 1])
    assert snap.weight.tolist() == [1, 1, 1, 1]
    tntp = graphs["tiny-tntp"]  # both directions with their own lengths, the zero length kept
    assert tntp.num_vertices == 4 and tntp.weight.dtype == np.float64
    assert (tntp.src.tolist(), tntp.dst.tolist(), tntp.weight.tolist()) == (
        [0, 1, 1, 2], [1, 0, 2, 3], [0.5, 0.7, 0.0, 1.5])
    osm = graphs["tiny-osm"]  # highway segments only, the cut one dropped; metres
    assert (osm.num_vertices, osm.src.tolist(), osm.dst.tolist()) == (3, [0, 1], [1, 2])
    np.testing.assert_allclose(osm.weight, [111.195, 111.195], rtol=1e-4)
    obj = graphs["tiny-obj"]  # the shared side (2, 3) listed by both faces
    assert sorted(zip(obj.src.tolist(), obj.dst.tolist())) == [(0, 1), (1, 2), (1, 3), (2, 0),
                                                               (2, 1), (3, 2)]
    assert sorted(obj.weight.tolist()) == [3.0, 3.0, 4.0, 4.0, 5.0, 5.0]
    image = graphs["tiny-image"]  # 2 x 3 pixels: 4 right, 3 down, 2 + 2 diagonal pairs
    assert (image.num_vertices, image.num_edges) == (6, 11)
    assert image.weight.min() >= 1.0
    assert sorted(set(np.round(image.weight, 6).tolist()))[:2] == [1.0, round(2 ** 0.5, 6)]
    for g in graphs.values():  # every converted graph solves and verifies
        assert parmst.verify(g, parmst.minimum_spanning_forest(g))


def test_a_wrong_checksum_writes_nothing(fixture_manifest, tmp_path):
    _, source = fixture_manifest
    (source / "owner" / "data" / "data" / "tiny.obj").write_bytes(_OBJ + b"f 1 2 4\n")
    with pytest.raises(ValueError, match="SHA-256"):
        real.fetch("tiny-obj", tmp_path / "cache", source)
    assert not real.cache_path("tiny-obj", tmp_path / "cache").exists()


def test_a_converter_that_changed_writes_nothing(fixture_manifest, tmp_path, monkeypatch):
    entries, source = fixture_manifest
    monkeypatch.setitem(entries, "tiny-obj",
                        dataclasses.replace(entries["tiny-obj"], num_edges=5))
    with pytest.raises(ValueError, match="tiny-obj converted to 4 vertices and 6 edges, the "
                                         "manifest says 4 and 5"):
        real.fetch("tiny-obj", tmp_path / "cache", source)
    assert not real.cache_path("tiny-obj", tmp_path / "cache").exists()


def test_fetch_command_reports_each_graph(fixture_manifest, tmp_path, capsys):
    _, source = fixture_manifest
    cache = tmp_path / "cache"
    assert real_main(["fetch", "tiny-tntp", "--cache-dir", str(cache),
                      "--source", str(source)]) == 0
    assert real_main(["fetch", "tiny-obj", "nope", "--cache-dir", str(cache),
                      "--source", str(source)]) == 1
    out, err = capsys.readouterr()
    assert "tiny-tntp: " in out and "tiny-obj: " in out
    assert "nope: not fetched: no real graph 'nope' in the manifest" in err
    assert real_main(["list", "--cache-dir", str(cache)]) == 0
    listing = capsys.readouterr().out
    assert re.search(r"tiny-tntp +tntp +cached", listing)
    assert re.search(r"tiny-snap +snap +not fetched", listing)


def test_missing_graphs_are_skipped_with_the_fetch_command(tmp_path, capsys):
    with pytest.raises(real.RealGraphMissing, match="python -m parmst.bench.real fetch "
                                                    "road-anaheim --cache-dir"):
        load_graph("real:road-anaheim", tmp_path)
    result = run(RunConfig(suite="real-small", peers=["none"], cache_dir=tmp_path,
                           progress=False))
    skipped = result.config["skipped_graphs"]
    assert set(skipped) == {g.name for g in get_suite("real-small").graphs}
    assert all("python -m parmst.bench.real fetch" in why for why in skipped.values())
    assert result.records == []
    assert bench_main(["--suite", "real-small", "--only", "mesh-cow", "--peers", "none",
                       "--cache-dir", str(tmp_path), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err.count("graph mesh-cow skipped: real graph mesh-cow is not in the cache") == 1
    assert "Traceback" not in err


def test_the_auto_peer_times_the_public_call():
    peer = PEERS["parmst-auto"]
    g = parmst.Graph.from_edges([0, 1, 2, 0, 0], [1, 2, 3, 3, 1], [4, 1, 3, 2, 4])
    prepared = peer.prepare(g.src, g.dst, g.weight, g.num_vertices)
    forest = peer.solve(prepared)
    assert peer.weight_of(forest) == 6 and sorted(forest.edge_ids.tolist()) == [1, 2, 3]
    assert peer.compares_with == "scipy"
