"""Expressions and statements at the edges of C's types, for the generator (gen.py).

Boundary constants in all their spellings (consts.py) and the kernel's own
constants one up and one down; unary minus chains; casts to narrower, wider,
unsigned and floating types, of constants and of expressions; arithmetic and
comparisons across signedness; ``unsigned long``, ``long long`` and ``long
double`` round trips; literal spellings of the identities' ones and zeros;
infinities and NaN where the result is finite again; and signed operations
guarded the way C code guards them (``x != INT_MIN ? -x : ...``, the safe
division test, saturating addition), with int, long and unsigned arrays whose
elements sit at the edges (``k_e``, ``k_el``, ``k_eu``) to make the guards go
both ways.

Everything stays defined in C: a value whose magnitude may exceed its type's
maximum (``INT_MIN``) is reduced (``shrink_bound``), converted to a wider type or
to unsigned before it is negated or added to; the only conversions out of range
are to narrower integer types, which gcc defines (modulo 2^N) and accsat models.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import consts as K
from .choosers import Chooser
from .values import FLOATS, E, limit, paren, shrink_bound, to_type

if TYPE_CHECKING:
    from .gen import Env

EDGE_ARRAYS = {"int": "_e", "long": "_el", "unsigned": "_eu"}  # suffixes of the kernel prefix
INTS = ("int", "long", "unsigned")
_SIMPLE = re.compile(r"^(?:[A-Za-z_]\w*|\d[\w.]*)$")


@dataclass
class Ctx:
    """What this module needs of the generator, bound to one chooser and kernel."""

    c: Chooser
    env: Env  # its k (the kernel's prefix), consts and uses_edges
    expr: Callable[[str, int], E]  # gen_expr at a type and depth
    index: Callable[[], str]  # a subscript in [0, 24)


def operand(e: E | str) -> str:
    """Text that can follow a unary operator (``- -x``, never ``--x``)."""
    text = e if isinstance(e, str) else e.text
    return text if _SIMPLE.match(text) else paren(E(text, ""))


def remember(g: Ctx, value: int, t: str) -> None:
    if (value, t) not in g.env.consts:
        g.env.consts.append((value, t))


def int_const(g: Ctx, t: str) -> E:
    """An integer constant of type ``t`` at an edge, or next to a constant of the kernel."""
    c = g.c
    kind = c.int(0, 3)
    mine = [v for v, ct in g.env.consts if ct == t]
    if kind == 1 and mine:  # one of the kernel's constants, one up or down
        lo, hi = K.RANGE[t]
        value = min(max(c.pick(mine) + c.int(-1, 1), lo), hi)
    elif kind == 2:
        cands = [x for x in K.FLOAT_TO_INT if x[1] == t]
        if cands:
            text, ct, value = c.pick(cands)
            return E(text, ct, abs(value))
        value = K.edge_value(c, t)
    elif kind == 3:
        return wide_const(g, t)
    else:
        value = K.edge_value(c, t)
    remember(g, value, t)
    return E(K.spell(c, value, t), t, abs(value))


def wide_const(g: Ctx, t: str) -> E:
    """An unsigned long (long) constant, converted straight back to ``t``."""
    text, value = g.c.pick(K.WIDE)
    text = operand(text)
    if t == "unsigned":
        return E(f"((unsigned){text})", t, value % (1 << 32))
    if t == "long":  # half of it, or its low bits: a value of long either way
        if g.c.chance(50):
            return E(f"((long)({text} >> 1))", t, value >> 1)
        return E(f"((long)({text} & 0xffffffffUL))", t, value & 0xFFFFFFFF)
    return E(f"((int)({text} & 0x7fff))", "int", value & 0x7FFF)


def float_const(g: Ctx, t: str) -> E:
    c = g.c
    if c.chance(30):
        text, ft = c.pick(K.INT_AS_FLOAT)
        return E(text if ft == t else f"(({t}){text})", t)
    spellings = K.FLOAT_SPELLINGS[t]
    if "zeroproduct" in g.env.avoid:  # a known accsat bug (gen.KNOWN_BUGS)
        spellings = [x for x in spellings if x not in K.FLOAT_ZEROS]
    return E(c.pick(spellings), t)


def edge_const(g: Ctx, t: str) -> E:
    return float_const(g, t) if t in FLOATS else int_const(g, t)


def edge_leaf(g: Ctx, t: str) -> E:
    """An element of the kernel's edge arrays (of the integer type nearest ``t``)."""
    g.env.uses_edges = True
    it = t if t in INTS else g.c.pick(INTS)
    top = (1 << 32) if it == "unsigned" else limit(it) + 1
    return E(f"{g.env.k}{EDGE_ARRAYS[it]}[{g.index()}]", it, top)


