"""Random kernels in the shapes accsat handles, as complete C programs.

A kernel is one function with one parallel loop (``acc parallel loop`` or
``omp parallel for``) whose body the generator writes: expression DAGs that
reuse earlier subexpressions, mixed types (double, float, int, unsigned, long,
short), ifs, ternaries, inner sequential loops, loads and stores to the same
arrays and through pointer parameters that may alias them (``restrict`` ones
never do), reductions, math calls, struct members and a call with effects; and
C's edges (edges.py): boundary constants such as INT_MIN in every spelling
(macros, ``(-2147483647 - 1)``, hex, octal, suffixes, char constants; consts.py),
the kernel's constants one up and one down, unary minus chains, casts, mixed
signedness, long double and unsigned long long round trips, -0.0, hex floats,
infinities and NaN, and signed operations under the guards C code uses, on
arrays whose elements sit at the edges. And C's other type forms (forms.py): enums,
integer typedefs of another width (``mode``), bit-fields, plain char, in programs built
with ``-funsigned-char``, ``-fshort-enums`` or ``-fwrapv`` (the program's flags, chosen
per program, in its header: ``// flags: ...``); signed arithmetic may overflow only
under -fwrapv.

The generated C has no undefined behaviour: unsigned types where arithmetic may
wrap, signed integer expressions built under a bound on their magnitude (and
reduced with ``%`` when they would grow past it), divisors that cannot be zero,
shift counts masked, every subscript in range, float-to-integer conversions
clamped; a value that may be a type's minimum is never negated or added to
unguarded. The driver fills every array deterministically and prints everything
with ``%a``/``%d``, so original and rewritten programs compare bit for bit.

The generator draws through a ``Chooser`` (choosers.py). Smaller choices always
mean simpler programs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import callees, consts, edges, forms
from .choosers import Chooser, HypothesisChooser, RandomChooser
from .forms import NO_FLAGS, Flags, Forms
from .values import (
    ARRAY_INT_BOUND,
    FLOATS,
    SIGNED,
    SZ,
    E,
    N,
    arith,
    fits,
    limit,
    paren,
    shrink_bound,
    to_type,
    val_t,
)

# ----------------------------------------------------------------------------------------------
# expressions


@dataclass
class Env:
    k: str  # kernel prefix
    arrays: dict[str, str]  # global arrays the body names: name -> element type
    ptrs: dict[str, tuple[str, bool]]  # pointer params: name -> (element type, restrict)
    scalars: dict[str, E]  # scalar params
    struct: bool
    model: str
    locals: list[tuple[str, str, int]] = field(default_factory=list)  # (name, type, bound)
    index_vars: list[tuple[str, int]] = field(default_factory=list)  # (name, max value)
    pool: list[E] = field(default_factory=list)
    counter: int = 0
    uses_sum: bool = False
    uses_g: bool = False
    uses_call: bool = False
    uses_probe: bool = False
    matrix: bool = False  # a 2-D global array k_m2[SZ][4]
    sptr: bool = False  # a struct pointer parameter sp into k_st
    avoid: frozenset = frozenset()  # shapes not to generate (known accsat bugs)
    privates: dict = field(default_factory=dict)  # function-level scalars the body assigns
    consts: list = field(default_factory=list)  # (value, type) of the edge constants used
    uses_edges: bool = False  # the edge arrays k_e, k_el, k_eu
    flags: Flags = NO_FLAGS  # the program's compile flags (-funsigned-char, -fwrapv, ...)
    forms: Forms | None = None  # enums, mode typedefs, chars, bit-fields (forms.py)

    def fresh(self, base: str = "t") -> str:
        self.counter += 1
        return f"{base}{self.counter}"


_DCONST = ["1.0", "0.5", "2.0", "0.25", "3.0", "1.5", "0.1", "0.0", "-1.0", "1e-3", "7.0"]
_FCONST = ["1.0f", "0.5f", "2.0f", "0.25f", "3.0f", "1.5f", "0.1f", "0.0f", "-1.0f"]


def ctx(c: Chooser, env: Env) -> edges.Ctx:
    """The generator as edges.py sees it."""
    return edges.Ctx(c, env, lambda t, d: gen_expr(c, env, t, d), lambda: gen_index(c, env))


def gen_const(c: Chooser, t: str, env: Env | None = None) -> E:
    if env is not None and c.chance(25):  # at an edge of the type, in an unusual spelling
        return edges.edge_const(ctx(c, env), t)
    if t in FLOATS:
        spellings = _DCONST if t == "double" else _FCONST
        if env is not None and "zeroproduct" in env.avoid:
            spellings = [x for x in spellings if float(x.rstrip("f")) != 0]
        return E(c.pick(spellings), t)
    if t == "unsigned":
        v = c.pick(["1u", "3u", "0u", "7u", "0xffffffffu", "2147483648u", "0x9e3779b9u"])
        return E(v, "unsigned", 1 << 32)
    if t == "long":
        v = c.int(-8, 8)
        return E(f"{v}L" if v >= 0 else f"({v}L)", "long", abs(v))
    v = c.int(-4, 16)
    return E(str(v) if v >= 0 else f"({v})", "int", abs(v))


# identities and constants to combine in index arithmetic, and what they fold to
_INDEX_IDENTITIES = {
    "i * 1 + 0": "i",
    "(i + 5) - 3": "i + 2",
    "(i - 1) + 1": "i",
    "1 * i + 0 * n": "i",
    "i + (n - n)": "i",
    "(2 * 4 * i) % 23": "(8 * i) % 23",
    "i * (2 - 1)": "i",
}


def gen_index(c: Chooser, env: Env, depth: int = 1) -> str:
    """An int expression with a value in [0, 24); with the known bug "wrapvindex" avoided,
    under -fwrapv, its identities folded (the same draws: seeds keep their kernels)."""
    folded = env.flags.wrapv and "wrapvindex" in env.avoid
    kind = c.int(0, 8)
    if kind == 8:
        form = c.pick(list(_INDEX_IDENTITIES))
        # the known bug "wrapvoffset": constants to combine in a wrapping subscript
        offset = form == "(i + 5) - 3" and env.flags.wrapv and "wrapvoffset" in env.avoid
        return _INDEX_IDENTITIES[form] if folded or offset else form
    if kind == 0:
        return "i"
    if kind == 1:
        k = c.int(0, 7)
        return "i" if folded and k == 0 else f"i + {k}"
    if kind == 2 and env.index_vars:
        name, top = c.pick(env.index_vars)
        return f"i + {name}" if top <= 8 else name
    if kind == 3:
        m = c.int(1, 3)
        return f"({'i' if folded and m == 1 else f'i * {m}'} + {c.int(0, 15)}) % {N}"
    if kind == 4:
        return "n - 1 - i"
    if kind == 5:
        return f"{env.k}_ix[i]"
    if kind == 6 and depth > 0:
        e = gen_int(c, env, depth - 1)
        return f"({e.text}) & 15"
    return str(c.int(0, 23))


def gen_int(c: Chooser, env: Env, depth: int) -> E:
    t = c.pick(["int", "unsigned", "long", "int"])
    e = gen_expr(c, env, t, depth)
    if e.is_float:
        return to_type(e, "int")
    return e


def leaf(c: Chooser, env: Env, t: str) -> E:
    if env.forms is not None and c.chance(15):  # no draw without them: kernels stay
        return forms.leaf(ctx(c, env), env.forms)
    kind = c.int(0, 8)
    if kind == 8:
        return edges.edge_leaf(ctx(c, env), t)
    if kind == 1 and env.pool:
        cands = [e for e in env.pool if e.t == t] or env.pool
        return c.pick(cands)
    if kind == 2:
        names = [n for n, et in env.arrays.items() if fits(et, t)] or list(env.arrays)
        if names:
            a = c.pick(names)
            et = env.arrays[a]
            return E(access(c, a, gen_index(c, env)), val_t(et), ARRAY_INT_BOUND.get(et, 0))
    if kind == 3 and env.ptrs:
        p = c.pick(sorted(env.ptrs))
        et = env.ptrs[p][0]
        return E(f"{p}[{gen_index(c, env)}]", et, ARRAY_INT_BOUND.get(et, 0))
    if kind == 4 and env.locals:
        cands = [x for x in env.locals if x[1] == t] or env.locals
        name, lt, b = c.pick(cands)
        return E(name, lt, b)
    if kind == 5:
        name = c.pick(sorted(env.scalars))
        return env.scalars[name]
    if kind == 6:
        if env.index_vars and c.chance(50):
            name, top = c.pick(env.index_vars)
            return E(name, "int", top)
        return E("i", "int", N)
    if kind == 7 and env.struct:
        f = c.pick(["x", "y", "k"])
        ft = {"x": "double", "y": "float", "k": "int"}[f]
        if env.sptr and c.chance(50):
            if c.chance(50):
                return E(f"sp[{gen_index(c, env)}].{f}", ft, 128 if f == "k" else 0)
            return E(f"(sp + ({gen_index(c, env)}))->{f}", ft, 128 if f == "k" else 0)
        return E(f"{env.k}_st[{gen_index(c, env)}].{f}", ft, 128 if f == "k" else 0)
    if kind == 0 and env.matrix and c.chance(50):
        return E(f"{env.k}_m2[{gen_index(c, env)}][{gen_col(c, env)}]", "double")
    return gen_const(c, t, env)


def gen_col(c: Chooser, env: Env) -> str:
    """A column subscript of k_m2: in [0, 4)."""
    if env.index_vars and c.chance(50):
        name, top = c.pick(env.index_vars)
        if top <= 4:
            return name
    return str(c.int(0, 3))


def gen_expr(c: Chooser, env: Env, t: str, depth: int) -> E:
    """An expression whose value converts to ``t`` (its own type may differ)."""
    if depth <= 0 or c.chance(25):
        return leaf(c, env, t)
    if env.flags.wrapv and c.chance(15):  # signed overflow: defined (it wraps) here only
        return forms.wrapping(ctx(c, env), t, depth)
    kind = c.int(0, 14)
    if kind <= 3:
        return binop(c, env, t, depth, c.pick(["+", "-", "*", "+"]))
    if kind == 4:
        return divide(c, env, t, depth)
    if kind == 5:
        cond = gen_cond(c, env, depth - 1)
        a = gen_expr(c, env, t, depth - 1)
        b = gen_expr(c, env, t, depth - 1)
        rt = arith(a.t, b.t)
        return E(f"({cond} ? {a.text} : {b.text})", rt, max(a.bound, b.bound))
    if kind == 6:
        a = gen_expr(c, env, t, depth - 1)
        if a.t == "unsigned" or a.is_float:
            return E(f"(-{paren(a)})", a.t, a.bound)
        if a.bound > limit(a.t) and not env.flags.wrapv:  # may be INT_MIN: -a overflows
            a = shrink_bound(a, 1 << 20)
        return E(f"(-{paren(a)})", arith(a.t, a.t), a.bound)
    if kind == 7 and t in FLOATS:
        return mathcall(c, env, t, depth)
    if kind == 8:
        other = c.pick(["double", "float", "int", "unsigned", "long"])
        e = to_type(gen_expr(c, env, other, depth - 1), t)
        if not e.is_float and c.chance(25):
            small, bound = c.pick(
                [
                    ("unsigned char", 255),
                    ("signed char", 128),
                    ("short", 32768),
                    ("unsigned short", 65535),
                ]
            )
            return E(f"(({small})({e.text}))", "int", bound)
        return e
    if kind == 9 and t not in FLOATS:
        return bitop(c, env, t, depth)
    if kind == 10:
        e = gen_expr(c, env, t, depth - 1)
        env.pool.append(e)
        return e
    if kind == 11:
        return gen_cond_value(c, env, depth)
    if kind == 12:
        return identity(c, env, t, depth)
    if kind == 13:
        return edges.edge_expr(ctx(c, env), t, depth)
    if kind == 14 and t in ("int", "long"):
        return edges.guarded(ctx(c, env), t, depth)
    return binop(c, env, t, depth, "+")


_INT_IDENTITIES = [
    "({a} * 1)",
    "(1 * {a})",
    "({a} + 0)",
    "(0 + {a})",
    "({a} - 0)",
    "({a} * 0)",
    "(0 * {a})",
    "({a} - {a})",
    "(({a} + {k}) - {k})",
    "(({a} - {k}) + {m})",
    "({a} * 2 * 3)",
    "(2 * ({a} * 4))",
    "({a} * (3 - 2))",
    "({a} / 1)",
]
# exact in IEEE arithmetic (accsat folds them) and not (x + 0.0, x * 0.0: accsat must not)
_FLOAT_IDENTITIES = [
    "({a} * 1.0{f})",
    "(1.0{f} * {a})",
    "({a} / 1.0{f})",
    "({a} - 0.0{f})",
    "({a} + 0.0{f})",
    "(0.0{f} + {a})",
    "({a} * 0.0{f})",
    "({a} * (2.0{f} * 0.5{f}))",
]


def identity(c: Chooser, env: Env, t: str, depth: int) -> E:
    """An operand with an identity or constants to combine: x * 1, x - x, (x + 3) - 3,
    x * 2 * 3, x * 1.0, and the float forms no rewrite may fold (x + 0.0, x * 0.0)."""
    a = gen_expr(c, env, t, depth - 1)
    if a.is_float:
        f = "f" if a.t == "float" else ""
        forms = _FLOAT_IDENTITIES
        if "zeroproduct" in env.avoid:
            forms = [x for x in forms if "* 0.0" not in x]
        return E(c.pick(forms).format(a=paren(a), f=f), a.t)
    if a.t != "unsigned":
        a = shrink_bound(a, 1 << 20)
    k = c.int(1, 9)
    suffix = "u" if a.t == "unsigned" else "L" if a.t == "long" else ""
    form = c.pick(_INT_IDENTITIES)
    text = form.format(a=paren(a), k=f"{k}{suffix}", m=f"{c.int(0, 9)}{suffix}")
    bound = 1 << 32 if a.t == "unsigned" else max(a.bound, 1) * 8 + 10
    return E(text, "long" if a.t == "long" else "unsigned" if a.t == "unsigned" else "int", bound)


def binop(c: Chooser, env: Env, t: str, depth: int, op: str) -> E:
    a = gen_expr(c, env, t, depth - 1)
    b = gen_expr(c, env, t, depth - 1)
    rt = arith(a.t, b.t)
    if rt in ("int", "long") and env.flags.wrapv and c.chance(40):
        e = E(f"({a.text} {op} {b.text})", rt, limit(rt) + 1)  # -fwrapv: may wrap
    elif rt in ("int", "long"):
        lim = limit(rt)
        ba = a.bound if a.t != "unsigned" else 1 << 32
        bb = b.bound if b.t != "unsigned" else 1 << 32
        if op == "*":
            if ba * bb > lim:
                a, b = shrink_bound(a, 4096), shrink_bound(b, 4096)
                ba, bb = min(ba, a.bound or ba), min(bb, b.bound or bb)
            bound = max(a.bound, 1) * max(b.bound, 1)
        else:
            if ba + bb > lim:
                a, b = shrink_bound(a, 1 << 20), shrink_bound(b, 1 << 20)
            bound = a.bound + b.bound
        if bound > lim:  # still too big: fall back to unsigned arithmetic
            return E(f"((unsigned)({a.text}) {op} (unsigned)({b.text}))", "unsigned", 1 << 32)
        e = E(f"({a.text} {op} {b.text})", rt, bound)
    else:
        e = E(f"({a.text} {op} {b.text})", rt, 1 << 32 if rt == "unsigned" else 0)
    if c.chance(30):
        env.pool.append(e)
    return e


def divide(c: Chooser, env: Env, t: str, depth: int) -> E:
    a = gen_expr(c, env, t, depth - 1)
    if a.is_float or t in FLOATS:
        b = gen_expr(c, env, t, depth - 1)
        if not b.is_float:
            b = to_type(b, "double")
        rt = arith(a.t, b.t)
        # keep the divisor away from zero: |b| + 0.5
        f = "f" if rt == "float" else ""
        return E(f"({a.text} / (fabs{f}({b.text}) + 0.5{f}))", rt)
    b = gen_int(c, env, depth - 1)
    op = c.pick(["/", "%"])
    rt = arith(a.t, b.t)
    d = f"((({b.text}) & 7) + 1)"
    bound = a.bound if rt != "unsigned" else 1 << 32
    if rt in SIGNED and a.t == "unsigned":
        bound = 1 << 32
    if op == "%":
        bound = min(bound, 8) if rt != "unsigned" else 1 << 32
    return E(f"({a.text} {op} {d})", rt, bound)


def bitop(c: Chooser, env: Env, t: str, depth: int) -> E:
    a = gen_int(c, env, depth - 1)
    kind = c.int(0, 4)
    if kind <= 2:
        b = gen_int(c, env, depth - 1)
        op = ["&", "|", "^"][kind]
        rt = arith(a.t, b.t)
        bound = 2 * max(a.bound, b.bound, 1) if rt != "unsigned" else 1 << 32
        if rt in SIGNED and bound > limit(rt):
            bound = limit(rt) + 1  # INT_MIN & x may be INT_MIN
        return E(f"({a.text} {op} {b.text})", rt, bound)
    sh = gen_int(c, env, depth - 1)
    if kind == 3:  # left shift: only unsigned
        ua = a if a.t == "unsigned" else E(f"(unsigned)({a.text})", "unsigned", 1 << 32)
        return E(f"({ua.text} << (({sh.text}) & 31))", "unsigned", 1 << 32)
    rt = arith(a.t, a.t)
    return E(f"({a.text} >> (({sh.text}) & {31 if rt != 'long' else 63}))", rt, a.bound)


def mathcall(c: Chooser, env: Env, t: str, depth: int) -> E:
    f = "f" if t == "float" else ""
    a = gen_expr(c, env, t, depth - 1)
    if not a.is_float:
        a = to_type(a, t)
    kind = c.int(0, 7)
    if kind == 0:
        return E(f"sqrt{f}(fabs{f}({a.text}))", t)
    if kind == 1:
        return E(f"fabs{f}({a.text})", t)
    if kind in (2, 3):
        b = gen_expr(c, env, t, depth - 1)
        name = "fmax" if kind == 2 else "fmin"
        return E(f"{name}{f}({a.text}, {b.text})", t)
    if kind == 4:
        return E(f"floor{f}({a.text})", t)
    if kind == 5:
        return E(f"sin{f}({a.text})", t)
    if kind == 6:
        return E(f"exp{f}({a.text} * 0.125{f})", t)
    b = gen_expr(c, env, t, depth - 1)
    d = gen_expr(c, env, t, depth - 1)
    return E(f"fma{f}({a.text}, {b.text}, {d.text})", t)


def gen_cond(c: Chooser, env: Env, depth: int) -> str:
    if c.chance(12):
        return edges.edge_cond(ctx(c, env), depth)
    t = c.pick(["double", "int", "float", "unsigned"])
    a = gen_expr(c, env, t, depth)
    b = gen_expr(c, env, t, max(depth - 1, 0))
    op = c.pick(["<", ">", "<=", ">=", "==", "!="])
    cond = f"{a.text} {op} {b.text}"
    if c.chance(15):
        other = gen_cond(c, env, 0)
        cond = f"({cond}) {c.pick(['&&', '||'])} ({other})"
    return cond


def gen_cond_value(c: Chooser, env: Env, depth: int) -> E:
    return E(f"({gen_cond(c, env, depth - 1)})", "int", 1)


# ----------------------------------------------------------------------------------------------
# statements


def lvalue(c: Chooser, env: Env) -> tuple[str, str]:
    """(text, element type) of a memory location to store to."""
    kind = c.int(0, 3)
    if kind == 1 and env.ptrs:
        p = c.pick(sorted(env.ptrs))
        return f"{p}[{gen_index(c, env)}]", env.ptrs[p][0]
    if kind == 2 and env.struct:
        f = c.pick(["x", "y", "k"])
        ft = {"x": "double", "y": "float", "k": "int"}[f]
        if env.sptr and c.chance(50):
            return f"sp[{gen_index(c, env)}].{f}", ft
        return f"{env.k}_st[{gen_index(c, env)}].{f}", ft
    if kind == 3 and env.matrix:
        return f"{env.k}_m2[{gen_index(c, env)}][{gen_col(c, env)}]", "double"
    a = c.pick(sorted(env.arrays))
    return access(c, a, gen_index(c, env)), env.arrays[a]


def access(c: Chooser, a: str, index: str) -> str:
    """``a[index]``, sometimes through the accessor macro AT of the prelude."""
    return f"AT({a}, {index})" if c.chance(20) else f"{a}[{index}]"


def value_for(c: Chooser, env: Env, t: str, depth: int) -> E:
    """A value that can be stored in an object of type ``t`` without undefined behaviour."""
    e = gen_expr(c, env, val_t(t), depth)
    if t in FLOATS:
        return e if e.t == t else to_type(e, t)
    e = to_type(e, val_t(t)) if e.t != val_t(t) or e.is_float else e
    if t in ARRAY_INT_BOUND and t != "unsigned":
        e = shrink_bound(e, 100 if t != "long" else ARRAY_INT_BOUND["long"])
    if t == "short":
        return E(f"(short)({e.text})", "int", min(e.bound, 1 << 15))
    return e


def var_value(c: Chooser, env: Env, t: str, depth: int) -> E:
    """A value to assign to a scalar variable. Avoiding the known "leafcopy" bug, it
    always reads memory (a bare constant or variable copied into a variable, then an if,
    makes accsat read the variable's old value: tests/fuzz/regressions/)."""
    e = value_for(c, env, t, depth)
    if "leafcopy" in env.avoid and "[" not in e.text and "->" not in e.text:
        extra = f"{env.k}_ix[i]"
        e = E(f"({e.text}) + {extra}", e.t, e.bound + N)
        if t in SIGNED:
            e = shrink_bound(e, 100)
    return e


def gen_block(c: Chooser, env: Env, count: int, depth: int, indent: str) -> list[str]:
    return [line for stmt in gen_stmts(c, env, count, depth, indent) for line in stmt]


def gen_stmts(c: Chooser, env: Env, count: int, depth: int, indent: str) -> list[list[str]]:
    """A block's statements, each as its lines (so that one can be put between two)."""
    saved = list(env.locals)
    saved_pool = len(env.pool)
    out = [gen_stmt(c, env, depth, indent) for _ in range(count)]
    env.locals = saved
    del env.pool[saved_pool:]  # expressions using this block's locals go out of scope
    return out


def gen_stmt(c: Chooser, env: Env, depth: int, ind: str) -> list[str]:
    if env.forms is not None and c.chance(10):
        stored = forms.store(ctx(c, env), env.forms, ind)
        if stored:
            return stored
    kind = c.int(0, 17)
    if kind == 17:
        return edges.edge_store(ctx(c, env), ind, c.int(1, 2))
    if kind == 16:  # statement macros: one statement (SET1) and two (SET2)
        a = c.pick(sorted(env.arrays))
        v = value_for(c, env, env.arrays[a], c.int(1, 2))
        return [f"{ind}{c.pick(['SET1', 'SET2'])}({a}, {gen_index(c, env)}, {v.text});"]
    if kind >= 11:
        out = gen_stmt2(c, env, depth, ind, kind)
        if out:
            return out
        kind = 0
    edepth = c.int(1, 3)
    if kind == 1:
        t = c.pick(["double", "float", "int", "unsigned", "long", "double"])
        name = env.fresh()
        e = var_value(c, env, t, edepth)
        bound = e.bound if t != "unsigned" else 1 << 32
        env.locals.append((name, t, bound))
        # every other double local through the prelude's typedef (no draw: seeds keep
        # their kernels), so that temporaries of its values are declared ``real``
        spelled = "real" if t == "double" and name[-1] in "13579" else t
        return [f"{ind}{spelled} {name} = {e.text};"]
    if kind == 2:
        lv, t = lvalue(c, env)
        if t in FLOATS:
            op = c.pick(["+=", "-=", "*="])
            e = gen_expr(c, env, t, edepth)
            return [*_atomic(env, lv, ind), compound(env, ind, lv, t, op, e)]
        if t == "unsigned":
            op = c.pick(["+=", "-=", "*=", "^=", "|="])
            e = gen_int(c, env, edepth)
            return [*_atomic(env, lv, ind), compound(env, ind, lv, t, op, e)]
        e = value_for(c, env, t, edepth)  # signed: plain store of a bounded value
        return [f"{ind}{lv} = {e.text};"]
    if kind == 3 and env.locals:
        name, t, bound = c.pick(env.locals)
        if t in FLOATS or t == "unsigned":
            op = c.pick(["=", "+=", "*="]) if t != "unsigned" else c.pick(["=", "+=", "^="])
            e = gen_expr(c, env, t, edepth) if t in FLOATS else gen_int(c, env, edepth)
            if op == "=" and "leafcopy" in env.avoid and "[" not in e.text:
                e = E(f"({e.text}) + {env.k}_ix[i]", e.t, e.bound + N)
            if op != "=":
                return [compound(env, ind, name, t, op, e)]
            return [f"{ind}{name} {op} {e.text};"]
        e = shrink_bound(to_type(gen_expr(c, env, t, edepth), t), bound or 1)
        if "leafcopy" in env.avoid and "[" not in e.text:
            e = shrink_bound(E(f"({e.text}) + {env.k}_ix[i]", e.t, e.bound + N), bound or 1)
        return [f"{ind}{name} = {e.text};"]
    if kind == 4 and depth > 0:
        cond = gen_cond(c, env, c.int(0, 2))
        lines = [f"{ind}if ({cond}) {{"]
        lines += gen_block(c, env, c.int(1, 3), depth - 1, ind + "  ")
        if c.chance(50):
            lines.append(f"{ind}}} else {{")
            lines += gen_block(c, env, c.int(1, 3), depth - 1, ind + "  ")
        lines.append(f"{ind}}}")
        return lines
    if kind == 5 and depth > 0:
        m = env.fresh("m")
        top = c.int(1, 4)
        bound = f"{top}" if c.chance(70) else "k0"
        env.index_vars.append((m, top if bound != "k0" else 3))
        form = c.int(0, 2)
        saved_pool = len(env.pool)
        stmts = gen_stmts(c, env, c.int(1, 3), depth - 1, ind + "  ")
        if form != 2 and c.chance(25) and "break" not in env.avoid:
            jump = c.pick(["break", "continue"])
            cond = gen_cond(c, env, 1)
            # between two statements of this loop's body, never inside one of them
            stmts.insert(c.int(0, len(stmts)), [f"{ind}  if ({cond}) {jump};"])
        del env.pool[saved_pool:]  # the condition may use m
        body = [line for stmt in stmts for line in stmt]
        env.index_vars.pop()
        if form == 2:
            return [
                f"{ind}{{",
                f"{ind}  int {m} = 0;",
                f"{ind}  while ({m} < {bound}) {{",
                *["  " + b for b in body],
                f"{ind}    {m}++;",
                f"{ind}  }}",
                f"{ind}}}",
            ]
        return [f"{ind}for (int {m} = 0; {m} < {bound}; {m}++) {{", *body, f"{ind}}}"]
    if kind == 6:
        env.uses_sum = True
        e = gen_expr(c, env, "double", edepth)
        return [f"{ind}sum += {e.text};"]
    if kind == 7:
        env.uses_g = True
        e = gen_expr(c, env, "double", edepth)
        return [f"{ind}{env.k}_g = {env.k}_g * 0.5 + {e.text};"]
    if kind == 8 and depth > 0:
        name = env.fresh()
        t = c.pick(["double", "int", "float"])
        a, b = var_value(c, env, t, edepth), var_value(c, env, t, edepth)
        cond = gen_cond(c, env, 1)
        env.locals.append((name, t, max(a.bound, b.bound)))
        return [
            f"{ind}{t} {name};",
            f"{ind}if ({cond})",
            f"{ind}  {name} = {a.text};",
            f"{ind}else",
            f"{ind}  {name} = {b.text};",
        ]
    if kind == 9 and c.chance(40):
        env.uses_call = True
        a = c.pick(sorted(n for n, t in env.arrays.items() if t == "double") or ["_none"])
        if a != "_none":
            e = gen_expr(c, env, "double", 1)
            return [f"{ind}{env.k}_bump(&{a}[{gen_index(c, env)}], {e.text});"]
    if kind == 10:
        # a load, a store that may alias it, the load again
        lv, t = lvalue(c, env)
        name = env.fresh()
        vt = val_t(t)
        env.locals.append((name, vt, ARRAY_INT_BOUND.get(t, 0)))
        lines = [f"{ind}{vt} {name} = {lv};"]
        lines += gen_stmt(c, env, 0, ind)
        e = value_for(c, env, t, 1)
        lines.append(f"{ind}{lv} = {e.text};")
        return lines
    lv, t = lvalue(c, env)
    e = value_for(c, env, t, edepth)
    return [f"{ind}{lv} = {e.text};"]


def compound(env: Env, ind: str, lv: str, t: str, op: str, e: E) -> str:
    """``lv op= e`` (``lv`` of type ``t``: float, double or unsigned); where the known bug
    "compound" is avoided and the operation would be computed in another type than
    ``t``, ``lv op= (t)(e)`` (still a compound assignment: an atomic update takes no
    ``lv = lv op e`` whose ``lv`` reads memory, gcc says "invalid form")."""
    if "compound" in env.avoid and arith(t, e.t) != t:
        return f"{ind}{lv} {op} ({t}){paren(e)};"
    return f"{ind}{lv} {op} {e.text};"


ATOMIC = "#pragma ATOMIC"
_ATOMIC = {"acc": "#pragma acc atomic update", "omp": "#pragma omp atomic"}


def _atomic(env: Env, lv: str, ind: str) -> list[str]:
    """An atomic directive before about one compound assignment in three (chosen from the
    target's text, with no draw: seeds keep their kernels); a run is sequential, where an
    atomic update is the plain one, so the variants must print the same."""
    if "atomic" in env.avoid or sum(map(ord, lv)) % 3:
        return []
    return [ATOMIC]  # the kernel's model decides the spelling (Kernel.functions)


def gen_stmt2(c: Chooser, env: Env, depth: int, ind: str, kind: int) -> list[str]:
    """Guarded operations that would trap outside their guard, increments, calls."""
    if kind == 11:
        form = c.int(0, 5)
        e = shrink_bound(gen_int(c, env, 1), 4096)
        x = shrink_bound(gen_int(c, env, 1), 1 << 20)
        if form == 0:  # integer division under its guard
            lv, t = lvalue(c, env)
            q = E(f"({x.text}) {c.pick(['/', '%'])} ({e.text})", arith(x.t, e.t), x.bound)
            val = to_type(q, val_t(t)) if t not in FLOATS else E(f"(double)({q.text})", "double")
            if t in SIGNED:
                val = shrink_bound(val, 100)
            return [f"{ind}if (({e.text}) != 0) {{", f"{ind}  {lv} = {val.text};", f"{ind}}}"]
        if form == 1:  # the same as an expression
            name = env.fresh()
            env.locals.append((name, "long", x.bound))
            op = c.pick(["/", "%"])
            if c.chance(50):
                return [f"{ind}long {name} = ({e.text}) != 0 ? ({x.text}) {op} ({e.text}) : 0;"]
            return [f"{ind}long {name} = ({e.text}) != 0 && ({x.text}) {op} ({e.text}) > 1;"]
        if form == 2:  # float to int under a range check
            f = gen_expr(c, env, "double", 2)
            f = f if f.is_float else to_type(f, "double")
            lv, t = lvalue(c, env)
            cv = "(int)" if t != "unsigned" else "(unsigned)"
            lo = "-1000.0" if t != "unsigned" else "0.0"
            val = f"({cv}({f.text})) % 97"
            if t in FLOATS:
                val = f"(double)((int)({f.text}))"
            return [
                f"{ind}if ({f.text} > {lo} && {f.text} < 1000.0) {{",
                f"{ind}  {lv} = {val};",
                f"{ind}}}",
            ]
        if form == 3:  # an unsigned shift under its guard
            u = gen_int(c, env, 1)
            name = env.fresh()
            env.locals.append((name, "unsigned", 1 << 32))
            zero = f"(unsigned){env.k}_ix[i]" if "leafcopy" in env.avoid else "0u"
            return [
                f"{ind}unsigned {name} = {zero};",
                f"{ind}if ((unsigned)({e.text}) < 32u) {{",
                f"{ind}  {name} = (unsigned)({u.text}) << ({e.text});",
                f"{ind}}}",
            ]
        if form == 4 and env.ptrs:  # a load that is out of bounds unless guarded
            p = c.pick(sorted(env.ptrs))
            et = env.ptrs[p][0]
            name = env.fresh()
            vt = val_t(et)
            env.locals.append((name, vt, ARRAY_INT_BOUND.get(et, 0)))
            zero = f"{env.k}_ix[i]" if "leafcopy" in env.avoid else "0"
            return [
                f"{ind}{vt} {name} = {zero};",
                f"{ind}if (i > n + {c.int(0, 3)}) {{",
                f"{ind}  {name} = {p}[i + {c.int(40, 60)}];",
                f"{ind}}}",
            ]
        a = c.pick(sorted(env.arrays))
        name = env.fresh()
        et = env.arrays[a]
        vt = val_t(et)
        env.locals.append((name, vt, ARRAY_INT_BOUND.get(et, 0)))
        return [f"{ind}{vt} {name} = i < n - {c.int(16, 20)} ? {a}[i + {c.int(40, 60)}] : 0;"]
    if kind == 12:  # increments
        lv, t = lvalue(c, env)
        if t in SIGNED:
            return []
        op = c.pick(["++", "--"])
        if c.chance(50):
            return [f"{ind}{lv}{op};"]
        return [f"{ind}{op}{lv};"]
    if kind == 13:
        env.uses_probe = True
        form = c.int(0, 2) if "probe" not in env.avoid else 2
        idx = gen_index(c, env)
        if form == 0:
            return [f"{ind}{env.k}_probe({idx});"]
        if form == 1:
            lv, t = lvalue(c, env)
            cond = gen_cond(c, env, 1)
            return [
                f"{ind}if (({cond}) {c.pick(['&&', '||'])} {env.k}_probe({idx})) {{",
                f"{ind}  {lv} = {value_for(c, env, t, 1).text};",
                f"{ind}}}",
            ]
        name = env.fresh()
        env.locals.append((name, "int", 8))
        return [f"{ind}int {name} = {env.k}_probe({idx});"]
    if kind == 14:  # a value used after the inner loop that changes it
        name = env.fresh()
        m = env.fresh("m")
        top = c.int(1, 4)
        env.index_vars.append((m, top))
        saved_pool = len(env.pool)
        e = gen_expr(c, env, "double", 2)
        del env.pool[saved_pool:]  # they may use m
        env.index_vars.pop()
        init = var_value(c, env, "double", 1).text
        env.locals.append((name, "double", 0))
        loop = [
            f"{ind}double {name} = {init};",
            f"{ind}for (int {m} = 0; {m} < {top}; {m}++)",
            f"{ind}  {name} = {name} * 0.5 + {e.text};",
        ]
        # an even trip count (no draw: seeds keep their kernels) also carries a memory
        # location across the loop (ssa/promote.py): stored on every iteration of a loop
        # that runs, or only under an if after a load before the loop (a flagged store)
        loc = f"{env.k}_a0[i]"
        if top == 2:
            return [*loop[:2], f"{ind}{{", loop[2], f"{ind}  {loc} += {name};", f"{ind}}}"]
        if top == 4:
            loop[0] = f"{ind}double {name} = ({init}) + {loc};"
            return [
                *loop[:2],
                f"{ind}{{",
                loop[2],
                f"{ind}  if ({name} > 1.0) {loc} = {loc} * 0.5 + {name};",
                f"{ind}}}",
            ]
        return loop
    if kind == 15:  # a scalar of the function, private to each iteration, assigned here
        t = c.pick(["double", "int", "float", "double"])
        name = (
            f"q{len(env.privates)}"
            if len(env.privates) < 3 or c.chance(30)
            else c.pick(sorted(env.privates))
        )
        if env.privates.get(name, t) != t:
            t = env.privates[name]
        env.privates[name] = t
        e = var_value(c, env, t, c.int(1, 3))
        env.locals.append((name, t, e.bound if t != "unsigned" else 1 << 32))
        return [f"{ind}{name} = {e.text};"]
    return []


# ----------------------------------------------------------------------------------------------
# kernels and programs

_ELEM_TYPES = ["double", "double", "float", "int", "unsigned", "long", "short"]


@dataclass
class Kernel:
    k: str
    model: str
    arrays: dict[str, str]  # every global array: name -> element type
    body_arrays: list[str]
    ptrs: dict[str, tuple[str, bool]]
    ptr_args: dict[str, str]  # pointer param -> argument expression
    struct: bool
    body: list[str]
    uses_sum: bool
    uses_g: bool
    uses_call: bool
    index_decl_inside: bool
    k0: int
    uses_probe: bool = False
    matrix: bool = False
    sptr: str = ""  # argument for the struct pointer parameter, "" without one
    privates: dict = field(default_factory=dict)
    edges: bool = False  # the edge arrays k_e (int), k_el (long), k_eu (unsigned)
    flags: Flags = NO_FLAGS
    forms: Forms | None = None
    callees: callees.Callees | None = None  # helper functions the body calls (callees.py)

    def edge_arrays(self) -> list[tuple[str, str]]:
        """(name, element type) of the edge arrays, if the kernel uses them."""
        if not self.edges:
            return []
        return [(self.k + suffix, t) for t, suffix in edges.EDGE_ARRAYS.items()]

    def functions(self) -> str:
        k = self.k
        out = []
        for name, t in self.arrays.items():
            out.append(f"{t} {name}[{SZ}];")
        out.append(f"int {k}_ix[{SZ}];")
        for name, t in self.edge_arrays():
            out.append(f"{t} {name}[{SZ}];")
        if self.struct:
            out.append(f"struct {k}_pt {{ double x; float y; int k; }};")
            out.append(f"struct {k}_pt {k}_st[{SZ + 8}];")
        if self.matrix:
            out.append(f"double {k}_m2[{SZ}][4];")
        if self.forms is not None:
            out += self.forms.declarations()
        if self.callees is not None:
            out += self.callees.declarations()
        if self.uses_probe:
            out.append(f"int {k}_probes;")
            out.append(f"int {k}_probe(int j) {{ {k}_probes += j + 1; return j % 3 == 1; }}")
        out.append(f"double {k}_g;")
        out.append(f"double {k}_out_sum;")
        if self.uses_call:
            out.append(f"static void {k}_bump(double *p, double v) {{ *p = *p * 0.75 + v; }}")
        if self.callees is not None:
            out += self.callees.definitions(self.model)
        params = ["int n", "int k0", "double s0", "float s1", "unsigned s2"]
        for p, (t, restrict) in self.ptrs.items():
            params.append(f"{t} *{'restrict ' if restrict else ''}{p}")
        if self.sptr:
            params.append(f"struct {k}_pt *sp")
        out.append(f"static void {k}_kernel({', '.join(params)})")
        out.append("{")
        if not self.index_decl_inside:
            out.append("  int i;")
        out.append("  double sum = 0.0;")
        for name, t in sorted(self.privates.items()):
            out.append(f"  {t} {name};")
        clauses = " reduction(+:sum)" if self.uses_sum else ""
        if self.privates:
            clauses += f" private({', '.join(sorted(self.privates))})"
        if self.model == "acc":
            out.append(f"#pragma acc parallel loop{clauses}")
        else:
            out.append(f"#pragma omp parallel for{clauses}")
        decl = "int " if self.index_decl_inside else ""
        out.append(f"  for ({decl}i = 0; i < n; i++) {{")
        out += [_ATOMIC[self.model] if line == ATOMIC else "    " + line for line in self.body]
        out.append("  }")
        out.append(f"  {k}_out_sum = sum;")
        out.append("}")
        out.append(self.driver())
        return "\n".join(out)

    def driver(self) -> str:
        k = self.k
        lines = [f"static void {k}_run(void)", "{", "  int q;", f"  for (q = 0; q < {SZ}; q++) {{"]
        for name, t in self.arrays.items():
            lines.append(f"    {name}[q] = {_init_expr(t)};")
        lines.append(f"    {k}_ix[q] = (int)(lcg_u() % {N}u);")
        for name, t in self.edge_arrays():  # every other element at an edge of its type
            lines.append(f"    {name}[q] = q % 2 ? edge_{t}[q / 2 % 8] : ({t})lcg_w();")
        if self.struct:
            lines.append(
                f"    {k}_st[q].x = lcg_d(); {k}_st[q].y = (float)lcg_d(); "
                f"{k}_st[q].k = (int)(lcg_u() % 129u) - 64;"
            )
        if self.matrix:
            lines.append(
                f"    {k}_m2[q][0] = lcg_d(); {k}_m2[q][1] = lcg_d(); "
                f"{k}_m2[q][2] = lcg_d(); {k}_m2[q][3] = lcg_d();"
            )
        if self.forms is not None:
            lines += self.forms.fill()
        if self.callees is not None:
            lines += self.callees.fill()
        lines.append("  }")
        lines.append(f"  {k}_g = 0.25;")
        args = [str(N), str(self.k0), "1.25", "0.75f", "2654435761u"]
        args += [self.ptr_args[p] for p in self.ptrs]
        if self.sptr:
            args.append(self.sptr)
        lines.append(f"  {k}_kernel({', '.join(args)});")
        lines.append(f"  for (q = 0; q < {SZ}; q++) {{")
        for name, t in self.arrays.items():
            fmt, cast = _fmt(t)
            lines.append(f'    printf("{name} %d {fmt}\\n", q, {cast}{name}[q]);')
        for name, t in self.edge_arrays():
            fmt, cast = _fmt(t)
            lines.append(f'    printf("{name} %d {fmt}\\n", q, {cast}{name}[q]);')
        if self.struct:
            lines.append(
                f'    printf("{k}_st %d %a %a %d\\n", q, {k}_st[q].x, '
                f"(double){k}_st[q].y, {k}_st[q].k);"
            )
        if self.matrix:
            lines.append(
                f'    printf("{k}_m2 %d %a %a %a %a\\n", q, {k}_m2[q][0], {k}_m2[q][1], '
                f"{k}_m2[q][2], {k}_m2[q][3]);"
            )
        if self.forms is not None:
            lines += self.forms.prints()
        if self.callees is not None:
            lines += self.callees.prints()
        lines.append("  }")
        if self.uses_probe:
            lines.append(f'  printf("{k}_probes %d\\n", {k}_probes);')
        lines.append(f'  printf("{k}_g %a\\n{k}_sum %a\\n", {k}_g, {k}_out_sum);')
        lines.append("}")
        return "\n".join(lines)


def _init_expr(t: str) -> str:
    return {
        "double": "lcg_d()",
        "float": "(float)lcg_d()",
        "int": "(int)(lcg_u() % 129u) - 64",
        "short": "(short)((int)(lcg_u() % 2001u) - 1000)",
        "long": "(long)(lcg_u() % 2001u) - 1000L",
        "unsigned": "lcg_u()",
    }[t]


def _fmt(t: str) -> tuple[str, str]:
    if t in FLOATS:
        return "%a", "(double)"
    if t == "unsigned":
        return "%u", ""
    if t == "long":
        return "%ld", ""
    return "%d", "(int)"


def gen_kernel(
    c: Chooser, k: str = "k0", avoid: frozenset = frozenset(), flags: Flags = NO_FLAGS
) -> Kernel:
    """Kernel ``k`` of a program compiled with ``flags``."""
    with consts.plain_char(not flags.unsigned_char):  # what its char constants mean
        return _gen_kernel(c, k, avoid, flags)


def _gen_kernel(c: Chooser, k: str, avoid: frozenset, flags: Flags) -> Kernel:
    model = "acc" if c.int(0, 3) != 3 else "omp"
    arrays: dict[str, str] = {}
    n_arrays = c.int(1, 4)
    for j in range(n_arrays):
        arrays[f"{k}_a{j}"] = c.pick(_ELEM_TYPES) if j else "double"
    body_arrays = list(arrays)
    ptrs: dict[str, tuple[str, bool]] = {}
    ptr_args: dict[str, str] = {}
    n_ptrs = c.int(0, 3)
    for j in range(n_ptrs):
        restrict = c.chance(35)
        name = f"p{j}"
        if restrict:
            # a restrict pointer gets an array of its own that the body never names
            t = c.pick(["double", "float", "double"])
            own = f"{k}_r{j}"
            arrays[own] = t
            ptrs[name] = (t, True)
            ptr_args[name] = own
            continue
        target = c.pick(body_arrays)
        t = arrays[target]
        ptrs[name] = (t, False)
        off = c.pick([0, 1, 0, 2, 4, 7])
        ptr_args[name] = f"{target} + {off}" if off else target
    struct = c.chance(20)
    sptr = f"{k}_st + {c.int(0, 8)}" if struct and c.chance(50) else ""
    matrix = c.chance(15)
    fm = forms.draw(c, k, flags)
    scalars = {
        "n": E("n", "int", N),
        "k0": E("k0", "int", 3),
        "s0": E("s0", "double"),
        "s1": E("s1", "float"),
        "s2": E("s2", "unsigned", 1 << 32),
    }
    env = Env(
        k,
        {a: arrays[a] for a in body_arrays},
        ptrs,
        scalars,
        struct,
        model,
        matrix=matrix,
        sptr=bool(sptr),
        avoid=avoid,
        flags=flags,
        forms=fm,
    )
    stmts = gen_stmts(c, env, c.int(1, 8), 2, "")
    inside, k0 = c.chance(50), c.int(0, 3)
    # helpers the body calls: drawn last, so a kernel without them is as it was
    cal = callees.draw(c, k, env.arrays)
    if cal is not None:
        for call in cal.calls:
            stmts.insert(c.int(0, len(stmts)), call)
    body = [line for stmt in stmts for line in stmt]
    return Kernel(
        k,
        model,
        arrays,
        body_arrays,
        ptrs,
        ptr_args,
        struct,
        body,
        env.uses_sum,
        env.uses_g,
        env.uses_call,
        inside,
        k0,
        env.uses_probe,
        matrix,
        sptr,
        dict(env.privates),
        env.uses_edges,
        flags,
        fm,
        cal,
    )


PRELUDE = """#include <stdio.h>
#include <math.h>
#include <limits.h>
#include <float.h>

#define AT(a, j) (a)[(j)]
typedef double real;
#define SET1(a, j, v) (a)[(j)] = (v)
#define SET2(a, j, v) (a)[(j)] = (v); (a)[(j) + 1] = (v)

static unsigned int lcg_state = 12345u;
static unsigned int lcg_u(void)
{
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state ^ (lcg_state >> 13);
}
static double lcg_d(void)
{
  return (double)(lcg_u() >> 8) * (4.0 / 16777216.0) - 2.0;
}
static unsigned long lcg_w(void)
{
  unsigned long hi = lcg_u();
  return hi << 32 | lcg_u();
}
static const int edge_int[8] = { INT_MIN, INT_MIN + 1, -2, -1, 0, 1, INT_MAX - 1, INT_MAX };
static const long edge_long[8] = { LONG_MIN, LONG_MIN + 1, (long)INT_MIN - 1, -1, 0,
                                   (long)UINT_MAX + 1, LONG_MAX - 1, LONG_MAX };
static const unsigned edge_unsigned[8] = { 0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0x80000001u,
                                           UINT_MAX - 1u, UINT_MAX };
"""


def render(kernels: list[Kernel]) -> str:
    """A complete program running every kernel and printing all they leave in memory."""
    models = {kn.model for kn in kernels}
    header = f"// model: {'omp' if models == {'omp'} else 'acc'}\n"
    if models == {"acc", "omp"}:
        raise ValueError("one program, one model")
    flags = {kn.flags for kn in kernels}
    if len(flags) > 1:
        raise ValueError("one program, one set of flags")
    cflags = kernels[0].flags.cflags() if kernels else ()
    if cflags:
        header += f"// flags: {' '.join(cflags)}\n"
    parts = [header, "// generated by tests/fuzz/gen.py\n", PRELUDE]
    for kn in kernels:
        parts.append(kn.functions() + "\n")
    parts.append("int main(void)\n{\n")
    for kn in kernels:
        parts.append(f"  {kn.k}_run();\n")
    parts.append("  return 0;\n}\n")
    return "".join(parts)


def program_from_seeds(
    seeds: list[int],
    model: str | None = None,
    avoid: frozenset = frozenset(),
    flags: Flags = NO_FLAGS,
) -> tuple[str, list[Kernel]]:
    kernels = []
    for n, s in enumerate(seeds):
        kn = gen_kernel(RandomChooser(s), f"k{n}", avoid, flags)
        if model is not None:
            kn.model = model
        kernels.append(kn)
    return render(kernels), kernels


# shapes of open accsat bugs, not generated with --avoid-known-bugs or by the CI test, so
# that a known bug does not hide others: e.g. "probe" (calls with effects whose result is
# unused or in the guarded operand of an if condition's && / ||) and "leafcopy" (a variable
# assigned a bare constant or variable, then an if, then a use) were, until fixed in e8a880e.
# "zeroproduct": floating zero constants (0.0, -0.0, 0x0p0, ...), which in a product with two
# other constants exhausted saturation's memory (regressions/saturation_memory_zero_product_chain.c)
# until fixed. "compound" (a compound assignment computed in another type than its target's,
# typed with the operation's type: regressions/typecheck_compound_assignment_type.c) and
# "wrapvindex" (an identity subscript a[i * 1] under -fwrapv another place than a[i] to the
# SSA: regressions/reread_wrapv_identity_subscript.c) were, until fixed; forms.py still
# writes their avoided shapes when a name is given here. So was "wrapvoffset", a wrapping
# subscript with constants to combine, a[(i + 5) - 3] under -fwrapv, another place than
# a[i + 2] to the SSA but printed as it (regressions/reread_wrapv_offset_subscript.c).
# None is open now.
KNOWN_BUGS: frozenset[str] = frozenset()


def kernel_strategy(avoid: frozenset = KNOWN_BUGS):
    """A hypothesis strategy of single generated kernels."""
    from hypothesis import strategies as st

    @st.composite
    def kernels(draw):
        return gen_kernel(HypothesisChooser(draw), "k0", avoid)

    return kernels()


def program_strategy(max_kernels: int = 6, avoid: frozenset = KNOWN_BUGS):
    """A hypothesis strategy of programs (their text) of 1..max_kernels generated kernels."""
    from hypothesis import strategies as st

    @st.composite
    def programs(draw):
        c = HypothesisChooser(draw)
        count = c.int(1, max_kernels)
        flags = forms.draw_flags(c)
        kernels = [gen_kernel(c, f"k{j}", avoid, flags) for j in range(count)]
        for kn in kernels[1:]:
            kn.model = kernels[0].model
        return render(kernels)

    return programs()
