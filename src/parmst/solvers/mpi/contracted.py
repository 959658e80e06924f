"""The graph filter-boruvka's rounds start from, with or without the local filter.

Its vertices are components (after the filter) or the vertices themselves
(without it), labelled so that each rank owns a contiguous range of labels;
each of its edges is given to the rounds by exactly one rank.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class RoundEdges:
    """The edges this rank gives to the rounds (the rounds compact them in place).

    Attributes
    ----------
    cu : ndarray
        The end this rank gives the edge for: a component label it owns.
    cv : ndarray
        The other end's component label.
    keys : ndarray
        Order-preserving uint64 weight keys.
    ids : ndarray
        Global edge ids.
    """

    cu: np.ndarray
    cv: np.ndarray
    keys: np.ndarray
    ids: np.ndarray


@dataclass(frozen=True, slots=True)
class FirstMinima:
    """The lightest edge at each component this rank owns, known without a message: the
    owner rounds' first minima (:func:`~parmst.solvers.mpi.owners.owner_rounds`).

    Attributes
    ----------
    ids : ndarray
        The edge's global id (-1 where the component has none).
    far : ndarray
        The component label at its other end.
    holder : ndarray
        The rank that gives the edge to the rounds.
    """

    ids: np.ndarray
    far: np.ndarray
    holder: np.ndarray


@dataclass(frozen=True, slots=True)
class Contracted:
    """What the rounds start from.

    Attributes
    ----------
    forest : ndarray
        Ids of global forest edges this rank found before the rounds (the
        local forest edges it contracted; empty without the filter).
    edges : RoundEdges
        The edges this rank gives to the rounds.
    num_components : int
        Components in all ranks together (the rounds' labels ``0..num_components-1``).
    key_bits : int
        Width of the weight keys in bits.
    first, count : int
        This rank's components: labels ``first .. first + count - 1``.
    minima : FirstMinima
        The lightest edge of each of them.
    """

    forest: np.ndarray
    edges: RoundEdges
    num_components: int
    key_bits: int
    first: int
    count: int
    minima: FirstMinima
