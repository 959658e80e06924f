"""Number parsing straight from a byte buffer (Numba kernels shared by the text formats).

Integers are parsed exactly (int64, overflow detected). Decimal floats are
correctly rounded to the nearest float64 (ties to even), as ``float()``
does, by the Clinger fast path for short inputs and the Eisel-Lemire
algorithm otherwise (D. Lemire, "Number Parsing at a Gigabyte per Second",
Software: Practice and Experience 51(8), 2021; N. Mushtak and D. Lemire,
"Fast number parsing without fallback", SPE 53(6), 2023). Tokens with more
than 19 significant digits whose rounding the first 19 digits cannot decide
are reported as ``NUMBER_FALLBACK`` and left to Python's ``float``.

Token classes returned by :func:`_parse_number`: ``NUMBER_INT`` (value fits
int64), ``NUMBER_FLOAT``, ``NUMBER_NAN``, ``NUMBER_FALLBACK`` and
``NUMBER_INVALID``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

NUMBER_INVALID = -1
NUMBER_INT = 0
NUMBER_FLOAT = 1
NUMBER_NAN = 2
NUMBER_FALLBACK = 3

_SMALLEST_POWER = -342
_LARGEST_POWER = 308
_MAX_DIGITS = 19
_U64 = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)
_MANTISSA_BITS = 52
_INFINITE_POWER = 0x7FF
_MINIMUM_EXPONENT = -1023


def _powers_of_five_128() -> np.ndarray:
    """128-bit truncated 5**q, top bit set, for q in [-342, 308] as (high, low) words.

    Negative powers are ``2**b // 5**-q + 1`` (rounded up), positive ones
    are truncated (Lemire 2021, section 5).
    """
    table = []
    for q in range(_SMALLEST_POWER, 0):
        power5 = 5 ** -q
        z = power5.bit_length()
        if q >= -27:
            c = 2 ** (z + 127) // power5 + 1
        else:
            c = 2 ** (2 * z + 128) // power5 + 1
            c >>= max(0, c.bit_length() - 128)
        table.append(c)
    for q in range(_LARGEST_POWER + 1):
        power5 = 5 ** q
        shift = 128 - power5.bit_length()
        power5 = power5 << shift if shift >= 0 else power5 >> -shift
        table.append(power5)
    words = np.empty(2 * len(table), dtype=np.uint64)
    words[0::2] = [c >> 64 for c in table]
    words[1::2] = [c & (2**64 - 1) for c in table]
    return words


_POWERS_OF_FIVE = _powers_of_five_128()
_EXACT_POWERS_OF_TEN = np.array([10.0**k for k in range(23)])


@numba.njit(cache=True)
def _is_space(c):
    """Space, tab, vertical tab, form feed and carriage return (not newline)."""
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


@numba.njit(cache=True)
def _is_digit(c):
    return 48 <= c <= 57


@numba.njit(cache=True)
def _parse_int(buf, start, end):
    """Parse ``[+-]digits`` in ``buf[start:end]``; returns (value, ok: syntax fine, no overflow)."""
    i = start
    negative = False
    if i < end and (buf[i] == 43 or buf[i] == 45):
        negative = buf[i] == 45
        i += 1
    while i < end - 1 and buf[i] == 48:
        i += 1
    if i == end or end - i > _MAX_DIGITS:
        return 0, False
    magnitude = _U64(0)  # 19 digits fit in uint64, so only the final comparison can overflow
    while i < end:
        c = buf[i]
        if not _is_digit(c):
            return 0, False
        magnitude = magnitude * _U64(10) + _U64(int(c) - 48)
        i += 1
    if magnitude > _U64(2**63 - 1) + _U64(negative):
        return 0, False
    if negative and magnitude > _U64(0):
        return -np.int64(magnitude - _U64(1)) - 1, True  # 2**63 itself has no int64 form
    return np.int64(magnitude), True


@numba.njit(cache=True)
def _is_separator(buf, pos):
    """Whether ``pos`` ends a token: the end of the buffer, a space or a line break."""
    return pos == len(buf) or buf[pos] == 10 or _is_space(buf[pos])


@numba.njit(cache=True)
def _scan_int(buf, pos):
    """Parse an integer token starting at ``pos`` in one pass; returns (value, end, ok).

    The fast path of the row parser: digits are accumulated while scanning,
    and ``ok`` says the token was a whole integer (it ended at a separator)
    that fits int64. ``end`` is where the digits stopped.
    """
    i = pos
    negative = False
    if i < len(buf) and (buf[i] == 43 or buf[i] == 45):
        negative = buf[i] == 45
        i += 1
    first = i
    value = 0
    while i < len(buf) and _is_digit(buf[i]):
        value = value * 10 + (int(buf[i]) - 48)
        i += 1
        if i - first > 18:  # overflow is possible from here: take the careful path
            while i < len(buf) and _is_digit(buf[i]):
                i += 1
            value, ok = _parse_int(buf, pos, i)
            return value, i, ok and _is_separator(buf, i)
    ok = i > first and _is_separator(buf, i)
    return (-value if negative else value), i, ok


@numba.njit(cache=True)
def _full_multiply(a, b):
    """64 x 64 -> 128-bit unsigned product as (high, low), from 32-bit halves."""
    a_lo = a & _MASK32
    a_hi = a >> _U64(32)
    b_lo = b & _MASK32
    b_hi = b >> _U64(32)
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    middle = (p0 >> _U64(32)) + (p1 & _MASK32) + (p2 & _MASK32)
    low = (p0 & _MASK32) | ((middle & _MASK32) << _U64(32))
    high = p3 + (p1 >> _U64(32)) + (p2 >> _U64(32)) + (middle >> _U64(32))
    return high, low


@numba.njit(cache=True)
def _product_approximation(q, w):
    """Top 128 bits of ``w * 5**q``, refined by the second table word if needed (Lemire Alg. 1)."""
    index = 2 * (q - _SMALLEST_POWER)
    high, low = _full_multiply(w, _POWERS_OF_FIVE[index])
    precision_mask = _U64(0xFFFFFFFFFFFFFFFF) >> _U64(_MANTISSA_BITS + 3)
    if (high & precision_mask) == precision_mask:
        second_high, _ = _full_multiply(w, _POWERS_OF_FIVE[index + 1])
        headroom = _U64(0xFFFFFFFFFFFFFFFF) - low
        if second_high > headroom:
            low = second_high - headroom - _U64(1)
            high += _U64(1)
        else:
            low += second_high
    return high, low


@numba.njit(cache=True)
def _leading_zeros(w):
    count = 0
    while w < _U64(1) << _U64(63):
        w <<= _U64(1)
        count += 1
    return count


@numba.njit(cache=True)
def _eisel_lemire(q, w):
    """``w * 10**q`` correctly rounded, as (mantissa field, biased exponent); ``w`` exact, nonzero.

    Lemire 2021, Algorithm 1 with the round-to-even guard, and the subnormal path.
    """
    if q < _SMALLEST_POWER:
        return _U64(0), 0
    if q > _LARGEST_POWER:
        return _U64(0), _INFINITE_POWER
    lz = _leading_zeros(w)
    w = w << _U64(lz)
    high, low = _product_approximation(q, w)
    upperbit = int(high >> _U64(63))
    shift = upperbit + 64 - _MANTISSA_BITS - 3
    mantissa = high >> _U64(shift)
    power2 = (((152170 + 65536) * q) >> 16) + 63 + upperbit - lz - _MINIMUM_EXPONENT
    if power2 <= 0:
        if -power2 + 1 >= 64:
            return _U64(0), 0
        mantissa >>= _U64(-power2 + 1)
        mantissa += mantissa & _U64(1)
        mantissa >>= _U64(1)
        return mantissa, 0 if mantissa < (_U64(1) << _U64(_MANTISSA_BITS)) else 1
    # Exactly halfway between two floats: round to even instead of up.
    halfway = low <= _U64(1) and -4 <= q <= 23 and (mantissa & _U64(3)) == _U64(1)
    if halfway and (mantissa << _U64(shift)) == high:
        mantissa &= ~_U64(1)
    mantissa += mantissa & _U64(1)
    mantissa >>= _U64(1)
    if mantissa >= (_U64(2) << _U64(_MANTISSA_BITS)):
        mantissa = _U64(1) << _U64(_MANTISSA_BITS)
        power2 += 1
    mantissa &= ~(_U64(1) << _U64(_MANTISSA_BITS))
    if power2 >= _INFINITE_POWER:
        return _U64(0), _INFINITE_POWER
    return mantissa, power2


@numba.njit(cache=True)
def _assemble(mantissa, power2):
    """The float64 with this mantissa field and biased exponent (sign applied by the caller)."""
    if power2 == _INFINITE_POWER:
        return math.inf
    if power2 == 0:
        return math.ldexp(float(mantissa), -1074)
    significand = float(mantissa | (_U64(1) << _U64(_MANTISSA_BITS)))
    return math.ldexp(significand, power2 - 1075)


@numba.njit(cache=True)
def _decimal_to_float(w, q, truncated):
    """Correctly rounded ``w * 10**q`` (w < 10**19); (value, ok). Clinger's fast path first.

    A ``truncated`` mantissa (digits dropped after the 19th) is decided when
    ``w`` and ``w + 1`` round alike (Lemire 2021, section 11), else ok is False.
    """
    if w == _U64(0):
        return 0.0, True
    if not truncated and w <= _U64(1) << _U64(53) and -22 <= q <= 22:
        if q >= 0:
            return float(w) * _EXACT_POWERS_OF_TEN[q], True
        return float(w) / _EXACT_POWERS_OF_TEN[-q], True
    mantissa, power2 = _eisel_lemire(q, w)
    if truncated:
        mantissa_up, power2_up = _eisel_lemire(q, w + _U64(1))
        if mantissa_up != mantissa or power2_up != power2:
            return 0.0, False
    return _assemble(mantissa, power2), True


@numba.njit(cache=True)
def _match_word(buf, start, end, word):
    """Whether ``buf[start:end]`` equals ASCII ``word`` (lower case) ignoring case."""
    if end - start != len(word):
        return False
    for k in range(len(word)):
        if buf[start + k] | 32 != word[k]:
            return False
    return True


_INF = np.frombuffer(b"inf", dtype=np.uint8)
_INFINITY = np.frombuffer(b"infinity", dtype=np.uint8)
_NAN = np.frombuffer(b"nan", dtype=np.uint8)


@numba.njit(cache=True)
def _parse_exponent(buf, start, end):
    """Parse ``[+-]digits``, clamping the magnitude (any beyond 100000 means 0 or inf anyway)."""
    i = start
    negative = False
    if i < end and (buf[i] == 43 or buf[i] == 45):
        negative = buf[i] == 45
        i += 1
    if i == end:
        return 0, False
    exponent = 0
    while i < end:
        if not _is_digit(buf[i]):
            return 0, False
        exponent = min(exponent * 10 + (int(buf[i]) - 48), 100000)
        i += 1
    return (-exponent if negative else exponent), True


@numba.njit(cache=True)
def _scan_decimal(buf, start, end):
    """Split ``digits[.digits][(e|E)[+-]digits]`` into (w, q, truncated, ok).

    ``w`` holds the first 19 significant digits, ``q`` the power of ten.
    """
    i = start
    w = _U64(0)
    digits = 0
    q = 0
    truncated = False
    seen_digit = False
    seen_point = False
    while i < end:
        c = buf[i]
        if _is_digit(c):
            seen_digit = True
            if digits < _MAX_DIGITS:
                if w != _U64(0) or c != 48:
                    w = w * _U64(10) + _U64(int(c) - 48)
                    digits += 1
                if seen_point:
                    q -= 1
            else:
                truncated = truncated or c != 48
                if not seen_point:
                    q += 1
        elif c == 46 and not seen_point:
            seen_point = True
        else:
            break
        i += 1
    if not seen_digit:
        return w, q, truncated, False
    if i < end and (buf[i] | 32) == 101:
        exponent, ok = _parse_exponent(buf, i + 1, end)
        if not ok:
            return w, q, truncated, False
        q += exponent
        i = end
    return w, q, truncated, i == end


@numba.njit(cache=True)
def _parse_number(buf, start, end):
    """Classify and parse the token ``buf[start:end]``; returns (kind, int_value, float_value)."""
    value, is_int = _parse_int(buf, start, end)
    if is_int:
        return NUMBER_INT, value, float(value)
    i = start
    sign = 1.0
    if i < end and (buf[i] == 43 or buf[i] == 45):
        sign = -1.0 if buf[i] == 45 else 1.0
        i += 1
    if _match_word(buf, i, end, _INF) or _match_word(buf, i, end, _INFINITY):
        return NUMBER_FLOAT, 0, sign * math.inf
    if _match_word(buf, i, end, _NAN):
        return NUMBER_NAN, 0, math.nan
    w, q, truncated, ok = _scan_decimal(buf, i, end)
    if not ok:
        return NUMBER_INVALID, 0, 0.0
    if q > 400 and w != _U64(0):
        return NUMBER_FLOAT, 0, sign * math.inf
    if q < -400 or w == _U64(0):
        return NUMBER_FLOAT, 0, sign * 0.0
    result, decided = _decimal_to_float(w, q, truncated)
    if not decided:
        return NUMBER_FALLBACK, 0, 0.0
    return NUMBER_FLOAT, 0, sign * result
