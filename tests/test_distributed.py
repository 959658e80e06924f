"""parmst.distributed in one process: ownership, and the constructors as one rank.

The partitioned readers are tested in tests/io/test_io_ranges.py; whole
runs on several ranks under mpiexec in tests/solvers/mpi/.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import parmst
from parmst import Graph
from parmst.distributed import DistributedGraph, Ownership
from parmst.partition import block_bounds

HAS_MPI4PY = importlib.util.find_spec("mpi4py") is not None


@pytest.mark.parametrize("kind", ["block", "cyclic"])
@pytest.mark.parametrize("n,size", [(0, 3), (1, 4), (5, 4), (17, 5), (10, 1)])
def test_ownership_gives_every_vertex_one_owner_and_a_dense_local_index(kind, n, size):
    own = Ownership(kind, n, size)
    v = np.arange(n)
    owner, local = own.owner(v), own.local(v)
    for r in range(size):
        mine = own.global_ids(r)
        assert mine.tolist() == v[owner == r].tolist()
        assert local[mine].tolist() == list(range(own.count(r)))
    assert sum(own.count(r) for r in range(size)) == n


@pytest.mark.parametrize("n,size", [(0, 3), (1, 4), (5, 4), (16, 3), (17, 5), (100, 16)])
def test_block_ownership_is_the_block_partition(n, size):
    """One block rule: the ranks' vertices under "block" are partition(method="blocks")."""
    graph = Graph.from_edges([], [], [], num_vertices=n)
    own = Ownership("block", n, size)
    assert own.owner(np.arange(n)).tolist() == parmst.partition(graph, size, "blocks").tolist()
    assert own.starts().tolist() == block_bounds(n, size).tolist()


def test_ownership_docstring_examples():
    result = doctest.testmod(importlib.import_module("parmst.distributed.ownership"))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.skipif(not HAS_MPI4PY, reason="mpi4py is not installed (pip install 'parmst[mpi]')")
def test_one_rank_holds_the_whole_file_with_its_ids(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("4 3\n0 1 5\n1 2 7.5\n2 3 1\n")
    dg = DistributedGraph.read(path)
    assert dg.is_distributed
    assert (dg.num_vertices, dg.num_edges, dg.input_edges) == (4, 3, 3)
    assert dg.edge_ids.tolist() == [0, 1, 2] and dg.weight.dtype == np.float64
    same = DistributedGraph.from_graph(Graph.read(path))
    assert same.src.tolist() == dg.src.tolist() and same.weight.tolist() == dg.weight.tolist()


@given(keys=st.lists(st.integers(0, 6), max_size=60))
def test_group_order_is_a_stable_argsort_of_small_keys(keys):
    from parmst._mpi.channel import group_order

    keys = np.array(keys, dtype=np.int64)
    assert group_order(keys, 7).tolist() == np.argsort(keys, kind="stable").tolist()


@pytest.mark.parametrize("bad", [-1, 7])
def test_group_order_refuses_a_key_out_of_range(bad):
    """An out-of-range key once wrote past the order array (heap corruption, no error)."""
    from parmst._mpi.channel import group_order

    with pytest.raises(ValueError, match="outside 0..6"):
        group_order(np.array([3, bad, 0], dtype=np.int64), 7)
