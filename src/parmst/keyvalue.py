"""``KEY=VALUE`` options as the CLI, generator specs and benchmark solver specs write them.

One set of rules for every place a user types options as text: items are
separated by commas (or given one per argument), a key may use ``-`` for
``_``, and a value reads as a boolean (``true``/``false``), ``none``, an
integer or a float where it can, otherwise it stays a string. A key given
twice or an item without ``=`` is an error that quotes the item.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["parse_pairs", "parse_value"]


def parse_value(text: str) -> Any:
    """The value ``text`` stands for.

    Examples
    --------
    >>> [parse_value(t) for t in ("16", "0.5", "1e6", "TRUE", "none", "road")]
    [16, 0.5, 1000000.0, True, None, 'road']
    """
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    return text


def parse_pairs(items: Iterable[str], where: str) -> dict[str, Any]:
    """``["a=1", "max-weight=2"]`` -> ``{"a": 1, "max_weight": 2}``.

    ``where`` names the text being read in error messages (``"--option"``,
    ``"generator spec 'rmat:scale=x'"``). Blank items are skipped, so a
    trailing comma is harmless.

    Raises
    ------
    ValueError
        An item without ``=``, an empty key or value, or a key given twice.

    Examples
    --------
    >>> parse_pairs("scale=16, weights=float".split(","), "spec")
    {'scale': 16, 'weights': 'float'}
    >>> parse_pairs(["threads"], "--option")
    Traceback (most recent call last):
    ...
    ValueError: --option: expected KEY=VALUE, got 'threads'
    """
    pairs: dict[str, Any] = {}
    for item in items:
        item = item.strip()
        if not item:
            continue
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key or not value:
            raise ValueError(f"{where}: expected KEY=VALUE, got {item!r}")
        key = key.replace("-", "_")
        if key in pairs:
            raise ValueError(f"{where} gives {key!r} twice")
        pairs[key] = parse_value(value)
    return pairs
