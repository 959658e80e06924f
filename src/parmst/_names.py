"""Vertex names: any values numbered ``0..n-1`` by one rule, and the names kept as labels.

A graph's vertices are the numbers ``0..n-1``. Edge lists whose ends are
names (strings, any hashable object, categories, or integers that are not
``0..n-1``, such as sparse 10^12 ids) are numbered here, once, and the graph
keeps each vertex's name in its ``labels`` array, so that every output can
give the names back.

The rule, shared by every constructor and every reader:

- ``relabel="first"``: vertices numbered in order of first appearance,
  reading the edges row by row, each row's source before its target (as
  ``pandas.factorize``, NetworkX and igraph number names);
- ``relabel="sorted"`` (or ``True``): numbered in increasing order of name;
- ``relabel=None`` (the constructors' default): names that are not numbers
  (strings, objects, categories) are numbered by first appearance, integer
  ids are kept as they are (ids ``0..n-1`` cost nothing: no labels);
- ``relabel=False``: ids are kept, names are an error.

The numbering is vectorised: :func:`numpy.unique` for numbers, a hash table
(``pandas.factorize`` where pandas is installed, else a dictionary) for
strings and Python objects (sorting strings costs more than hashing them),
Arrow's ``dictionary_encode`` for Arrow columns. Every path gives the same
numbering.

Examples
--------
>>> src, dst, labels = vertex_ids(["b", "a"], ["a", "c"], None)
>>> src.tolist(), dst.tolist(), labels.tolist()
([0, 1], [1, 2], ['b', 'a', 'c'])
>>> vertex_ids([10**12, 7], [7, 3], "sorted")[2].tolist()
[3, 7, 1000000000000]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst._edge_input import as_array
from parmst._optional import installed, require
from parmst.errors import GraphValueError

__all__ = ["DEFAULT_COLUMNS", "RELABEL_CHOICES", "arrow_ids", "is_names", "number", "order_of",
           "vertex_ids"]

DEFAULT_COLUMNS = ("source", "target", "weight")
"""Column names of a graph's edge table where the user named none (``Graph.columns``)."""

RELABEL_CHOICES = (None, False, True, "sorted", "first")
NAMES_ORDER = "first"
"""The order of names numbered without ``relabel`` (strings, objects, categories)."""


def order_of(relabel: Any, names: bool) -> str | None:
    """The numbering order the ``relabel`` option asks for: ``"first"``, ``"sorted"`` or None
    (keep the ids); ``names`` says whether the ends are names rather than integer ids."""
    if not any(relabel is choice or (relabel == choice and type(relabel) is type(choice))
               for choice in RELABEL_CHOICES):
        raise GraphValueError(f"relabel must be one of {', '.join(map(repr, RELABEL_CHOICES))}; "
                              f"got {relabel!r}")
    if relabel is None:
        return NAMES_ORDER if names else None
    if relabel is False:
        return None
    return "sorted" if relabel is True else relabel


def is_names(values: np.ndarray) -> bool:
    """Whether an array holds names (strings, bytes, Python objects) rather than numbers."""
    return values.dtype.kind in "OUS"


