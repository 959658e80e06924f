"""Random numbers that depend only on a position: what lets ranks generate shares of one graph.

A family that draws its graph in one sequential stream cannot be cut into
parts: the values of edge ``e`` depend on how many numbers were drawn before
it. Here every random value belongs to a fixed *block* of positions
(:data:`BLOCK` of them) and comes from a generator seeded by
``(seed, stream, block)`` alone, so any process that knows a position range
draws exactly the values of that range, whatever else it generates: one
process draws them all for :func:`parmst.generators.generate`, ``p`` ranks
each draw their share for
:meth:`parmst.distributed.DistributedGraph.generate`, and the arrays agree.

:func:`permute` is a bijection of ``0 .. n - 1`` evaluated at any position
without building the permutation (a Feistel network with cycle walking), for
what would otherwise be a global shuffle (scrambled vertex ids, unique
weights). :func:`weights_at` gives the weights of an id range.

Examples
--------
>>> import numpy as np
>>> whole = weights_at(0, 10, 10, seed=3, kind="int", max_weight=100)
>>> part = weights_at(4, 7, 10, seed=3, kind="int", max_weight=100)
>>> bool((whole[4:7] == part).all())
True
>>> sorted(permute(np.arange(10), 10, seed=5).tolist()) == list(range(10))
True
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from parmst._hash import mix64
from parmst.generators._weights import DEFAULT_MAX_WEIGHT, int_dtype

#: Positions per random block. Fixed: changing it changes every generated graph.
BLOCK = 1 << 16

#: Stream numbers, one per kind of draw, so that two draws at one position never coincide.
STREAM_WEIGHTS = 1
STREAM_PERMUTE = 2
STREAM_ENDPOINTS = 3
STREAM_COORDINATES = 4
STREAM_STRUCTURE = 5

_ROUNDS = 4
_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def block_rng(seed: int, stream: int, block: int) -> np.random.Generator:
    """The generator of one block: a function of ``(seed, stream, block)`` alone."""
    return np.random.default_rng(np.random.SeedSequence([seed, stream, block]))


def draw_range(lo: int, hi: int, seed: int, stream: int,
               draw: Callable[[np.random.Generator, int], np.ndarray]) -> np.ndarray:
    """The values at positions ``lo .. hi - 1`` of a blockwise stream.

    ``draw(rng, count)`` draws ``count`` values from one block's generator;
    a block always draws all :data:`BLOCK` of its values (then the range keeps
    its slice), so a position's value does not depend on ``lo`` and ``hi``.
    """
    if hi <= lo:
        return draw(block_rng(seed, stream, 0), 0)
    parts = []
    for block in range(lo // BLOCK, (hi - 1) // BLOCK + 1):
        start = block * BLOCK
        values = draw(block_rng(seed, stream, block), BLOCK)
        parts.append(values[max(lo - start, 0):min(hi - start, BLOCK)])
    return parts[0] if len(parts) == 1 else np.concatenate(parts)  # one block: no copy


def _round_keys(seed: int, stream: int) -> np.ndarray:
    return np.random.SeedSequence([seed, stream, 1 << 40]).generate_state(_ROUNDS, np.uint64)


@numba.njit(cache=True)
def _feistel(x, half_bits, keys):
    """One pass of a balanced Feistel network over ``2 * half_bits`` bits: a bijection."""
    mask = (np.uint64(1) << np.uint64(half_bits)) - np.uint64(1)
    left, right = x >> np.uint64(half_bits), x & mask
    for k in keys:
        left, right = right, left ^ (mix64(right ^ k) & mask)
    return (left << np.uint64(half_bits)) | right


@numba.njit(cache=True)
def _permute_all(values, n, half_bits, keys, out):
    """Cycle walking: apply the network until the value falls below ``n`` again.

    The network permutes ``0 .. 4**half_bits - 1``; restricted to the values
    below ``n`` by walking along each cycle, it stays a bijection of
    ``0 .. n - 1``. The domain is less than ``4 n``, so a walk is short.
    """
    for i in range(len(values)):
        y = _feistel(np.uint64(values[i]), half_bits, keys)
        while y >= n:
            y = _feistel(y, half_bits, keys)
        out[i] = y


def permute(values: np.ndarray, n: int, seed: int, stream: int = STREAM_PERMUTE) -> np.ndarray:
    """The images of ``values`` (each in ``0 .. n - 1``) under a seeded bijection of that range.

    Returns int64. The same ``(n, seed, stream)`` always gives the same
    bijection, evaluated position by position.
    """
    values = np.asarray(values, dtype=np.int64)
    out = np.empty(len(values), dtype=np.uint64)
    if len(values):
        if values.min() < 0 or values.max() >= n:
            raise ValueError(f"permute: values must lie in 0 .. {n - 1}")
        half_bits = max(1, (int(n - 1).bit_length() + 1) // 2)
        with np.errstate(over="ignore"):  # wrapping products are the hash (without the JIT)
            _permute_all(values, np.uint64(n), half_bits, _round_keys(seed, stream), out)
    return out.astype(np.int64)


def weights_at(lo: int, hi: int, m: int, seed: int, kind: str,
               max_weight: int | None) -> np.ndarray:
    """The weights of edge ids ``lo .. hi - 1`` of an ``m``-edge graph (kinds as in
    :mod:`parmst.generators._weights`): a function of the id, the seed and ``m`` alone.

    ``"unique"`` is a seeded bijection of the ids onto ``1 .. m``; ``"int"``
    and ``"float"`` are drawn blockwise (:func:`draw_range`).
    """
    if kind == "unique":
        return (permute(np.arange(lo, hi), m, seed, STREAM_WEIGHTS) + 1).astype(int_dtype(m))
    if kind == "float":
        if max_weight is None:
            return draw_range(lo, hi, seed, STREAM_WEIGHTS, lambda rng, k: rng.random(k))
        return draw_range(lo, hi, seed, STREAM_WEIGHTS,
                          lambda rng, k: rng.integers(0, max_weight, size=k)) / max_weight
    top = DEFAULT_MAX_WEIGHT if max_weight is None else max_weight
    dtype = int_dtype(top)
    return draw_range(lo, hi, seed, STREAM_WEIGHTS,
                      lambda rng, k: rng.integers(1, top, endpoint=True, size=k, dtype=dtype))
