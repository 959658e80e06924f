"""Random values that depend only on a position: what lets ranks and GPUs generate one graph.

A family that draws its graph in one sequential stream cannot be cut into
parts: the values of edge ``e`` depend on how many numbers were drawn before
it. Here every random value is a counter-based word
(:mod:`parmst.generators._counter`) of ``(seed, stream, position, lane)``, so
any process that knows a position range computes exactly the values of that
range: one process computes them all for :func:`parmst.generators.generate`,
``p`` ranks each their share for
:meth:`parmst.distributed.DistributedGraph.generate`, one GPU thread per
position for :func:`parmst.generators.device.generate`, and the arrays agree.

:func:`permute` is a bijection of ``0 .. n - 1`` evaluated at any position
without building the permutation, for what would otherwise be a global
shuffle (scrambled vertex ids, unique weights). :func:`weights_at` gives the
weights of an id range, through :func:`weight_of`, the one rule the GPU
kernels call too.

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np

from parmst.generators._counter import (
    bounded,
    permutation,
    permute_one,
    stream_key,
    unit,
    word,
)
from parmst.generators._weights import DEFAULT_MAX_WEIGHT, int_dtype

#: Positions per block where a family needs blocks (road drops links block by block).
#: Fixed: changing it changes every generated road graph.
BLOCK = 1 << 16

#: Stream numbers, one per kind of draw, so that two draws at one position never coincide.
STREAM_WEIGHTS = 1
STREAM_PERMUTE = 2
STREAM_ENDPOINTS = 3
STREAM_COORDINATES = 4
STREAM_STRUCTURE = 5

#: Fewest positions worth a thread of their own.
_MIN_CHUNK = 1 << 16

#: Weight rules of :func:`weight_of`, by number (a kernel takes integers).
RULE_INT, RULE_FLOAT, RULE_FLOAT_LEVELS, RULE_UNIQUE = 0, 1, 2, 3


def in_chunks(count: int, work: Callable[[int, int], None]) -> None:
    """``work(start, stop)`` over ``0 .. count - 1`` in one chunk per Numba thread, on
    threads (the njit loops release the GIL): every position's value is its own, so
    the chunks are independent."""
    parts = min(numba.get_num_threads(), max(1, count // _MIN_CHUNK))
    if parts <= 1:
        work(0, count)
        return
    bounds = [count * k // parts for k in range(parts + 1)]
    with ThreadPoolExecutor(parts) as pool:
        list(pool.map(work, bounds[:-1], bounds[1:]))


@numba.njit(cache=True, nogil=True)
def _permute_all(values, p, out):
    for i in range(values.size):
        out[i] = permute_one(values[i], p)


def permute(values: np.ndarray, n: int, seed: int, stream: int = STREAM_PERMUTE) -> np.ndarray:
    """The images of ``values`` (each in ``0 .. n - 1``) under a seeded bijection of that range.

    Returns int64. The same ``(n, seed, stream)`` always gives the same
    bijection (:func:`parmst.generators._counter.permutation`), evaluated
    position by position.
    """
    values = np.asarray(values, dtype=np.int64)
    out = np.empty(len(values), dtype=np.int64)
    if len(values):
        if values.min() < 0 or values.max() >= n:
            raise ValueError(f"permute: values must lie in 0 .. {n - 1}")
        p = permutation(n, seed, stream)
        in_chunks(len(values), lambda a, b: _permute_all(values[a:b], p, out[a:b]))
    return out


@dataclass(frozen=True)
class WeightRule:
    """The weights of an ``m``-edge graph as integers a kernel takes: ``weight_of(e, *args)``.

    Attributes
    ----------
    args : tuple
        ``(rule, key, top, p)``: the rule number (``RULE_*``), the weight
        stream's key, the top value (int: ``1 .. top``; float levels:
        ``k / top``) and the permutation of the ids (unique weights).
    dtype : numpy.dtype
        The weights' dtype.
    """

    args: tuple
    dtype: np.dtype

    @classmethod
    def of(cls, m: int, seed: int, kind: str, max_weight: int | None) -> WeightRule:
        """The rule of ``kind`` (see :mod:`parmst.generators._weights`) for ``m`` edges."""
        key = stream_key(seed, STREAM_WEIGHTS)
        p = permutation(m, seed, STREAM_WEIGHTS)
        if kind == "unique":
            return cls((RULE_UNIQUE, key, np.int64(m), p), np.dtype(int_dtype(m)))
        if kind == "float":
            rule = RULE_FLOAT if max_weight is None else RULE_FLOAT_LEVELS
            return cls((rule, key, np.int64(max_weight or 1), p), np.dtype(np.float64))
        top = DEFAULT_MAX_WEIGHT if max_weight is None else max_weight
        return cls((RULE_INT, key, np.int64(top), p), np.dtype(int_dtype(top)))


@numba.njit(cache=True)
def weight_of(e, rule, key, top, p):
    """The weight of edge id ``e`` (float64; whole numbers for the integer rules).

    int: ``1 + bounded(word, top)``; float: ``unit(word)``; float levels:
    ``bounded(word, top) / top``; unique: ``permute(e) + 1``. The word is
    lane 0 of position ``e`` of the weight stream.
    """
    if rule == RULE_UNIQUE:
        return np.float64(permute_one(e, p) + 1)
    w = word(key, e, 0)
    if rule == RULE_FLOAT:
        return unit(w)
    level = np.int64(bounded(w, top))
    if rule == RULE_FLOAT_LEVELS:
        return np.float64(level) / np.float64(top)
    return np.float64(level + 1)


@numba.njit(cache=True)
def int_weight_of(e, rule, key, top, p):
    """:func:`weight_of` of an integer rule as int64 (exact for any top)."""
    if rule == RULE_UNIQUE:
        return permute_one(e, p) + 1
    return np.int64(bounded(word(key, e, 0), top)) + 1


@numba.njit(cache=True, nogil=True)
def _fill_float_weights(lo, rule, key, top, p, out):
    for i in range(out.size):
        out[i] = weight_of(lo + i, rule, key, top, p)


@numba.njit(cache=True, nogil=True)
def _fill_int_weights(lo, rule, key, top, p, out):
    for i in range(out.size):
        out[i] = int_weight_of(lo + i, rule, key, top, p)


def weights_at(lo: int, hi: int, m: int, seed: int, kind: str,
               max_weight: int | None) -> np.ndarray:
    """The weights of edge ids ``lo .. hi - 1`` of an ``m``-edge graph (kinds as in
    :mod:`parmst.generators._weights`): a function of the id, the seed and ``m`` alone.

    ``"unique"`` is a seeded bijection of the ids onto ``1 .. m``; ``"int"``
    and ``"float"`` are counter-based draws at the id (:func:`weight_of`).
    """
    rule = WeightRule.of(m, seed, kind, max_weight)
    out = np.empty(max(hi - lo, 0), dtype=rule.dtype)
    if len(out):
        fill = _fill_float_weights if rule.dtype.kind == "f" else _fill_int_weights
        in_chunks(len(out), lambda a, b: fill(lo + a, *rule.args, out[a:b]))
    return out


# Not cached: numba cannot cache a function that takes another one as an argument.
@numba.njit(nogil=True)
def _fill_pairs(pair, args, lo, src, dst):
    for i in range(src.size):
        src[i], dst[i] = pair(lo + i, *args)


def pairs_at(pair, args: tuple, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """``pair(e, *args)`` for ``e`` in ``lo .. hi - 1`` as two int64 arrays: the host loop over
    the scalar rule that a GPU kernel runs one thread per position."""
    src = np.empty(max(hi - lo, 0), dtype=np.int64)
    dst = np.empty_like(src)
    in_chunks(len(src), lambda a, b: _fill_pairs(pair, args, lo + a, src[a:b], dst[a:b]))
    return src, dst
