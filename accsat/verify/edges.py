"""Edge values: the inputs near which rewrites go wrong.

A rewrite that prints a constant wrong (``INT_MIN`` as ``2147483646``), moves a
guard or changes a comparison is wrong only near the kernel's own constants and
the limits of its types; random states rarely land there. ``kernel_edges`` reads
both bodies (the original and the rewritten one) and gathers:

* the value of every constant sub-expression, computed by the interpreter with
  the C type it has (``-2147483647 - 1`` gives -2147483647, 1 and -2147483648);
* the names used to index (in a subscript or a loop's header, and what is
  assigned to those: ``i = idx[l][n]`` makes ``idx`` one), which keep in-range
  random values: an edge value there only makes the state skip.

``EdgeValues.pool(desc)`` turns them into the values tried for a location of one
scalar type, converted to the type as an assignment would: the constants and
the type's limits in turn (``INT_MIN``, ``INT_MAX``, 0, -1, the unsigned maximum;
+-0.0, the smallest subnormal and normal, the largest finite, inf and nan), then
each constant's neighbours (+-1, the next floats either way) and negation; when
there are more than the edge rounds can try, the first ones. A comparison
``x OP c`` in a guard is made true and false by ``c`` and ``c +- 1`` (and by the
next floats for floating ``c``). ``finite`` (a rewrite compared with a tolerance):
no edge values for floats at all. Zeros, tiny and huge magnitudes, a constant
met twice make overflow and exact cancellation (``c*c - c*c``), whose results a
rewrite allowed to change floating-point results (FMA, reassociation) changes by
more than any tolerance: NPB's BT ``z_solve`` fails on ``1.0 / u`` with ``u``
subnormal. Those rewrites keep the random finite values.

``states.make_state`` uses the pools in *edge rounds* (``validate`` runs them
beside the random trials).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from pycparser import c_ast

from ..frontend import ctypes as ct
from ..frontend.symbols import FileSymbols, Scope
from .cvalues import F32, F80, Desc, NotModelled, Trap
from .interp import _Compiler

_FLOAT_LIMITS = {
    # kind: (smallest subnormal, smallest normal, largest finite)
    "f32": (1e-45, 1.1754943508222875e-38, 3.4028234663852886e38),
    "f64": (5e-324, 2.2250738585072014e-308, 1.7976931348623157e308),
    "f80": (5e-324, 2.2250738585072014e-308, 1.7976931348623157e308),
}
_CONST_UNARY = ("-", "+", "~", "!", "sizeof", "_Alignof", "alignof")


@dataclass(eq=False)
class EdgeValues:
    """The constants of a kernel, and what not to give edge values."""

    ints: tuple[int, ...] = ()
    floats: tuple[float, ...] = ()
    no_edge: frozenset[str] = frozenset()  # scalars and objects (``g:a``, ``p:a``...) that index
    _pools: dict = field(default_factory=dict, repr=False)

    def pool(self, d: Desc, finite: bool = False) -> tuple:
        """The edge values of the scalar type ``d`` (``()``: none), in the order of use."""
        key = (d, finite)
        out = self._pools.get(key)
        if out is None:
            out = self._pools[key] = (
                _int_pool(self, d) if d[0] in ("i", "b") else _float_pool(self, d, finite)
            )
        return out

    def rounds(self, descs, finite: bool, cap: int) -> int:
        """How many edge rounds give each location of these types every edge value of its
        type twice, with other partners the second time (at most ``cap``)."""
        return min(
            cap, 2 * max((len(self.pool(d, finite)) for d in descs if d[0] != "p"), default=0)
        )


def _unique(values) -> tuple:
    seen, out = set(), []
    for v in values:
        key = (
            type(v),
            float(v).hex() if not isinstance(v, int) else v,
            math.copysign(1.0, float(v)) if not isinstance(v, int) else 0,
        )
        if key not in seen:
            seen.add(key)
            out.append(v)
    return tuple(out)


def _alternate(a: list, b: list) -> list:
    """a[0], b[0], a[1], b[1]... then the rest of the longer one."""
    out = [x for pair in zip(a, b, strict=False) for x in pair]
    n = min(len(a), len(b))
    return out + a[n:] + b[n:]


def _int_pool(e: EdgeValues, d: Desc) -> tuple:
    """The constants and the type's limits in turn, then the constants' neighbours and
    negations (the order in which they are kept when there are too many)."""
    if d[0] == "b":
        return (0, 1)
    bits, signed = d[1], d[2]
    mask = (1 << bits) - 1
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, mask)

    def wrap(v: int) -> int:  # as the conversion to the type (modulo 2^bits)
        v &= mask
        return v - (1 << bits) if signed and v > hi else v

    limits = [0, 1, -1, lo, lo + 1, hi, hi - 1]
    if not signed:
        limits += [1 << (bits - 1), (1 << (bits - 1)) - 1]
    near = [v for c in e.ints for v in (c - 1, c + 1, -c)]
    near += [
        v
        for f in e.floats
        if math.isfinite(f) and abs(f) < 2.0**64
        for v in (math.floor(f), math.ceil(f))
    ]
    return _unique(wrap(v) for v in _alternate(list(e.ints), limits) + near)


def _float_pool(e: EdgeValues, d: Desc, finite: bool) -> tuple:
    """As ``_int_pool``: the constants and the limits in turn, then the neighbours (the
    next floats of the type either way, the negation, +-1). None with ``finite``."""
    if finite:
        return ()
    kind = d[0]
    sub, norm, big = _FLOAT_LIMITS[kind]
    consts = list(e.floats) + [float(c) for c in e.ints if abs(c) < 2**1023]
    near: list[float] = []
    for c in consts:
        if not math.isfinite(c):
            continue
        if kind != "f32":
            near += [math.nextafter(c, math.inf), math.nextafter(c, -math.inf)]
        elif abs(c) <= big:
            f = F32(c)
            with np.errstate(over="ignore"):  # past FLT_MAX is inf: an edge too, no warning
                near += [
                    float(np.nextafter(f, F32(math.inf))),
                    float(np.nextafter(f, F32(-math.inf))),
                ]
        near += [-c, c + 1.0, c - 1.0]
    limits = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        sub,
        -sub,
        norm,
        -norm,
        big,
        -big,
        math.inf,
        -math.inf,
        math.nan,
    ]
    out = []
    for v in _alternate(consts, limits) + near:
        if kind == "f32" and math.isfinite(v) and abs(v) > big:
            v = math.copysign(math.inf, v)  # what the conversion to float gives
        out.append(F32(v) if kind == "f32" else F80(v) if kind == "f80" else v)
    return _unique(out)


# ----------------------------------------------------------------------------------------------
# reading the bodies


def kernel_edges(
    bodies: list[tuple[c_ast.Node, Scope, FileSymbols]],
    defined: frozenset[str] = frozenset(),
    address_taken: frozenset[str] = frozenset(),
) -> EdgeValues:
    """The constants of every body in ``bodies`` ((body, scope, symbols)), and the names
    that index in any of them."""
    ints: list[int] = []
    floats: list[float] = []
    index: set[str] = set()
    flows: list[tuple[str, set[str]]] = []  # (assigned name, names in the value)
    for body, scope, symbols in bodies:
        comp = _Compiler(scope, symbols, defined, address_taken)
        _walk(body, comp, ints, floats, index, flows)
    grown = True
    while grown:  # what is stored in an index (i = idx[l][n]) indexes too
        grown = False
        for name, sources in flows:
            if name in index and not sources <= index:
                index |= sources
                grown = True
    no_edge = frozenset(index) | frozenset(p + n for n in index for p in ("g:", "o:", "p:"))
    return EdgeValues(tuple(dict.fromkeys(ints)), _unique(floats), no_edge)


_EVALUATED = 64  # constant expressions up to this many nodes are computed (and their parts)


def _walk(
    node: c_ast.Node, comp: _Compiler, ints: list, floats: list, index: set, flows: list
) -> tuple[bool, int]:
    """Gather the constants and the index names under ``node`` (one pass, post-order);
    whether ``node`` is a constant expression, and its size."""
    if isinstance(node, c_ast.ArrayRef):
        _names(node.subscript, index)
    elif isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile)):
        for part in (getattr(node, "init", None), node.cond, getattr(node, "next", None)):
            if part is not None:
                _names(part, index)
    elif isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID):
        flows.append((node.lvalue.name, _names(node.rvalue, set())))
    elif isinstance(node, c_ast.Decl) and node.init is not None:
        flows.append((node.name, _names(node.init, set())))
    const: dict[int, bool] = {}
    size = 1
    for child in node:
        c, n = _walk(child, comp, ints, floats, index, flows)
        const[id(child)] = c
        size += n
    here = _constant(node, comp.scope, lambda n: const.get(id(n), False))
    if here and size <= _EVALUATED:
        _evaluate(node, comp, ints, floats)
    return here, size


def _names(node: c_ast.Node, out: set) -> set:
    if isinstance(node, (c_ast.ID, c_ast.Decl)):
        out.add(node.name)
    for child in node:
        _names(child, out)
    return out


def _constant(node: c_ast.Node, scope: Scope, known) -> bool:
    """Whether ``node`` is an expression of constants only (literals, enum constants,
    sizeof, casts and operators on them), ``known(child)`` saying it of its children."""
    if isinstance(node, c_ast.Constant):
        return node.type != "string"
    if isinstance(node, c_ast.ID):
        sym = scope.lookup(node.name)
        return sym is not None and sym.kind == "enum"
    if isinstance(node, c_ast.UnaryOp):
        if node.op in ("sizeof", "_Alignof", "alignof"):
            return isinstance(node.expr, c_ast.Typename)
        return node.op in _CONST_UNARY and known(node.expr)
    if isinstance(node, c_ast.Cast):
        return known(node.expr)
    if isinstance(node, c_ast.BinaryOp):
        return known(node.left) and known(node.right)
    if isinstance(node, c_ast.TernaryOp):
        return known(node.cond) and known(node.iftrue) and known(node.iffalse)
    return False


def _evaluate(node: c_ast.Node, comp: _Compiler, ints: list, floats: list) -> None:
    try:
        t, fn = comp.rv(node)
        v = fn(None)  # constants read no state
    except (Trap, NotModelled, ArithmeticError, ValueError, TypeError, AttributeError):
        return  # not a constant the interpreter computes (or UB): no edge from it
    if isinstance(v, tuple):  # a pointer
        return
    if isinstance(v, int):
        ints.append(v)
    elif ct.is_float(t):
        floats.append(float(v))
