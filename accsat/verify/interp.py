"""An interpreter for the C of kernel bodies, over the pycparser AST.

It does not use accsat's SSA, e-graph or printer: it reads the original and the
rewritten body the same way, as C. ``compile_body`` turns a body into nested
Python closures once (types resolved, conversions made explicit, C's rules for
each operator chosen by type); ``execute`` runs them on one ``TrialState``.

Names resolve through the kernel's scope: function locals and parameters of
scalar or pointer type are variables (registers: nothing else can reach them
unless their address is taken); globals, statics and aggregates are memory. A
struct passed to or returned by a function of the file is copied, as C passes
it by value (``struct_copy``; memory.py names the copies).
Calls to the pure math functions are computed; any other call is opaque (see
``memory.Run.call``). As accsat does, calls with effects in a full expression
run before the rest of it (C leaves that order open), except those inside the
operands of ``&&``, ``||`` and ``?:`` that are evaluated conditionally.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from pycparser import c_ast

from ..frontend import ctypes as ct
from ..frontend.conditional import marker
from ..frontend.literals import parse_char, parse_float, parse_int
from ..frontend.symbols import FileSymbols, Scope
from . import mathlib
from .cvalues import (
    F32,
    F80,
    UB,
    InvalidC,
    NotModelled,
    Unmodelled,
    binary,
    compose,
    converter,
    desc,
    is_scalar,
    truth,
    type_key,
    unary,
)
from .memory import DESCS, UNINIT, Run
from .states import TrialState

BRK, CNT = 1, 2
RETURNED = "R:returned"  # the struct a function unit returns (memory.py)
DEFAULT_STEP_LIMIT = 10_000
_CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
_INCDEC = ("++", "--", "p++", "p--")


@dataclass
class Program:
    """A compiled body."""

    body: Callable
    nslots: int
    outer_vars: dict[str, tuple[int, ct.CType]]  # register variables declared outside the body
    outer_objects: dict[str, tuple[str, ct.CType, int | None]]  # name: (object, type, size)
    restrict: frozenset[str] = frozenset()  # restrict-qualified outer pointers
    calls: frozenset[str] = frozenset()  # opaque functions it calls
    uses_float: bool = False  # computes in float somewhere


@dataclass
class _LV:
    kind: str  # "slot" | "mem"
    t: ct.CType
    slot: int = -1
    name: str = ""
    addr: Callable | None = None


@dataclass
class _Compiler:
    scope: Scope
    symbols: FileSymbols
    defined: frozenset[str]
    address_taken: frozenset[str]
    nslots: int = 0
    outer_vars: dict = field(default_factory=dict)
    outer_objects: dict = field(default_factory=dict)
    restrict: set = field(default_factory=set)
    calls: set = field(default_factory=set)
    blocks: list = field(default_factory=list)
    eager: set = field(default_factory=set)
    uses_float: bool = False
    _outer: dict = field(default_factory=dict)
    returns: ct.CType | None = None  # a function's return type (None: a loop body)
    # the functions of the file this body calls, compiled once (shared with theirs)
    callees: dict = field(default_factory=dict)
    # a function the interpreter calls (Callee): its struct parameters are the copies
    # its caller made, their addresses in slots; not a body a trial state starts
    frame: bool = False

    def __post_init__(self) -> None:
        self.type_scope = self.scope.child()

    # -- names -----------------------------------------------------------------------------------
    def new_slot(self) -> int:
        self.nslots += 1
        return self.nslots - 1

    def lookup(self, name: str) -> tuple:
        for block in reversed(self.blocks):
            if name in block:
                return block[name]
        b = self._outer.get(name)
        if b is None:
            b = self._outer[name] = self._bind_outer(name)
        return b

    def _bind_outer(self, name: str) -> tuple:
        sym = self.scope.lookup(name)
        if sym is None:
            raise InvalidC(f"'{name}' is not declared here")
        t = sym.type
        if sym.kind == "enum":  # an int, or the enum's type beyond int's range (as gcc)
            return ("enum", sym.value, sym.type)
        if sym.kind == "func" or isinstance(t, ct.Func):
            return ("func", name, t)
        if isinstance(t, ct.Void):
            raise NotModelled(f"'{name}' has a type the frontend does not know")
        if self.frame and sym.kind == "param" and isinstance(t, ct.Struct):
            slot = self.new_slot()  # the address of the caller's copy (call)
            self.outer_vars[name] = (slot, t)
            return ("obj", lambda st: st.slots[slot], t)
        if sym.kind in ("local", "param") and is_scalar(t) and name not in self.address_taken:
            slot = self.new_slot()
            self.outer_vars[name] = (slot, t)
            if isinstance(t, ct.Pointer) and t.restrict:
                self.restrict.add(name)
            return ("slot", slot, t, name)
        obj = ("g:" if sym.kind in ("global", "static") else "o:") + name
        self.outer_objects[name] = (obj, t, ct.sizeof(t))
        addr = (obj, 0)
        return ("obj", lambda st: addr, t)

    def read_type(self, node: c_ast.Node) -> ct.CType:
        try:
            return self.symbols.types.read(node, self.type_scope)
        except Exception as exc:  # Unsupported from the type reader
            raise NotModelled(f"type: {exc}") from None

    # -- statements ----------------------------------------------------------------------------
    def body(self, node: c_ast.Node) -> Callable:
        self.blocks.append({})
        fn = self.stmt(node)
        self.blocks.pop()
        return fn or (lambda st: None)

    def stmt(self, node: c_ast.Node) -> Callable | None:
        if marker(node) is not None:  # where a conditional group begins or ends: nothing
            return None
        method = getattr(self, "st_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        if isinstance(
            node,
            (
                c_ast.Goto,
                c_ast.Label,
                c_ast.Switch,
                c_ast.Case,
                c_ast.Default,
                c_ast.Typedef,
            ),
        ):
            raise NotModelled(f"'{type(node).__name__.lower()}' in the body")
        fn = self.full(node)

        def expr_stmt(st):
            fn(st)

        return expr_stmt

    def st_Compound(self, node: c_ast.Compound) -> Callable | None:
        self.blocks.append({})
        fns = [f for f in (self.stmt(s) for s in node.block_items or []) if f is not None]
        self.blocks.pop()
        return _sequence(fns)

    def st_EmptyStatement(self, node) -> None:
        return None

    def st_Pragma(self, node) -> None:
        return None

    def st_Break(self, node) -> Callable:
        return lambda st: BRK

    def st_Return(self, node: c_ast.Return) -> Callable:
        """``return e;`` of a function the interpreter runs (``returns``: its type)."""
        if self.returns is None:
            raise NotModelled("'return' in the body")
        if node.expr is None or isinstance(self.returns, ct.Void):
            if node.expr is not None:
                f = self.full(node.expr)
                return lambda st: (f(st), Returned(None))[1]
            return lambda st: Returned(None)
        if isinstance(self.returns, ct.Struct):
            return self.return_struct(node.expr, self.returns)
        t, f = self.full_rv(node.expr)
        conv = compose(f, converter(t, self.returns))
        return lambda st: Returned(conv(st))

    def return_struct(self, expr: c_ast.Node, t: ct.Struct) -> Callable:
        """``return e;`` of a struct: a copy of ``e`` the caller reads (its address; a
        body's own locals end with it), or, for the function a trial runs, the copy its
        output (the object ``R:returned``, compared as memory is)."""
        if self.frame:
            copy = self.struct_copy(expr, t, "returned")
            return lambda st: Returned(copy(st))
        size, fill = ct.sizeof(t), _copier(t, self.struct_value(expr, t, "returned")[1])

        def returned(st):
            st.sizes[RETURNED] = size
            fill(st, (RETURNED, 0))
            return Returned(None)

        return returned

    def st_Continue(self, node) -> Callable:
        return lambda st: CNT

    def st_DeclList(self, node: c_ast.DeclList) -> Callable | None:
        return _sequence([f for f in (self.st_Decl(d) for d in node.decls) if f is not None])

    def st_Decl(self, node: c_ast.Decl) -> Callable | None:
        if node.name is None:
            raise NotModelled("type declaration in the body")
        if isinstance(node.type, c_ast.FuncDecl):
            self.blocks[-1][node.name] = ("func", node.name, self.read_type(node.type))
            return None
        storage = set(node.storage or ())
        if storage & {"static", "extern", "typedef"}:
            raise NotModelled(f"'{' '.join(storage)}' declaration in the body")
        sym = self.symbols.declare(node, self.type_scope, "local")
        if sym is None:
            raise NotModelled("declaration")
        t = sym.type
        name = node.name
        if is_scalar(t) and name not in self.address_taken:
            slot = self.new_slot()
            if node.init is None:
                self.blocks[-1][name] = ("slot", slot, t, name)

                def uninit(st):
                    st.slots[slot] = UNINIT

                return uninit
            if isinstance(node.init, c_ast.InitList):
                raise NotModelled("initialiser list")
            self.blocks[-1][name] = ("slot", slot, t, name)  # in scope in its own initialiser
            ti, fi = self.full_rv(node.init)
            fv = compose(fi, converter(ti, t))

            def init(st):
                st.slots[slot] = UNINIT
                st.slots[slot] = fv(st)

            return init
        if is_scalar(t) or isinstance(t, (ct.Array, ct.Struct)):
            # an aggregate, or a scalar whose address is taken: an object in memory
            size = ct.sizeof(t)
            if size is None:
                raise NotModelled(f"'{name}' has a variable or unknown size")
            fill = (
                self.aggregate_init(t, node.init)
                if node.init is not None and not is_scalar(t)
                else None
            )
            slot = self.new_slot()
            self.blocks[-1][name] = ("obj", lambda st: st.slots[slot], t)

            def local_object(st):
                st.local_count += 1
                obj = f"L:{name}:{st.local_count}"
                st.sizes[obj] = size
                st.slots[slot] = (obj, 0)

            if node.init is None:
                return local_object
            if fill is not None:

                def aggregate(st):
                    local_object(st)
                    fill(st, st.slots[slot])

                return aggregate
            ti, fi = self.full_rv(node.init)
            fv, tk = compose(fi, converter(ti, t)), type_key(t)
            _register(t)

            def initialised(st):
                local_object(st)
                st.store(st.slots[slot], tk, size, fv(st))

            return initialised
        raise NotModelled(f"declaration of '{name}' of type {t}")

    def aggregate_init(self, t: ct.CType, init: c_ast.Node) -> Callable:
        """``fill(st, address)``: what an initialiser (a list, or a struct to copy) stores
        into a new array or struct: every scalar, the ones it leaves out zero."""
        if not isinstance(init, c_ast.InitList):
            if not isinstance(t, ct.Struct):
                raise NotModelled("an array initialised by something that is not a list")
            return _copier(t, self.struct_value(init, t, "initialiser")[1])
        given: dict[int, tuple[ct.CType, Callable]] = {}
        _list_values(t, init, 0, given, self)
        stores = []
        for off, lt in _leaves(t, 0):
            _register(lt)
            tk, size = type_key(lt), ct.sizeof(lt) or 0
            if off in given:
                vt, vf = given[off]
                stores.append((off, tk, size, compose(vf, converter(vt, lt))))
            else:
                to = converter(ct.INT, lt)  # None: an int already
                zero = 0 if to is None else to(0)
                stores.append((off, tk, size, lambda st, z=zero: z))

        def fill(st, addr):
            values = [(off, tk, size, f(st)) for off, tk, size, f in stores]
            for off, tk, size, v in values:
                st.store((addr[0], addr[1] + off), tk, size, v)

        return fill

    def st_If(self, node: c_ast.If) -> Callable:
        tc, fc = self.full_rv(node.cond)
        cond = _truth_fn(tc, fc)
        then = self.sub(node.iftrue)
        orelse = self.sub(node.iffalse) if node.iffalse is not None else None
        if orelse is None:

            def if_(st):
                if cond(st):
                    return then(st)
                return None

            return if_

        def if_else(st):
            return then(st) if cond(st) else orelse(st)

        return if_else

    def sub(self, node) -> Callable:
        self.blocks.append({})
        fn = self.stmt(node) if node is not None else None
        self.blocks.pop()
        return fn or (lambda st: None)

    def st_For(self, node: c_ast.For) -> Callable:
        self.blocks.append({})
        init = None
        if isinstance(node.init, c_ast.DeclList):
            init = self.st_DeclList(node.init)
        elif node.init is not None:
            init = self.full(node.init)
        cond = None
        if node.cond is not None:
            tc, fc = self.full_rv(node.cond)
            cond = _truth_fn(tc, fc)
        nxt = self.full(node.next) if node.next is not None else None
        body = self.sub(node.stmt)
        self.blocks.pop()

        def for_(st):
            if init is not None:
                init(st)
            while True:
                if cond is not None and not cond(st):
                    return None
                st.step()
                r = body(st)
                if r is not None and r != CNT:
                    return None if r == BRK else r  # a return leaves every loop
                if nxt is not None:
                    nxt(st)

        return for_

    def st_While(self, node: c_ast.While) -> Callable:
        tc, fc = self.full_rv(node.cond)
        cond = _truth_fn(tc, fc)
        body = self.sub(node.stmt)

        def while_(st):
            while cond(st):
                st.step()
                r = body(st)
                if r is not None and r != CNT:
                    return None if r == BRK else r
            return None

        return while_

    def st_DoWhile(self, node: c_ast.DoWhile) -> Callable:
        tc, fc = self.full_rv(node.cond)
        cond = _truth_fn(tc, fc)
        body = self.sub(node.stmt)

        def do_while(st):
            while True:
                st.step()
                r = body(st)
                if r is not None and r != CNT:
                    return None if r == BRK else r
                if not cond(st):
                    return None

        return do_while

    # -- full expressions: calls with effects first -------------------------------------------
    def full(self, node: c_ast.Node) -> Callable:
        return self.full_rv(node, value=False)[1]

    def struct_value(
        self, node: c_ast.Node, want: ct.CType | None = None, what: str = ""
    ) -> tuple[ct.CType, Callable]:
        """Type and address of a struct value: an object in memory, or what a function of
        the file returned (its copy); ``want``: the type it must have (as ``what``)."""
        t: ct.CType
        if isinstance(node, c_ast.FuncCall):
            t, f = self.rv_FuncCall(node)
            if not isinstance(t, ct.Struct):
                raise NotModelled(f"a value of type {t} where a struct is needed")
        else:
            source = self.lv(node)
            if source.kind != "mem" or source.addr is None:
                raise NotModelled("a struct value that is not one in memory")
            t, f = source.t, source.addr
        if want is not None and t != want:
            raise NotModelled(f"a struct of type {t} where {what} needs {want}")
        return t, f

    def struct_copy(self, node: c_ast.Node, t: ct.Struct, what: str) -> Callable:
        """``copy(st)``: the address of a new object holding the struct ``node`` (of type
        ``t``) has now: a parameter's or a returned value (C passes and returns structs by
        value: the callee's stores to its parameter leave the caller's alone)."""
        _, source = self.struct_value(node, t, f"the {what}")
        # an argument's copy is the callee's object (its members' addresses may go to an
        # opaque call: a local, L); a returned one a value no call can change (V)
        size, fill = ct.sizeof(t), _copier(t, source)
        name = f"L:({what}):" if what == "argument" else f"V:({what}):"

        def copy(st):
            st.temp_count += 1  # (apart from the locals': their names stay as they were)
            addr = (f"{name}{st.temp_count}", 0)
            st.sizes[addr[0]] = size
            fill(st, addr)
            return addr

        return copy

    def full_rv(self, node: c_ast.Node, value: bool = True) -> tuple[ct.CType, Callable]:
        calls: list[c_ast.FuncCall] = []
        _effect_calls_first(node, calls, self._is_opaque_call)
        pre = []
        for call in calls:
            _t, fn = self.call(call)
            pre.append((id(call), fn))
            self.eager.add(id(call))
        try:
            t, main = self.rv(node, allow_void=not value)
        finally:
            for call in calls:
                self.eager.discard(id(call))
        if not pre:
            return t, main

        def with_calls(st):
            res = st.callres
            for key, fn in pre:
                res[key] = fn(st)
            return main(st)

        return t, with_calls

    def _is_opaque_call(self, node: c_ast.FuncCall) -> bool:
        if not isinstance(node.name, c_ast.ID):
            return True
        name = node.name.name
        return not (name in mathlib.PURE_NAMES and name not in self.defined)

    # -- expressions -----------------------------------------------------------------------------
    def rv(self, node: c_ast.Node, allow_void: bool = False) -> tuple[ct.CType, Callable]:
        """Type and evaluator of an rvalue (arrays decayed, lvalues loaded)."""
        method = getattr(self, "rv_" + type(node).__name__, None)
        if method is None:
            raise NotModelled(f"expression {type(node).__name__}")
        t, fn = method(node)
        if isinstance(t, ct.Void) and not allow_void:
            raise NotModelled("a void value used")
        if t == ct.FLOAT:
            self.uses_float = True
        return t, fn

    def rv_Constant(self, node: c_ast.Constant):
        text = node.value
        if node.type == "string":
            obj = "str:" + text
            addr = (obj, 0)
            return ct.Pointer(ct.Scalar("char")), lambda st: addr
        v: object
        try:
            if node.type == "char":
                v, t = parse_char(text)
            elif (
                text[:2].lower() != "0x"
                and any(c in text for c in ".eEpP")
                or text[:2].lower() == "0x"
                and any(c in text for c in ".pP")
            ):
                fv, t = parse_float(text)
                if t.name == "float":
                    v = F32(fv)
                elif t.name == "long double":
                    v = F80(text.rstrip("lL"))
                else:
                    v = fv
            else:
                v, t = parse_int(text)
        except ValueError as exc:
            raise NotModelled(str(exc)) from None
        return t, lambda st: v

    def rv_ID(self, node: c_ast.ID):
        b = self.lookup(node.name)
        kind = b[0]
        if kind == "slot":
            _, slot, t, name = b

            def read(st):
                v = st.slots[slot]
                if v is UNINIT:
                    raise UB(f"read of uninitialised variable '{name}'")
                return v

            return t, read
        if kind == "enum":
            v = b[1]
            return b[2], lambda st: v
        if kind == "func":
            raise NotModelled(f"function '{node.name}' used as a value")
        return self.load(_LV("mem", b[2], addr=b[1]))

    def rv_ArrayRef(self, node):
        return self.load(self.lv(node))

    def rv_StructRef(self, node):
        return self.load(self.lv(node))

    def rv_ExprList(self, node: c_ast.ExprList):
        parts = [self.rv(e, allow_void=True) for e in node.exprs]
        if not parts:
            raise NotModelled("empty expression list")
        fns = [f for _, f in parts]
        last = fns[-1]
        first = fns[:-1]

        def comma(st):
            for f in first:
                f(st)
            return last(st)

        return parts[-1][0], comma

    def rv_Cast(self, node: c_ast.Cast):
        t = self.read_type(node.to_type)
        ts, fs = self.rv(node.expr, allow_void=True)
        if isinstance(t, ct.Void):

            def discard(st):
                fs(st)

            return t, discard
        if not is_scalar(t):
            raise NotModelled(f"cast to {t}")
        return t, compose(fs, converter(ts, t))

    def rv_TernaryOp(self, node: c_ast.TernaryOp):
        tc, fc = self.rv(node.cond)
        cond = _truth_fn(tc, fc)
        ta, fa = self.rv(node.iftrue, allow_void=True)
        tb, fb = self.rv(node.iffalse, allow_void=True)
        if ct.is_arithmetic(ta) and ct.is_arithmetic(tb):
            t = ct.usual_arithmetic(ta, tb)
        elif isinstance(ta, ct.Pointer):
            t = ta
        elif isinstance(tb, ct.Pointer):
            t = tb
        elif isinstance(ta, ct.Void) and isinstance(tb, ct.Void):
            t = ta
        else:
            raise NotModelled(f"conditional expression of types {ta} and {tb}")
        if not isinstance(t, ct.Void):
            fa, fb = compose(fa, converter(ta, t)), compose(fb, converter(tb, t))

        def ternary(st):
            return fa(st) if cond(st) else fb(st)

        return t, ternary

    def rv_UnaryOp(self, node: c_ast.UnaryOp):
        op = node.op
        if op == "sizeof":
            if isinstance(node.expr, c_ast.Typename):
                t = self.read_type(node.expr)
            else:
                t = self.static_type(node.expr)
            size = ct.sizeof(t)
            if size is None:
                raise NotModelled(f"sizeof of {t}")
            return ct.ULONG, lambda st: size
        if op in ("_Alignof", "alignof"):
            t = (
                self.read_type(node.expr)
                if isinstance(node.expr, c_ast.Typename)
                else self.static_type(node.expr)
            )
            align = ct.alignof(t)
            return ct.ULONG, lambda st: align
        if op == "&":
            lv = self.lv(node.expr)
            if lv.kind != "mem":
                raise NotModelled("address of a variable that is not in memory")
            return ct.Pointer(lv.t), lv.addr
        if op == "*":
            return self.load(self.lv(node))
        if op in _INCDEC:
            return self.increment(node)
        t, f = self.rv(node.expr)
        if op == "!":
            c = _truth_fn(t, f)
            return ct.INT, lambda st: 0 if c(st) else 1
        if not ct.is_arithmetic(t):
            raise NotModelled(f"unary '{op}' on {t}")
        pt = ct.promote(t)
        f = compose(f, converter(t, pt))
        u = unary(op, pt)
        if u is None:
            return pt, f
        return pt, lambda st: u(f(st))

    def static_type(self, node: c_ast.Node) -> ct.CType:
        """The type of an expression as sizeof sees it (arrays not decayed)."""
        if (
            isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef))
            or isinstance(node, c_ast.UnaryOp)
            and node.op == "*"
        ):
            try:
                return self.lv(node).t
            except NotModelled:
                pass
        return self.rv(node)[0]

    def rv_BinaryOp(self, node: c_ast.BinaryOp):
        op = node.op
        ta, fa = self.rv(node.left)
        tb, fb = self.rv(node.right)
        if op in ("&&", "||"):
            ca, cb = _truth_fn(ta, fa), _truth_fn(tb, fb)
            if op == "&&":
                return ct.INT, lambda st: 1 if ca(st) and cb(st) else 0
            return ct.INT, lambda st: 1 if ca(st) or cb(st) else 0
        if isinstance(ta, ct.Pointer) or isinstance(tb, ct.Pointer):
            return self.pointer_op(op, ta, fa, tb, fb)
        if not (ct.is_arithmetic(ta) and ct.is_arithmetic(tb)):
            raise NotModelled(f"operator '{op}' on {ta} and {tb}")
        if op in ("<<", ">>"):
            pa, pb = ct.promote(ta), ct.promote(tb)
            fa, fb = compose(fa, converter(ta, pa)), compose(fb, converter(tb, pb))
            f = binary(op, pa)
            rt = pa
        else:
            t = ct.usual_arithmetic(ta, tb)
            fa, fb = compose(fa, converter(ta, t)), compose(fb, converter(tb, t))
            f = binary(op, t)
            rt = ct.INT if op in _CMP_OPS else t
        return rt, lambda st: f(fa(st), fb(st))

    def pointer_op(self, op, ta, fa, tb, fb):
        pa, pb = isinstance(ta, ct.Pointer), isinstance(tb, ct.Pointer)
        if op in _CMP_OPS:
            if not pa:
                fa = compose(fa, converter(ta, tb))
            if not pb:
                fb = compose(fb, converter(tb, ta))
            if op == "==":
                return ct.INT, lambda st: 1 if fa(st) == fb(st) else 0
            if op == "!=":
                return ct.INT, lambda st: 0 if fa(st) == fb(st) else 1
            cmp = binary(op, ct.LONG)

            def ptr_cmp(st):
                (oa, a), (ob, b) = fa(st), fb(st)
                if oa != ob:
                    raise UB("relational comparison of pointers into different objects")
                return cmp(a, b)

            return ct.INT, ptr_cmp
        if op == "+" and pa != pb:
            if pb:
                ta, fa, tb, fb = tb, fb, ta, fa
            return ta, _ptr_add(ta, fa, tb, fb, 1)
        if op == "-" and pa and not pb:
            return ta, _ptr_add(ta, fa, tb, fb, -1)
        if op == "-" and pa and pb:
            size = _elem_size(ta)

            def ptr_diff(st):
                (oa, a), (ob, b) = fa(st), fb(st)
                if oa != ob:
                    raise UB("difference of pointers into different objects")
                if (a - b) % size:
                    raise Unmodelled("pointer difference not a multiple of the element size")
                return (a - b) // size

            return ct.LONG, ptr_diff
        raise NotModelled(f"operator '{op}' on {ta} and {tb}")

    def rv_Assignment(self, node: c_ast.Assignment):
        lv = self.lv(node.lvalue)
        t = lv.t
        if isinstance(t, ct.Struct) and node.op == "=" and lv.addr is not None:
            copy = _copier(t, self.struct_value(node.rvalue, t, "the assignment")[1])
            dst = lv.addr
            return ct.Void(), lambda st: copy(st, dst(st))
        if not is_scalar(t):
            raise NotModelled(f"assignment of type {t}")
        tr, fr = self.rv(node.rvalue)
        if node.op == "=":
            fv = compose(fr, converter(tr, t))
            if lv.kind == "slot":
                slot = lv.slot

                def assign_var(st):
                    v = fv(st)
                    st.slots[slot] = v
                    return v

                return t, assign_var
            addr, tk, size = lv.addr, type_key(t), ct.sizeof(t)
            assert addr is not None  # in memory
            _register(t)

            def assign_mem(st):
                v = fv(st)
                st.store(addr(st), tk, size, v)
                return v

            return t, assign_mem
        bop = node.op[:-1]
        if isinstance(t, ct.Pointer):
            if bop not in ("+", "-") or not ct.is_integer(tr):
                raise NotModelled(f"'{node.op}' on a pointer")
            esize = _elem_size(t) * (1 if bop == "+" else -1)

            def update(old, r):
                return (old[0], old[1] + r * esize)
        else:
            if not ct.is_arithmetic(tr):
                raise NotModelled(f"'{node.op}' with {tr}")
            if bop in ("<<", ">>"):
                ot, rt = ct.promote(t), ct.promote(tr)
            else:
                ot = rt = ct.usual_arithmetic(t, tr)
            up, rconv, down = converter(t, ot), converter(tr, rt), converter(ot, t)
            f = binary(bop, ot)
            fr = compose(fr, rconv)
            update = _updater(f, up, down)
        return t, self.modify(lv, fr, update, post=False)

    def modify(self, lv: _LV, fr, update, post: bool):
        """Read-modify-write of an lvalue: ``x = update(x, fr())``; the new or old value."""
        if lv.kind == "slot":
            slot, name = lv.slot, lv.name

            def modify_var(st):
                old = st.slots[slot]
                if old is UNINIT:
                    raise UB(f"read of uninitialised variable '{name}'")
                new = update(old, fr(st))
                st.slots[slot] = new
                return old if post else new

            return modify_var
        t = lv.t
        addr, tk, size, d = lv.addr, type_key(t), ct.sizeof(t), _register(t)
        assert addr is not None  # in memory

        def modify_mem(st):
            a = addr(st)
            old = st.load(a, tk, size, d)
            new = update(old, fr(st))
            st.store(a, tk, size, new)
            return old if post else new

        return modify_mem

    def increment(self, node: c_ast.UnaryOp):
        lv = self.lv(node.expr)
        t = lv.t
        sign = 1 if "+" in node.op else -1
        post = node.op.startswith("p")
        if isinstance(t, ct.Pointer):
            esize = _elem_size(t) * sign

            def update(old, _r):
                return (old[0], old[1] + esize)
        elif ct.is_arithmetic(t):
            ot = ct.usual_arithmetic(t, ct.INT)
            up, down = converter(t, ot), converter(ot, t)
            f = binary("+" if sign > 0 else "-", ot)
            one = converter(ct.INT, ot)
            one_v = one(1) if one is not None else 1
            upd = _updater(f, up, down)

            def update(old, _r):
                return upd(old, one_v)
        else:
            raise NotModelled(f"'{node.op}' on {t}")
        return t, self.modify(lv, lambda st: None, update, post)

    def rv_FuncCall(self, node: c_ast.FuncCall):
        if id(node) in self.eager:
            key = id(node)
            t = self.call_type(node)
            return t, lambda st: st.callres[key]
        return self.call(node)

    def call_type(self, node: c_ast.FuncCall) -> ct.CType:
        name = node.name.name
        b = self.lookup(name)
        if b[0] == "func" and isinstance(b[2], ct.Func):
            return b[2].ret
        return mathlib.signature(name)[0]

    def call(self, node: c_ast.FuncCall):
        if not isinstance(node.name, c_ast.ID):
            raise NotModelled("call through an expression")
        name = node.name.name
        b = self.lookup(name)
        if b[0] != "func":
            raise NotModelled(f"call through the variable '{name}'")
        ftype = b[2] if isinstance(b[2], ct.Func) else None
        exprs = node.args.exprs if node.args is not None else []
        params = ftype.params if ftype is not None and ftype.params is not None else []
        args = [
            (p, self.struct_copy(e, p, "argument"))
            if isinstance(p := params[i] if i < len(params) else None, ct.Struct)
            else self.rv(e)
            for i, e in enumerate(exprs)
        ]
        if name in mathlib.PURE_NAMES and name not in self.defined:
            ret, params = mathlib.signature(name)
            if len(args) != len(params):
                raise NotModelled(f"call of {name} with {len(args)} arguments")
            fns = [compose(f, converter(t, p)) for (t, f), p in zip(args, params, strict=True)]
            impl = mathlib.implementation(name)
            if len(fns) == 1:
                f0 = fns[0]
                return ret, lambda st: impl(f0(st))
            if len(fns) == 2:
                f0, f1 = fns
                return ret, lambda st: impl(f0(st), f1(st))
            return ret, lambda st: impl(*[f(st) for f in fns])
        if ftype is None:
            raise NotModelled(f"call of '{name}' without a prototype")
        callee = self.callee(name) if name in self.defined else None
        if callee is None and name in self.defined:
            # accsat reads the function's effects from its definition (frontend/effects.py);
            # as an opaque call it would overwrite everything, and a share the rewrite may
            # make across it would be a false failure
            raise NotModelled(f"a call of '{name}', whose body the interpreter cannot run")
        if callee is None:
            if isinstance(ftype.ret, ct.Struct):
                raise NotModelled(f"a struct returned by '{name}', which it cannot run")
            self.calls.add(name)
        fns = []
        for i, (t, f) in enumerate(args):
            if ftype.params is not None and i < len(ftype.params):
                p = ftype.params[i]
            elif ct.is_float(t):
                p = ct.DOUBLE if t != ct.Scalar("long double") else t
            elif ct.is_integer(t):
                p = ct.promote(t)
            else:
                p = t
            if isinstance(p, ct.Struct):
                if callee is None:  # (its members in no trace)
                    raise NotModelled(f"a struct passed to '{name}', which it cannot run")
                fns.append(f)  # (its copy's address: struct_copy)
                continue
            if not is_scalar(p):
                raise NotModelled(f"argument of type {p}")
            fns.append(compose(f, converter(t, p)))
        ret = ftype.ret
        if callee is not None:

            def defined_call(st):
                return callee.run(st, [f(st) for f in fns], name)

            return ret, defined_call
        rd = None if isinstance(ret, ct.Void) else desc(ret)

        def opaque_call(st):
            return st.call(name, tuple(f(st) for f in fns), rd)

        return ret, opaque_call

    def callee(self, name: str) -> Callee | None:
        """A function of the file, compiled to run when it is called (its effects on
        memory then happen as they do, where accsat's SSA only has its summary); None
        where the interpreter cannot run it (the call is then opaque)."""
        if name in self.callees:
            return self.callees[name]
        found = self.symbols.functions.get(name)
        if found is None:
            return None
        fn, scope = found
        self.callees[name] = callee = Callee()  # a recursive call finds it
        try:
            callee.compile(fn, scope, self)
        except NotModelled:
            self.callees[name] = None
            return None
        return callee

    # -- lvalues -----------------------------------------------------------------------------------
    def lv(self, node: c_ast.Node) -> _LV:
        if isinstance(node, c_ast.ID):
            b = self.lookup(node.name)
            if b[0] == "slot":
                return _LV("slot", b[2], slot=b[1], name=b[3])
            if b[0] == "obj":
                return _LV("mem", b[2], addr=b[1])
            raise NotModelled(f"'{node.name}' is not an lvalue")
        if isinstance(node, c_ast.ArrayRef):
            tb, fb = self.rv(node.name)
            ti, fi = self.rv(node.subscript)
            if not isinstance(tb, ct.Pointer) and isinstance(ti, ct.Pointer):
                tb, fb, ti, fi = ti, fi, tb, fb
            if not isinstance(tb, ct.Pointer) or not ct.is_integer(ti):
                raise NotModelled("subscript of something that is not a pointer")
            size = _elem_size(tb)

            def index(st):
                o, off = fb(st)
                return (o, off + fi(st) * size)

            return _LV("mem", tb.to, addr=index)
        if isinstance(node, c_ast.StructRef):
            if node.type == ".":
                st_t, addr = self.struct_value(node.name)
            else:
                tp, addr = self.rv(node.name)
                if not isinstance(tp, ct.Pointer):
                    raise NotModelled("'->' on something that is not a pointer")
                st_t = tp.to
            if not isinstance(st_t, ct.Struct) or st_t.fields is None:
                raise NotModelled(f"member access on {st_t}")
            fld = st_t.field(node.field.name)
            if fld is None or fld.bitfield:
                raise NotModelled(f"member '{node.field.name}'")
            fo = fld.offset
            if fo == 0:
                return _LV("mem", fld.type, addr=addr)
            assert addr is not None  # in memory

            def member(st):
                o, off = addr(st)
                return (o, off + fo)

            return _LV("mem", fld.type, addr=member)
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            tp, fp = self.rv(node.expr)
            if not isinstance(tp, ct.Pointer) or isinstance(tp.to, (ct.Void, ct.Func)):
                raise NotModelled(f"'*' on {tp}")
            return _LV("mem", tp.to, addr=fp)
        raise NotModelled(f"{type(node).__name__} is not an lvalue")

    def load(self, lv: _LV) -> tuple[ct.CType, Callable]:
        t = lv.t
        if lv.kind == "slot":
            slot, name = lv.slot, lv.name

            def read(st):
                v = st.slots[slot]
                if v is UNINIT:
                    raise UB(f"read of uninitialised variable '{name}'")
                return v

            return t, read
        addr = lv.addr
        assert addr is not None  # in memory
        if isinstance(t, ct.Array):
            return ct.Pointer(t.of), addr
        if isinstance(t, ct.Func):
            raise NotModelled("function designator")
        if not is_scalar(t):
            raise NotModelled(f"value of type {t}")
        tk, size, d = type_key(t), ct.sizeof(t), _register(t)

        def load_mem(st):
            return st.load(addr(st), tk, size, d)

        return t, load_mem


# ----------------------------------------------------------------------------------------------
# helpers


@dataclass
class Returned:
    """What a ``return`` statement's closure gives back: the value (None for void)."""

    value: object


MAX_CALL_DEPTH = 64


class Callee:
    """A function of the file as the interpreter runs it: its body with its parameters
    in slots of a frame of its own, the memory shared with its caller."""

    def __init__(self) -> None:
        self.body: Callable = lambda st: None
        self.nslots = 0
        self.params: list[int | None] = []  # the slot of each parameter (None: unused)
        self.returns: ct.CType = ct.Void()

    def compile(self, fn: c_ast.FuncDef, scope: Scope, caller: _Compiler) -> None:
        ftype = caller.symbols.scope.lookup(fn.decl.name)
        if ftype is None or not isinstance(ftype.type, ct.Func):
            raise NotModelled(f"'{fn.decl.name}' has no type")
        self.returns = ftype.type.ret
        taken = frozenset(_taken(fn.body))
        c = _Compiler(
            scope,
            caller.symbols,
            caller.defined,
            taken,
            returns=self.returns,
            callees=caller.callees,
            frame=True,
        )
        self.body = c.body(fn.body)
        names = [getattr(p, "name", None) for p in _params(fn)]
        if any(n in taken for n in names if n):
            raise NotModelled(f"the address of a parameter of '{fn.decl.name}' taken")
        if c.outer_objects.keys() - set(caller.symbols.scope.names):
            raise NotModelled(f"'{fn.decl.name}' reads an object the interpreter cannot place")
        self.nslots = c.nslots
        self.params = [c.outer_vars[n][0] if n in c.outer_vars else None for n in names]

    def run(self, st, args: list, name: str):
        if st.depth >= MAX_CALL_DEPTH:
            raise Unmodelled(f"calls nested deeper than {MAX_CALL_DEPTH}")
        saved, results = st.slots, st.callres  # (a frame's own: recursion)
        st.slots, st.callres = [UNINIT] * self.nslots, {}
        for slot, value in zip(self.params, args, strict=False):
            if slot is not None:
                st.slots[slot] = value
        st.depth += 1
        try:
            r = self.body(st)
        finally:
            st.slots, st.callres = saved, results
            st.depth -= 1
        if isinstance(self.returns, ct.Void):
            return None
        if not isinstance(r, Returned) or r.value is None:
            raise UB(f"'{name}' ended without returning the value its caller uses")
        return r.value


def _leaves(t: ct.CType, base: int) -> list[tuple[int, ct.CType]]:
    """(byte offset, type) of every scalar inside a value of type ``t``."""
    if is_scalar(t):
        return [(base, t)]
    if isinstance(t, ct.Array) and t.size is not None:
        size = ct.sizeof(t.of)
        if size is None:
            raise NotModelled(f"an array of {t.of}")
        return [leaf for k in range(t.size) for leaf in _leaves(t.of, base + k * size)]
    if isinstance(t, ct.Struct) and t.fields is not None and not t.is_union:
        out = []
        for f in t.fields:
            if f.bitfield:
                raise NotModelled(f"a struct with the bit-field '{f.name}' copied")
            out += _leaves(f.type, base + f.offset)
        return out
    raise NotModelled(f"a value of type {t} copied or initialised")


def _copier(t: ct.CType, source: Callable) -> Callable:
    """``copy(st, address)``: every scalar of the ``t`` at ``source`` stored there."""
    leaves = _leaves(t, 0)
    for _, lt in leaves:
        _register(lt)
    keys = [(off, type_key(lt), ct.sizeof(lt) or 0, desc(lt)) for off, lt in leaves]

    def copy(st, addr):
        src = source(st)
        values = [
            (off, tk, size, st.load_member((src[0], src[1] + off), tk, size, d))
            for off, tk, size, d in keys
        ]
        for off, tk, size, v in values:
            if v is UNINIT:  # a member never set: as indeterminate in the copy
                st.forget((addr[0], addr[1] + off))
            else:
                st.store((addr[0], addr[1] + off), tk, size, v)

    return copy


def _list_values(t: ct.CType, init: c_ast.InitList, base: int, out: dict, c: _Compiler) -> None:
    """The values an initialiser list gives the scalars of a ``t`` at ``base`` (fully
    braced, with designators), by byte offset."""
    if isinstance(t, ct.Array) and t.size is not None:
        size = ct.sizeof(t.of) or 0
        members = [(base + k * size, t.of, str(k)) for k in range(t.size)]
    elif isinstance(t, ct.Struct) and t.fields is not None and not t.is_union:
        members = [(base + f.offset, f.type, f.name) for f in t.fields if f.name]
    else:
        raise NotModelled(f"an initialiser list for {t}")
    at = 0
    given: set[int] = set()
    for item in init.exprs:
        if isinstance(item, c_ast.NamedInitializer):
            at = _designated(item.name, [m[2] for m in members])
            item = item.expr
        if at >= len(members):
            raise NotModelled("an initialiser list longer than its array or struct")
        if at in given:
            raise NotModelled("an initialiser list that initialises a member twice")
        given.add(at)
        off, mt, _ = members[at]
        if isinstance(item, c_ast.InitList):
            _list_values(mt, item, off, out, c)
        elif is_scalar(mt):
            out[off] = c.rv(item)
        else:
            raise NotModelled("an initialiser list without the braces of a member")
        at += 1


def _designated(designators: list, names: list[str]) -> int:
    """The member a designator names (written independently of ssa/aggregate.py: the
    interpreter is accsat's second opinion)."""
    key = designators[0]
    if isinstance(key, c_ast.ArrayDesignator):  # ``[2] =`` (pycparser >= 3.12)
        key = key.expr
    if len(designators) != 1 or not isinstance(key, (c_ast.ID, c_ast.Constant)):
        raise NotModelled("a designator that is not one name or integer constant")
    try:
        name = key.name if isinstance(key, c_ast.ID) else str(parse_int(key.value)[0])
    except ValueError:
        raise NotModelled(f"designator {key.value}") from None
    if name not in names:
        raise NotModelled(f"designator {name}")
    return names.index(name)


def _params(fn: c_ast.FuncDef) -> list:
    ftype = fn.decl.type
    args = ftype.args.params if isinstance(ftype, c_ast.FuncDecl) and ftype.args else []
    return [p for p in args if not isinstance(p, c_ast.EllipsisParam)]


def _taken(body: c_ast.Node) -> set[str]:
    out = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID):
            out.add(n.expr.name)
        stack.extend(child for _, child in n.children())
    return out


