"""Lowering typed expressions (``frontend/typed.py``) to terms.

The typed form has every C type decided and every implicit conversion explicit; each
``Convert`` becomes a ``Cast`` term, so each operation's type is exact (the e-graph's
rules then only ever combine operations of one type). What is decided here is what
the SSA knows: which variables live in registers, where memory is, which loads see
which stores, which operands run only under a guard.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ..errors import Opaque, Unsupported
from ..frontend import cint
from ..frontend import ctypes as ct
from ..frontend import typed as tx
from ..frontend.fold import evaluate, scalar
from ..frontend.symbols import Symbol
from ..mathfuncs import PURE_MATH
from ..ops import FOLDABLE
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
    # typed Call -> result term, for calls evaluated first (the key keeps the tree alive:
    # a tree is made per statement, and an id() is reused once its object is gone)
    calls: dict[tx.TExpr, int | None]
    typer: tx.Typer
    # the targets of the assignments being lowered (what ``Current`` reads), the right
    # operands evaluated before the target's old value is read
    targets: list[tuple[LValue, c_ast.Node | None]]
    olds: list[int | None]  # the value each of those targets held before, once read
    ready: dict[tx.TExpr, int]

    # -- entry points -------------------------------------------------------------------
    def typed(self, node: c_ast.Node) -> tx.TExpr:
        """``node`` typed in the current scope (the one home of C's typing rules); a struct
        value in it (tx.struct_value) makes its statement one kept as written."""
        e = self.typer.expr(node, self.scope)
        why = tx.struct_value(e)
        if why:
            raise Opaque(why)
        return e

    def rvalue(self, e: tx.TExpr) -> int:
        """The value of ``e``; a constant the user wrote is noted with its spelling."""
        if e in self.ready:  # a right operand evaluated before its target's value
            return self.ready[e]
        reads = self.var_reads
        tid = self.lower(e)
        written = e.node is not None and not (isinstance(e, tx.Convert) and e.implicit)
        if written:
            self.written_types.setdefault(self.block.ctx, []).append((e.node, e.ctype))
            # a spelling of the value for the whole statement; under -fwrapv not one of a
            # guarded operand: folded with wrapping, it may be undefined in ISO C where the
            # guard kept the original from it (``c ? ((long)INT_MAX + 1) << 49 : x`` must not
            # spell the statement's other 0s); without -fwrapv such an operand never folds
            guarded = self.in_inline and ct.target().wrapv
            if tid in self.constants and self.var_reads == reads and not guarded:
                self.spelled.append(Spelled(tid, e.node))
        return tid

    def lower(self, e: tx.TExpr) -> int:
        return getattr(self, "rv_" + type(e).__name__)(e)

    def lvalue(self, e: tx.TExpr) -> LValue:
        if isinstance(e, tx.Name):
            sym = self.use(e.sym)
            if self.is_register(sym):
                return VarLV(sym)
        addr = self.designate(e)
        if addr is None:
            raise Unsupported("assignment to something that is not a variable or memory")
        return addr

    def operands(self, *exprs: tx.TExpr) -> list[int]:
        """The values of ``exprs``: each operand as written first, in order, then the
        conversions C applies to them (the order of the terms as C reads it)."""
        peeled = [_peel(e) for e in exprs]
        tids = [self.rvalue(raw) for raw, _ in peeled]
        return [self.rewrap(tid, wraps) for tid, (_, wraps) in zip(tids, peeled, strict=True)]

    def rewrap(self, tid: int, wraps: list[tx.TExpr]) -> int:
        for w in reversed(wraps):
            if isinstance(w, tx.Convert):
                tid = self.convert(tid, w.ctype)
            else:  # a pointer subtraction's negated count
                tid = self.mk("Neg", self.ctype(tid), (tid,))
        return tid

    # -- memory -------------------------------------------------------------------------------
    def designate(self, e: tx.TExpr) -> Addr | None:
        """The memory object an lvalue expression names; None for registers and rvalues."""
        if isinstance(e, tx.Name):
            sym = self.use(e.sym)
            if sym.kind in ("enum", "func") or self.is_register(sym):
                return None
            return self.object_addr(sym)
        if isinstance(e, tx.Index):
            return self.index_addr(e)
        if isinstance(e, tx.Member):
            return self.member_addr(e)
        if isinstance(e, tx.Deref):
            return self.deref_addr(e.pointer)
        return None

    def object_addr(self, sym: Symbol) -> Addr:
        key = self.symkey(sym)
        if isinstance(sym.type, ct.Array):
            ptype: ct.CType = ct.Pointer(sym.type.of)
        else:
            ptype = ct.Pointer(sym.type)
        base = self.mk("Sym", ptype, attrs=(sym.name, key), count=False)
        self.names.add(sym.name)
        return Addr(base, "", [], sym.type, self.object_region(sym), base, {})

    def object_region(self, sym: Symbol) -> Region:
        """The region of a declared object: "private" for a struct the body declares and
        never takes the address of (no pointer can reach it), else "sym"."""
        key = self.symkey(sym)
        private = (
            id(sym) in self.body_symbols
            and isinstance(sym.type, ct.Struct)
            and sym.name not in self.kernel.address_taken
        )
        return Region("private" if private else "sym", key)

    def index_addr(self, e: tx.Index) -> Addr:
        inner = self.designate(e.base)
        if inner is not None and isinstance(inner.ctype, ct.Array):
            idx = self.index_value(e.index)
            elem = inner.ctype.of
            return inner.then("[]", elem, self.scaled(idx, elem), idx)
        pointer = self.load_or_value(inner, e.base)
        ptype = self.ctype(pointer)
        if not isinstance(ptype, ct.Pointer):
            raise Unsupported("subscript of something that is not an array or pointer")
        idx = self.index_value(e.index)
        return self.pointer_addr(pointer, ptype.to, "[]", self.scaled(idx, ptype.to), idx)

    def member_addr(self, e: tx.Member) -> Addr:
        name = e.name
        if not e.arrow:
            inner = self.designate(e.base)
            if inner is None and isinstance(e.base.ctype, ct.Struct):
                raise Opaque(f"a member of a {e.base.ctype} value")  # of a call's result
            if inner is None or not isinstance(inner.ctype, ct.Struct):
                raise Unsupported("member access on something that is not a struct in memory")
            fld = self._field(inner.ctype, name)
            bits = fld if fld.bitfield else None
            return inner.then("." + name, fld.type, const_poly(fld.offset), bitfield=bits)
        pointer = self.rvalue(e.base)
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

    def deref_addr(self, pointer: tx.TExpr) -> Addr:
        """``*p``; ``*(p + k)`` (and ``*(p - k)``) indexes ``p`` by ``k`` as ``p[k]`` does."""
        if (
            isinstance(pointer, tx.PointerArith)
            and pointer.op == "PtrAdd"
            and pointer.node is not None
            and isinstance(pointer.left.ctype, ct.Pointer)
        ):
            count = pointer.right
            if isinstance(count, tx.Convert) and count.implicit:
                count = count.operand  # the count of p + k as written (p - k: negated)
            first, second = (count, pointer.left) if pointer.swapped else (pointer.left, count)
            values = self.operands(first, second)
            left, right = (values[1], values[0]) if pointer.swapped else values
            ltype = self.ctype(left)
            assert isinstance(ltype, ct.Pointer)
            return self.pointer_addr(left, ltype.to, "[]", self.scaled(right, ltype.to), right)
        value = self.rvalue(pointer)
        ptype = self.ctype(value)
        if not isinstance(ptype, ct.Pointer):
            raise Unsupported("'*' on something that is not a pointer")
        zero = self.const("0", ct.INT)
        return self.pointer_addr(value, ptype.to, "[]", const_poly(0), zero)

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
            sym = self.symbol_of_key.get(term.attrs[1])
            region = self.object_region(sym) if sym is not None else Region("sym", term.attrs[1])
            return region, tid, {}
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
        wraps = self.wraps_narrow(idx) and self.identity_of(idx) is None
        poly = var_poly(self.wrapped_place(idx)) if wraps else self.poly(idx)
        return None if size is None or poly is None else scale_poly(poly, size)

    def wrapped_place(self, tid: int) -> int:
        """The term that stands for the wrapping subscript ``tid``'s value: the first with
        the same polynomial, its coefficients modulo the type's width, where every
        operation down to its leaves is in ``tid``'s type (``(i + 5) - 3`` and ``i + 2``
        wrap alike: one place); ``tid`` itself otherwise."""
        t = self.ctype(tid)
        p = self._poly(tid)
        if not (isinstance(t, ct.Scalar) and ct.is_integer(t)) or p is None:
            return tid
        if p == var_poly(tid) or not self._in_type(tid, t):
            return tid
        width = 1 << ct.int_bits(t)
        key = (t, frozenset((m, c % width) for m, c in p.items() if c % width))
        return self.wrapped_places.setdefault(key, tid)

    def identity_of(self, tid: int) -> int | None:
        """The term ``tid`` is equal to whatever its operations wrap (``i * 1``, ``(i + k)
        - k``, ``i + 0`` under -fwrapv): its polynomial is one term ``x`` of a type that
        ``tid``'s holds, and each operation down to it is in ``tid``'s type, so the value,
        congruent to ``x`` modulo that type's width and in its range, is ``x`` itself."""
        t = self.ctype(tid)
        p = self._poly(tid)
        if not (isinstance(t, ct.Scalar) and ct.is_integer(t)) or p is None or len(p) != 1:
            return None
        ((mono, coeff),) = p.items()
        if coeff != 1 or len(mono) != 1 or mono[0] == tid:
            return None
        (x,) = mono
        tx_ = self.ctype(x)
        if not isinstance(tx_, ct.Scalar) or not ct.is_integer(tx_):
            return None
        (lo, hi), (xlo, xhi) = ct.int_range(t), ct.int_range(tx_)
        if not (lo <= xlo and xhi <= hi) or not self._in_type(tid, t):
            return None
        return x

    def _in_type(self, tid: int, t: ct.CType) -> bool:
        """Each operation from ``tid`` down to its leaves (terms that are their own
        polynomial) and constants is +, -, * in type ``t``, so ``tid`` is its polynomial
        modulo the type's width: also where leaves cancel out of it (``i + (n - n)``,
        ``i + 0 * n`` are ``i``), as they do in the e-graph's folds and so in the printed
        C."""
        if constant(self.terms, tid):
            return True
        term = self.terms[tid]
        if term.op in ("Add", "Sub", "Neg", "Mul") and self.ctype(tid) == t:
            return all(self._in_type(a, t) for a in term.args)
        return self.poly(tid) == var_poly(tid)

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
        wrapped = narrow or (ct.is_signed(t) and ct.target().wrapv)  # -fwrapv
        constant = p is not None and not set(p) - {()}
        if wrapped and constant and isinstance(t, ct.Scalar) and ct.int_bits(t) < 64:
            assert p is not None
            return const_poly(cint.wrap(p.get((), 0), t))
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
        if (
            term.op != "Cast"
            and ct.is_integer(t)
            and (ct.is_unsigned(t) or ct.target().wrapv)
            and ct.int_bits(t) < 64
        ):
            return True
        return any(self.wraps_narrow(a) for a in term.args)

    def index_value(self, e: tx.TExpr) -> int:
        idx = self.rvalue(e)
        if not ct.is_integer(self.ctype(idx)):
            raise Unsupported("array subscript is not an integer")
        return idx

    def load_or_value(self, addr: Addr | None, e: tx.TExpr) -> int:
        return self.rvalue(e) if addr is None else self.read(addr)

    def read(self, addr: Addr, site: c_ast.Node | None = None) -> int:
        """The value of a memory lvalue (arrays decay to their address); ``site``, the
        subscript or dereference that reads it, is noted for ``accsat advise``."""
        if isinstance(addr.ctype, ct.Array):
            return self.decay(addr)
        if isinstance(addr.ctype, ct.Unmodelled):
            raise Unsupported(addr.ctype.why)
        if isinstance(addr.ctype, ct.Struct):
            raise Opaque(f"a value of type {addr.ctype}")
        if isinstance(addr.ctype, (ct.Func, ct.Void)):
            raise Unsupported(f"a value of type {addr.ctype} read from memory")
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
    wrapped_places: dict[tuple, int]
    assigned_names: set[str]

    # -- leaves ----------------------------------------------------------------------------
    def rv_Const(self, e: tx.Const) -> int:
        return self.const(e.text, e.ctype)

    def rv_Name(self, e: tx.Name) -> int:
        sym = self.use(e.sym)
        if self.is_register(sym):
            self.account("Var", sym.type)
            return self.read_register(sym)
        addr = self.designate(e)
        if addr is None:
            raise Unsupported(f"cannot read '{sym.name}'")
        return self.read(addr)

    def rv_Index(self, e: tx.TExpr) -> int:
        addr = self.designate(e)
        assert addr is not None
        return self.read(addr, e.node)

    rv_Member = rv_Index

    def rv_Deref(self, e: tx.Deref) -> int:
        return self.read(self.deref_addr(e.pointer), e.node)

    def rv_AddressOf(self, e: tx.AddressOf) -> int:
        addr = self.designate(e.target)
        if addr is None:
            raise Unsupported("address of a register variable")
        return self.address_of(addr, ct.Pointer(addr.ctype))

    def rv_Convert(self, e: tx.Convert) -> int:
        return self.convert(self.rvalue(e.operand), e.ctype)

    def rv_Sequence(self, e: tx.Sequence) -> int:
        value = None
        for item in e.items:
            value = self.rvalue(item)
        assert value is not None
        return value

    # -- operators ---------------------------------------------------------------------------
    def rv_Unary(self, e: tx.Unary) -> int:
        (value,) = self.operands(e.operand)
        return self.mk(e.op, e.ctype, (value,))

    def rv_Binary(self, e: tx.Binary) -> int:
        return self.mk(e.op, e.ctype, tuple(self.operands(e.left, e.right)))

    def rv_PointerArith(self, e: tx.PointerArith) -> int:
        first, second = (e.right, e.left) if e.swapped else (e.left, e.right)
        values = self.operands(first, second)
        args = (values[1], values[0]) if e.swapped else (values[0], values[1])
        return self.mk(e.op, e.ctype, args)

    def rv_Logical(self, e: tx.Logical) -> int:
        left = self.rvalue(e.left)
        right = self.guarded(e.right, (left, e.op))
        return self.mk(e.op, ct.INT, (left, right))

    def guarded(self, e: tx.TExpr, guard: tuple[int, str]) -> int:
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
            return self.rvalue(e)
        finally:
            self.ctx = saved

    def rv_Conditional(self, e: tx.Conditional) -> int:
        cond = self.rvalue(e.cond)
        (then, then_wraps), (orelse, else_wraps) = _peel(e.then), _peel(e.orelse)
        a = self.guarded(then, (cond, "then"))
        b = self.guarded(orelse, (cond, "else"))
        a, b = self.rewrap(a, then_wraps), self.rewrap(b, else_wraps)
        return self.mk("Select", e.ctype, (cond, a, b))

    def no_side_effects_here(self, what: str) -> None:
        if self.in_inline:
            raise Unsupported(f"{what} inside a conditionally evaluated operand")

    def rv_Assign(self, e: tx.Assign) -> int:
        incdec = isinstance(e.node, c_ast.UnaryOp)
        self.no_side_effects_here("increment" if incdec else "assignment")
        return self.lower_assign(e)

    def lower_assign(self, e: tx.Assign) -> int:
        """``target = value`` in C's order: the target's address, the right operand, the
        target's value before (a compound assignment or an increment reads it), the
        conversions; the value of the expression (the old one for ``x++``)."""
        target = self.lvalue(e.target)
        if e.rhs is not None:
            self.ready[e.rhs] = self.rvalue(e.rhs)
        self.targets.append((target, e.target.node))
        self.olds.append(None)
        try:
            value = self.rvalue(e.value)
        finally:
            self.targets.pop()
            old = self.olds.pop()
            if e.rhs is not None:
                del self.ready[e.rhs]
        stored = self.assign(target, value, e.node)
        return old if e.post and old is not None else stored

    def rv_Current(self, e: tx.Current) -> int:
        target, site = self.targets[-1]
        old = self.current(target, site)
        self.olds[-1] = old
        return old

    def current(self, target: LValue, site: c_ast.Node | None) -> int:
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
            raise Unsupported(f"{target.ctype} assigned as a whole value")
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

    # -- calls -----------------------------------------------------------------------------
    def rv_Call(self, e: tx.Call) -> int:
        if e in self.calls:
            result = self.calls[e]
            if result is None:
                raise Unsupported("value of a void function call")
            return result
        args = self.operands(*e.args)
        if self.is_pure(e.name):
            # a function of the file may trap where its caller did not call it: it stays
            # in the context the call was in (two calls with the same arguments are one)
            pinned = e.name in self.defined_functions
            return self.mk(
                "Call", e.ftype.ret, (self.terms.list_of(args),), (e.name,), pinned=pinned
            )
        self.no_side_effects_here("call")
        return self.effect_call(e, e.name, e.ftype, args)

    def is_pure(self, name: str) -> bool:
        """A call of ``name`` is a value of its arguments alone: C's pure math, or a
        function of the file that reads and writes no memory (frontend/effects.py)."""
        if name in self.defined_functions:
            effects = self.symbols.effects(name)
            return effects is not None and effects.pure
        return name in PURE_MATH

    def call_event(self, name: str, pos: int, args: list[int]) -> None:
        """The memory event of a call with effects: it may change what its summary says it
        writes (a function of the file), else every location."""
        effects = self.symbols.effects(name) if name in self.defined_functions else None
        if effects is None or effects.writes.anywhere:
            self.memory_event("call", pos)
            return
        regions = {self.global_region(g) for g in effects.writes.globals}
        for k in effects.writes.params:
            regions.add(self.pointer_root(args[k])[0] if k < len(args) else ANYWHERE)
        if regions:  # a call that writes nothing changes nothing the body reads
            self.memory_event("summary", pos, regions=frozenset(regions))

    def global_region(self, name: str) -> Region:
        """The region of an object of the file (a static local of a callee: one of its own)."""
        sym = self.symbols.scope.names.get(name)
        return self.object_region(sym) if sym is not None else Region("sym", name)

    def effect_call(self, e: tx.Call, name: str, ftype: ct.Func, args: list[int]) -> int:
        self.account("Call", ftype.ret)
        pos = self.next_pos()
        result = None
        if not isinstance(ftype.ret, ct.Void):
            result = self.terms.add("CallRes", ftype.ret, "", (f"c{pos}",))
            self.leaves[result] = LeafInfo(float(pos), self.block.ctx)
        self.call_event(name, pos, args)
        node = e.node
        line = node.coord.line if node is not None and node.coord else self.line
        self.emit(ir.Eval(name, tuple(args), result, ct.spell(ftype.ret), pos, line))
        self.calls[e] = result
        return result if result is not None else self.const("0", ct.INT)

    def calls_first(self, e: tx.TExpr) -> None:
        """Evaluate the calls with side effects inside ``e`` before the rest of it.

        C leaves the order of evaluation within an expression unspecified, so
        doing calls first is a valid order; it lets every load of the statement
        see memory after the calls, as one version. Calls in the conditionally
        evaluated operands of ``&&``, ``||`` and ``?:`` are not moved (and are
        refused later, where they are met).
        """
        if isinstance(e, tx.Logical):
            self.calls_first(e.left)
            return
        if isinstance(e, tx.Conditional):
            self.calls_first(e.cond)
            return
        inner = list(tx.children(e))
        if isinstance(e, tx.PointerArith) and e.swapped:
            inner.reverse()
        for child in inner:
            self.calls_first(child)
        if isinstance(e, tx.Call) and e not in self.calls and not self.is_pure(e.name):
            self.effect_call(e, e.name, e.ftype, self.operands(*e.args))


def _peel(e: tx.TExpr) -> tuple[tx.TExpr, list[tx.TExpr]]:
    """``e`` without the conversions the typer added around it (implicit ``Convert``s, a
    pointer subtraction's ``Neg``), and those, outermost first."""
    wraps: list[tx.TExpr] = []
    while (isinstance(e, tx.Convert) and e.implicit) or (
        isinstance(e, tx.Unary) and e.node is None and e.op == "Neg"
    ):
        wraps.append(e)
        e = e.operand
    return e, wraps


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
    if isinstance(t, ct.Scalar) and ct.is_integer(t) and ct.is_unsigned(t):
        return cint.convert(value, ct.LONG) if ct.int_bits(t) == 64 else value
    return value
