"""The forest's gather on one rank, without mpiexec: id order and held positions."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.solvers.mpi.gather import held_positions, id_order, sorted_ids, take_fields


@pytest.mark.parametrize("seed", range(4))
def test_gathered_forest_order_and_held_positions_match_numpy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 700) if seed < 2 else rng.integers(40_000, 60_000))  # many blocks
    ids = rng.permutation(m)[:int(rng.integers(0, m + 1))].astype(np.int64)
    assert id_order(ids, m).tolist() == np.argsort(ids).tolist()
    assert sorted_ids(ids, m).tolist() == np.sort(ids).tolist()
    fields = (rng.integers(0, 9, m), rng.integers(0, 9, m), rng.random(m))
    taken = take_fields(np.sort(ids), *fields)
    assert all(t.tolist() == f[np.sort(ids)].tolist() for t, f in zip(taken, fields))
    held = np.sort(rng.permutation(3 * m)[:m]).astype(np.int64)
    wanted = np.sort(rng.choice(held, size=int(rng.integers(0, m + 1)), replace=False))
    assert held_positions(held, wanted).tolist() == np.searchsorted(held, wanted).tolist()