def _sequence(fns: list[Callable]) -> Callable | None:
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]

    def block(st):
        for f in fns:
            r = f(st)
            if r is not None:
                return r
        return None

    return block


def _truth_fn(t: ct.CType, f: Callable) -> Callable:
    tr = truth(t)
    return lambda st: tr(f(st))


def _register(t: ct.CType):
    d = desc(t)
    DESCS[type_key(t)] = d
    return d


VLA_DIM = 64  # the extent assumed for an array dimension known only at run time


def _sizeof_vla(t: ct.CType) -> int | None:
    """sizeof, with VLA_DIM for each dimension of unknown extent.

    A variable-length array's extents are fixed when it is declared, before the
    body runs; both runs of a trial see the same value, and one large enough
    that tiny and small subscripts of an inner dimension never reach the next row.
    """
    size = ct.sizeof(t)
    if size is not None or not isinstance(t, ct.Array):
        return size
    inner = _sizeof_vla(t.of)
    return None if inner is None else inner * (t.size if t.size is not None else VLA_DIM)


def _elem_size(tp: ct.Pointer) -> int:
    if isinstance(tp.to, ct.Void):
        return 1  # GNU C: arithmetic on void * counts bytes
    size = _sizeof_vla(tp.to)
    if size is None:
        raise NotModelled(f"element of unknown size ({tp.to})")
    return size


