"""Implementations of the pure C math functions (accsat/mathfuncs.py lists them).

``sqrt`` works on double, ``sqrtf`` on float (numpy's float32 routines), and so
on. Special values follow C (numpy's ufuncs return inf/nan instead of raising).
Only both runs of one check use these, so what matters is that each function
is deterministic and has the right argument and result types; ``sqrt``,
``fabs``, ``floor``/``ceil``/``trunc``/``round``/``rint``, ``fmin``/``fmax``,
``fmod``, ``copysign``, ``fdim`` and ``fma`` are also exact, as in C.
"""

from __future__ import annotations

import math

import numpy as np

from ..frontend import ctypes as ct
from ..mathfuncs import FLOAT_FUNCTIONS, INT_FUNCTIONS, PURE_MATH, float_base
from .cvalues import F32, UB, fma32, fma64

PURE_NAMES = PURE_MATH  # the interpreter's name for it

_UNARY_NP = {
    "sqrt": np.sqrt,
    "cbrt": np.cbrt,
    "fabs": np.abs,
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "rint": np.rint,
    "nearbyint": np.rint,
}
_BINARY_NP = {
    "pow": np.power,
    "atan2": np.arctan2,
    "fmin": np.fmin,
    "fmax": np.fmax,
    "fmod": np.fmod,
    "hypot": np.hypot,
    "copysign": np.copysign,
}


def _round(x):
    r = np.trunc(x)
    if abs(x - r) >= 0.5:
        r = r + np.copysign(type(x)(1), x)
    return r


def _fdim(x, y):
    if x != x or y != y:
        return x + y
    return x - y if x > y else type(x)(0)


def _py_unary(fn):
    def call(x):
        try:
            return fn(float(x))
        except (ValueError, OverflowError):
            return math.nan if fn is not math.lgamma else math.inf

    return call


_UNARY_PY = {"erf": math.erf, "erfc": math.erfc, "tgamma": math.gamma, "lgamma": math.lgamma}


def _tgamma(x: float) -> float:
    try:
        return math.gamma(x)
    except ValueError:
        if x == 0:
            return math.copysign(math.inf, x)
        return math.nan
    except OverflowError:
        return math.inf


def _iabs(lo: int):
    def f(a: int) -> int:
        if a == lo:
            raise UB(f"abs({a}) overflows")
        return abs(a)

    return f


def signature(name: str) -> tuple[ct.CType, tuple[ct.CType, ...]]:
    """(result type, parameter types) of a pure math function."""
    if name in INT_FUNCTIONS:
        t = ct.from_name(INT_FUNCTIONS[name])
        return t, (t,)
    base, single = float_base(name)
    t = ct.FLOAT if single else ct.DOUBLE
    # Other names (the result type of an opaque call without a prototype) read as
    # a double function of one double.
    return t, (t,) * FLOAT_FUNCTIONS.get(base, 1)


def implementation(name: str):
    """A Python function over already converted arguments, returning the C result."""
    if name in INT_FUNCTIONS:
        return _iabs(ct.int_range(signature(name)[1][0])[0])
    base, single = float_base(name)
    wrap = F32 if single else float
    if base == "fma":
        return fma32 if single else fma64
    if base == "round":
        return lambda x: wrap(_round(x))
    if base == "fdim":
        return lambda x, y: wrap(_fdim(x, y))
    if base in _UNARY_NP:
        fn = _UNARY_NP[base]
        if single:
            return lambda x: fn(F32(x))
        return lambda x: float(fn(np.float64(x)))
    if base in _BINARY_NP:
        fn2 = _BINARY_NP[base]
        if single:
            return lambda x, y: fn2(F32(x), F32(y))
        return lambda x, y: float(fn2(np.float64(x), np.float64(y)))
    if base == "tgamma":
        return lambda x: wrap(_tgamma(float(x)))
    if base in _UNARY_PY:
        py = _py_unary(_UNARY_PY[base])
        return lambda x: wrap(py(x))
    raise KeyError(name)
