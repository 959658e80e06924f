"""Counter-based random numbers: the word at ``(seed, stream, position, lane)`` is a hash of them.

A graph's random values must be the same wherever they are computed: one
process, ``p`` MPI ranks each drawing a share, or one GPU thread per
position. So no value comes from a sequential generator; each is a function
of integers only, as in the counter-based generators of Salmon, Moraes, Dror
and Shaw ("Parallel random numbers: as easy as 1, 2, 3"). The construction is
a keyed two-round SplitMix64: SplitMix64's finalizer (Steele, Lea and Flood,
"Fast splittable pseudorandom number generators"; :func:`parmst._hash.mix64`)
applied to the position scaled by the golden-ratio constant and xored with a
stream key, then once more with the lane added. The stream key is itself two
rounds of the finalizer over ``(seed, stream)``, computed once per stream
(:func:`stream_key`).

Every function here is a ``numba.njit`` scalar function of integers, so the
host's loops and numba-cuda kernels call the very same code (a CUDA kernel
compiles a called njit function as a device function) and get the same bits:
only wrapping 64-bit products, shifts and xors; :func:`bounded` builds the
high word of a 64 x 64-bit product from 32-bit halves; :func:`unit` scales
by a power of two. :func:`permute_one` is a bijection of ``0 .. n - 1``
(a balanced Feistel network with cycle walking) given as a tuple of integers
(:func:`permutation`).

Examples
--------
>>> key = stream_key(seed=3, stream=1)
>>> int(word(key, 10, 0)) == int(word(stream_key(3, 1), 10, 0))
True
>>> int(bounded(np.uint64(2**63), np.uint64(10)))
5
>>> p = permutation(10, seed=5, stream=2)
>>> sorted(int(permute_one(x, p)) for x in range(10)) == list(range(10))
True
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._hash import mix64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STREAM_MUL = np.uint64(0xD1B54A32D192ED03)
_LANE_MUL = np.uint64(0xAEF17502108EF2D9)
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_MASK64 = (1 << 64) - 1

#: First lane of a permutation's round keys; lanes below it are the values drawn at a position.
LANE_PERMUTE = 1 << 20
#: Rounds of the Feistel network.
ROUNDS = 4


@numba.njit(cache=True)
def _stream_key(seed, stream):
    """The key of one stream of one seed: two finalizer rounds over ``seed`` and ``stream``."""
    return mix64(mix64(np.uint64(seed) + _GOLDEN) ^ (np.uint64(stream) * _STREAM_MUL))


@numba.njit(cache=True)
def position_state(key, position):
    """Round 1 of :func:`word`: the position mixed into the stream key (shared by its lanes)."""
    return mix64((np.uint64(position) * _GOLDEN) ^ np.uint64(key))


@numba.njit(cache=True)
def lane_word(key, state, lane):
    """Round 2 of :func:`word`: the lane mixed into the position's state."""
    return mix64((state + (np.uint64(lane) + np.uint64(1)) * _LANE_MUL) ^ np.uint64(key))


@numba.njit(cache=True)
def word(key, position, lane):
    """The 64-bit word at ``(position, lane)`` of the stream with key ``key`` (uint64).

    Round 1 mixes the position into the key, round 2 the lane into round 1's result.
    """
    return lane_word(key, position_state(key, position), lane)


@numba.njit(cache=True)
def bounded(w, bound):
    """``floor(w * bound / 2**64)``: a uint64 below ``bound`` (Lemire's multiply-shift).

    The high word of the 128-bit product, from four 32 x 32-bit products, so
    a GPU and a CPU get the same bits.
    """
    w, bound = np.uint64(w), np.uint64(bound)
    a_hi, a_lo = w >> _SHIFT32, w & _LOW32
    b_hi, b_lo = bound >> _SHIFT32, bound & _LOW32
    t = a_hi * b_lo + ((a_lo * b_lo) >> _SHIFT32)
    u = a_lo * b_hi + (t & _LOW32)
    return a_hi * b_hi + (t >> _SHIFT32) + (u >> _SHIFT32)


