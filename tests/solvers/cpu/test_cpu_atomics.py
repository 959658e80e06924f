"""The LLVM atomics under real contention: many threads hammering a few slots.

Each kernel runs ``prange`` over far more items than slots, so threads
collide on every slot; the result must equal a serial reduction.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from parmst.solvers.cpu._atomics import (
    atomic_add,
    atomic_cas,
    atomic_load,
    atomic_min,
    atomic_store,
    atomic_xchg,
)

SLOTS = 3
ITEMS = 200_000
DTYPES = [np.int32, np.int64, np.uint32, np.uint64]


@numba.njit(parallel=True, cache=True)
def _guarded_min(values, slots):
    for i in numba.prange(len(values)):
        s = i % len(slots)
        if values[i] < atomic_load(slots, s):
            atomic_min(slots, s, values[i])


@numba.njit(parallel=True, cache=True)
def _unguarded_min(values, slots):
    for i in numba.prange(len(values)):
        atomic_min(slots, i % len(slots), values[i])


@numba.njit(parallel=True, cache=True)
def _count(items, slots):
    for i in numba.prange(items):
        atomic_add(slots, i % len(slots), 1)


@numba.njit(parallel=True, cache=True)
def _count_by_cas(items, slots):
    for i in numba.prange(items):
        s = i % len(slots)
        while True:
            old = atomic_load(slots, s)
            if atomic_cas(slots, s, old, old + 1) == old:
                break


@numba.njit(parallel=True, cache=True)
def _swap_in(values, slot, previous):
    """Every value is exchanged into one slot; the old values returned are a permutation."""
    for i in numba.prange(len(values)):
        previous[i] = atomic_xchg(slot, 0, values[i])


@numba.njit(cache=True)
def _store_then_load(slots, value):
    atomic_store(slots, 0, value)
    return atomic_load(slots, 0)


def _values(dtype, low):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    return rng.integers(max(info.min, low), min(info.max, 1 << 40), ITEMS).astype(dtype)


@pytest.mark.parametrize("kernel", [_guarded_min, _unguarded_min], ids=["guarded", "unguarded"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_atomic_min_under_contention_matches_serial_min(kernel, dtype):
    values = _values(dtype, low=-(1 << 40))
    slots = np.full(SLOTS, np.iinfo(dtype).max, dtype=dtype)
    kernel(values, slots)
    expected = [values[s::SLOTS].min() for s in range(SLOTS)]
    np.testing.assert_array_equal(slots, expected)


def test_atomic_min_is_signed_on_signed_arrays():
    slots = np.array([5], dtype=np.int64)
    _unguarded_min(np.array([-3, 7], dtype=np.int64), slots)
    assert slots[0] == -3


@pytest.mark.parametrize("dtype", DTYPES)
def test_fetch_add_under_contention_counts_every_item(dtype):
    slots = np.zeros(SLOTS, dtype=dtype)
    _count(ITEMS, slots)
    expected = [len(range(s, ITEMS, SLOTS)) for s in range(SLOTS)]
    np.testing.assert_array_equal(slots, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cas_retry_loop_under_contention_counts_every_item(dtype):
    slots = np.zeros(SLOTS, dtype=dtype)
    _count_by_cas(ITEMS, slots)
    expected = [len(range(s, ITEMS, SLOTS)) for s in range(SLOTS)]
    np.testing.assert_array_equal(slots, expected)


def test_exchange_under_contention_loses_no_value():
    values = np.arange(1, ITEMS + 1, dtype=np.int64)
    slot = np.zeros(1, dtype=np.int64)
    previous = np.empty(ITEMS, dtype=np.int64)
    _swap_in(values, slot, previous)
    seen = np.sort(np.concatenate([previous, slot]))
    np.testing.assert_array_equal(seen, np.arange(ITEMS + 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_store_then_load_round_trips(dtype):
    slots = np.zeros(1, dtype=dtype)
    assert _store_then_load(slots, 42) == 42
    assert slots[0] == 42


def test_atomics_reject_float_arrays():
    with pytest.raises(numba.core.errors.TypingError, match="integer array"):
        _store_then_load(np.zeros(1, dtype=np.float64), 1)
