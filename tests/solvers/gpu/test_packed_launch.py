"""The words of a pre-packed kernel launch (:mod:`parmst._cuda.packed`), on the host.

Whole packed launches run only on a GPU (``test_gpu_device.py`` compares them with
numba-cuda's dispatcher); here, how each flattened argument numba-cuda produces becomes the
8-byte slot the driver reads: little-endian, the parameter's own bytes first.
"""

from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest

from parmst._cuda.packed import UnsupportedArgument, slot_word


@pytest.mark.parametrize(("item", "raw"), [
    (ctypes.c_int32(-2), struct.pack("<i", -2)),
    (ctypes.c_uint64(2**63 + 5), struct.pack("<Q", 2**63 + 5)),
    (ctypes.c_int64(-(2**40)), struct.pack("<q", -(2**40))),
    (ctypes.c_double(-1.5), struct.pack("<d", -1.5)),
    (ctypes.c_float(0.1), struct.pack("<f", 0.1)),
    (ctypes.c_uint16(0xBEEF), struct.pack("<H", 0xBEEF)),
])
def test_a_ctypes_value_keeps_its_bytes_at_the_slot_start(item, raw):
    word = slot_word(item).to_bytes(8, "little")
    assert word[:len(raw)] == raw and not any(word[len(raw):])


def test_python_values_become_pointer_sized_words():
    assert slot_word(True) == 1 and slot_word(np.bool_(False)) == 0
    assert slot_word(None) == 0  # an empty array's data pointer
    assert slot_word(-8) == 2**64 - 8  # a negative stride, two's complement
    assert slot_word(2**40 + 3) == 2**40 + 3


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_longdouble) <= 8,
                    reason="long double is 8 bytes on this platform")
def test_a_value_wider_than_a_slot_goes_to_the_dispatcher():
    with pytest.raises(UnsupportedArgument, match="16-byte"):
        slot_word(ctypes.c_longdouble(1.0))


def test_an_unknown_argument_goes_to_the_dispatcher():
    with pytest.raises(UnsupportedArgument, match="str"):
        slot_word("text")
