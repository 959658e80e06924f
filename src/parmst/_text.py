"""Counted nouns in messages: "1 tree", "2 trees"."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1 (``many`` if irregular).

    Examples
    --------
    >>> plural(1, "component"), plural(3, "tree"), plural(0, "vertex", "vertices")
    ('1 component', '3 trees', '0 vertices')
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"
