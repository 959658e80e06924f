"""Fixed blocks of items for parallel ``prange`` loops, and where each block writes.

An MPI rank's passes over its edges (routing, the filter, the rounds) run
block by block on all its threads. A pass that keeps some of the items (a
split, a compaction, a scatter to send buffers) runs twice: once to count
what each block keeps, then, after an exclusive prefix sum of those counts,
once more to write each block's items from its own offset. The output then keeps the input's order, as the
serial loop would, so the result is the same on any number of threads.
"""

from __future__ import annotations

import numba
import numpy as np

BLOCK = 1 << 14
"""Items per block: large enough that a block's bookkeeping is noise, small enough that
a few dozen blocks per thread even out uneven ones."""


@numba.njit(cache=True, inline="always")
def num_blocks(n):
    """Blocks that cover ``n`` items."""
    return (n + BLOCK - 1) // BLOCK


@numba.njit(cache=True, inline="always")
def block_span(b, n):
    """Items ``lo .. hi - 1`` of block ``b`` of ``n`` items."""
    return b * BLOCK, min(n, (b + 1) * BLOCK)


@numba.njit(cache=True)
def exclusive_sums(counts):
    """Per-block offsets from per-block counts, one column per output: ``out[b, j]`` is the
    sum of ``counts[:b, j]``; ``out[len(counts), j]`` the column's total.

    Examples
    --------
    >>> exclusive_sums(np.array([[2, 1], [0, 3], [4, 0]])).tolist()
    [[0, 0], [2, 1], [2, 4], [6, 4]]
    """
    out = np.zeros((counts.shape[0] + 1, counts.shape[1]), dtype=np.int64)
    for b in range(counts.shape[0]):
        for j in range(counts.shape[1]):
            out[b + 1, j] = out[b, j] + counts[b, j]
    return out
