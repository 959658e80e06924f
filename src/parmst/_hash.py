"""A 64-bit mixing function shared by the kernels that hash or permute integers."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def mix64(x):
    """SplitMix64's finalizer (Steele, Lea and Flood): a bijective, well-spread 64-bit mixer.

    Examples
    --------
    >>> int(mix64(np.uint64(1))) != int(mix64(np.uint64(2)))
    True
    """
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))
