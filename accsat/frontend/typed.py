"""The typed kernel form: C expressions with every name resolved and every type decided.

The one home of C's typing rules for expressions (C11 6.3 and 6.5, with what gcc and
clang add: enum and bit-field types, ``frontend/ctypes.py``): the SSA builder, the
promotion pass, the re-read check and ``accsat advise`` all lower these trees and
never type a pycparser expression themselves. Implicit conversions are explicit
(``Convert`` with ``implicit``), arrays keep their type where C keeps it (an lvalue:
the SSA decays one where its value is read), and compound assignments and ``++``/``--``
are lowered to ``Assign`` with the target's value before it as ``Current``.

Each node keeps the parser node it comes from (``node``: for the user's spelling of
constants, the sites ``advise`` reports, lines of errors); an implicit conversion keeps
its operand's. The interpreter of ``verify/`` types C on its own on purpose: it is
the independent evaluator the rewrites are validated against (with the compiler's own
type check, ``verify/typecheck.py``, guarding what both assume).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from pycparser import c_ast, c_generator

from ..errors import Opaque, Unsupported
from ..ops import COMPARISONS, FROM_C_BINARY, INT_ONLY, OPS
from . import cint
from . import ctypes as ct
from .literals import parse_char, parse_float, parse_int

if TYPE_CHECKING:  # symbols.py evaluates constant expressions with this module's trees
    from .symbols import Scope, Symbol, TypeReader

_BINOP = {c: op for c, op in FROM_C_BINARY.items() if OPS[op].kind != "logic"}
_GEN = c_generator.CGenerator()
INCDEC = ("++", "--", "p++", "p--")

# pycparser nodes whose value accsat does not model: the statement is kept as written
_OPAQUE = frozenset(("CompoundLiteral",))
# what a pycparser node the typer does not take is, in C's words (refusal reasons)
_WHAT = {
    "Compound": "a statement expression ({ ... })",
    "CompoundLiteral": "a compound literal",
    "InitList": "an initialiser list",
    "Typename": "a type name where a value is expected",
    "NamedInitializer": "a designated initialiser",
    "StaticAssert": "a static assertion",
}


@dataclass(eq=False)
class TExpr:
    """A typed expression: ``ctype`` is its type as C gives it (an lvalue's declared type;
    an array is not decayed), ``node`` the parser node it comes from."""

    node: c_ast.Node | None
    ctype: ct.CType


@dataclass(eq=False)
class Const(TExpr):
    text: str  # the literal as written (an enum constant's name, a sizeof's text)
    value: int | None = None  # an integer constant's value, where the typer knows it


@dataclass(eq=False)
class Name(TExpr):
    sym: Symbol


@dataclass(eq=False)
class Index(TExpr):
    base: TExpr  # an array lvalue or a pointer value
    index: TExpr


@dataclass(eq=False)
class Member(TExpr):
    base: TExpr  # a struct lvalue (``.``) or a pointer to one (``->``)
    name: str
    arrow: bool


@dataclass(eq=False)
class Deref(TExpr):
    pointer: TExpr  # as written: ``*(p + k)`` keeps the sum (the SSA indexes through it)


@dataclass(eq=False)
class AddressOf(TExpr):
    target: TExpr


@dataclass(eq=False)
class Unary(TExpr):
    op: str  # "Neg" | "BitNot" | "Not" (ops.py names)
    operand: TExpr


@dataclass(eq=False)
class Binary(TExpr):
    op: str  # an arithmetic or comparison op of ops.py, on operands of one type
    left: TExpr
    right: TExpr


@dataclass(eq=False)
class PointerArith(TExpr):
    op: str  # "PtrAdd" (pointer, element count) | "PtrDiff" (two pointers)
    left: TExpr
    right: TExpr  # a subtraction's count: negated (a ``Neg`` made here, ``node`` None)
    swapped: bool = False  # written the other way round (``k + p``): evaluated so


@dataclass(eq=False)
class Logical(TExpr):
    op: str  # "And" | "Or"
    left: TExpr
    right: TExpr  # evaluated only where ``left`` says


@dataclass(eq=False)
class Conditional(TExpr):
    cond: TExpr
    then: TExpr
    orelse: TExpr


@dataclass(eq=False)
class Convert(TExpr):
    operand: TExpr
    implicit: bool  # a conversion C performs (True) or a cast the user wrote


@dataclass(eq=False)
class Call(TExpr):
    name: str
    ftype: ct.Func
    args: tuple[TExpr, ...]  # each converted to its parameter (or promoted)


@dataclass(eq=False)
class Assign(TExpr):
    """``target = value``; a compound assignment or ``++``/``--`` reads the target's value
    before it through ``Current`` inside ``value``; ``rhs``: the right operand as written,
    evaluated before that read (C's order, as the SSA lowers it); ``post``: the value of
    the expression is the target's before (``x++``)."""

    target: TExpr
    value: TExpr
    rhs: TExpr | None = None
    post: bool = False


@dataclass(eq=False)
class Current(TExpr):
    """The value the target of the enclosing ``Assign`` holds before it."""


@dataclass(eq=False)
class Sequence(TExpr):
    items: tuple[TExpr, ...]


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # (dataclasses.fields: 7 % of SSA building)


def children(e: TExpr) -> Iterator[TExpr]:
    """The typed expressions directly inside ``e`` (a ``Call``'s arguments included)."""
    names = _FIELD_NAMES.get(type(e))
    if names is None:
        names = _FIELD_NAMES[type(e)] = tuple(f.name for f in fields(e))
    for name in names:
        value = getattr(e, name)
        if isinstance(value, TExpr):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, TExpr))


