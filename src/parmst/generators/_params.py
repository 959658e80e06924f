"""Spec strings, size presets and the parameter checks every family shares."""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from typing import Any

from parmst.errors import GraphValueError
from parmst.keyvalue import parse_pairs

WEIGHT_KINDS = ("int", "float", "unique")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"family:key=value,key=value"`` into the family name and its parameters.

    Examples
    --------
    >>> parse_spec("rmat:scale=16,a=0.6,weights=float")
    ('rmat', {'scale': 16, 'a': 0.6, 'weights': 'float'})
    >>> parse_spec("grid2d")
    ('grid2d', {})
    """
    if not isinstance(spec, str):
        raise GraphValueError(f"a generator spec is a string, got {type(spec).__name__}")
    name, _, rest = spec.partition(":")
    name = name.strip()
    if not name:
        raise GraphValueError(f"generator spec {spec!r} names no family")
    try:
        params = parse_pairs(rest.split(","), f"generator spec {spec!r}")
    except ValueError as exc:
        raise GraphValueError(str(exc)) from None
    return name, params


def fill_size(family: str, presets: Mapping[str, Mapping[str, Any]], size: str,
              **values: Any) -> dict[str, Any]:
    """Values the caller left as ``None`` taken from the ``size`` preset.

    Examples
    --------
    >>> fill_size("grid2d", {"small": {"side": 32}}, "small", side=None)
    {'side': 32}
    """
    if size not in presets:
        raise GraphValueError(
            f"{family}: size must be one of {', '.join(presets)}, got {size!r}")
    preset = presets[size]
    return {key: preset[key] if value is None else value for key, value in values.items()}


def check_int(name: str, value: Any, minimum: int = 0) -> int:
    """``value`` as an int ``>= minimum``; integral floats such as ``1e6`` are accepted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GraphValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise GraphValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_fraction(name: str, value: Any, *, low_open: bool = False) -> float:
    """``value`` as a float in ``[0, 1]`` (``(0, 1]`` when ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise GraphValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0 <= value <= 1 or (low_open and value == 0):
        interval = "(0, 1]" if low_open else "[0, 1]"
        raise GraphValueError(f"{name} must lie in {interval}, got {value}")
    return float(value)


def check_weights(weights: Any, max_weight: Any) -> tuple[str, int | None]:
    """Validate the ``weights`` kind and the optional ``max_weight`` (distinct values)."""
    if weights not in WEIGHT_KINDS:
        raise GraphValueError(f"weights must be one of {', '.join(WEIGHT_KINDS)}, got {weights!r}")
    if max_weight is None:
        return weights, None
    if weights == "unique":
        raise GraphValueError("max_weight forces ties, so it cannot go with weights='unique'")
    return weights, check_int("max_weight", max_weight, minimum=1)


def check_range(lo: Any, hi: Any, m: int) -> tuple[int, int]:
    """An edge-id range ``lo .. hi - 1`` of an ``m``-edge graph: ``0 <= lo <= hi <= m``.

    Examples
    --------
    >>> check_range(2, 5, 10)
    (2, 5)
    """
    try:
        lo, hi = operator.index(lo), operator.index(hi)
    except TypeError:
        raise GraphValueError(f"an edge range is two integers, got {lo!r} .. {hi!r}") from None
    if not 0 <= lo <= hi <= m:
        raise GraphValueError(f"edge range {lo} .. {hi} must satisfy 0 <= lo <= hi <= m = {m}")
    return lo, hi
