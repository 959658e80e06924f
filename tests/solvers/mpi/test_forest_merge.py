"""filter-boruvka/mpi's forest merge: its rule and merge kernel on one rank, and the whole
merge (with the channel's point-to-point pair) under a real mpiexec on 3 and 4 ranks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mpi_launch import run_ranks
from parmst.solvers.mpi.forest_merge import _merged, _merged_order, merge_fits

HERE = Path(__file__).resolve().parent


def test_merge_rule_bounds_a_merge_by_a_share_of_the_edges():
    assert merge_fits(5_000, 11_245_624, 16)  # seed000-dense large
    assert merge_fits(1 << 22, 1 << 26, 16) and not merge_fits(1 << 22, 1 << 26, 32)  # RMAT 22
    assert merge_fits(11, 20, 2) and not merge_fits(11, 19, 2)  # 2 (n - 1) = 20 against 2 m / p
    assert merge_fits(11, 40, 2, factor=1.0) and not merge_fits(11, 39, 2, factor=1.0)


@pytest.mark.parametrize("seed", range(3))
def test_merged_order_puts_two_increasing_id_lists_in_one(seed):
    rng = np.random.default_rng(seed)
    ids = rng.permutation(500)[:int(rng.integers(0, 300))]
    a = np.sort(ids[:int(rng.integers(0, len(ids) + 1))])
    b = np.sort(ids[len(a):])
    order = _merged_order(a, b)
    assert np.concatenate((a, b))[order].tolist() == np.sort(ids).tolist()
    assert _merged(a, b, order).tolist() == np.sort(ids).tolist()
    assert _merged(a * 0.5, b * 0.5, order).tolist() == (np.sort(ids) * 0.5).tolist()


@pytest.mark.mpi
@pytest.mark.parametrize("ranks", [3, 4])
def test_forest_merge_on_ranks_is_exact(ranks):
    """One launch per rank count runs every check (see the worker)."""
    done = run_ranks(ranks, [str(HERE / "merge_worker.py")], timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == ranks and result["checks"] == 6 * (2 * 2 + 1) + 1
    assert result["failures"] == []
    assert done.returncode == 0
