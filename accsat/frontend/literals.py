"""C literal text <-> (value, type), with C's rules for the type of a constant."""

from __future__ import annotations

import math
import re
import struct

from .ctypes import DOUBLE, FLOAT, INT, Scalar, int_range, is_float

_INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$")

# C11 6.4.4.1: candidate types in order, by suffix, for decimal / other bases.
_DECIMAL = {
    "": ["int", "long", "long long"],
    "u": ["unsigned int", "unsigned long", "unsigned long long"],
    "l": ["long", "long long"],
    "ul": ["unsigned long", "unsigned long long"],
    "ll": ["long long"],
    "ull": ["unsigned long long"],
}
_OTHER = {
    "": ["int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"],
    "u": ["unsigned int", "unsigned long", "unsigned long long"],
    "l": ["long", "unsigned long", "long long", "unsigned long long"],
    "ul": ["unsigned long", "unsigned long long"],
    "ll": ["long long", "unsigned long long"],
    "ull": ["unsigned long long"],
}


def _suffix_key(suffix: str) -> str:
    s = suffix.lower()
    unsigned = "u" in s
    longs = s.count("l")
    return ("u" if unsigned else "") + "l" * longs


def parse_int(text: str) -> tuple[int, Scalar]:
    """Value and type of an integer constant; ValueError if it is not one."""
    m = _INT_RE.match(text)
    if not m:
        raise ValueError(f"not an integer constant: {text!r}")
    digits, suffix = m.groups()
    if digits[:2] in ("0x", "0X"):
        value, decimal = int(digits[2:], 16), False
    elif digits[:2] in ("0b", "0B"):
        value, decimal = int(digits[2:], 2), False
    elif digits.startswith("0") and len(digits) > 1:
        value, decimal = int(digits, 8), False
    else:
        value, decimal = int(digits), digits != "0"
    key = _suffix_key(suffix)
    for name in (_DECIMAL if decimal else _OTHER)[key]:
        t = Scalar(name)
        lo, hi = int_range(t)
        if lo <= value <= hi:
            return value, t
    raise ValueError(f"integer constant too large: {text!r}")


_FLOAT_RE = re.compile(
    r"^((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)([fFlL]?)$"
)


def parse_float(text: str) -> tuple[float, Scalar]:
    m = _FLOAT_RE.match(text)
    if not m:
        raise ValueError(f"not a floating constant: {text!r}")
    body, suffix = m.groups()
    value = float.fromhex(body) if body[:2] in ("0x", "0X") else float(body)
    if suffix in ("f", "F"):
        return to_f32(value), FLOAT
    if suffix in ("l", "L"):
        return value, Scalar("long double")
    return value, DOUBLE


_ESCAPES = {
    "n": 10,
    "t": 9,
    "r": 13,
    "0": 0,
    "a": 7,
    "b": 8,
    "f": 12,
    "v": 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
}


def parse_char(text: str) -> tuple[int, Scalar]:
    """A plain character constant 'x' (type int in C)."""
    if len(text) < 3 or text[0] != "'" or text[-1] != "'":
        raise ValueError(f"not a character constant: {text!r}")
    body = text[1:-1]
    if len(body) == 1:
        return ord(body), INT
    if body[0] == "\\":
        rest = body[1:]
        if rest[0] in "xX":
            v = int(rest[1:], 16)
        elif rest[0] in "01234567":
            v = int(rest, 8)
        elif rest in _ESCAPES:
            v = _ESCAPES[rest]
        else:
            raise ValueError(f"unknown escape in {text!r}")
        # plain char is signed on x86-64
        return (v - 256 if v > 127 else v), INT
    raise ValueError(f"multi-character constant {text!r}")


def to_f32(x: float) -> float:
    """Round a double to the nearest float (IEEE binary32), as C's (float) does."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


_INT_SUFFIX = {
    "int": "",
    "unsigned int": "u",
    "long": "L",
    "unsigned long": "UL",
    "long long": "LL",
    "unsigned long long": "ULL",
}


def format_int(value: int, t: Scalar) -> str:
    """Literal text that has exactly ``value`` and type ``t`` (int-ranked or wider)."""
    if t.name not in _INT_SUFFIX:
        return f"({t.name}){format_int(value, INT)}"
    if value < 0:
        lo, _ = int_range(t)
        if value == lo:  # 2147483648 is not an int: -2147483648 would be a long; (-max - 1)
            return f"(-{-(value + 1)}{_INT_SUFFIX[t.name]} - 1)"
        return f"-{-value}{_INT_SUFFIX[t.name]}"
    return f"{value}{_INT_SUFFIX[t.name]}"


def format_float(value: float, t: Scalar) -> str | None:
    """Shortest literal that reads back as exactly ``value`` in type ``t``.

    None for values with no literal (inf, nan) and for long double, whose
    precision a Python float does not hold.
    """
    if not math.isfinite(value) or not is_float(t) or t.name == "long double":
        return None
    if t.name == "float":
        text = _shortest_f32(value) + "f"
    else:
        text = repr(value)
    if "." not in text and "e" not in text and "inf" not in text:
        text = text.replace("f", "") + ".0" + ("f" if t.name == "float" else "")
    return text


def _shortest_f32(value: float) -> str:
    """Fewest significant digits that read back as ``value`` in float, written as
    Python writes a double (10.0, 0.1, 1e+20: never 1e+01)."""
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if to_f32(float(text)) == value:
            return repr(float(text))
    return repr(value)
