"""How held edges enter the rounds, on one rank without mpiexec: range labels, the owned
range, the holder rule and the filter's counting pass, against :class:`Ownership`."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from parmst.distributed import DistributedGraph, Ownership
from parmst.solvers.mpi.filter_boruvka import held_counts
from parmst.solvers.mpi.held import GIVEN, LOCAL, edge_kind, is_given, vertex_labels


def _held_graph(kind: str, rank: int, size: int, seed: int) -> DistributedGraph:
    """Rank ``rank``'s held edges of a random graph (every edge with an end it owns)."""
    rng = np.random.default_rng(seed)
    n, m = 37, 200
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    own = Ownership(kind, n, size)
    held = np.flatnonzero((own.owner(src) == rank) | (own.owner(dst) == rank))
    return DistributedGraph(SimpleNamespace(rank=rank, size=size), src[held], dst[held],
                            np.ones(len(held)), held, n, m, own, m)


@pytest.mark.parametrize("kind", ["block", "cyclic"])
@pytest.mark.parametrize("rank", range(3))
def test_labels_and_counts_follow_the_ownership(kind, rank):
    dg = _held_graph(kind, rank, 3, seed=rank)
    own = dg.ownership
    labels = vertex_labels(dg)
    starts = own.starts()
    for ends, label in ((dg.src, labels.src), (dg.dst, labels.dst)):
        np.testing.assert_array_equal(label, starts[own.owner(ends)] + own.local(ends))
        here = (labels.first <= label) & (label < labels.stop)
        np.testing.assert_array_equal(here, own.owner(ends) == rank)
    src_here, dst_here = own.owner(dg.src) == rank, own.owner(dg.dst) == rank
    loop = dg.src == dg.dst
    holder_rank = np.where(dg.edge_ids % 2 == 0, own.owner(dg.src), own.owner(dg.dst))
    local, loops, held, per_block = held_counts(labels, dg.edge_ids)
    assert local == np.count_nonzero(~loop & src_here & dst_here)
    assert loops == np.count_nonzero(loop & src_here)
    assert held == np.count_nonzero(~loop & (holder_rank == rank))
    assert per_block.sum() == len(dg.src)


def test_a_rank_gives_the_edges_it_holds_the_holder_end_of():
    """The branch-free test is edge_kind's LOCAL or GIVEN, on every kind of edge: loops
    here and elsewhere, ends on both sides of the range's bounds, odd and even ids."""
    first, stop = 4, 9
    for s in range(12):
        for d in range(12):
            for edge_id in (6, 7):
                assert bool(is_given(np.int32(s), np.int32(d), np.int64(edge_id), first, stop)) \
                    == (edge_kind(s, d, edge_id, first, stop) in (LOCAL, GIVEN))
