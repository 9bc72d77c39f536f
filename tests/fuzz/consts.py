"""C constants at the edges of their types, in every spelling C has for them.

``spellings(value, t)`` lists texts that denote ``value`` with a C type of the
generator's type ``t`` (int, unsigned, long; a ``long long`` spelling counts as
long: same values, same width): decimal, hex and octal, the suffixes u U l L ll
LL and their combinations, the ``<limits.h>`` macros, the minimum of a signed
type as ``(-MAX - 1)``, char constants, unary minus on unsigned constants, and
conversions of constants. Each text's type follows C11 6.4.4.1 (an unsuffixed
hex constant that does not fit int is unsigned, an unsuffixed decimal one is
long), worked out here by hand, independently of accsat's own rules.

Character constants and ``CHAR_MIN``/``CHAR_MAX`` depend on plain char's signedness
(``'\\xff'`` is -1 with signed char, 255 with ``-funsigned-char``): ``plain_char``
sets it for the program being generated, and their spellings follow.

Floating constants stay in magnitudes where the fp-changing rules cannot turn a
finite result into an infinite one (``FLOAT_SPELLINGS``); infinities, NaN and
huge values only appear in ``guarded`` forms whose value is finite.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
UINT_MAX = (1 << 32) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
ULONG_MAX = (1 << 64) - 1
RANGE = {"int": (INT_MIN, INT_MAX), "unsigned": (0, UINT_MAX), "long": (LONG_MIN, LONG_MAX)}

# boundary values of each type, and small values that the spellings make interesting
EDGES = {
    "int": [
        INT_MIN,
        INT_MIN + 1,
        INT_MAX,
        INT_MAX - 1,
        -1,
        0,
        1,
        -128,
        127,
        255,
        -32768,
        32767,
        65535,
        8,
    ],
    "unsigned": [UINT_MAX, UINT_MAX - 1, 1 << 31, (1 << 31) - 1, (1 << 31) + 1, 0, 1, 255, 65535],
    "long": [
        LONG_MIN,
        LONG_MIN + 1,
        LONG_MAX,
        LONG_MAX - 1,
        INT_MIN,
        INT_MIN - 1,
        INT_MAX,
        INT_MAX + 1,
        UINT_MAX,
        UINT_MAX + 1,
        -1,
        0,
        1,
    ],
}

# <limits.h> macros and constant expressions, by (type, value); checked by tests/fuzz tests
_MACROS: dict[tuple[str, int], list[str]] = {
    ("int", INT_MIN): ["INT_MIN", "(-INT_MAX - 1)", "((int)0x80000000)", "((int)2147483648u)"],
    ("int", INT_MIN + 1): ["(INT_MIN + 1)", "-INT_MAX", "(- INT_MAX)"],
    ("int", INT_MAX): ["INT_MAX", "((int)(UINT_MAX >> 1))", "((int)(~0u / 2))"],
    ("int", INT_MAX - 1): ["(INT_MAX - 1)"],
    ("int", -1): ["(~0)", "((int)UINT_MAX)", "((int)0xffffffff)", "((int)-1L)"],
    ("int", -128): ["SCHAR_MIN", "((signed char)128)"],
    ("int", 127): ["SCHAR_MAX"],
    ("int", 255): ["UCHAR_MAX", "((unsigned char)-1)"],
    ("int", -32768): ["SHRT_MIN", "((short)32768)"],
    ("int", 32767): ["SHRT_MAX"],
    ("int", 65535): ["USHRT_MAX", "((unsigned short)-1)"],
    ("int", 8): ["CHAR_BIT", "((int)sizeof(double))"],
    ("int", 0): ["((int)(UINT_MAX + 1u))", "(INT_MIN + INT_MAX + 1)"],
    ("int", 1): ["((int)-1u % 2 + 2)", "(INT_MAX / INT_MAX)"],
    ("unsigned", UINT_MAX): [
        "UINT_MAX",
        "((unsigned)-1)",
        "(-1u)",
        "(~0u)",
        "((unsigned)ULONG_MAX)",
        "((unsigned)18446744073709551615ULL)",
        "((unsigned)-1LL)",
    ],
    ("unsigned", UINT_MAX - 1): ["(UINT_MAX - 1u)", "(UINT_MAX - 1)", "(-2u)"],
    ("unsigned", 1 << 31): [
        "((unsigned)INT_MIN)",
        "-0x80000000",
        "(-2147483647 - 1u)",
        "((unsigned)INT_MAX + 1u)",
        "(0u - 0x80000000)",
        "(1u << 31)",
    ],
    ("unsigned", (1 << 31) - 1): ["((unsigned)INT_MAX)", "(UINT_MAX >> 1)", "(UINT_MAX / 2u)"],
    ("unsigned", (1 << 31) + 1): ["((unsigned)INT_MIN + 1u)", "((unsigned)-INT_MAX)"],
    ("unsigned", 0): ["(UINT_MAX + 1u)", "((unsigned)0x100000000L)", "(0u * UINT_MAX)"],
    ("unsigned", 1): ["((unsigned)0x100000001ULL)", "(-UINT_MAX)"],
    ("unsigned", 255): ["((unsigned)UCHAR_MAX)", "((unsigned)(unsigned char)-1)"],
    ("long", LONG_MIN): [
        "LONG_MIN",
        "LLONG_MIN",
        "(-9223372036854775807L - 1)",
        "(-9223372036854775807LL - 1LL)",
        "(-0x7fffffffffffffffL - 1)",
        "(-LONG_MAX - 1L)",
        "(-LLONG_MAX - 1)",
        "((long)0x8000000000000000UL)",
    ],
    ("long", LONG_MIN + 1): ["(LONG_MIN + 1)", "-LONG_MAX", "-9223372036854775807", "(-LLONG_MAX)"],
    ("long", LONG_MAX): [
        "LONG_MAX",
        "LLONG_MAX",
        "((long)(ULONG_MAX >> 1))",
        "((long)(18446744073709551615ULL / 2))",
    ],
    ("long", LONG_MAX - 1): ["(LONG_MAX - 1)", "(LLONG_MAX - 1LL)"],
    ("long", INT_MIN): ["((long)INT_MIN)", "-2147483648", "(INT_MIN + 0L)", "(-(long)INT_MAX - 1)"],
    ("long", INT_MIN - 1): ["((long)INT_MIN - 1)", "(INT_MIN - 1L)", "(-2147483647 - 2L)"],
    ("long", INT_MAX): ["((long)INT_MAX)", "(INT_MAX + 0L)"],
    ("long", INT_MAX + 1): [
        "((long)INT_MAX + 1)",
        "(INT_MAX + 1L)",
        "(-(long)INT_MIN)",
        "(- -2147483648)",
        "(-(-2147483647 - 1L))",
    ],
    ("long", UINT_MAX): ["((long)UINT_MAX)", "((long)-1u)", "(UINT_MAX + 0L)", "(-1u + 0L)"],
    ("long", UINT_MAX + 1): ["(UINT_MAX + 1L)", "((long)UINT_MAX + 1)", "(1L << 32)"],
    ("long", -1): ["(-1L)", "((long)ULONG_MAX)", "((long)-1ULL)", "(~0L)"],
}

# plain char is signed (x86-64's default) or not (-funsigned-char), for the program being
# generated: what a character constant above '\\x7f' and CHAR_MIN/CHAR_MAX are
_CHAR_SIGNED: ContextVar[bool] = ContextVar("fuzz_char_signed", default=True)


@contextlib.contextmanager
def plain_char(signed: bool) -> Iterator[None]:
    """Constants spelled inside are read with plain char signed or unsigned."""
    token = _CHAR_SIGNED.set(signed)
    try:
        yield
    finally:
        _CHAR_SIGNED.reset(token)


def char_signed() -> bool:
    return _CHAR_SIGNED.get()


def char_limits() -> tuple[int, int]:
    """(CHAR_MIN, CHAR_MAX) under the current plain char."""
    return (-128, 127) if char_signed() else (0, 255)


_ESCAPES = {
    "\n": "\\n",
    "\t": "\\t",
    "\0": "\\0",
    "'": "\\'",
    "\\": "\\\\",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
    "\r": "\\r",
}


def char_spellings(v: int) -> list[str]:
    """Character constants of value ``v`` (type int; with plain char signed, x86-64's
    default, ``'\\xff'`` is -1; with -funsigned-char it is 255)."""
    lo, hi = char_limits()
    if not lo <= v <= hi:
        return []
    out = []
    byte = v & 0xFF
    if v >= 0:
        ch = chr(v)
        if ch in _ESCAPES:
            out.append(f"'{_ESCAPES[ch]}'")
        elif 32 <= v < 127:
            out.append(f"'{ch}'")
    out += [f"'\\x{byte:02x}'", f"'\\{byte:o}'"]
    if v in (lo, hi):
        out.append("CHAR_MIN" if v == lo else "CHAR_MAX")
    return out


def spellings(value: int, t: str) -> list[str]:
    """Texts of C type ``t`` (long: long or long long) and value ``value``."""
    lo, hi = RANGE[t]
    if not lo <= value <= hi:
        raise ValueError(f"{value} is not a value of {t}")
    out = list(_MACROS.get((t, value), []))
    mag = abs(value)
    if t == "int":
        if value == INT_MIN:
            out += ["(-2147483647 - 1)", "(-0x7fffffff - 1)", "(-017777777777 - 1)"]
        else:
            sign = "-" if value < 0 else ""
            out += [f"{sign}{mag}", f"{sign}0x{mag:x}", f"{sign}0X{mag:X}"]
            if mag:
                out.append(f"{sign}0{mag:o}")
        out += char_spellings(value)
    elif t == "unsigned":
        out += [f"{value}u", f"{value}U", f"0x{value:x}u", f"0X{value:X}U", f"0{value:o}u"]
        if value > INT_MAX:  # without a suffix, a hex or octal constant past int is unsigned
            out += [f"0x{value:x}", f"0{value:o}"]
        if value:  # unsigned negation wraps: -(2^32 - v)u is v
            out.append(f"(-{(1 << 32) - value}u)")
    else:
        if value == LONG_MIN:
            out.append("(-9223372036854775807l - 1)")
        else:
            sign = "-" if value < 0 else ""
            out += [f"{sign}{mag}{s}" for s in ("L", "l", "LL", "ll")]
            out += [f"{sign}0x{mag:x}L", f"{sign}0{mag:o}LL"]
            if mag > INT_MAX:  # an unsuffixed decimal constant past int is long
                out.append(f"{sign}{mag}")
            if mag > UINT_MAX:  # an unsuffixed hex one past unsigned int is long too
                out.append(f"{sign}0x{mag:x}")
    return out


def spell(c, value: int, t: str) -> str:
    return c.pick(spellings(value, t))


def edge_value(c, t: str) -> int:
    return c.pick(EDGES[t])


# Unsigned long and unsigned long long constants, only ever converted straight back to a
# type of the generator's: (text of the wide constant, its value)
WIDE = [
    ("ULONG_MAX", ULONG_MAX),
    ("ULLONG_MAX", ULONG_MAX),
    ("18446744073709551615UL", ULONG_MAX),
    ("0xffffffffffffffffULL", ULONG_MAX),
    ("18446744073709551614ull", ULONG_MAX - 1),
    ("0x8000000000000000", 1 << 63),
    ("9223372036854775808UL", 1 << 63),
    ("0x100000000ul", 1 << 32),
    ("4294967296Ul", 1 << 32),
    ("0x1uLL", 1),
    ("1lu", 1),
    ("3LLU", 3),
    ("0UL", 0),
    ("-1UL", ULONG_MAX),
    ("(-1ull)", ULONG_MAX),
]

# Floating constants, all finite, of magnitude 0 or within [2^-10, 2^10] (so that
# reassociation and contraction keep results finite and close), in many spellings.
FLOAT_SPELLINGS = {
    "double": [
        "-0.0",
        "0x1.8p3",
        "0x1p-2",
        "0x.8p1",
        "0X1.4P+1",
        ".5",
        "5.",
        "2.5e+1",
        "1e-3",
        "1E2",
        "-.75",
        "0x1.999999999999ap-4",
        "(double)0.1f",
        "(double)1.1f",
        "1e0",
        "0.0e0",
        "(-0.0)",
        "(- -0.5)",
        "(double)-0.0f",
        "(double)(3 / 2)",
        "(3.0 / 2)",
        "(double)'a'",
        "(double)-1",
        "1.",
        "0x10p-4",
        "(double)0.1L",
        "(double)(1.0L / 3)",
    ],
    "float": [
        "-0.0f",
        "0x1.8p3f",
        "0x1p-2F",
        ".5f",
        "5.F",
        "2.5E1F",
        "1e-3f",
        "(float)0.1",
        "0.1F",
        "(float)(1.0 / 3)",
        "(-0.0f)",
        "(- -0.25f)",
        "(float)1e-3",
        "0x1.99999ap-4f",
        "(float)-0.0",
        "(float)'\\n'",
    ],
}
FLOAT_ZEROS = frozenset(
    ("-0.0", "0.0e0", "(-0.0)", "(double)-0.0f", "-0.0f", "(-0.0f)", "(float)-0.0")
)  # those of FLOAT_SPELLINGS whose value is zero

# large integer constants converted to floating point, scaled back to about 1 by a power of
# two (exact), so that they round as converted but stay small: (text, type)
INT_AS_FLOAT = [
    ("((double)INT_MAX * 0x1p-31)", "double"),
    ("((double)INT_MIN * 0x1p-31)", "double"),
    ("((double)UINT_MAX / 4294967296.0)", "double"),
    ("((double)LONG_MAX * 0x1p-63)", "double"),
    ("((double)LLONG_MIN * 0x1p-63)", "double"),
    ("((double)9007199254740993L * 0x1p-53)", "double"),
    ("((double)ULLONG_MAX * 0x1p-64)", "double"),
    ("((double)-1u * 0x1p-32)", "double"),
    ("(double)(unsigned char)300", "double"),
    ("((float)INT_MAX * 0x1p-31f)", "float"),
    ("((float)16777217 * 0x1p-24f)", "float"),
    ("((float)0x7fffffff / 2147483648.0f)", "float"),
    ("((float)UINT_MAX * 0x1p-32f)", "float"),
    ("((float)LONG_MIN * 0x1p-63f)", "float"),
]
# (text, type, value): conversions of floating constants to integers, all in range
FLOAT_TO_INT = [
    ("(int)2.9", "int", 2),
    ("(int)-2.9", "int", -2),
    ("(int)-0.0", "int", 0),
    ("(unsigned)3.99f", "unsigned", 3),
    ("(long)1e10", "long", 10**10),
    ("(int)0x1.fffffcp30", "int", 2147483392),
    ("(long)-0x1p62", "long", -(1 << 62)),
    ("(unsigned)4294967295.0", "unsigned", UINT_MAX),
    ("(int)(signed char)'\\377'", "int", -1),
    ("(unsigned char)255.0", "int", 255),
    ("(short)-32768.0f", "int", -32768),
    ("(int)(float)INT_MIN", "int", INT_MIN),
    ("(long)(double)LONG_MIN", "long", LONG_MIN),
]

# Infinities, NaN, huge and tiny values from <math.h> and <float.h>, by their floating
# type; only ever used where the result is finite (edges.py)
POS_HUGE = {
    "double": ["HUGE_VAL", "INFINITY", "DBL_MAX", "(double)HUGE_VALF", "(- -INFINITY)"],
    "float": ["INFINITY", "HUGE_VALF", "FLT_MAX", "(float)HUGE_VAL"],
}
NEG_HUGE = {
    "double": ["-HUGE_VAL", "(-INFINITY)", "(-DBL_MAX)", "-(double)INFINITY"],
    "float": ["(-HUGE_VALF)", "(-FLT_MAX)", "-INFINITY"],
}
NANS = {"double": ["NAN", "(double)NAN", "(-NAN)"], "float": ["NAN", "(-NAN)"]}
TINY = {
    "double": ["DBL_MIN", "0x1p-1074", "DBL_EPSILON", "4.9406564584124654e-324", "-0x1p-1070"],
    "float": ["FLT_MIN", "0x1p-149f", "FLT_EPSILON", "-0x1p-140f"],
}

# ones, zeros and all-ones of each integer type in other spellings (identities: x * 0x1)
ONES = {
    "int": ["0x1", "01", "'\\1'", "'\\x01'", "(CHAR_BIT / 8)", "1"],
    "long": ["1L", "1l", "0x1LL", "01ll"],
    "unsigned": ["1u", "0x1U", "01u", "1U"],
}
ZEROS = {
    "int": ["0x0", "00", "'\\0'", "(INT_MAX - INT_MAX)"],
    "long": ["0L", "0x0l", "0LL", "(LONG_MIN - LLONG_MIN)"],
    "unsigned": ["0u", "0x0U", "00u", "(UINT_MAX + 1u)"],
}
ALL_ONES = {
    "int": ["-1", "(~0)", "((signed char)'\\377')"],
    "long": ["-1L", "(~0L)"],
    "unsigned": ["UINT_MAX", "0xffffffff", "(-1u)", "~0U"],
}
