"""Vectorized building blocks: random trees, distinct vertex pairs, simple edge sets.

Everything here works on whole arrays at once; the one loop NumPy cannot
express quickly, a radix-sort pass over packed pair keys, is a Numba kernel.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.errors import GraphValueError
from parmst.graph import Graph, index_dtype_for

_DIGIT_BITS = 16


def make_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int) -> Graph:
    """A :class:`Graph` from freshly generated (hence valid) arrays, in the index dtype it needs."""
    index = index_dtype_for(n, len(src))
    return Graph(np.ascontiguousarray(src, dtype=index), np.ascontiguousarray(dst, dtype=index),
                 np.ascontiguousarray(weight), n)


def random_tree(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A random spanning tree of ``n`` vertices as ``(child, parent)`` arrays of ``n - 1``.

    Vertices are visited in a random permutation; each one after the first
    takes a uniformly random earlier vertex as parent (a random recursive tree).
    """
    order = rng.permutation(n)
    if n < 2:
        return order[:0], order[:0]
    parent_position = rng.integers(0, np.arange(1, n))
    return order[1:], order[parent_position]


def pair_index(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Index of the unordered pair ``{i, j}`` (``i != j``) in the lower triangle, row-major."""
    hi = np.maximum(i, j).astype(np.int64)
    return hi * (hi - 1) // 2 + np.minimum(i, j)


def pair_from_index(k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of :func:`pair_index`: ``(hi, lo)`` with ``hi > lo``."""
    k = np.asarray(k, dtype=np.int64)
    hi = ((1 + np.sqrt(1 + 8 * k.astype(np.float64))) // 2).astype(np.int64)
    # The float square root can land one row off near row boundaries.
    hi -= hi * (hi - 1) // 2 > k
    hi += (hi + 1) * hi // 2 <= k
    return hi, k - hi * (hi - 1) // 2


def check_connected_simple(n: int, m: int) -> None:
    """Raise unless a connected graph without loops or repeats can have ``n, m``."""
    pairs = n * (n - 1) // 2
    if not max(n - 1, 0) <= m <= pairs:
        raise GraphValueError(
            f"a connected simple graph on n={n} vertices has between {max(n - 1, 0)} and "
            f"{pairs} edges, got m={m}")


def connected_distinct_pairs(rng: np.random.Generator, n: int,
                             m: int) -> tuple[np.ndarray, np.ndarray]:
    """``m`` distinct vertex pairs that connect all ``n`` vertices, in pair-index order.

    A random spanning tree guarantees connectivity; the other ``m - n + 1``
    pairs are drawn without replacement from the pairs the tree does not use.
    """
    check_connected_simple(n, m)
    pairs = n * (n - 1) // 2
    is_edge = np.zeros(pairs, dtype=bool)
    is_edge[pair_index(*random_tree(rng, n))] = True
    free = np.flatnonzero(~is_edge)
    is_edge[rng.choice(free, size=m - max(n - 1, 0), replace=False, shuffle=False)] = True
    return pair_from_index(np.flatnonzero(is_edge))


@numba.njit(cache=True)
def _radix_pass(keys, out, shift, digit_bits):
    """One stable counting-sort pass of ``keys`` into ``out`` by the digit at ``shift``.

    Least-significant-digit radix sort (a standard textbook kernel, not from
    the seeds): ``out`` holds ``keys`` ordered by that digit, ties in input order.
    """
    mask = (1 << digit_bits) - 1
    start = np.zeros((1 << digit_bits) + 1, dtype=np.int64)
    for key in keys:
        start[((key >> shift) & mask) + 1] += 1
    for digit in range(1 << digit_bits):
        start[digit + 1] += start[digit]
    for key in keys:
        digit = (key >> shift) & mask
        out[start[digit]] = key
        start[digit] += 1


def _sorted_keys(keys: np.ndarray, key_bits: int) -> np.ndarray:
    """Non-negative int64 ``keys < 2**key_bits`` sorted (LSD radix sort; faster than np.sort)."""
    current, spare = keys, np.empty_like(keys)
    for shift in range(0, key_bits, _DIGIT_BITS):
        _radix_pass(current, spare, shift, _DIGIT_BITS)
        current, spare = spare, current
    return current


@numba.njit(cache=True)
def _pair_keys(src, dst, n, keys):
    """Write ``min * n + max`` of every non-loop edge to ``keys``; return how many."""
    count = 0
    for i in range(src.size):
        if src[i] != dst[i]:
            keys[count] = np.int64(min(src[i], dst[i])) * n + max(src[i], dst[i])
            count += 1
    return count


@numba.njit(cache=True)
def _unpack_distinct(sorted_keys, n, lo, hi):
    """Decode sorted pair keys into ``lo``/``hi``, each repeated key once; return how many."""
    count = 0
    for i in range(sorted_keys.size):
        if i == 0 or sorted_keys[i] != sorted_keys[i - 1]:
            lo[count] = sorted_keys[i] // n
            hi[count] = sorted_keys[i] - lo[count] * n
            count += 1
    return count


def loop_free_keys(src: np.ndarray, dst: np.ndarray, n: int) -> np.ndarray:
    """The pair key ``min * n + max`` (int64) of every edge that is not a self-loop, in order."""
    keys = np.empty(len(src), dtype=np.int64)
    return keys[:_pair_keys(src, dst, n, keys)]


def distinct_pairs(keys: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pair keys (:func:`loop_free_keys`) sorted, each kept once, decoded into ``(lo, hi)``."""
    keys = _sorted_keys(keys, max(n * n - 1, 1).bit_length())
    lo, hi = np.empty_like(keys), np.empty_like(keys)
    count = _unpack_distinct(keys, n, lo, hi)
    return lo[:count], hi[:count]


def simple_edges(src: np.ndarray, dst: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Drop self-loops and repeated pairs; return ``(lo, hi)`` sorted by ``(lo, hi)``.

    This is the clean-up Fallin et al. applied to its inputs (Table 2: no
    self-loops, no multiple edges); the sorted order is the order a CSR
    file lists each edge in, from its smaller endpoint.
    """
    return distinct_pairs(loop_free_keys(src, dst, n), n)
