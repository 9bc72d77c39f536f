"""The generator's integer and floating types, and expressions with a bound on their value.

An ``E`` is C text with the generator's type of its value (double, float, int,
unsigned, long) and, for integers, a bound on its magnitude: what keeps signed
arithmetic from overflowing. A bound may exceed the type's maximum by one (an
int may be ``INT_MIN``): negating such a value, or adding to it, needs a reduction
first (``shrink_bound``).
"""

from __future__ import annotations

from dataclasses import dataclass

N = 16  # iterations of the parallel loop
SZ = 32  # elements of every array: subscripts stay below 24, pointer offsets below 8
INT_LIMIT = (1 << 31) - 1
LONG_LIMIT = (1 << 63) - 1
ARRAY_INT_BOUND = {"int": 128, "long": 1 << 20, "short": 1 << 15, "unsigned": 1 << 32}


FLOATS = ("double", "float")
SIGNED = ("int", "long", "short")


def arith(a: str, b: str) -> str:
    """C's usual arithmetic conversions over the generator's types."""
    a = "int" if a == "short" else a
    b = "int" if b == "short" else b
    if "double" in (a, b):
        return "double"
    if "float" in (a, b):
        return "float"
    if "long" in (a, b):
        return "long"
    if "unsigned" in (a, b):
        return "unsigned"
    return "int"


def limit(t: str) -> int:
    return LONG_LIMIT if t == "long" else INT_LIMIT


@dataclass
class E:
    text: str
    t: str  # double float int unsigned long
    bound: int = 0  # |value| bound for integer types (unsigned: 2^32)

    @property
    def is_float(self) -> bool:
        return self.t in FLOATS


def val_t(t: str) -> str:
    return "int" if t == "short" else t


def fits(et: str, t: str) -> bool:
    return val_t(et) == t


def to_type(e: E, t: str) -> E:
    """``e`` converted to ``t`` without undefined behaviour."""
    if e.t == t or (t in FLOATS and e.t in FLOATS and t == "double"):
        return e if e.t == t else E(f"(double)({e.text})", "double")
    if t in FLOATS:
        return E(f"({t})({e.text})", t)
    if e.is_float:
        lo, hi = ("0.0", "1000.0") if t == "unsigned" else ("-1000.0", "1000.0")
        f = "f" if e.t == "float" else ""
        lo_, hi_ = (lo + "f", hi + "f") if f else (lo, hi)
        return E(f"({t})fmin{f}(fmax{f}({e.text}, {lo_}), {hi_})", t, 1000)
    if t == "unsigned":
        return E(f"(unsigned)({e.text})", "unsigned", 1 << 32)
    if t in SIGNED:
        if e.bound <= (limit(t) if t != "short" else (1 << 15) - 1):
            return E(f"({t})({e.text})", val_t(t), e.bound)
        if e.t == "unsigned":
            return E(f"({t})(({e.text}) % 101u)", val_t(t), 101)
        return E(f"({t})(({e.text}) % 101)", val_t(t), 101)
    raise ValueError(t)


def shrink_bound(e: E, b: int) -> E:
    """``e`` reduced so that its magnitude stays within ``b``."""
    if e.is_float or e.bound <= b:
        return e
    m = min(b, 97)
    if e.t == "unsigned":
        return E(f"(({e.text}) % {m}u)", "unsigned", m)
    return E(f"(({e.text}) % {m})", e.t, m)


def wrapped(text: str) -> bool:
    """Whether ``text`` is one parenthesized expression: ``(a + b)``, not ``(a) + (b)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for n, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return n == len(text) - 1
    return False


def paren(e: E) -> str:
    return e.text if wrapped(e.text) else f"({e.text})"
