"""C's integer arithmetic on values: the one home every stage that computes with C
integers calls (constant folding, the e-graph's constant combining, array sizes and
enum values, the SSA's address polynomials, the printer's subscript folds).

Values are Python ints already in the range of their type. ``None`` stands for what C
leaves undefined (signed overflow unless the target wraps it, division by zero, a
shift out of range): no stage may compute it, since the program may never execute it.
What C leaves to the implementation is what gcc and clang do: ``>>`` of a negative
value shifts in its sign, a conversion to a signed type wraps.

The interpreter of ``verify/cvalues.py`` computes the same things on purpose by its own
code: it is the independent evaluator rewrites are checked against.
"""

from __future__ import annotations

from . import ctypes as ct


def wrap(value: int, t: ct.Scalar) -> int:
    """``value`` modulo 2**bits of ``t``, in its range (two's complement when signed)."""
    if t.name == "_Bool":
        return int(value != 0)
    bits = ct.int_bits(t)
    value &= (1 << bits) - 1
    if ct.is_signed(t) and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def fits(value: int, t: ct.Scalar) -> bool:
    lo, hi = ct.int_range(t)
    return lo <= value <= hi


def result(value: int, t: ct.Scalar) -> int | None:
    """The result of an arithmetic operation of type ``t`` whose exact value is
    ``value``: wrapped for unsigned types (and signed ones under ``-fwrapv``), None
    where a signed one overflows (undefined)."""
    if ct.is_unsigned(t) or ct.target().wrapv or t.name == "_Bool":
        return wrap(value, t)
    return value if fits(value, t) else None


def convert(value: int, t: ct.Scalar) -> int:
    """An integer value converted to integer type ``t`` (C11 6.3.1.3; to a signed type
    that cannot hold it: wrapped, as gcc and clang do)."""
    return wrap(value, t)


def div(a: int, b: int) -> int | None:
    """``a / b`` as C truncates it (None: division by zero)."""
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def mod(a: int, b: int) -> int | None:
    """``a % b`` with the sign of ``a`` (None: division by zero)."""
    q = div(a, b)
    return None if q is None else a - q * b


def shift(op: str, a: int, count: int, t: ct.Scalar) -> int | None:
    """``a << count`` or ``a >> count`` in (promoted) type ``t``: None where C leaves it
    undefined (a count out of range; a left shift of a negative value, or past the
    range of a signed type)."""
    if not 0 <= count < ct.int_bits(t):
        return None
    if op == "Shr":
        return a >> count  # a negative value: its sign shifted in (gcc, clang)
    if ct.is_signed(t) and a < 0:
        return None
    return result(a << count, t) if ct.is_signed(t) else wrap(a << count, t)


_EXACT = {
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "BitAnd": lambda a, b: a & b,
    "BitOr": lambda a, b: a | b,
    "BitXor": lambda a, b: a ^ b,
}


def binary(op: str, a: int, b: int, t: ct.Scalar) -> int | None:
    """An integer operation of ops.py (``Add``, ``Div``, ``Shl``...) in type ``t`` on
    operands of that type (a shift's count: of its own promoted type)."""
    if op in _EXACT:
        return result(_EXACT[op](a, b), t)
    if op in ("Div", "Mod"):
        r = div(a, b) if op == "Div" else mod(a, b)
        return None if r is None else result(r, t)  # INT_MIN / -1 overflows
    if op in ("Shl", "Shr"):
        return shift(op, a, b, t)
    return None


def unary(op: str, a: int, t: ct.Scalar) -> int | None:
    if op == "Neg":
        return result(-a, t)
    if op == "BitNot":
        return result(~a, t)
    return None
