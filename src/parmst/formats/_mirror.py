"""Pairing each stored arc ``(u, v, w)`` with its mirror ``(v, u, w)``.

Files that store an undirected graph as directed arcs (DIMACS road maps,
SNAP, general Matrix Market matrices, ECL's CSR) list every edge twice.
Within each class of equal ``(min(u,v), max(u,v), weight)``, the k-th arc
with ``u < v`` pairs with the k-th arc with ``u > v`` (in file order), and
self-loops pair with the next equal self-loop. Of each pair the earlier arc
stands for the edge; arcs without a partner stay edges of their own.
"""

from __future__ import annotations

import numpy as np

from parmst.order import weight_keys


def _starts(flags: np.ndarray) -> np.ndarray:
    """For each position, the index where its run (flags marks run starts) began."""
    index = np.arange(len(flags))
    return np.maximum.accumulate(np.where(flags, index, 0))


def mirror_pairs(src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Which arcs repeat an earlier mirror arc, and which have no mirror.

    Parameters
    ----------
    src, dst : ndarray of int
    weight : ndarray or None
        Arcs pair only when their weights are equal (bitwise for floats,
        ``-0.0 == 0.0``); ``None`` means unweighted.

    Returns
    -------
    later : ndarray of bool
        The second arc of each pair (drop these to keep one edge per pair).
    unpaired : ndarray of bool
        Arcs that found no mirror.

    Examples
    --------
    >>> import numpy as np
    >>> later, unpaired = mirror_pairs(np.array([0, 1, 1, 2]), np.array([1, 0, 2, 1]),
    ...                                np.array([5, 5, 7, 8]))
    >>> later.tolist(), unpaired.tolist()
    ([False, True, False, False], [False, False, True, True])
    """
    m = len(src)
    later = np.zeros(m, dtype=bool)
    unpaired = np.zeros(m, dtype=bool)
    if m == 0:
        return later, unpaired
    lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    key = weight_keys(weight) if weight is not None else np.zeros(m, dtype=np.uint8)
    backward = src > dst
    order = np.lexsort((backward, key, hi, lo))  # stable: file order within a class
    lo, hi, key, backward = lo[order], hi[order], key[order], backward[order]
    new_class = np.ones(m, dtype=bool)
    new_class[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1]) | (key[1:] != key[:-1])
    new_block = new_class.copy()
    new_block[1:] |= backward[1:] != backward[:-1]
    class_start = _starts(new_class)
    rank = np.arange(m) - _starts(new_block)
    class_id = np.cumsum(new_class) - 1
    class_size = np.bincount(class_id)[class_id]
    num_backward = np.bincount(class_id, weights=backward).astype(np.int64)[class_id]
    num_forward = class_size - num_backward
    loop = lo == hi
    # Self-loops: ranks 2j and 2j+1 pair up; the odd one out stays alone.
    loop_later = loop & (rank % 2 == 1)
    loop_alone = loop & (rank % 2 == 0) & (rank == class_size - 1)
    # Other arcs: forward rank r pairs with backward rank r.
    forward = ~loop & ~backward
    paired_forward = forward & (rank < num_backward)
    alone = ~loop & np.where(backward, rank >= num_forward, rank >= num_backward)
    first = np.flatnonzero(paired_forward)
    partner = class_start[first] + num_forward[first] + rank[first]
    first_arc, partner_arc = order[first], order[partner]
    later[np.maximum(first_arc, partner_arc)] = True
    later[order[loop_later]] = True
    unpaired[order[alone | loop_alone]] = True
    return later, unpaired
