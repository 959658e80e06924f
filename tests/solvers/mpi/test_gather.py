"""The forest's gather on one rank, without mpiexec: id order and held positions."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.solvers.mpi.gather import held_positions, id_order


@pytest.mark.parametrize("seed", range(4))
def test_gathered_forest_order_and_held_positions_match_numpy(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 700))
    ids = rng.permutation(m)[:int(rng.integers(0, m + 1))].astype(np.int64)
    assert id_order(ids, m).tolist() == np.argsort(ids).tolist()
    held = np.sort(rng.permutation(3 * m)[:m]).astype(np.int64)
    wanted = np.sort(rng.choice(held, size=int(rng.integers(0, m + 1)), replace=False))
    assert held_positions(held, wanted).tolist() == np.searchsorted(held, wanted).tolist()