def edge_operand(g: Ctx, t: str, depth: int) -> E:
    """A value of integer type ``t``: often at an edge (constant or edge array), else any."""
    kind = g.c.int(0, 2)
    if kind == 1:
        return edge_leaf(g, t)
    if kind == 2:
        return int_const(g, t)
    return to_type(g.expr(t, depth), t)


# ----------------------------------------------------------------------------------------------
# expressions


def edge_expr(g: Ctx, t: str, depth: int) -> E:
    """An expression for a value of ``t`` exercising one of C's edges."""
    kind = g.c.int(0, 7)
    if kind == 1:
        return cast(g, t, depth)
    if kind == 2 and t not in FLOATS:
        return mixed(g, t, depth)
    if kind == 3 and t not in FLOATS:
        return guarded(g, "long" if t == "long" else "int", depth)
    if kind == 4 and t not in FLOATS:
        return assoc_edges(g, t, depth)
    if kind == 5:
        return nonfinite(g, t, depth)
    if kind == 6:
        return spelled_identity(g, t, depth)
    if kind == 7:
        return round_trip(g, t, depth)
    return minus_chain(g, t, depth)


_CHAINS = ["(- -{a})", "(-(-{a}))", "(-(- -{a}))", "(- +{a})", "(+{a})", "(-(-(-(-{a}))))"]


def minus_chain(g: Ctx, t: str, depth: int) -> E:
    a = g.expr(t, depth - 1)
    if a.t in ("int", "long") and a.bound > limit(a.t):  # INT_MIN may be there: not negated
        kind = g.c.int(0, 2)
        if kind == 0 and a.t == "int":
            a = E(f"(long){operand(a)}", "long", a.bound)
        elif kind == 1:
            a = E(f"(unsigned){operand(a)}", "unsigned", 1 << 32)
        else:
            a = shrink_bound(a, 1 << 20)
    form = g.c.pick(_CHAINS)
    text = form.format(a=operand(a))
    return E(text, a.t, a.bound)


_NARROW = [
    ("signed char", 7, True),
    ("short", 15, True),
    ("unsigned char", 8, False),
    ("unsigned short", 16, False),
]


def _wrap(value: int, bits: int, signed: bool) -> int:
    """C's (and gcc's) conversion of an integer to a ``bits``-bit type."""
    v = value % (1 << bits)
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def cast(g: Ctx, t: str, depth: int) -> E:
    """Conversions of constants and expressions to narrower, wider, unsigned, float types."""
    c = g.c
    kind = c.int(0, 5)
    if kind == 0:  # a constant to a narrower type: modulo 2^N
        src = c.pick(["int", "long", "unsigned"])
        value = K.edge_value(c, src)
        name, bits, signed = c.pick(_NARROW)
        bits += signed
        v = _wrap(value, bits, signed)
        return E(f"(({name}){K.spell(c, value, src)})", "int", abs(v))
    if kind == 1:  # an expression to a narrower type (a float is clamped to int first)
        a = g.expr(c.pick(["int", "long", "unsigned", "double"]), depth - 1)
        if a.is_float:
            a = to_type(a, "int")
        name, bits, signed = c.pick(_NARROW)
        return E(f"(({name}){operand(a)})", "int", 1 << bits)
    if kind == 2:  # to a narrower int from long or unsigned: modulo 2^32 (gcc)
        a = to_type(g.expr(c.pick(["long", "unsigned"]), depth - 1), c.pick(["long", "unsigned"]))
        return E(
            f"((int){operand(a)})",
            "int",
            min(a.bound, limit("int") + 1) if a.t == "long" else limit("int") + 1,
        )
    if kind == 3:  # to wider types and back: sign extension is visible in the high word
        a = to_type(g.expr("int", depth - 1), "int")
        form = c.int(0, 3)
        if form == 0:
            return E(f"((unsigned)((unsigned long long){operand(a)} >> 32))", "unsigned", 1 << 32)
        if form == 1:
            return E(f"((long)((unsigned long){operand(a)} >> 33))", "long", 1 << 31)
        if form == 2:
            return E(f"((long long){operand(a)})", "long", a.bound)
        return E(f"((unsigned long){operand(a)} == (unsigned long)-1)", "int", 1)
    if kind == 4:  # integers to floating point, scaled back near 1 by a power of two
        src = c.pick(["int", "long", "unsigned"])
        a = edge_operand(g, src, depth - 1)
        ft = t if t in FLOATS else "double"
        scale = {"int": "0x1p-31", "long": "0x1p-63", "unsigned": "0x1p-32"}[a.t]
        f = "f" if ft == "float" else ""
        e = E(f"(({ft}){operand(a)} * {scale}{f})", ft)
        return e if t in FLOATS else to_type(e, t)
    # floating point to narrower floating point and to integers (clamped), of constants too
    if c.chance(40):
        text, it, value = c.pick(K.FLOAT_TO_INT)
        return E(text, it, abs(value))
    a = g.expr("double", depth - 1)
    a = a if a.is_float else to_type(a, "double")
    if c.chance(50):
        return E(f"((float){operand(a)})", "float")
    f = "f" if a.t == "float" else ""
    return E(f"((unsigned char)fmin{f}(fmax{f}({a.text}, 0.0{f}), 255.0{f}))", "int", 255)