def walk(e: TExpr) -> Iterator[TExpr]:
    """``e`` and every expression below it, in pre-order."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


def is_lvalue(e: TExpr) -> bool:
    return isinstance(e, (Name, Index, Member, Deref))


class Typer:
    """Types pycparser expressions in a scope: ``expr(node, scope)``."""

    def __init__(self, types: TypeReader):
        self.types = types

    # -- entry point ----------------------------------------------------------------------
    def expr(self, node: c_ast.Node, scope: Scope) -> TExpr:
        method = getattr(self, "t_" + type(node).__name__, None)
        if method is None:
            kind = type(node).__name__
            refusal = Opaque if kind in _OPAQUE else Unsupported
            raise refusal(_WHAT.get(kind, "an expression accsat does not read"))
        e = method(node, scope)
        why = ct.unmodelled(e.ctype)
        if why and not isinstance(e, Name):  # a name may still have its address taken
            raise Unsupported(why)
        return e

    # -- leaves ---------------------------------------------------------------------------
    def t_Constant(self, node: c_ast.Constant, scope: Scope) -> TExpr:
        text = node.value
        try:
            if node.type == "char":
                value, t = parse_char(text)
                return Const(node, t, text, cint.convert(value, t))
            if node.type == "string":
                return Const(node, ct.Pointer(ct.Scalar("char")), text)
            if node.type in ("float", "double", "long double"):
                return Const(node, parse_float(text)[1], text)
            value, t = parse_int(text)
            return Const(node, t, text, value)
        except ValueError as exc:
            raise Unsupported(str(exc)) from None

    def t_ID(self, node: c_ast.ID, scope: Scope) -> TExpr:
        sym = scope.lookup(node.name)
        if sym is None:
            raise Unsupported(f"unknown name '{node.name}'")
        if sym.kind == "enum":
            return Const(node, sym.type, node.name, sym.value)
        if sym.kind == "func":
            raise Unsupported(f"function '{node.name}' used as a value")
        return Name(node, sym.type, sym)

    def t_ArrayRef(self, node: c_ast.ArrayRef, scope: Scope) -> TExpr:
        base = self.expr(node.name, scope)
        index = self.expr(node.subscript, scope)
        if not ct.is_integer(index.ctype) and ct.is_pointerish(index.ctype):
            base, index = index, base  # i[a] is a[i]
        if not ct.is_integer(index.ctype):
            raise Unsupported("array subscript is not an integer")
        elem = ct.element(base.ctype)
        if elem is None:
            raise Unsupported("subscript of something that is not an array or pointer")
        return Index(node, elem, base, index)

    def t_StructRef(self, node: c_ast.StructRef, scope: Scope) -> TExpr:
        base = self.expr(node.name, scope)
        name = node.field.name
        arrow = node.type == "->"
        st = base.ctype
        if arrow:
            if isinstance(st, ct.Pointer) and isinstance(st.to, ct.Unmodelled):
                raise Unsupported(st.to.why)
            if not isinstance(st, ct.Pointer) or not isinstance(st.to, ct.Struct):
                raise Unsupported("'->' on something that is not a pointer to a struct")
            st = st.to
        elif isinstance(st, ct.Unmodelled):
            raise Unsupported(st.why)
        elif not isinstance(st, ct.Struct):
            raise Unsupported("member access on something that is not a struct")
        fld = self.field(st, name)
        t = fld.type
        if fld.width is not None:  # a bit-field's value: the type it promotes to, as gcc has it
            promoted = ct.bitfield_type(fld.type, fld.width)
            if promoted is None:
                raise Unsupported(
                    f"bit-field '{name}' of {fld.width} bits of type {fld.type}: gcc "
                    "computes with a type of its own there"
                )
            t = promoted
        return Member(node, t, base, name, arrow)

    def field(self, st: ct.Struct, name: str) -> ct.Field:
        if st.fields is None:
            st = self.types.tags.get(st.tag, st)
        fld = st.field(name)
        if fld is None:
            raise Unsupported(f"unknown struct member '{name}'")
        return fld

    def t_Cast(self, node: c_ast.Cast, scope: Scope) -> TExpr:
        target = self.types.read(node.to_type, scope)
        value = self.expr(node.expr, scope)
        if isinstance(target, ct.Void):
            return value  # (void)x: evaluated for its effects
        return convert(value, target, implicit=False, node=node)

    def t_ExprList(self, node: c_ast.ExprList, scope: Scope) -> TExpr:
        items = tuple(self.expr(e, scope) for e in node.exprs)
        if not items:
            raise Unsupported("empty expression list")
        return Sequence(node, items[-1].ctype, items)

    # -- operators --------------------------------------------------------------------------
    def t_UnaryOp(self, node: c_ast.UnaryOp, scope: Scope) -> TExpr:
        op = node.op
        if op in INCDEC:
            target = self.expr(node.expr, scope)
            one = Const(None, ct.INT, "1")
            value = binary("+" if "+" in op else "-", Current(None, target.ctype), one, None)
            return assign(target, value, node, post=op.startswith("p"))
        if op in ("sizeof", "_Alignof"):
            size = None
            if isinstance(node.expr, c_ast.Typename):
                t = self.types.read(node.expr, scope)
                size = ct.sizeof(t) if op == "sizeof" else ct.alignof(t)
            return Const(node, ct.SIZE_T, _GEN.visit(node), size)
        if op == "*":
            pointer = self.expr(node.expr, scope)
            to = ct.element(pointer.ctype)
            if to is None:
                raise Unsupported("'*' on something that is not a pointer")
            return Deref(node, to, pointer)
        if op == "&":
            target = self.expr(node.expr, scope)
            return AddressOf(node, ct.Pointer(target.ctype), target)
        value = self.expr(node.expr, scope)
        if op == "!":
            return Unary(node, ct.INT, "Not", value)
        if not ct.is_arithmetic(value.ctype):
            raise Unsupported(f"unary '{op}' on {value.ctype}")
        promoted = ct.promote(value.ctype)
        value = convert(value, promoted)
        if op == "+":
            return value
        if op == "-":
            return Unary(node, promoted, "Neg", value)
        if op == "~":
            return Unary(node, promoted, "BitNot", value)
        raise Unsupported(f"unary operator '{op}'")

    def t_BinaryOp(self, node: c_ast.BinaryOp, scope: Scope) -> TExpr:
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        if node.op in ("&&", "||"):
            return Logical(node, ct.INT, "And" if node.op == "&&" else "Or", left, right)
        return binary(node.op, left, right, node)

    def t_TernaryOp(self, node: c_ast.TernaryOp, scope: Scope) -> TExpr:
        cond = self.expr(node.cond, scope)
        a, b = self.expr(node.iftrue, scope), self.expr(node.iffalse, scope)
        ta, tb = a.ctype, b.ctype
        if ct.is_arithmetic(ta) and ct.is_arithmetic(tb):
            t = ct.usual_arithmetic(ta, tb)
            a, b = convert(a, t), convert(b, t)
        elif ta == tb:
            t = ta
        else:
            raise Unsupported(f"conditional expression of types {ta} and {tb}")
        return Conditional(node, t, cond, a, b)

    # -- side effects ---------------------------------------------------------------------
    def t_Assignment(self, node: c_ast.Assignment, scope: Scope) -> TExpr:
        target = self.expr(node.lvalue, scope)
        rhs = self.expr(node.rvalue, scope)
        if node.op == "=":
            return assign(target, rhs, node)
        # the operation has no node of its own: the assignment's is the assignment's
        # (its type is the target's, which the compiler's type check asserts)
        value = binary(node.op[:-1], Current(None, target.ctype), rhs, None)
        return assign(target, value, node, rhs=rhs)

    def callee(self, node: c_ast.FuncCall, scope: Scope) -> tuple[str, ct.Func]:
        """The name and type of the function a call calls (by name only)."""
        if not isinstance(node.name, c_ast.ID):
            raise Unsupported("call through an expression")
        name = node.name.name
        sym = scope.lookup(name)
        if sym is not None and sym.kind != "func":
            raise Unsupported(f"call through the function pointer '{name}'")
        if sym is None or not isinstance(sym.type, ct.Func):
            raise Unsupported(f"call of undeclared function '{name}'")
        why = next(filter(None, map(ct.unmodelled, (sym.type.ret, *(sym.type.params or ())))), "")
        if why:
            raise Unsupported(f"call of '{name}', declared with {why}")
        return name, sym.type

    def t_FuncCall(self, node: c_ast.FuncCall, scope: Scope) -> TExpr:
        name, ftype = self.callee(node, scope)
        exprs = node.args.exprs if node.args is not None else []
        args = [self.expr(e, scope) for e in exprs]
        params = ftype.params or ()
        out = []
        for i, a in enumerate(args):
            if ftype.params is not None and i < len(params):
                out.append(convert(a, params[i]))
            else:  # the default argument promotions
                t = a.ctype
                promoted = ct.DOUBLE if t == ct.FLOAT else ct.promote(t) if ct.is_integer(t) else t
                out.append(convert(a, ct.decay(promoted)))
        return Call(node, ftype.ret, name, ftype, tuple(out))


def convert(
    e: TExpr, target: ct.CType, implicit: bool = True, node: c_ast.Node | None = None
) -> TExpr:
    """``e`` converted to ``target`` as assignment or arithmetic does (``implicit``), or
    as a cast the user wrote does; ``e`` itself where nothing changes."""
    source = e.ctype
    if implicit:
        if source == target:
            return e
        if (
            isinstance(target, ct.Pointer)
            and isinstance(source, ct.Pointer)
            and source.to == target.to
        ):
            return e  # only the restrict qualifier differs
    if isinstance(target, ct.Unmodelled):
        raise Unsupported(target.why)
    if isinstance(target, ct.Struct) or isinstance(source, ct.Struct):
        whole = target if isinstance(target, ct.Struct) else source
        raise Opaque(f"a value of type {whole}")
    if isinstance(target, (ct.Void, ct.Array, ct.Func)):
        raise Unsupported(f"conversion to {target}")
    if isinstance(source, (ct.Void, ct.Func, ct.Unmodelled)):
        raise Unsupported(f"conversion from {source}")
    return Convert(node if not implicit else e.node, target, e, implicit)


def binary(cop: str, a: TExpr, b: TExpr, node: c_ast.Node | None) -> TExpr:
    """``a cop b`` for a C binary operator that is not ``&&``/``||``: C's conversions."""
    op = _BINOP.get(cop)
    if op is None:
        raise Unsupported(f"operator '{cop}'")
    ta, tb = a.ctype, b.ctype
    if op in ("Add", "Sub") and (ct.is_pointerish(ta) or ct.is_pointerish(tb)):
        return _pointer_arith(op, a, b, node)
    if op in COMPARISONS and ct.is_pointerish(ta) and ct.is_pointerish(tb):
        return Binary(node, ct.INT, op, a, b)
    if not (ct.is_arithmetic(ta) and ct.is_arithmetic(tb)):
        raise Unsupported(f"operator '{cop}' on {ta} and {tb}")
    if op in INT_ONLY and not (ct.is_integer(ta) and ct.is_integer(tb)):
        raise Unsupported(f"operator '{cop}' on {ta} and {tb}")
    if op in ("Shl", "Shr"):
        t = ct.promote(ta)
        return Binary(node, t, op, convert(a, t), convert(b, ct.promote(tb)))
    t = ct.usual_arithmetic(ta, tb)
    return Binary(node, ct.INT if op in COMPARISONS else t, op, convert(a, t), convert(b, t))