def _ptr_add(tp, fp, ti, fi, sign):
    if not ct.is_integer(ti):
        raise NotModelled(f"pointer arithmetic with {ti}")
    size = _elem_size(tp) * sign

    def ptr_add(st):
        o, off = fp(st)
        return (o, off + fi(st) * size)

    return ptr_add


def _updater(f, up, down):
    if up is None and down is None:
        return f
    up = up or (lambda v: v)
    down = down or (lambda v: v)
    return lambda old, r: down(f(up(old), r))


def _effect_calls_first(node: c_ast.Node, out: list, is_opaque) -> None:
    """The calls with effects of a full expression, in the order they run first.

    Post-order, as accsat's SSA builder does; the conditionally evaluated
    operands of ``&&``, ``||`` and ``?:`` are left alone (their calls run in place).
    """
    if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
        _effect_calls_first(node.left, out, is_opaque)
        return
    if isinstance(node, c_ast.TernaryOp):
        _effect_calls_first(node.cond, out, is_opaque)
        return
    for child in node:
        _effect_calls_first(child, out, is_opaque)
    if isinstance(node, c_ast.FuncCall) and is_opaque(node):
        out.append(node)


# ----------------------------------------------------------------------------------------------
# entry points


def compile_body(
    body: c_ast.Node,
    scope: Scope,
    symbols: FileSymbols,
    defined: frozenset[str] = frozenset(),
    address_taken: frozenset[str] = frozenset(),
    returns: ct.CType | None = None,
) -> Program:
    """Compile a kernel body (``returns``: a function's, which returns that type);
    NotModelled if it uses something the interpreter cannot run."""
    c = _Compiler(scope, symbols, defined, address_taken, returns=returns)
    fn = c.body(body)
    return Program(
        fn,
        c.nslots,
        dict(c.outer_vars),
        dict(c.outer_objects),
        frozenset(c.restrict),
        frozenset(c.calls),
        c.uses_float,
    )


def execute(prog: Program, state: TrialState, step_limit: int = DEFAULT_STEP_LIMIT) -> Run:
    """Run a compiled body from ``state``; raises Trap (UB, StepLimit, Unmodelled)."""
    run = Run(state, prog.nslots, step_limit)
    slots = run.slots
    for name, (slot, _t) in prog.outer_vars.items():
        slots[slot] = state.scalars[name]
    with np.errstate(all="ignore"):
        r = prog.body(run)
    if isinstance(r, Returned):  # a function's body: what it returned is its output
        run.returned = r.value
    run.outer = {name: slots[slot] for name, (slot, _t) in prog.outer_vars.items()}
    return run