def mixed(g: Ctx, t: str, depth: int) -> E:
    """int with unsigned, long with unsigned int, comparisons across signedness."""
    c = g.c
    kind = c.int(0, 6)
    u = to_type(g.expr("unsigned", depth - 1), "unsigned")
    if kind == 0:  # int op unsigned: the int converts (modulo 2^32)
        i = edge_operand(g, "int", depth - 1)
        op = c.pick(["+", "-", "*", "^", "&", "|"])
        left = c.chance(50)
        return E(
            f"({i.text} {op} {u.text})" if left else f"({u.text} {op} {i.text})",
            "unsigned",
            1 << 32,
        )
    if kind == 1:  # long op unsigned int: the unsigned converts to long (no wrap)
        x = shrink_bound(edge_operand(g, "long", depth - 1), 1 << 40)
        op = c.pick(["+", "-"])
        return E(f"({x.text} {op} {u.text})", "long", x.bound + (1 << 32))
    if kind == 2:  # division by a nonzero unsigned: int or long dividend
        d = E(f"(({u.text}) | 1u)", "unsigned", 1 << 32)
        op = c.pick(["/", "%"])
        if c.chance(50):
            x = edge_operand(g, "long", depth - 1)
            return E(
                f"({x.text} {op} {d.text})", "long", x.bound if op == "/" else min(x.bound, 1 << 32)
            )
        x = edge_operand(g, "int", depth - 1)
        return E(f"({x.text} {op} {d.text})", "unsigned", 1 << 32)
    if kind == 3:  # comparisons across signedness
        return E(f"({mixed_cond(g, depth - 1)})", "int", 1)
    if kind == 4:  # a conditional of int and unsigned operands is unsigned
        i = edge_operand(g, "int", depth - 1)
        return E(f"({mixed_cond(g, 0)} ? {i.text} : {u.text})", "unsigned", 1 << 32)
    if kind == 5:  # small unsigned types promote to int, not unsigned
        i = shrink_bound(edge_operand(g, "int", depth - 1), 1 << 30)
        name, top = c.pick([("unsigned short", 65535), ("unsigned char", 255)])
        return E(f"(({name}){operand(u)} - {i.text})", "int", top + i.bound)
    x = shrink_bound(edge_operand(g, "int", depth - 1), 1 << 30)  # (long)int * unsigned
    return E(f"((long){operand(x)} * {u.text})", "long", max(x.bound, 1) << 32)


def mixed_cond(g: Ctx, depth: int) -> str:
    c = g.c
    op = c.pick(["<", ">", "<=", ">=", "==", "!="])
    kind = c.int(0, 3)
    if kind == 0:  # two constants: folding must convert as C does (-1 < 0u is false)
        a, b = int_const(g, c.pick(INTS)), int_const(g, c.pick(INTS))
        return f"{a.text} {op} {b.text}"
    x = edge_operand(g, c.pick(["int", "long"]), depth)
    if kind == 1:
        u = edge_operand(g, "unsigned", depth)
        return f"{x.text} {op} {u.text}" if c.chance(50) else f"{u.text} {op} {x.text}"
    if kind == 2:  # against a constant of the other signedness
        k = int_const(g, "unsigned" if c.chance(50) else "int")
        return f"{x.text} {op} {k.text}"
    return f"{x.text} {op} {int_const(g, x.t).text}"