def _pointer_arith(op: str, a: TExpr, b: TExpr, node: c_ast.Node | None) -> TExpr:
    swapped = op == "Add" and ct.is_integer(a.ctype)
    if swapped:
        a, b = b, a
    ta, tb = a.ctype, b.ctype
    if ct.is_pointerish(ta) and ct.is_integer(tb):
        count = convert(b, ct.promote(tb))
        if op == "Sub":
            count = Unary(None, count.ctype, "Neg", count)
        return PointerArith(node, ct.decay(ta), "PtrAdd", a, count, swapped)
    if op == "Sub" and ct.is_pointerish(ta) and ct.is_pointerish(tb):
        return PointerArith(node, ct.PTRDIFF_T, "PtrDiff", a, b)
    raise Unsupported("pointer arithmetic")


def assign(
    target: TExpr,
    value: TExpr,
    node: c_ast.Node | None,
    rhs: TExpr | None = None,
    post: bool = False,
) -> Assign:
    """``target = value`` with ``value`` converted to the target's type."""
    if not is_lvalue(target):
        raise Unsupported("assignment to something that is not a variable or memory")
    t = target.ctype
    if isinstance(t, ct.Unmodelled):
        raise Unsupported(t.why)
    if isinstance(t, ct.Struct):
        raise Opaque(f"a value of type {t} assigned")
    if not (ct.is_arithmetic(t) or isinstance(t, ct.Pointer)):
        raise Unsupported(f"{t} assigned as a whole value")
    return Assign(node, t, target, convert(value, t), rhs, post)


