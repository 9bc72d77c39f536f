"""Lowering C expressions to terms, with C's typing rules made explicit.

Every implicit conversion becomes a ``Cast`` term, so each operation's type
is exact (the e-graph's rules then only ever combine operations of one type).
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast, c_generator

from ..errors import Unsupported
from ..frontend import ctypes as ct
from ..frontend.fold import evaluate, scalar
from ..frontend.literals import parse_char, parse_float, parse_int
from ..frontend.symbols import Symbol
from ..mathfuncs import PURE_MATH
from ..ops import COMPARISONS, FOLDABLE, FROM_C_BINARY, INT_ONLY, OPS
from . import ir
from .memory import (
    ANYWHERE,
    Access,
    Poly,
    Region,
    add_poly,
    const_poly,
    mul_poly,
    scale_poly,
    var_poly,
)
from .state import BuilderState, LeafInfo, Site, Spelled
from .terms import constant

# C binary operator -> op; && and || short-circuit, rv_BinaryOp lowers them.
_BINOP = {c: op for c, op in FROM_C_BINARY.items() if OPS[op].kind != "logic"}
_GEN = c_generator.CGenerator()


@dataclass
class Addr:
    """A memory lvalue: ``base`` followed by the access path ``template``."""

    base: int
    template: str
    indices: list[int]
    ctype: ct.CType
    region: Region
    root: int | None
    offset: Poly | None
    bitfield: ct.Field | None = None  # the member, when the lvalue is a bit-field

    def then(
        self,
        component: str,
        ctype: ct.CType,
        offset: Poly | None,
        index: int | None = None,
        bitfield: ct.Field | None = None,
    ) -> Addr:
        off = None if self.offset is None or offset is None else add_poly(self.offset, offset)
        indices = self.indices + ([index] if index is not None else [])
        return Addr(
            self.base,
            self.template + component,
            indices,
            ctype,
            self.region,
            self.root,
            off,
            bitfield,
        )


@dataclass
class VarLV:
    sym: Symbol


LValue = VarLV | Addr


class ExpressionBuilder(BuilderState):
    calls: dict[int, int | None]  # id(FuncCall node) -> result term, for calls evaluated first

    # -- entry points -------------------------------------------------------------------
    def rvalue(self, node: c_ast.Node) -> int:
        method = getattr(self, "rv_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(f"expression {type(node).__name__}")
        reads = self.var_reads
        tid = method(node)
        if tid in self.constants and self.var_reads == reads:  # a constant as written
            self.spelled.append(Spelled(tid, node))
        return tid

    def lvalue(self, node: c_ast.Node) -> LValue:
        if isinstance(node, c_ast.ID):
            sym = self.lookup(node.name)
            if self.is_register(sym):
                return VarLV(sym)
        addr = self.designate(node)
        if addr is None:
            raise Unsupported("assignment to something that is not a variable or memory")
        return addr

    # -- memory -------------------------------------------------------------------------------
    def designate(self, node: c_ast.Node) -> Addr | None:
        """The memory object an lvalue expression names; None for registers and rvalues."""
        if isinstance(node, c_ast.ID):
            sym = self.lookup(node.name)
            if sym.kind in ("enum", "func") or self.is_register(sym):
                return None
            return self.object_addr(sym)
        if isinstance(node, c_ast.ArrayRef):
            return self.index_addr(node)
        if isinstance(node, c_ast.StructRef):
            return self.member_addr(node)
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            return self.deref_addr(node.expr)
        return None

    def object_addr(self, sym: Symbol) -> Addr:
        key = self.symkey(sym)
        if isinstance(sym.type, ct.Array):
            ptype: ct.CType = ct.Pointer(sym.type.of)
        else:
            ptype = ct.Pointer(sym.type)
        base = self.mk("Sym", ptype, attrs=(sym.name, key), count=False)
        self.names.add(sym.name)
        return Addr(base, "", [], sym.type, Region("sym", key), base, {})

    def index_addr(self, node: c_ast.ArrayRef) -> Addr:
        inner = self.designate(node.name)
        if inner is not None and isinstance(inner.ctype, ct.Array):
            idx = self.index_value(node.subscript)
            elem = inner.ctype.of
            return inner.then("[]", elem, self.scaled(idx, elem), idx)
        pointer = self.load_or_value(inner, node.name)
        ptype = self.ctype(pointer)
        if not isinstance(ptype, ct.Pointer):
            raise Unsupported("subscript of something that is not an array or pointer")
        idx = self.index_value(node.subscript)
        return self.pointer_addr(pointer, ptype.to, "[]", self.scaled(idx, ptype.to), idx)

    def member_addr(self, node: c_ast.StructRef) -> Addr:
        name = node.field.name
        if node.type == ".":
            inner = self.designate(node.name)
            if inner is None or not isinstance(inner.ctype, ct.Struct):
                raise Unsupported("member access on something that is not a struct in memory")
            fld = self._field(inner.ctype, name)
            bits = fld if fld.bitfield else None
            return inner.then("." + name, fld.type, const_poly(fld.offset), bitfield=bits)
        pointer = self.rvalue(node.name)
        ptype = self.ctype(pointer)
        if isinstance(ptype, ct.Pointer) and isinstance(ptype.to, ct.Unmodelled):
            raise Unsupported(ptype.to.why)
        if not isinstance(ptype, ct.Pointer) or not isinstance(ptype.to, ct.Struct):
            raise Unsupported("'->' on something that is not a pointer to a struct")
        fld = self._field(ptype.to, name)
        addr = self.pointer_addr(pointer, fld.type, "->" + name, const_poly(fld.offset), None)
        addr.bitfield = fld if fld.bitfield else None
        return addr

    def _field(self, st: ct.Struct, name: str) -> ct.Field:
        if st.fields is None:
            st = self.symbols.tags.get(st.tag, st)
        fld = st.field(name)
        if fld is None:
            raise Unsupported(f"unknown struct member '{name}'")
        return fld

    def deref_addr(self, expr: c_ast.Node) -> Addr:
        if isinstance(expr, c_ast.BinaryOp) and expr.op in ("+", "-"):
            left, right = self.rvalue(expr.left), self.rvalue(expr.right)
            if expr.op == "+" and isinstance(self.ctype(right), ct.Pointer):
                left, right = right, left
            ltype = self.ctype(left)
            if isinstance(ltype, ct.Pointer) and ct.is_integer(self.ctype(right)):
                if expr.op == "-":
                    right = self.mk(
                        "Neg",
                        ct.promote(self.ctype(right)),
                        (self.convert(right, ct.promote(self.ctype(right))),),
                    )
                return self.pointer_addr(left, ltype.to, "[]", self.scaled(right, ltype.to), right)
            pointer = self.arith(expr.op, left, right)
        else:
            pointer = self.rvalue(expr)
        ptype = self.ctype(pointer)
        if not isinstance(ptype, ct.Pointer):
            raise Unsupported("'*' on something that is not a pointer")
        zero = self.const("0", ct.INT)
        return self.pointer_addr(pointer, ptype.to, "[]", const_poly(0), zero)

    def pointer_addr(
        self, pointer: int, ctype: ct.CType, component: str, offset: Poly | None, index: int | None
    ) -> Addr:
        region, root, base_off = self.pointer_root(pointer)
        off = None if base_off is None or offset is None else add_poly(base_off, offset)
        return Addr(
            pointer, component, [index] if index is not None else [], ctype, region, root, off
        )

    def pointer_root(self, tid: int) -> tuple[Region, int | None, Poly | None]:
        """Region, root pointer term and byte offset of a pointer value."""
        term = self.terms[tid]
        if term.op == "PtrAdd":
            region, root, off = self.pointer_root(term.args[0])
            ptype = self.ctype(term.args[0])
            step = self.scaled(term.args[1], ptype.to if isinstance(ptype, ct.Pointer) else None)
            return region, root, None if off is None or step is None else add_poly(off, step)
        if term.op == "Sym":
            return Region("sym", term.attrs[1]), tid, {}
        if term.op == "AddrOf":
            return self.addr_roots.get(tid, (ANYWHERE, tid, {}))
        if term.op == "Var":
            info = self.leaves.get(tid)
            sym = info.holder if info else None
            ptype = self.ctype(tid)
            if (
                sym is not None
                and isinstance(ptype, ct.Pointer)
                and ptype.restrict
                and sym.name not in self.assigned_names
            ):
                return Region("restrict", term.attrs[1]), tid, {}
        return ANYWHERE, tid, {}

    def scaled(self, idx: int, elem: ct.CType | None) -> Poly | None:
        size = ct.sizeof(elem) if elem is not None else None
        # unsigned arithmetic narrower than an address wraps where the polynomial does not
        # (``j - 1`` for unsigned j = 0 is 4294967295, not -1): such a subscript is a
        # value of its own, the same place only as itself
        poly = var_poly(idx) if self.wraps_narrow(idx) else self.poly(idx)
        return None if size is None or poly is None else scale_poly(poly, size)

    def poly(self, tid: int) -> Poly | None:
        """``_poly``, with a constant of unsigned type narrower than 64 bits reduced modulo
        its width: a value of that type (``u - u - 1u`` is 4294967295, not -1), so that an
        operation over it folds to what C computes (``fold_known``)."""
        p = self._poly(tid)
        t = self.ctype(tid)
        narrow = (
            isinstance(t, ct.Scalar)
            and ct.is_integer(t)
            and ct.is_unsigned(t)
            and ct.int_bits(t) < 64
        )
        if narrow and isinstance(t, ct.Scalar) and p is not None and not set(p) - {()}:
            return const_poly(p.get((), 0) % (1 << ct.int_bits(t)))
        wrapped = ct.is_signed(t) and ct.target().wrapv and isinstance(t, ct.Scalar)
        if wrapped and p is not None and not set(p) - {()} and ct.int_bits(t) < 64:
            lo, hi = ct.int_range(t)
            return const_poly((p.get((), 0) - lo) % (hi - lo + 1) + lo)  # -fwrapv
        return p

    def _poly(self, tid: int) -> Poly | None:
        """The integer value of a term as a polynomial over term ids (modulo 2^64, as
        addresses are: a 64-bit unsigned constant reads as its two's-complement value,
        ``z + (unsigned long)-1`` is ``z - 1``; narrower unsigned arithmetic is kept
        out by ``scaled``)."""
        term = self.terms[tid]
        args = term.args
        value = constant(self.terms, tid)  # ``5 & 15`` is 5, as for the compiler
        if value is not None:
            if not isinstance(value[0], int):
                return var_poly(tid)
            return const_poly(_modular(value[0], self.ctype(tid)))
        if term.op in ("Add", "Sub"):
            a, b = self.poly(args[0]), self.poly(args[1])
            if a is None or b is None:
                return var_poly(tid)
            return add_poly(a, b, 1 if term.op == "Add" else -1)
        if term.op == "Neg":
            a = self.poly(args[0])
            return var_poly(tid) if a is None else scale_poly(a, -1)
        if term.op == "Mul":
            a, b = self.poly(args[0]), self.poly(args[1])
            prod = None if a is None or b is None else mul_poly(a, b)
            return var_poly(tid) if prod is None else prod
        if term.op == "Cast" and _keeps_value(self.ctype(args[0]), self.ctype(tid)):
            return self.poly(args[0])
        folded = self.fold_known(tid)
        return var_poly(tid) if folded is None else const_poly(folded)

    def fold_known(self, tid: int) -> int | None:
        """The value of an integer operation whose operands' polynomials are constants
        that their types hold (``(i - i) & 15`` is 0, as the e-graph prints it), with C's
        rules (frontend.fold.evaluate); None otherwise."""
        term = self.terms[tid]
        target = scalar(term.ty.split("@", 1)[0])
        if term.op not in FOLDABLE or not term.args or target is None:
            return None
        values: list[tuple[int | float, ct.Scalar]] = []
        for a in term.args:
            p, at = self.poly(a), self.ctype(a)  # a constant here is the operand's value
            if p is None or set(p) - {()} or not isinstance(at, ct.Scalar) or not ct.is_integer(at):
                return None
            v = p.get((), 0)
            lo, hi = ct.int_range(at)
            if not lo <= v <= hi:
                return None
            values.append((v, at))
        if not ct.is_integer(target):
            return None
        value = evaluate(term.op, target, values)
        return value if isinstance(value, int) else None

    def wraps_narrow(self, tid: int) -> bool:
        """Arithmetic that wraps around narrower than 64 bits in ``tid``'s polynomial:
        unsigned, and signed under ``-fwrapv`` (where ``INT_MAX + 1`` is ``INT_MIN``)."""
        term = self.terms[tid]
        if term.op not in ("Add", "Sub", "Neg", "Mul", "Cast") or constant(self.terms, tid):
            return False
        t = self.ctype(tid)
        wraps = ct.is_integer(t) and (ct.is_unsigned(t) or ct.target().wrapv)
        if term.op != "Cast" and wraps and ct.int_bits(t) < 64:
            return True
        return any(self.wraps_narrow(a) for a in term.args)

    def index_value(self, node: c_ast.Node) -> int:
        idx = self.rvalue(node)
        if not ct.is_integer(self.ctype(idx)):
            raise Unsupported("array subscript is not an integer")
        return idx

    def load_or_value(self, addr: Addr | None, node: c_ast.Node) -> int:
        return self.rvalue(node) if addr is None else self.read(addr)

    def read(self, addr: Addr, site: c_ast.Node | None = None) -> int:
        """The value of a memory lvalue (arrays decay to their address); ``site``, the
        subscript or dereference that reads it, is noted for ``accsat advise``."""
        if isinstance(addr.ctype, ct.Array):
            return self.decay(addr)
        if isinstance(addr.ctype, ct.Unmodelled):
            raise Unsupported(addr.ctype.why)
        if isinstance(addr.ctype, (ct.Struct, ct.Func, ct.Void)):
            raise Unsupported(f"value of type {addr.ctype}")
        vtype = addr.ctype
        if addr.bitfield is not None:  # read as the type it promotes to (ctypes.bitfield_type)
            promoted = ct.bitfield_type(addr.ctype, addr.bitfield.width or 0)
            if promoted is None:
                raise Unsupported(
                    f"bit-field '{addr.bitfield.name}' of {addr.bitfield.width} bits of type "
                    f"{addr.ctype}: gcc computes with a type of its own there"
                )
            vtype = promoted
        access = self.access(addr)
        if site is not None:
            self.sites.append(Site("load", site, access, self.ctx))
        how, found = self.mem.lookup(access)
        if how == "forward" and found is not None:
            self.account("Load", vtype)
            return found
        version = "e-" if found is None else f"e{found}"
        indices = self.terms.list_of(addr.indices)
        tid = self.mk("Load", vtype, (addr.base, indices), (addr.template, version))
        if tid not in self.leaves:
            pos = 0.0 if found is None else self.mem.events[found].pos
            self.leaves[tid] = LeafInfo(pos, self.terms[tid].ctx, access=access)
        return tid

    def access(self, addr: Addr) -> Access:
        return Access.make(
            addr.region, addr.root, addr.offset, ct.sizeof(addr.ctype), ct.spell(addr.ctype)
        )

    def decay(self, addr: Addr) -> int:
        """An array's value: the address of its first element, ``c`` for a whole array
        (its ``Sym`` is that pointer) and ``&c[i][0]`` for a row (``&c[i]`` would be
        the address of the row, another type)."""
        assert isinstance(addr.ctype, ct.Array)
        if not addr.template and not addr.indices:
            return addr.base
        zero = self.const("0", ct.INT)
        first = addr.then("[]", addr.ctype.of, const_poly(0), zero)
        return self.address_of(first, ct.Pointer(addr.ctype.of))

    def address_of(self, addr: Addr, ptype: ct.CType) -> int:
        indices = self.terms.list_of(addr.indices)
        tid = self.mk("AddrOf", ptype, (addr.base, indices), (addr.template,))
        self.addr_roots[tid] = (addr.region, addr.root, addr.offset)
        return tid

    addr_roots: dict[int, tuple[Region, int | None, Poly | None]]
    assigned_names: set[str]

    # -- leaves ----------------------------------------------------------------------------
    def rv_Constant(self, node: c_ast.Constant) -> int:
        text = node.value
        try:
            if node.type == "char":
                return self.const(text, parse_char(text)[1])
            if node.type == "string":
                return self.const(text, ct.Pointer(ct.Scalar("char")))
            if node.type in ("float", "double", "long double"):
                return self.const(text, parse_float(text)[1])
            return self.const(text, parse_int(text)[1])
        except ValueError as exc:
            raise Unsupported(str(exc)) from None

    def rv_ID(self, node: c_ast.ID) -> int:
        sym = self.lookup(node.name)
        if sym.kind == "enum":
            return self.const(node.name, sym.type)
        if sym.kind == "func":
            raise Unsupported(f"function '{node.name}' used as a value")
        if self.is_register(sym):
            self.account("Var", sym.type)
            return self.read_register(sym)
        addr = self.designate(node)
        if addr is None:
            raise Unsupported(f"cannot read '{node.name}'")
        return self.read(addr)

    def rv_ArrayRef(self, node: c_ast.Node) -> int:
        addr = self.designate(node)
        assert addr is not None
        return self.read(addr, node)

    rv_StructRef = rv_ArrayRef

    def rv_Cast(self, node: c_ast.Cast) -> int:
        target = self.symbols.types.read(node.to_type, self.scope)
        value = self.rvalue(node.expr)
        if isinstance(target, ct.Void):
            return value
        return self.convert(value, target)

    def rv_ExprList(self, node: c_ast.ExprList) -> int:
        value = None
        for e in node.exprs:
            value = self.rvalue(e)
        if value is None:
            raise Unsupported("empty expression list")
        return value

    # -- operators ---------------------------------------------------------------------------
    def rv_UnaryOp(self, node: c_ast.UnaryOp) -> int:
        op = node.op
        if op in ("++", "--", "p++", "p--"):
            return self.increment(node)
        if op == "*":
            return self.read(self.deref_addr(node.expr), node)
        if op == "&":
            addr = self.designate(node.expr)
            if addr is None:
                raise Unsupported("address of a register variable")
            return self.address_of(addr, ct.Pointer(addr.ctype))
        if op == "sizeof":
            return self.const(_GEN.visit(node), ct.SIZE_T)
        value = self.rvalue(node.expr)
        vtype = self.ctype(value)
        if op == "!":
            return self.mk("Not", ct.INT, (value,))
        if not ct.is_arithmetic(vtype):
            raise Unsupported(f"unary '{op}' on {vtype}")
        promoted = ct.promote(vtype)
        value = self.convert(value, promoted)
        if op == "+":
            return value
        if op == "-":
            return self.mk("Neg", promoted, (value,))
        if op == "~":
            return self.mk("BitNot", promoted, (value,))
        raise Unsupported(f"unary operator '{op}'")

    def rv_BinaryOp(self, node: c_ast.BinaryOp) -> int:
        if node.op in ("&&", "||"):
            op = "And" if node.op == "&&" else "Or"
            left = self.rvalue(node.left)
            right = self.guarded(node.right, (left, op))
            return self.mk(op, ct.INT, (left, right))
        return self.arith(node.op, self.rvalue(node.left), self.rvalue(node.right))

    def guarded(self, node: c_ast.Node, guard: tuple[int, str]) -> int:
        """An operand evaluated only on some paths (``&&``, ``||``, ``?:``), lowered in a
        context of its own. Operands under the same guard (the same condition value and
        side, in the same context) share one: ``(c ? b[i] : d[i])`` written twice is one
        value, each load still evaluated only where ``c`` says."""
        saved = self.ctx
        key = (saved, *guard)
        if key not in self.guard_ctxs:
            self.guard_ctxs[key] = self.new_ctx(inline=True)
        self.ctx = self.guard_ctxs[key]
        try:
            return self.rvalue(node)
        finally:
            self.ctx = saved

    def rv_TernaryOp(self, node: c_ast.TernaryOp) -> int:
        cond = self.rvalue(node.cond)
        a = self.guarded(node.iftrue, (cond, "then"))
        b = self.guarded(node.iffalse, (cond, "else"))
        ta, tb = self.ctype(a), self.ctype(b)
        if ct.is_arithmetic(ta) and ct.is_arithmetic(tb):
            t = ct.usual_arithmetic(ta, tb)
            a, b = self.convert(a, t), self.convert(b, t)
        elif ta == tb:
            t = ta
        else:
            raise Unsupported(f"conditional expression of types {ta} and {tb}")
        return self.mk("Select", t, (cond, a, b))

    def arith(self, cop: str, a: int, b: int) -> int:
        op = _BINOP.get(cop)
        if op is None:
            raise Unsupported(f"operator '{cop}'")
        ta, tb = self.ctype(a), self.ctype(b)
        if op in ("Add", "Sub") and (ct.is_pointerish(ta) or ct.is_pointerish(tb)):
            return self.pointer_arith(op, a, b)
        if op in COMPARISONS and ct.is_pointerish(ta) and ct.is_pointerish(tb):
            return self.mk(op, ct.INT, (a, b))
        if not (ct.is_arithmetic(ta) and ct.is_arithmetic(tb)):
            raise Unsupported(f"operator '{cop}' on {ta} and {tb}")
        if op in INT_ONLY and not (ct.is_integer(ta) and ct.is_integer(tb)):
            raise Unsupported(f"operator '{cop}' on {ta} and {tb}")
        if op in ("Shl", "Shr"):
            t = ct.promote(ta)
            return self.mk(op, t, (self.convert(a, t), self.convert(b, ct.promote(tb))))
        t = ct.usual_arithmetic(ta, tb)
        a, b = self.convert(a, t), self.convert(b, t)
        return self.mk(op, ct.INT if op in COMPARISONS else t, (a, b))

    def pointer_arith(self, op: str, a: int, b: int) -> int:
        ta, tb = self.ctype(a), self.ctype(b)
        if op == "Add" and ct.is_integer(ta):
            a, b, ta, tb = b, a, tb, ta
        if ct.is_pointerish(ta) and ct.is_integer(tb):
            ptype = ct.decay(ta)
            count = self.convert(b, ct.promote(tb))
            if op == "Sub":
                count = self.mk("Neg", self.ctype(count), (count,))
            return self.mk("PtrAdd", ptype, (a, count))
        if op == "Sub" and ct.is_pointerish(ta) and ct.is_pointerish(tb):
            return self.mk("PtrDiff", ct.PTRDIFF_T, (a, b))
        raise Unsupported("pointer arithmetic")

    # -- side effects inside expressions ------------------------------------------------------
    def no_side_effects_here(self, what: str) -> None:
        if self.in_inline:
            raise Unsupported(f"{what} inside a conditionally evaluated operand")

    def rv_Assignment(self, node: c_ast.Assignment) -> int:
        self.no_side_effects_here("assignment")
        return self.assignment(node)

    def assignment(self, node: c_ast.Assignment) -> int:
        target = self.lvalue(node.lvalue)
        rhs = self.rvalue(node.rvalue)
        if node.op != "=":
            old = self.current(target, node.lvalue)
            rhs = self.arith(node.op[:-1], old, rhs)
        return self.assign(target, rhs, node)

    def increment(self, node: c_ast.UnaryOp) -> int:
        self.no_side_effects_here("increment")
        target = self.lvalue(node.expr)
        old = self.current(target, node.expr)
        one = self.const("1", ct.INT)
        new = self.arith("+" if "+" in node.op else "-", old, one)
        stored = self.assign(target, new, node)
        return old if node.op.startswith("p") else stored

    def current(self, target: LValue, site: c_ast.Node) -> int:
        if isinstance(target, VarLV):
            self.account("Var", target.sym.type)
            return self.read_register(target.sym)
        return self.read(target, site)

    def read_register(self, sym: Symbol) -> int:
        """A read of a variable the user wrote: its value, noted when it is a constant
        (the printer spells that constant by the variable there, not by a literal)."""
        self.var_reads += 1
        value = self.read_var(sym)
        if value in self.constants:
            self.spelled.append(Spelled(value, sym=sym))
        return value

    def assign(self, target: LValue, value: int, node: c_ast.Node, decl: str | None = None) -> int:
        line = node.coord.line if node.coord else self.line
        if isinstance(target, VarLV):
            value = self.convert(value, target.sym.type)
            pos = self.next_pos()
            self.env[target.sym] = value
            self.record_assign(target.sym, pos)
            self.emit(ir.Assign(target.sym, value, pos, line, decl))
            return value
        if isinstance(target.ctype, ct.Unmodelled):
            raise Unsupported(target.ctype.why)
        if not (ct.is_arithmetic(target.ctype) or isinstance(target.ctype, ct.Pointer)):
            raise Unsupported(f"assignment of type {target.ctype}")
        if target.bitfield is not None:
            raise Unsupported(f"store to the bit-field '{target.bitfield.name}'")
        value = self.convert(value, target.ctype)
        pos = self.next_pos()
        access = self.access(target)
        lvalue = node.lvalue if isinstance(node, c_ast.Assignment) else node.expr
        self.sites.append(Site("store", lvalue, access, self.ctx))
        self.memory_event("store", pos, access=access, value=value)
        self.stored[pos] = LeafInfo(float(pos), self.block.ctx, access=access)
        self.emit(ir.Store(target.template, target.base, tuple(target.indices), value, pos, line))
        return value

    def memory_event(self, kind: str, pos: float, **kw) -> None:
        ev = self.mem.add(kind, pos, **kw)
        for info in (*self.leaves.values(), *self.stored.values()):
            if info.access is not None and info.kill is None and ev.may_alias(info.access):
                info.kill = pos

    # -- calls -----------------------------------------------------------------------------
    def rv_FuncCall(self, node: c_ast.FuncCall) -> int:
        if id(node) in self.calls:
            result = self.calls[id(node)]
            if result is None:
                raise Unsupported("value of a void function call")
            return result
        name, ftype = self.callee(node)
        args = self.call_args(node, ftype)
        if self.is_pure(name):
            return self.mk("Call", ftype.ret, (self.terms.list_of(args),), (name,))
        self.no_side_effects_here("call")
        return self.effect_call(node, name, ftype, args)

    def callee(self, node: c_ast.FuncCall) -> tuple[str, ct.Func]:
        if not isinstance(node.name, c_ast.ID):
            raise Unsupported("call through an expression")
        sym = self.scope.lookup(node.name.name)
        if sym is None or not isinstance(sym.type, ct.Func):
            raise Unsupported(f"call of undeclared function '{node.name.name}'")
        return node.name.name, sym.type

    def call_args(self, node: c_ast.FuncCall, ftype: ct.Func) -> list[int]:
        exprs = node.args.exprs if node.args is not None else []
        args = [self.rvalue(e) for e in exprs]
        params = ftype.params or ()
        out = []
        for i, a in enumerate(args):
            if ftype.params is not None and i < len(params):
                out.append(self.convert(a, params[i]))
            else:
                t = self.ctype(a)
                promoted = ct.DOUBLE if t == ct.FLOAT else ct.promote(t) if ct.is_integer(t) else t
                out.append(self.convert(a, ct.decay(promoted)))
        return out

    def is_pure(self, name: str) -> bool:
        return name in PURE_MATH and name not in self.defined_functions

    def effect_call(self, node: c_ast.FuncCall, name: str, ftype: ct.Func, args: list[int]) -> int:
        self.account("Call", ftype.ret)
        pos = self.next_pos()
        result = None
        if not isinstance(ftype.ret, ct.Void):
            result = self.terms.add("CallRes", ftype.ret, "", (f"c{pos}",))
            self.leaves[result] = LeafInfo(float(pos), self.block.ctx)
        self.memory_event("call", pos)
        line = node.coord.line if node.coord else self.line
        self.emit(ir.Eval(name, tuple(args), result, ct.spell(ftype.ret), pos, line))
        self.calls[id(node)] = result
        return result if result is not None else self.const("0", ct.INT)

    def calls_first(self, node: c_ast.Node) -> None:
        """Evaluate the calls with side effects inside ``node`` before the rest of it.

        C leaves the order of evaluation within an expression unspecified, so
        doing calls first is a valid order; it lets every load of the statement
        see memory after the calls, as one version. Calls in the conditionally
        evaluated operands of ``&&``, ``||`` and ``?:`` are not moved (and are
        refused later, where they are met).
        """
        if _is_guard(node):
            self.calls_first(node.left if isinstance(node, c_ast.BinaryOp) else node.cond)
            return
        for child in node:
            self.calls_first(child)
        if isinstance(node, c_ast.FuncCall) and id(node) not in self.calls:
            name, ftype = self.callee(node)
            if not self.is_pure(name):
                self.effect_call(node, name, ftype, self.call_args(node, ftype))


def _is_guard(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.TernaryOp) or (
        isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||")
    )


def _keeps_value(source: ct.CType, target: ct.CType) -> bool:
    """Every value of integer type ``source`` is one of ``target`` (``(long)i``, not
    ``(unsigned char)i``: a subscript through a narrowing cast is another place)."""
    if not (ct.is_integer(source) and ct.is_integer(target)):
        return False
    lo, hi = ct.int_range(source)
    tlo, thi = ct.int_range(target)
    return tlo <= lo and hi <= thi


def _modular(value: int, t: ct.CType) -> int:
    """A 64-bit unsigned constant as the two's-complement value it is congruent to."""
    if ct.is_integer(t) and ct.is_unsigned(t) and ct.int_bits(t) == 64 and value >= 1 << 63:
        return value - (1 << 64)
    return value
