"""The numbering of the vertices a rank's edges touch."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from parmst import Stats
from parmst._threads import using_threads
from parmst.solvers.mpi.touched import (
    mark,
    marked_bitmaps,
    number_of,
    number_touched,
    vertices_of,
)


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 1000])
def test_touched_vertices_are_numbered_in_id_order(n):
    """Every vertex marked in any of three bitmaps (some in several) gets its rank among the
    marked ones, across word boundaries, on two threads; an untouched graph numbers
    nothing."""
    rng = np.random.default_rng(n)
    marks = (rng.random(n) < 0.3).astype(np.uint8)
    if n == 64:
        marks[:] = 1  # one full word
    rows = marked_bitmaps(3, n)
    for v in np.flatnonzero(marks):
        for row in rng.choice(3, size=int(rng.integers(1, 4)), replace=False):
            mark(rows[row], v)
    with using_threads(min(2, numba.config.NUMBA_NUM_THREADS), Stats()):
        numbering = number_touched(rows)
        touched = np.flatnonzero(marks)
        assert numbering.touched.tolist() == touched.tolist()
        numbers = [int(number_of(numbering.bits, numbering.before, v)) for v in touched]
        assert numbers == list(range(len(touched)))
        back = vertices_of(numbering, np.arange(len(touched))[::-1].copy())
        assert back.tolist() == touched[::-1].tolist()