_MUL_LIMIT = {"int": 46340, "long": 3037000499}


def guarded(g: Ctx, t: str, depth: int) -> E:
    """A signed operation that would be undefined at an edge, under the guard C code uses."""
    c = g.c
    lo, hi = K.RANGE[t]
    mn, mx = K.spell(c, lo, t), K.spell(c, hi, t)
    x = edge_operand(g, t, depth - 1)
    y = edge_operand(g, t, depth - 1)
    xs, ys = operand(x), operand(y)
    kind = c.int(0, 5)
    if kind == 0:  # negation
        guard = c.pick(
            [
                f"{xs} != {mn}",
                f"{xs} > {mn}",
                f"{mn} < {xs}",
                f"!({xs} == {mn})",
                f"{xs} >= {K.spell(c, lo + 1, t)}",
            ]
        )
        if c.chance(50):
            return E(f"({guard} ? -{xs} : {y.text})", t, max(min(x.bound, hi), y.bound))
        return E(f"({xs} == {mn} ? {mx} : -{xs})", t, hi)
    if kind == 1:  # division and remainder: not by zero, not MIN / -1
        op = c.pick(["/", "%"])
        bound = x.bound if op == "/" else min(x.bound, y.bound)
        return E(f"({ys} != 0 && ({ys} != -1 || {xs} != {mn}) ? {xs} {op} {ys} : 0)", t, bound)
    if kind == 2:  # saturating addition
        return E(
            f"({ys} > 0 ? ({xs} > {mx} - {ys} ? {mx} : {xs} + {ys}) : "
            f"({xs} < {mn} - {ys} ? {mn} : {xs} + {ys}))",
            t,
            hi + 1,
        )
    if kind == 3:  # saturating subtraction
        return E(
            f"({ys} < 0 ? ({xs} > {mx} + {ys} ? {mx} : {xs} - {ys}) : "
            f"({xs} < {mn} + {ys} ? {mn} : {xs} - {ys}))",
            t,
            hi + 1,
        )
    if kind == 4:  # multiplication within the square root of the maximum
        m = _MUL_LIMIT[t]
        return E(
            f"({xs} >= -{m} && {xs} <= {m} && {ys} >= -{m} && {ys} <= {m} ? "
            f"{xs} * {ys} : {y.text})",
            t,
            max(m * m, y.bound),
        )
    k = c.int(1, 30 if t == "int" else 62)  # left shift of a non-negative value
    return E(f"({xs} >= 0 && {xs} <= ({mx} >> {k}) ? {xs} << {k} : {y.text})", t, max(hi, y.bound))


def _chain_range(lo: int, hi: int, steps: list[tuple[str, int]], t: str) -> tuple[int, int] | None:
    """The range of ((x op1 c1) op2 c2) for x in [lo, hi], None if a step leaves type ``t``."""
    tlo, thi = K.RANGE[t]
    for op, k in steps:
        ends = [v + k if op == "+" else v - k if op == "-" else v * k for v in (lo, hi)]
        lo, hi = min(ends), max(ends)
        if lo < tlo or hi > thi:
            return None
    return lo, hi


