"""Edge weights shared by every family: random, from lengths, or unique.

Kinds (the ``weights=`` parameter):

``"int"``
    int32 uniform in ``[1, max_weight]``, ``max_weight`` defaulting to
    ``2**20 - 1``: ties occur (a graph of 15 M edges reuses each value about
    15 times) without dominating. ``max_weight`` above ``2**31 - 1`` gives int64.
``"float"``
    float64 uniform in ``[0, 1)``; with ``max_weight=K`` the values are
    ``k / K`` for ``k`` in ``0..K-1``, so ties can be forced for floats too.
``"unique"``
    a random permutation of ``1..m`` (int32 while ``m`` fits): all weights
    distinct, as in Shou and He's test graphs.

Families drawn by edge-id range take their weights from
:func:`parmst.generators._positional.weights_at` instead: the same kinds, each
weight a function of its edge id (``"unique"``: a seeded bijection of the ids
onto ``1..m``). ``road`` derives ``"int"`` and ``"float"`` weights from link
lengths (:func:`length_weights`) and takes ``"unique"`` ones by edge id.

``max_weight`` is the number of distinct values, so a small one forces heavy
ties (tests of the ``(weight, edge_id)`` rule use it).
"""

from __future__ import annotations

import math

import numba
import numpy as np

DEFAULT_MAX_WEIGHT = 2**20 - 1
_INT32_MAX = np.iinfo(np.int32).max


def int_dtype(largest: int) -> type:
    """int32 while ``largest`` fits it, else int64."""
    return np.int32 if largest <= _INT32_MAX else np.int64


def random_weights(rng: np.random.Generator, m: int, kind: str,
                   max_weight: int | None) -> np.ndarray:
    """``m`` independent weights of ``kind`` (see the module docstring)."""
    if kind == "unique":
        distinct = np.arange(1, m + 1, dtype=int_dtype(m))
        rng.shuffle(distinct)
        return distinct
    if kind == "float":
        if max_weight is None:
            return rng.random(m)
        return rng.integers(0, max_weight, size=m) / max_weight
    top = DEFAULT_MAX_WEIGHT if max_weight is None else max_weight
    return rng.integers(1, top, endpoint=True, size=m, dtype=int_dtype(top))


#: Rules of :func:`length_weight`, numbered as the positional weight rules.
LENGTH_INT, LENGTH_FLOAT, LENGTH_FLOAT_LEVELS = 0, 1, 2


@numba.njit(cache=True)
def length_weight(length, max_length, rule, top):
    """One weight from a length in ``(0, max_length]`` (float64; whole for ``LENGTH_INT``).

    Single IEEE operations only (a division, a product, a ceiling), so a GPU
    and a CPU round alike.
    """
    scaled = length / max_length
    if rule == LENGTH_FLOAT:
        return scaled
    level = min(max(math.ceil(scaled * top), 1.0), np.float64(top))
    return level / top if rule == LENGTH_FLOAT_LEVELS else level


def length_rule(kind: str, max_weight: int | None) -> tuple[int, int]:
    """``(rule, top)`` of :func:`length_weight` for a weight kind (``"int"`` or ``"float"``)."""
    top = DEFAULT_MAX_WEIGHT if max_weight is None else max_weight
    if kind == "float":
        return (LENGTH_FLOAT if max_weight is None else LENGTH_FLOAT_LEVELS), top
    return LENGTH_INT, top


@numba.njit(cache=True)
def _fill_length_weights(lengths, max_length, rule, top, out):
    for i in range(lengths.size):
        out[i] = length_weight(lengths[i], max_length, rule, top)


def length_weights(lengths: np.ndarray, max_length: float, kind: str,
                   max_weight: int | None) -> np.ndarray:
    """Weights that grow with ``lengths`` (all in ``(0, max_length]``), each from its own length.

    ``"int"`` rounds ``lengths / max_length`` up onto ``1..max_weight``;
    ``"float"`` keeps ``lengths / max_length`` in ``(0, 1]`` (rounded up to
    multiples of ``1 / max_weight`` when given). There is no ``"unique"``
    rule: ranking lengths needs all of them, and a family drawn by id range
    has only its range (``road`` takes unique weights by edge id instead).
    """
    rule, top = length_rule(kind, max_weight)
    lengths = np.asarray(lengths, dtype=np.float64)
    out = np.empty(len(lengths), dtype=np.float64 if kind == "float" else int_dtype(top))
    _fill_length_weights(lengths, float(max_length), rule, top, out)
    return out
