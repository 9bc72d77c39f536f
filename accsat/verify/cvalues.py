"""C scalar semantics for the interpreter: value kinds, conversions, operators.

Values at run time:

* integers of every width: Python ``int`` already in the range of their type;
* ``double``: Python ``float`` (IEEE binary64, round to nearest, like C);
* ``float``: ``numpy.float32`` (every operation rounds to binary32, as C does
  under ``-ffp-contract=off``); ``long double``: ``numpy.longdouble``;
* pointers: ``(object name, byte offset)``; the null pointer is ``(None, 0)``.

Everything that C calls undefined (signed overflow, division by zero, shifts
out of range, float-to-int conversion out of range) raises :class:`UB`; the
interpreter then skips the state when it happens in the original program. Under
``-fwrapv`` (``ctypes.Target.wrapv``) signed ``+ - *`` and negation wrap instead.
"""

from __future__ import annotations

import math
import operator
import struct
from fractions import Fraction

import numpy as np

from ..frontend import ctypes as ct

F32 = np.float32
F80 = np.longdouble


class Trap(Exception):
    """This run stopped: undefined behaviour, a step limit, or something not modelled."""

    kind = "trap"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UB(Trap):
    kind = "undefined behaviour"


class StepLimit(Trap):
    kind = "step limit"


class OverBudget(Trap):
    """A run that would take more memory than a state may (the memory each opaque call
    sees, recorded for the comparison): the state is skipped, whichever run it was."""

    kind = "over budget"


class Unmodelled(Trap):
    """Something the interpreter cannot follow in this state (e.g. type-punned memory)."""

    kind = "not modelled"


class NotModelled(Exception):
    """A construct of the body the interpreter does not handle (the kernel is unsupported)."""


class InvalidC(NotModelled):
    """Not valid C at all (a name not in scope): a rewrite like this fails."""


# --------------------------------------------------------------------------------------------
# kinds of types


class Desc(tuple):
    """What the interpreter needs to know about a scalar type: ``(kind, bits, signed)``.

    kind: "i" integer, "b" _Bool, "f32", "f64", "f80", "p" pointer.
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        return self[0]


def desc(t: ct.CType) -> Desc:
    if isinstance(t, ct.Pointer):
        return Desc(("p", 64, False))
    if isinstance(t, ct.Scalar):
        if t.name == "_Bool":
            return Desc(("b", 8, False))
        if ct.is_integer(t):
            return Desc(("i", ct.int_bits(t), ct.is_signed(t)))
        if t.name == "float":
            return Desc(("f32", 32, True))
        if t.name == "double":
            return Desc(("f64", 64, True))
        if t.name == "long double":
            return Desc(("f80", 128, True))
    raise NotModelled(f"value of type {t}")


def is_scalar(t: ct.CType) -> bool:
    return ct.is_arithmetic(t) or isinstance(t, ct.Pointer)


def type_key(t: ct.CType) -> str:
    """How memory tags a stored value: the scalar's name, or "ptr"."""
    return "ptr" if isinstance(t, ct.Pointer) else str(t)


# --------------------------------------------------------------------------------------------
# float helpers