def int_value(e: TExpr) -> int | None:
    """The value of an integer constant expression (C11 6.6) as the compiler computes it
    (``cint``: in each operation's type); None when ``e`` is none or C leaves it
    undefined."""
    if not ct.is_integer(e.ctype):
        return None
    t = e.ctype
    assert isinstance(t, ct.Scalar)
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Convert):
        if isinstance(e.operand, Const) and ct.is_float(e.operand.ctype):
            try:  # (int)2.5: a floating constant's value, truncated
                inner: int | None = int(parse_float(e.operand.text)[0])
            except (ValueError, OverflowError):
                return None
            return inner if inner is not None and cint.fits(inner, t) else None
        inner = int_value(e.operand)
        return None if inner is None else cint.convert(inner, t)
    if isinstance(e, Unary):
        inner = int_value(e.operand)
        if inner is None:
            return None
        return int(not inner) if e.op == "Not" else cint.unary(e.op, inner, t)
    if isinstance(e, Binary):
        a, b = int_value(e.left), int_value(e.right)
        if a is None or b is None:
            return None
        if e.op in COMPARISONS:
            return int(_COMPARE[e.op](a, b))
        operand = e.left.ctype
        assert isinstance(operand, ct.Scalar)
        return cint.binary(e.op, a, b, operand if e.op in ("Shl", "Shr") else t)
    if isinstance(e, Logical):
        a = int_value(e.left)
        if a is None or (e.op == "And" and not a) or (e.op == "Or" and a):
            return None if a is None else int(bool(a))
        b = int_value(e.right)
        return None if b is None else int(bool(b))
    if isinstance(e, Conditional):
        c = int_value(e.cond)
        return None if c is None else int_value(e.then if c else e.orelse)
    return None


_COMPARE = {
    "Lt": lambda a, b: a < b,
    "Le": lambda a, b: a <= b,
    "Gt": lambda a, b: a > b,
    "Ge": lambda a, b: a >= b,
    "Eq": lambda a, b: a == b,
    "Ne": lambda a, b: a != b,
}


def struct_value(e: TExpr) -> str:
    """Why ``e`` computes with a struct value accsat does not model (a call that takes or
    returns one, a conditional between two, a member of one that is in no memory); ""
    when it does not. The SSA keeps such a statement as written (errors.Opaque)."""
    for n in walk(e):
        if isinstance(n, Call):
            if isinstance(n.ctype, ct.Struct):
                return f"a call of '{n.name}', which returns a {n.ctype}"
            if any(isinstance(a.ctype, ct.Struct) for a in n.args):
                return f"a {next(a.ctype for a in n.args if isinstance(a.ctype, ct.Struct))} passed by value to '{n.name}'"
        elif isinstance(n, Conditional) and isinstance(n.ctype, ct.Struct):
            return f"a conditional expression of type {n.ctype}"
        elif isinstance(n, Member) and not n.arrow and not is_lvalue(n.base):
            return f"a member of a {n.base.ctype} value"
    return ""