def assoc_edges(g: Ctx, t: str, depth: int) -> E:
    """Constants at the edges that combine ((x + c1) + c2): unsigned ones wrap; signed ones
    are chosen so that no step overflows (the combined constant may be INT_MIN)."""
    c = g.c
    ops = [c.pick(["+", "-", "+", "*"]), c.pick(["+", "-", "+", "*"])]
    if t == "unsigned":
        x = to_type(g.expr("unsigned", depth - 1), "unsigned")
        k1, k2 = int_const(g, "unsigned"), int_const(g, "unsigned")
        return E(f"(({x.text} {ops[0]} {k1.text}) {ops[1]} {k2.text})", t, 1 << 32)
    # x in [0, 96]: the unsigned remainder of anything
    u = to_type(g.expr("int", depth - 1), "unsigned")
    x = E(f"({t})({operand(u)} % 97u)", t, 96)
    lo, hi = K.RANGE[t]
    k1 = K.edge_value(c, t) if ops[0] != "*" else c.pick([-1, 2, 1 << 16, -(1 << 16)])
    if _chain_range(0, 96, [(ops[0], k1)], t) is None:
        k1 = 0 if ops[0] != "*" else 1
    mid = _chain_range(0, 96, [(ops[0], k1)], t)
    assert mid is not None
    # the second constant: towards an edge, or back near zero, whatever stays in range
    targets = [lo, lo + 1, -1, 0, hi - 96, -97] if ops[1] != "*" else [-1, 1, 2, 1 << 15]
    target = c.pick(targets)
    k2 = target - mid[0] if ops[1] == "+" else mid[0] - target if ops[1] == "-" else target
    if not lo <= k2 <= hi or _chain_range(*mid, [(ops[1], k2)], t) is None:
        k2 = 0 if ops[1] != "*" else 1
    end = _chain_range(*mid, [(ops[1], k2)], t)
    assert end is not None
    k1s, k2s = K.spell(c, k1, t), K.spell(c, k2, t)
    return E(f"(({x.text} {ops[0]} {k1s}) {ops[1]} {k2s})", t, max(abs(end[0]), abs(end[1])))


def nonfinite(g: Ctx, t: str, depth: int) -> E:
    """Infinities, NaN and extreme floating values where the result is finite."""
    c = g.c
    ft = t if t in FLOATS else c.pick(FLOATS)
    f = "f" if ft == "float" else ""
    a = g.expr(ft, depth - 1)
    a = a if a.t == ft else to_type(a, ft)
    b = g.expr(ft, depth - 1)
    b = b if b.t == ft else to_type(b, ft)
    big, small = c.pick(K.POS_HUGE[ft]), c.pick(K.NEG_HUGE[ft])
    nan, tiny = c.pick(K.NANS[ft]), c.pick(K.TINY[ft])
    kind = c.int(0, 8)
    if t not in FLOATS:  # a comparison: int 0 or 1
        cond = c.pick(
            [
                f"{a.text} < {big}",
                f"{a.text} > {small}",
                f"{a.text} != {nan}",
                f"{a.text} == {nan}",
                f"{nan} != {nan}",
                f"{big} == {big}",
                f"{a.text} == -0.0{f}",
                f"{small} < {big}",
                f"{tiny} > 0.0",
            ]
        )
        return E(f"({cond})", "int", 1)
    forms = [
        f"fmin{f}({a.text}, {big})",
        f"fmax{f}({a.text}, {small})",
        f"fmin{f}({a.text}, {nan})",
        f"fmax{f}({nan}, {a.text})",
        f"({a.text} < {big} ? {a.text} : {b.text})",
        f"({a.text} != {nan} ? {a.text} : {b.text})",
        f"({a.text} / {big})",
        f"({a.text} * {tiny})",
        f"({a.text} + {tiny})",
    ]
    return E(forms[kind] if forms[kind].startswith("(") else f"({forms[kind]})", ft)


def spelled_identity(g: Ctx, t: str, depth: int) -> E:
    """x * 1, x + 0, x * 1.0 with the one or zero spelled otherwise (0x1, '\\0', 1e0, 0x1p0),
    and the signed-zero forms of floating point (x + -0.0 is x; x - -0.0 is not)."""
    c = g.c
    a = g.expr(t, depth - 1)
    if a.is_float:
        f = "f" if a.t == "float" else ""
        form = c.pick(
            [
                "({a} * 0x1p0{f})",
                "({a} * 1e0{f})",
                "({a} / 1.{f})",
                "({a} * 0x1.0p+0{f})",
                "({a} - 0x0p0{f})",
                "({a} + -0.0{f})",
                "(-0.0{f} + {a})",
                "({a} - -0.0{f})",
                "({a} * -1.0{f})",
                "({a} / -1.0{f})",
                "(-0x1p0{f} * {a})",
                "(({t})({a} * 1.0L))",
                "({a} * (0.5{f} + 0.5{f}))",
            ]
        )
        return E(form.format(a=paren(a), f=f, t=a.t), a.t)
    if a.t not in K.ONES:  # short, char...: an operation would promote it to int
        return a
    one, zero, ones = K.ONES[a.t], K.ZEROS[a.t], K.ALL_ONES[a.t]
    p = paren(a)
    form = c.int(0, 5)
    if form == 0:
        text = f"({p} * {c.pick(one)})" if c.chance(50) else f"({c.pick(one)} * {p})"
    elif form == 1:
        text = f"({p} {c.pick(['+', '-', '|', '^'])} {c.pick(zero)})"
    elif form == 2:
        text = f"({p} / {c.pick(one)})"
    elif form == 3:
        text = f"({p} & {c.pick(ones)})"
    elif form == 4:
        text = f"({p} >> {c.pick(zero)})"
    else:
        text = f"({p} * {c.pick(zero)})"
        return E(text, a.t, 0)
    return E(text, a.t, a.bound if a.t != "unsigned" else 1 << 32)