def interleave(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """``src[0], dst[0], src[1], dst[1], ...``: the order in which names first appear.

    Ends of one kind (both integers, both strings) keep a common NumPy dtype;
    ends of different kinds become Python objects, so that ``1`` and ``"1"``
    stay two names.
    """
    if src.dtype == dst.dtype:
        dtype = src.dtype
    elif src.dtype.kind == dst.dtype.kind and src.dtype.kind in "iufUS":
        dtype = np.result_type(src.dtype, dst.dtype)
    else:
        dtype = np.dtype(object)
    both = np.empty(2 * len(src), dtype=dtype)
    both[0::2], both[1::2] = src, dst
    return both


def _by_sorting(both: np.ndarray, order: str) -> tuple[np.ndarray, np.ndarray]:
    """Numbers and names of numbers, by one sort (:func:`numpy.unique`)."""
    try:
        labels, first, inverse = np.unique(both, return_index=True, return_inverse=True)
    except TypeError as exc:
        raise GraphValueError(f"vertex names of mixed types cannot be sorted ({exc}); "
                              "use relabel='first'") from None
    if order == "first":
        by_appearance = np.argsort(first, kind="stable")
        rank = np.empty(len(labels), dtype=np.int64)
        rank[by_appearance] = np.arange(len(labels))
        labels, inverse = labels[by_appearance], rank[inverse]
    return inverse.astype(np.int64, copy=False).ravel(), labels


def _missing(count: int) -> GraphValueError:
    return GraphValueError(f"vertex names hold {count} missing (null) values; an edge needs "
                           "both ends: drop or fill them first")


def _by_hashing(both: np.ndarray, order: str) -> tuple[np.ndarray, np.ndarray]:
    """Numbers and names of strings and Python objects (any hashable), by a hash table."""
    if installed("pandas"):
        pd = require("pandas", "numbering vertex names")
        try:
            codes, labels = pd.factorize(both, sort=order == "sorted")
        except TypeError as exc:
            raise GraphValueError(f"vertex names cannot be numbered in order ({exc}); use "
                                  "relabel='first'") from None
        if len(codes) and codes.min() < 0:
            raise _missing(int((codes < 0).sum()))
        return codes.astype(np.int64, copy=False), np.asarray(labels, dtype=object)
    missing = int(np.count_nonzero(both == None))  # elementwise: NumPy compares each name
    if missing:
        raise _missing(missing)
    index: dict[Any, int] = {}
    try:
        codes = np.fromiter((index.setdefault(x, len(index)) for x in both.tolist()),
                            dtype=np.int64, count=len(both))
    except TypeError as exc:  # an unhashable name (a list, a dict)
        raise GraphValueError(f"vertex names must be hashable ({exc})") from None
    labels = np.fromiter(index, dtype=object, count=len(index))
    if order == "sorted":
        return _sorted_codes(codes, labels)
    return codes, labels


def _sorted_codes(codes: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and labels renumbered in increasing order of label (labels are few: one per
    vertex, so this sorts ``n`` names, not ``2m`` ends)."""
    try:
        ranked = sorted(range(len(labels)), key=labels.__getitem__)
    except TypeError as exc:
        raise GraphValueError(f"vertex names of mixed types cannot be sorted ({exc}); "
                              "use relabel='first'") from None
    perm = np.asarray(ranked, dtype=np.int64)
    rank = np.empty(len(labels), dtype=np.int64)
    rank[perm] = np.arange(len(labels))
    return rank[codes], labels[perm]


def number(both: np.ndarray, order: str) -> tuple[np.ndarray, np.ndarray]:
    """The one rule: each value's vertex number and the name of each vertex, in ``order``.

    ``both`` holds the ends row by row (see :func:`interleave`).

    Examples
    --------
    >>> codes, labels = number(np.array([30, 10, 10, 20]), "first")
    >>> codes.tolist(), labels.tolist()
    ([0, 1, 1, 2], [30, 10, 20])
    """
    if is_names(both):
        return _by_hashing(both, order)
    return _by_sorting(both, order)


def vertex_ids(src: Any, dst: Any, relabel: Any, what: tuple[str, str] = ("src", "dst")
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The ends as arrays of vertex numbers, and each vertex's name (None: ids kept as given).

    ``relabel`` as in the module docstring; ``what`` names the two arguments
    (or the user's columns) in errors.
    """
    s, d = as_array(what[0], src), as_array(what[1], dst)
    order = order_of(relabel, is_names(s) or is_names(d))
    if order is None:
        return s, d, None
    if len(s) != len(d):
        raise GraphValueError(f"{what[0]} has {len(s)} entries but {what[1]} has {len(d)}")
    codes, labels = number(interleave(s, d), order)
    return codes[0::2], codes[1::2], labels


def arrow_ids(src: Any, dst: Any, order: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`vertex_ids` of two Arrow arrays of names (no nulls), by ``dictionary_encode``.

    The ends are interleaved with one ``take`` and encoded once: Arrow's
    dictionary lists names in order of first appearance, and ``"sorted"``
    sorts only that dictionary.
    """
    pa = require("pyarrow", "Arrow columns of vertex names")
    pc = require("pyarrow.compute", "Arrow columns of vertex names")
    s, d = (_plain(pa, column) for column in (src, dst))
    if s.type != d.type:
        d = d.cast(s.type)
    m = len(s)
    rows = np.empty(2 * m, dtype=np.int64)
    rows[0::2], rows[1::2] = np.arange(m), np.arange(m, 2 * m)
    encoded = pa.concat_arrays([s, d]).take(pa.array(rows)).dictionary_encode()
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    dictionary = encoded.dictionary
    if order == "sorted":
        perm = pc.sort_indices(dictionary).to_numpy(zero_copy_only=False)
        rank = np.empty(len(dictionary), dtype=np.int64)
        rank[perm] = np.arange(len(dictionary))
        codes, dictionary = rank[codes], dictionary.take(pa.array(perm))
    return codes[0::2], codes[1::2], dictionary.to_numpy(zero_copy_only=False)


def _plain(pa: Any, column: Any) -> Any:
    """One Arrow array of plain values: chunks combined, dictionaries decoded, string views
    widened (``dictionary_encode`` then takes it)."""
    if hasattr(column, "combine_chunks"):
        column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if pa.types.is_string_view(column.type):
        column = column.cast(pa.large_string())
    return column