def fdiv64(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def round_f32(q: Fraction | int) -> F32:
    """An exact rational rounded once to binary32 (no double rounding)."""
    try:
        d = float(q)  # correctly rounded to binary64
    except OverflowError:
        return F32(math.inf if q > 0 else -math.inf)
    with np.errstate(over="ignore"):  # past binary32's range: inf, as C
        f = F32(d)
    if not math.isfinite(d) or Fraction(d) == q:
        return f
    fd = float(f)
    if fd == d:
        return f
    # d may sit exactly half-way between two floats because of the first rounding
    other = np.nextafter(f, F32(math.inf) if fd < d else F32(-math.inf))
    if abs(float(other) - d) == abs(fd - d):  # a tie at d: decide with the exact value
        lo, hi = sorted((f, other), key=float)
        return hi if q > Fraction(d) else lo
    return f


def f32_bits(x) -> int:
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def f64_bits(x) -> int:
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def fma64(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    q = Fraction(a) * Fraction(b) + Fraction(c)
    if q == 0:
        p = a * b
        return p + c  # the sign of an exact zero follows the IEEE sum of the rounded terms
    try:
        return float(q)
    except OverflowError:  # past binary64's range (q itself cannot become a float)
        return math.inf if q > 0 else -math.inf


def fma32(a, b, c) -> F32:
    fa, fb, fc = float(a), float(b), float(c)
    if not (math.isfinite(fa) and math.isfinite(fb) and math.isfinite(fc)):
        return F32(a) * F32(b) + F32(c)
    q = Fraction(fa) * Fraction(fb) + Fraction(fc)
    if q == 0:
        return F32(a) * F32(b) + F32(c)
    return round_f32(q)


# --------------------------------------------------------------------------------------------
# conversions


def _int_wrap(bits: int, signed: bool):
    mask = (1 << bits) - 1
    if signed:
        half = 1 << (bits - 1)
        return lambda v: ((v + half) & mask) - half
    return lambda v: v & mask


def _int_to_f32(v: int) -> F32:
    if -(1 << 24) <= v <= (1 << 24):
        return F32(v)
    return round_f32(v)


def _float_to_int(lo: int, hi: int, name: str):
    def conv(x) -> int:
        xf = float(x)
        if xf != xf or math.isinf(xf):
            raise UB(f"conversion of {xf} to {name}")
        r = math.trunc(xf) if not isinstance(x, np.longdouble) else int(np.trunc(x))
        if r < lo or r > hi:
            raise UB(f"conversion of {xf!r} to {name} out of range")
        return r

    return conv


def converter(src: ct.CType, dst: ct.CType):
    """A function converting a value of ``src`` to ``dst``, or None when nothing changes."""
    if src == dst:
        return None
    if isinstance(dst, ct.Void):
        return lambda v: None
    d = desc(dst)
    if isinstance(src, (ct.Array, ct.Func)):
        src = ct.decay(src)
    s = desc(src)
    if d.kind == "b":
        if s.kind == "p":
            return lambda v: 0 if v[0] is None else 1
        return lambda v: 1 if v else 0
    if d.kind == "p":
        if s.kind == "p":
            return None
        if s.kind in ("i", "b"):

            def to_ptr(v):
                if v == 0:
                    return (None, 0)
                raise Unmodelled("integer converted to a pointer")

            return to_ptr
        raise NotModelled(f"conversion from {src} to {dst}")
    if s.kind == "p":
        raise NotModelled(f"conversion from pointer to {dst}")
    if d.kind == "i":
        lo, hi = ct.int_range(dst)
        if s.kind in ("i", "b"):
            slo, shi = (0, 1) if s.kind == "b" else ct.int_range(src)
            if lo <= slo and shi <= hi:
                return None
            return _int_wrap(d[1], d[2])
        return _float_to_int(lo, hi, str(dst))
    if d.kind == "f64":
        if s.kind == "f32":
            return float
        if s.kind == "f80":
            return float
        return float  # integers: correctly rounded
    if d.kind == "f32":
        if s.kind in ("i", "b"):
            return _int_to_f32
        return F32
    if d.kind == "f80":
        if s.kind in ("i", "b"):
            return lambda v: F80(str(v)) if abs(v) > (1 << 53) else F80(v)
        return F80
    raise NotModelled(f"conversion from {src} to {dst}")


def compose(fn, conv):
    """``fn`` followed by the conversion ``conv`` (which may be None)."""
    if conv is None:
        return fn
    return lambda st: conv(fn(st))


# --------------------------------------------------------------------------------------------
# operators

_CMP = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def binary(op: str, t: ct.CType):
    """``f(a, b)`` for the arithmetic operator ``op`` on two values of type ``t``
    (the operands already converted; for shifts, ``t`` is the promoted left type)."""
    d = desc(t)
    if op in _CMP:
        cmp = _CMP[op]
        return lambda a, b: 1 if cmp(a, b) else 0
    if d.kind in ("f32", "f64", "f80"):
        if op == "/":
            return fdiv64 if d.kind == "f64" else operator.truediv
        fn = {"+": operator.add, "-": operator.sub, "*": operator.mul}.get(op)
        if fn is None:
            raise NotModelled(f"operator '{op}' on {t}")
        return fn
    if d.kind not in ("i", "b"):
        raise NotModelled(f"operator '{op}' on {t}")
    bits, signed = d[1], d[2]
    lo, hi = ct.int_range(t) if d.kind == "i" else (0, 1)
    mask = (1 << bits) - 1
    name = str(t)

    if op in ("+", "-", "*"):
        base = {"+": operator.add, "-": operator.sub, "*": operator.mul}[op]
        if signed and ct.target().wrapv:  # -fwrapv: two's complement, as for unsigned
            wrap = _int_wrap(bits, True)
            return lambda a, b: wrap(base(a, b))
        if signed:

            def signed_op(a, b):
                r = base(a, b)
                if r < lo or r > hi:
                    raise UB(f"signed overflow in {a} {op} {b} ({name})")
                return r

            return signed_op
        return lambda a, b: base(a, b) & mask
    if op in ("/", "%"):

        def divmod_(a, b):
            if b == 0:
                raise UB(f"division by zero ({a} {op} 0)")
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            if q > hi:
                raise UB(f"overflow in {a} {op} {b} ({name})")
            return q if op == "/" else a - q * b

        return divmod_
    if op == "&":
        return operator.and_
    if op == "|":
        return operator.or_
    if op == "^":
        return operator.xor
    if op == "<<":

        def shl(a, c):
            if c < 0 or c >= bits:
                raise UB(f"shift count {c} out of range for {name}")
            if signed:
                if a < 0:
                    raise UB(f"left shift of negative value {a}")
                r = a << c
                if r > hi:
                    raise UB(f"overflow in {a} << {c} ({name})")
                return r
            return (a << c) & mask

        return shl
    if op == ">>":

        def shr(a, c):
            if c < 0 or c >= bits:
                raise UB(f"shift count {c} out of range for {name}")
            return a >> c

        return shr
    raise NotModelled(f"operator '{op}'")


def unary(op: str, t: ct.CType):
    d = desc(t)
    if op == "+":
        return None
    if op == "-":
        if d.kind in ("f32", "f64", "f80"):
            return operator.neg
        lo, hi = ct.int_range(t)
        if d[2] and ct.target().wrapv:
            return lambda a: lo if a == lo else -a
        if d[2]:

            def neg(a):
                if a == lo:
                    raise UB(f"signed overflow in -({a})")
                return -a

            return neg
        mask = (1 << d[1]) - 1
        return lambda a: (-a) & mask
    if op == "~":
        if d.kind != "i":
            raise NotModelled(f"'~' on {t}")
        if d[2]:
            return operator.invert
        mask = (1 << d[1]) - 1
        return lambda a: (~a) & mask
    raise NotModelled(f"unary '{op}'")


def truth(t: ct.CType):
    """``f(v) -> bool``: a scalar's truth value as a condition."""
    if isinstance(t, (ct.Pointer, ct.Array)):
        return lambda v: v[0] is not None
    desc(t)
    return bool
