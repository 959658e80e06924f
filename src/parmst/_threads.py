"""How many Numba threads a solve runs with: the ``threads`` option of every multi-core solver.

One context manager sets the count for the block and restores it after, so
a solve with ``threads=2`` leaves the process as it found it; the count used
is recorded in the solve's :class:`~parmst.Stats`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba

from parmst.stats import Stats

__all__ = ["using_threads"]


@contextmanager
def using_threads(threads: int | None, stats: Stats) -> Iterator[int]:
    """Run the block with ``threads`` Numba threads (all when None), then restore.

    Numba cannot start more threads than ``NUMBA_NUM_THREADS`` (read when
    it first starts; the number of cores by default), so more raise
    ValueError.

    Examples
    --------
    >>> from parmst.stats import Stats
    >>> with using_threads(1, Stats()) as k:
    ...     k
    1
    """
    limit = numba.config.NUMBA_NUM_THREADS
    count = limit if threads is None else int(threads)
    if not 1 <= count <= limit:
        raise ValueError(f"threads={threads!r}: must be between 1 and {limit} "
                         "(NUMBA_NUM_THREADS, which must be set before numba starts to allow more)")
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    stats.threads = count
    try:
        yield count
    finally:
        numba.set_num_threads(before)