def round_trip(g: Ctx, t: str, depth: int) -> E:
    """Arithmetic in a type wider than the generator's, converted back: long double with L
    constants, unsigned long (long) with UL/ULL ones."""
    c = g.c
    if t in FLOATS:
        a = g.expr(t, depth - 1)
        a = a if a.t == t else to_type(a, t)
        k = c.pick(["0.1L", "1.5L", "0x1.8p1L", "3.0L", "1e-3L", ".25L"])
        op = c.pick(["+", "*", "-", "/"])
        return E(f"(({t})((long double){operand(a)} {op} {k}))", t)
    u = to_type(g.expr("unsigned", depth - 1), "unsigned")
    text, value = c.pick(K.WIDE)
    w = operand(text)
    if t == "unsigned":
        wide = c.pick(["", "(unsigned long long)", "(unsigned long)"])
        return E(f"((unsigned)({wide}{operand(u)} + {w}))", t, 1 << 32)
    if t == "long":  # unsigned int + unsigned long: no wrap at 2^32
        if value <= 1 << 40:
            return E(f"((long)({operand(u)} + {w}))", t, value + (1 << 32))
        return E(f"((long)(({operand(u)} + {w}) >> 1))", t, 1 << 63)
    i = to_type(g.expr("int", depth - 1), "int")
    return E(f"((int)({operand(i)} + {w}))", "int", 1 << 31)


# ----------------------------------------------------------------------------------------------
# conditions and statements


def edge_cond(g: Ctx, depth: int) -> str:
    """A comparison at an edge: against boundary constants, across signedness, with
    infinities and NaN."""
    c = g.c
    kind = c.int(0, 2)
    if kind == 1:
        return mixed_cond(g, depth)
    if kind == 2:
        return nonfinite(g, "int", depth).text
    t = c.pick(["int", "long", "unsigned"])
    x = edge_operand(g, t, depth)
    op = c.pick(["<", ">", "<=", ">=", "==", "!="])
    return f"{x.text} {op} {int_const(g, t).text}"


def edge_store(g: Ctx, ind: str, depth: int) -> list[str]:
    """A store to an edge array: any value of its type, a boundary constant, or a guarded
    update (the increment of a value that may be the maximum)."""
    c = g.c
    g.env.uses_edges = True
    t = c.pick(INTS)
    lv = f"{g.env.k}{EDGE_ARRAYS[t]}[{g.index()}]"
    kind = c.int(0, 3)
    if kind == 1:
        return [f"{ind}{lv} = {int_const(g, t).text};"]
    if kind == 2 and t != "unsigned":
        lo, hi = K.RANGE[t]
        form = c.int(0, 2)
        if form == 0:
            return [f"{ind}if ({lv} != {K.spell(c, lo, t)}) {lv} = -{lv};"]
        if form == 1:
            return [f"{ind}if ({lv} < {K.spell(c, hi, t)}) {{", f"{ind}  {lv}++;", f"{ind}}}"]
        return [f"{ind}if ({lv} > {K.spell(c, lo, t)}) {lv} -= 1;"]
    if kind == 3 and t == "unsigned":
        op = c.pick(["+=", "-=", "*=", "^=", "|=", "&=", "<<=", ">>="])
        e = to_type(g.expr("unsigned", depth), "unsigned")
        rhs = f"({e.text}) & 31u" if op in ("<<=", ">>=") else e.text
        return [f"{ind}{lv} {op} {rhs};"]
    e = edge_expr(g, t, depth) if c.chance(50) else g.expr(t, depth)
    if e.is_float:
        e = to_type(e, t)
    elif e.t != t:  # a narrowing conversion: modulo 2^N (gcc), any value of the type
        e = E(f"({t}){operand(e)}", t, limit(t) + 1)
    return [f"{ind}{lv} = {e.text};"]
