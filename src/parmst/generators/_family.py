"""The :class:`Family` record: a generator function, its defaults, presets and counts."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._drawn import Drawn
from parmst.generators._params import fill_size
from parmst.graph import Graph


@dataclass(frozen=True)
class Family:
    """A graph family that ``generate`` can build from a spec string.

    Attributes
    ----------
    name : str
        The spec's family name, e.g. ``"rmat"``.
    function : callable
        Builds the graph from keyword parameters.
    description : str
        One line for ``parmst generate --list``.
    sizes : mapping
        ``{size name: {parameter: value}}`` presets applied by ``size=``
        to the parameters left at ``None``.
    counts : callable
        ``counts(params) -> (n, m, m_exact)`` from resolved parameters,
        without generating; ``m`` is an upper bound when ``m_exact`` is False.
    edge_range : callable or None
        ``edge_range(lo, hi, **params) -> (src, dst, weight)``: the edges
        with ids ``lo .. hi - 1`` of exactly the graph ``function(**params)``
        builds, drawn without generating the rest (families with an exact
        ``m``); what lets ranks generate shares of one graph. ``None`` where
        the family cannot (yet) be cut by id range.
    drawn : callable or None
        ``drawn(**params) -> Drawn``: for families whose ``m`` depends on
        the draws (repeats removed), the recipe
        (:class:`~parmst.generators._drawn.Drawn`) that ranks share to
        generate the graph collectively. ``None`` for the others.
    """

    name: str
    function: Callable[..., Graph]
    description: str
    sizes: Mapping[str, Mapping[str, Any]]
    counts: Callable[[Mapping[str, Any]], tuple[int, int, bool]]
    edge_range: Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
    drawn: Callable[..., Drawn] | None = None

    @property
    def defaults(self) -> dict[str, Any]:
        """Every parameter and its default (``None`` where ``size`` decides)."""
        return {name: p.default
                for name, p in inspect.signature(self.function).parameters.items()}

    def resolve(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """All parameters, with the ``size`` preset filled in; unknown names are an error."""
        defaults = self.defaults
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise GraphValueError(
                f"{self.name} has no parameter {', '.join(map(repr, unknown))}; "
                f"valid: {', '.join(defaults)}")
        resolved = {**defaults, **params}
        preset_keys = next(iter(self.sizes.values()))
        resolved.update(fill_size(self.name, self.sizes, resolved["size"],
                                  **{key: resolved[key] for key in preset_keys}))
        return resolved
