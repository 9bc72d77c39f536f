"""Constant folding with C semantics.

Integers: C's arithmetic as ``cint`` computes it (its one home): wrapping for
unsigned types (and signed ones under ``-fwrapv``); no fold that overflows a signed
type, divides by zero or shifts out of range (those are undefined in C, and the
program may never execute them). Floats: IEEE round-to-nearest in the
operation's own type (a float operation folds in float); no fold to inf/nan.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from typing import Any

from ..ops import COMPARISONS, INT_ONLY
from . import cint
from . import ctypes as ct
from .literals import format_float, format_int, parse_char, parse_float, parse_int, to_f32

_UNFOLDED = frozenset(("long double", "_Float16"))  # floating types folding leaves alone
_MIN_FORM = re.compile(r"^\(-(\d+)[uUlL]* - 1\)$")  # format_int's minimum of a signed type

# What each foldable operation computes on exact values, where Python's operator
# is C's before the result is rounded (floats) or range-checked (integers). Div,
# Mod and the shifts are in _int_op: C truncates, and the operands need checks.
# ops.FOLDABLE says which operations fold; tests/test_ops.py checks both agree.
_EXACT: dict[str, Callable[..., Any]] = {
    "Add": operator.add,
    "Sub": operator.sub,
    "Mul": operator.mul,
    "Neg": operator.neg,
    "BitAnd": operator.and_,
    "BitOr": operator.or_,
    "BitXor": operator.xor,
    "BitNot": operator.invert,
    "Lt": operator.lt,
    "Le": operator.le,
    "Gt": operator.gt,
    "Ge": operator.ge,
    "Eq": operator.eq,
    "Ne": operator.ne,
}


def literal_value(text: str, t: ct.CType) -> int | float | None:
    """The value of a constant's literal text, or None when it has none we can compute."""
    text = text.strip()
    m = _MIN_FORM.match(text)
    if m:
        return -int(m.group(1)) - 1
    neg = text.startswith("-")
    body = text[1:] if neg else text
    try:
        if body.startswith("'"):
            value: int | float = parse_char(body)[0]
            if not 0 <= value <= 127:  # '\xff' is -1 or 255 as plain char is signed or not
                return None
        elif ct.is_float(t) or any(c in body for c in ".eEpP") and not body.startswith("0x"):
            value = parse_float(body)[0]
        else:
            value = parse_int(body)[0]
    except ValueError:
        return None
    return -value if neg else value


def is_integer_op(ty: str, operand_types: list[str]) -> bool:
    """What the variants without rules fold: operations on integers giving an integer
    (not a conversion to or from floating point: the literal stays as written)."""
    types = [scalar(x.split("@", 1)[0]) for x in [ty, *operand_types]]
    return all(t is not None and ct.is_integer(t) for t in types)


def scalar(ty: str) -> ct.Scalar | None:
    try:
        return ct.from_name(ty)
    except ValueError:
        return None


def fold(op: str, ty: str, operands: list[tuple[str, str]]) -> str | None:
    """Literal text of ``op`` applied to constant operands (literal, type), or None."""
    t = scalar(ty)
    if t is None:
        return None
    values: list[tuple[int | float, ct.Scalar]] = []
    for text, oty in operands:
        ot = scalar(oty)
        if ot is None:
            return None
        v = literal_value(text, ot)
        if v is None:
            return None
        values.append((v, ot))
    result = evaluate(op, t, values)
    return None if result is None else _format(result, t)


def evaluate(
    op: str, t: ct.Scalar, values: list[tuple[int | float, ct.Scalar]]
) -> int | float | None:
    """The value of ``op`` (result type ``t``) on constant operands (value, type); None
    where C leaves it undefined, it would be inf or nan, or a Python number cannot hold it."""
    try:
        return _compute(op, t, values)
    except (ZeroDivisionError, OverflowError, ValueError):
        return None


def _compute(op: str, t: ct.Scalar, values: list) -> int | float | None:
    if any(vt.name in _UNFOLDED for _, vt in values) or t.name in _UNFOLDED:
        return None  # a Python float holds neither a long double nor rounds as a _Float16
    if op == "Cast":
        return _convert(values[0][0], values[0][1], t)
    if op in COMPARISONS:
        return int(_EXACT[op](values[0][0], values[1][0]))
    args = [v for v, _ in values]
    if ct.is_float(t):
        r = _float_op(op, [float(a) for a in args])
        if r is None:
            return None
        return to_f32(r) if t.name == "float" else r
    if ct.is_integer(t):
        return _int_op(op, t, [int(a) for a in args])
    return None


def _float_op(op: str, a: list[float]) -> float | None:
    if op == "Div":
        return a[0] / a[1] if a[1] != 0 else None
    if op in _EXACT and op not in INT_ONLY:
        return _EXACT[op](*a)
    return None


def _int_op(op: str, t: ct.Scalar, a: list[int]) -> int | None:
    if len(a) == 1:
        return cint.unary(op, a[0], t)
    return cint.binary(op, a[0], a[1], t)


def _convert(value: int | float, source: ct.Scalar, target: ct.Scalar) -> int | float | None:
    if ct.is_float(target):
        if target.name in _UNFOLDED:
            return None
        if isinstance(value, int) and abs(value) > 2**53:
            return None  # int -> float would round twice through double
        v = float(value)
        return to_f32(v) if target.name == "float" else v
    if ct.is_integer(target):
        if isinstance(value, float):
            if not math.isfinite(value):
                return None
            value = int(value)  # truncation toward zero
            lo, hi = ct.int_range(target)
            return value if lo <= value <= hi else None  # out of range is undefined
        return cint.convert(value, target)
    return None


def _format(value: int | float, t: ct.Scalar) -> str | None:
    if ct.is_float(t):
        return format_float(float(value), t)
    if ct.promote(t) != t:
        return None  # char/short have no literals; their values come through casts
    return format_int(int(value), t)