@numba.njit(cache=True)
def unit(w):
    """A float64 in ``[0, 1)`` from the top 53 bits of ``w``: ``(w >> 11) * 2**-53``."""
    return np.float64(np.uint64(w) >> np.uint64(11)) * _UNIT


@numba.njit(cache=True)
def _feistel(x, half_bits, p):
    """One pass of a balanced Feistel network over ``2 * half_bits`` bits: a bijection.

    ``p[2:]`` are the round keys (:func:`permutation`).
    """
    mask = (np.uint64(1) << half_bits) - np.uint64(1)
    left, right = x >> half_bits, x & mask
    left, right = right, left ^ (mix64(right ^ np.uint64(p[2])) & mask)
    left, right = right, left ^ (mix64(right ^ np.uint64(p[3])) & mask)
    left, right = right, left ^ (mix64(right ^ np.uint64(p[4])) & mask)
    left, right = right, left ^ (mix64(right ^ np.uint64(p[5])) & mask)
    return (left << half_bits) | right


@numba.njit(cache=True)
def permute_one(x, p):
    """The image of ``x`` (in ``0 .. n - 1``) under the bijection ``p`` (:func:`permutation`), int64.

    Cycle walking: the network permutes ``0 .. 4**half_bits - 1``; applied
    again until the value falls below ``n``, it stays a bijection of
    ``0 .. n - 1`` (the domain is less than ``4 n``, so walks are short).
    """
    n, half_bits = np.uint64(p[0]), np.uint64(p[1])
    y = _feistel(np.uint64(x), half_bits, p)
    while y >= n:
        y = _feistel(y, half_bits, p)
    return np.int64(y)


@numba.njit(cache=True)
def round_keys(key, position):
    """The four round keys of the permutation at ``position`` of a stream (lanes
    :data:`LANE_PERMUTE` on)."""
    lane = np.uint64(LANE_PERMUTE)
    return (word(key, position, lane), word(key, position, lane + np.uint64(1)),
            word(key, position, lane + np.uint64(2)), word(key, position, lane + np.uint64(3)))


@numba.njit(cache=True)
def half_bits_for(n):
    """Half the bits of the Feistel domain for ``0 .. n - 1``: at least 1, ``4**h >= n``."""
    bits = np.uint64(0)
    top = np.uint64(n) - np.uint64(1) if n > 0 else np.uint64(0)
    while top > np.uint64(0):
        bits += np.uint64(1)
        top >>= np.uint64(1)
    half = (bits + np.uint64(1)) >> np.uint64(1)
    return half if half > np.uint64(0) else np.uint64(1)


@numba.njit(cache=True)
def permutation_at(n, key, position):
    """The permutation of ``0 .. n - 1`` keyed by ``position`` of a stream: a tuple of six
    uint64 (``n``, half the domain's bits, four round keys) that :func:`permute_one` takes."""
    k0, k1, k2, k3 = round_keys(key, position)
    return (np.uint64(n), half_bits_for(n), k0, k1, k2, k3)


def permutation(n: int, seed: int, stream: int) -> tuple:
    """The seeded bijection of ``0 .. n - 1`` of ``(seed, stream)`` (``n >= 1``), for
    :func:`permute_one`."""
    p = permutation_at(np.uint64(max(n, 1)), stream_key(seed, stream), 0)
    return tuple(np.uint64(x) for x in p)


def stream_key(seed: int, stream: int) -> np.uint64:
    """The key of one stream of one seed, as the uint64 :func:`word` takes."""
    return np.uint64(_stream_key(seed, np.uint64(stream)))


def seed_word(seed: int) -> np.uint64:
    """A seed as the uint64 the functions here take (seeds above ``2**64 - 1`` wrap)."""
    return np.uint64(int(seed) & _MASK64)
