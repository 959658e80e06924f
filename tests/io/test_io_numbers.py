"""The byte-level number parsers against Python's int() and float()."""

import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parmst.formats._numbers import (
    NUMBER_FALLBACK,
    NUMBER_FLOAT,
    NUMBER_INT,
    NUMBER_INVALID,
    NUMBER_NAN,
    _parse_int,
    _parse_number,
)


def parse(text: str):
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    return _parse_number(data, 0, len(data))


def same_float(a: float, b: float) -> bool:
    return struct.pack("<d", a) == struct.pack("<d", b)


def assert_parses_like_python(text: str) -> None:
    kind, int_value, float_value = parse(text)
    if kind == NUMBER_INT:
        assert int_value == int(text)
    elif kind == NUMBER_FLOAT:
        assert same_float(float_value, float(text)), (text, float_value, float(text))
    else:
        assert kind == NUMBER_FALLBACK, (text, kind)


HARD_CASES = [
    "0.1", "1.5", "-1.5e-3", ".5", "5.", "+7.25", "1e308", "1.7976931348623157e308",
    "1.7976931348623158e308",  # rounds down to the largest double
    "1.7976931348623159e308",  # rounds up to inf
    "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324",
    "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1e400", "-0.0",
    "9007199254740993", "9007199254740993.0", "9007199254740992.5", "7.2057594037927933e16",
    "123456789012345678901234567890", "0.000000000000000000000000000001234",
    "1.00000000000000011102230246251565404236316680908203125",  # exact halfway: ties to even
    "1.00000000000000011102230246251565404236316680908203126",
    "3.4028234663852886e38", "0.10000000149011612", "1e23", "8.98846567431158e307",
    "1E5", "1e+05", "1e-0005", "0e999999999",
]


@pytest.mark.parametrize("text", HARD_CASES)
def test_hard_decimal_cases_round_like_python(text):
    assert_parses_like_python(text)


def test_halfway_case_beyond_19_digits_is_left_to_python():
    kind, _, _ = parse("1.00000000000000011102230246251565404236316680908203125")
    assert kind == NUMBER_FALLBACK


@pytest.mark.parametrize(("text", "expected"), [
    ("inf", np.inf), ("-Infinity", -np.inf), ("+INF", np.inf), ("1e99999", np.inf),
    ("-1e-99999", -0.0),
])
def test_special_values(text, expected):
    kind, _, value = parse(text)
    assert kind == NUMBER_FLOAT and same_float(value, expected)


@pytest.mark.parametrize("text", ["nan", "NaN", "-nan"])
def test_nan_is_its_own_kind(text):
    assert parse(text)[0] == NUMBER_NAN


@pytest.mark.parametrize("text", ["", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1_0",
                                  "infinit", "nan1", "--1", "1e5.0", "١"])
def test_invalid_tokens(text):
    assert parse(text)[0] == NUMBER_INVALID


@pytest.mark.parametrize(("text", "value", "ok"), [
    ("9223372036854775807", 2**63 - 1, True), ("-9223372036854775808", -(2**63), True),
    ("9223372036854775808", 0, False), ("-9223372036854775809", 0, False),
    ("00000000000000000000000042", 42, True), ("-0", 0, True), ("+17", 17, True),
    ("99999999999999999999", 0, False), ("1.0", 0, False), ("", 0, False),
])
def test_integers_exact_with_overflow_detected(text, value, ok):
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    assert _parse_int(data, 0, len(data)) == (value, ok)


@given(st.floats(allow_nan=False))
def test_repr_of_any_double_reads_back_exactly(x):
    kind, _, value = parse(repr(x))
    assert kind == NUMBER_FLOAT and same_float(value, x)


@given(st.integers(0, 10**25), st.integers(0, 26), st.integers(-350, 330))
def test_random_decimal_strings_match_python(digits, point, exponent):
    text = str(digits)
    point = min(point, len(text))
    assert_parses_like_python(f"{text[:point]}.{text[point:]}e{exponent}")


@given(st.integers(-(2**63), 2**63 - 1))
def test_any_int64_parses_as_integer(x):
    assert parse(str(x))[:2] == (NUMBER_INT, x)
