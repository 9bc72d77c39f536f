"""The builder's state: terms, contexts, variable environment, memory log.

Expressions (``expressions.py``) and statements (``statements.py``) extend it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import Unsupported
from ..frontend import ctypes as ct
from ..frontend.kernels import Kernel
from ..frontend.symbols import FileSymbols, Scope, Symbol
from ..ops import ARITHMETIC, FOLDABLE, MEMORY
from . import ir
from .memory import Access, Event, MemoryLog
from .terms import Term, TermTable, type_text


def needs_ctx(op: str, result: ct.CType | None, operand: ct.CType | None = None) -> bool:
    """Whether ``op`` must not be evaluated where the original did not evaluate it:
    it can trap (memory, integer division) or have undefined behaviour (signed
    overflow, shifts, float->int conversion out of range)."""
    if op in MEMORY:
        return True
    if op in ("Div", "Mod", "Shl", "Shr"):
        return result is not None and ct.is_integer(result)
    if op in ("Add", "Sub", "Mul", "Neg"):
        return result is not None and ct.is_signed(result)
    if op == "Cast":
        return (
            result is not None
            and ct.is_integer(result)
            and operand is not None
            and ct.is_float(operand)
        )
    if op == "Call":
        return result is not None and ct.is_integer(result)
    return False


@dataclass
class LeafInfo:
    """Where a leaf value exists: from ``pos`` on, in block ``ctx`` and below."""

    pos: float
    ctx: str
    holder: Symbol | None = None  # the variable that holds it from ``pos``
    kill: float | None = None  # loads: first later event that may change the location
    access: Access | None = None  # loads


@dataclass
class Site:
    """A memory access as written, for ``accsat advise``: the C expression naming the
    location (a pycparser node: its text and line), where it points, its block context."""

    kind: str  # "load" | "store"
    node: object
    access: Access
    ctx: str


@dataclass(frozen=True)
class Spelled:
    """A constant value a statement reads as the user wrote it: a constant expression
    (``node``, a pycparser node that reads no variable) or a variable that holds it
    (``sym``). Codegen spells the value so where the statement changed (constants.py)."""

    tid: int
    node: object = None
    sym: Symbol | None = None


@dataclass(eq=False)
class Origin:
    """The C statement (a pycparser node) that some statements of a block come from,
    and what it costs as written (an if: its condition; a loop or block: nothing of
    its own), so that codegen can print it as written when its computation is unchanged."""

    node: object
    cost: float
    synthetic: bool = False  # a block accsat made (the statements after a break)
    spelled: tuple[Spelled, ...] = ()  # its own constants as written (not nested statements')


@dataclass
class Stats:
    statements: int = 0
    loads: int = 0  # memory reads as written
    ops: int = 0  # arithmetic operators as written
    cost: float = 0.0  # tree cost of the body as written


@dataclass
class SSAKernel:
    """A kernel body in SSA form: the input of the e-graph and code generator."""

    terms: TermTable
    body: ir.Block
    ctx_parent: dict[str, str | None]
    inline_ctxs: set[str]
    leaves: dict[int, LeafInfo]
    assigns: dict[Symbol, list[float]]  # positions of every assignment to each variable
    loops: list[ir.Loop]
    stats: Stats
    roots: list[int] = field(default_factory=list)  # term ids the statements use
    names: set[str] = field(default_factory=set)  # identifiers used in the body
    sites: list[Site] = field(default_factory=list)  # every memory access as written
    origins: dict[int, Origin] = field(default_factory=dict)  # statement pos -> where from
    # store pos -> where its location keeps the stored value (``kill``: the first later
    # event that may change it): codegen may read the value back from there
    stored: dict[int, LeafInfo] = field(default_factory=dict)
    # the memory log: what a load's version ("e3": event 3, "e-": the kernel's entry) is
    events: list[Event] = field(default_factory=list)
    # type names the kernel's scope resolves, name -> canonical type: how a temporary of
    # a value typed through one may be declared (codegen/typenames.py)
    type_names: dict[str, str] = field(default_factory=dict)
    # per block (by context), each expression of the body as written that was lowered
    # there, with the type the typer gave it: what the compiler's check confirms of the
    # reading of the original (verify/typecheck.py)
    written_types: dict[str, list[tuple[object, ct.CType]]] = field(default_factory=dict)
    returns: ct.CType | None = None  # a function unit's return type


class BuilderState:
    def __init__(
        self,
        kernel: Kernel,
        symbols: FileSymbols,
        op_cost: Callable[[str, str], float],
        defined_functions: frozenset[str],
    ):
        self.kernel = kernel
        self.symbols = symbols
        self.op_cost = op_cost
        self.defined_functions = defined_functions
        self.terms = TermTable()
        self.ctx_parent: dict[str, str | None] = {"k0": None}
        self.inline_ctxs: set[str] = set()
        # (context, guard value, side) -> the context of operands evaluated under it
        self.guard_ctxs: dict[tuple[str, int, str], str] = {}
        self.ctx = "k0"
        self.scope: Scope = kernel.scope.child()
        self.env: dict[Symbol, int] = {}
        self.mem = MemoryLog()
        self.leaves: dict[int, LeafInfo] = {}
        self.stored: dict[int, LeafInfo] = {}  # SSAKernel.stored
        self.assigns: dict[Symbol, list[float]] = {}
        self.loops: list[ir.Loop] = []
        self.stats = Stats()
        self.block: ir.Block = ir.Block("k0")
        self.body_symbols: set[int] = set()  # id() of symbols declared inside the body
        self._pos = 0
        self._symkeys: dict[int, str] = {}
        self.symbol_of_key: dict[str, Symbol] = {}
        self.names: set[str] = set()
        self.line = kernel.line
        self.decl_pos: dict[int, float] = {}
        self.decl_ctx: dict[int, str] = {}
        self.constants: set[int] = set()  # constant expressions (literals and folds of them)
        self.origins: dict[int, Origin] = {}
        self.head_costs: dict[int, float] = {}  # id(if/loop node) -> cost of its own header
        self.sites: list[Site] = []
        self.spelled: list[Spelled | None] = []  # constants as written, in the order read
        self.var_reads = 0  # reads of register variables so far
        self.written_types: dict[str, list[tuple[object, ct.CType]]] = {}  # SSAKernel's

    # -- positions and contexts -----------------------------------------------------------
    def next_pos(self) -> int:
        self._pos += 1
        return self._pos

    @property
    def last_pos(self) -> int:
        return self._pos

    def new_ctx(self, inline: bool = False) -> str:
        name = f"k{len(self.ctx_parent)}"
        self.ctx_parent[name] = self.ctx
        if inline:
            self.inline_ctxs.add(name)
        return name

    def ancestors(self, ctx: str):
        c: str | None = ctx
        while c is not None:
            yield c
            c = self.ctx_parent[c]

    @property
    def in_inline(self) -> bool:
        return any(c in self.inline_ctxs for c in self.ancestors(self.ctx))

    # -- terms --------------------------------------------------------------------------------
    def mk(
        self,
        op: str,
        ctype: ct.CType | None,
        args: tuple[int, ...] = (),
        attrs: tuple[str, ...] = (),
        operand: ct.CType | None = None,
        count: bool = True,
        pinned: bool = False,
    ) -> int:
        """The term ``op(args)``; reuses one made in a dominating context when it must stay
        put (``needs_ctx``, or ``pinned``: a call of a function of the file)."""
        constant = op == "Const" or self.constant_args(op, args)
        if count and not constant:
            self.account(op, ctype)  # an operation on constants is the compiler's to fold
        tid = self._mk(op, ctype, args, attrs, operand, pinned)
        if constant:
            self.constants.add(tid)
        return tid

    def _mk(
        self,
        op: str,
        ctype: ct.CType | None,
        args: tuple[int, ...],
        attrs: tuple[str, ...],
        operand: ct.CType | None,
        pinned: bool = False,
    ) -> int:
        if not pinned and not needs_ctx(op, ctype, operand):
            return self.terms.add(op, ctype, "", attrs, args)
        text = type_text(ctype) if ctype is not None else ""
        for ctx in self.ancestors(self.ctx):
            found = self.terms.find(Term(op, f"{text}@{ctx}", attrs, args))
            if found is not None:
                return found
        return self.terms.add(op, ctype, self.ctx, attrs, args)

    def constant_args(self, op: str, args: tuple[int, ...]) -> bool:
        """A foldable operation whose arguments are all constant expressions."""
        return op in FOLDABLE and bool(args) and all(a in self.constants for a in args)

    def account(self, op: str, ctype: ct.CType | None) -> None:
        self.stats.cost += self.op_cost(op, "" if ctype is None else str(ctype))
        if op in ARITHMETIC:
            self.stats.ops += 1
        elif op == "Load":
            self.stats.loads += 1

    def ctype(self, tid: int) -> ct.CType:
        t = self.terms.types[tid]
        assert t is not None
        return t

    def const(self, text: str, ctype: ct.CType) -> int:
        return self.mk("Const", ctype, attrs=(text,))

    def convert(self, tid: int, target: ct.CType) -> int:
        """``tid`` converted to ``target`` as assignment or arithmetic does (implicit cast)."""
        source = self.ctype(tid)
        if source == target:
            return tid
        if (
            isinstance(target, ct.Pointer)
            and isinstance(source, ct.Pointer)
            and source.to == target.to
        ):
            return tid  # only the restrict qualifier differs
        if isinstance(target, (ct.Struct, ct.Void, ct.Array, ct.Func)):
            raise Unsupported(f"conversion to {target}")
        if isinstance(source, (ct.Struct, ct.Void, ct.Func)):
            raise Unsupported(f"conversion from {source}")
        return self.mk("Cast", target, (tid,), operand=source)

    # -- symbols and variables ---------------------------------------------------------------
    def symkey(self, sym: Symbol) -> str:
        key = self._symkeys.get(id(sym))
        if key is None:
            key = f"{sym.name}.{len(self._symkeys)}"
            self._symkeys[id(sym)] = key
            self.symbol_of_key[key] = sym
        return key

    def use(self, sym: Symbol) -> Symbol:
        """A variable the body reads or writes (names resolved by the typer)."""
        self.names.add(sym.name)
        if sym.volatile:
            raise Unsupported(f"volatile variable '{sym.name}'")
        return sym

    def is_register(self, sym: Symbol) -> bool:
        """A scalar that lives in a variable (SSA), not in memory."""
        if sym.kind not in ("local", "param"):
            return False
        if not (ct.is_arithmetic(sym.type) or isinstance(sym.type, ct.Pointer)):
            return False
        # a local whose address is taken lives in memory: its loads and stores are
        # ordered like any other against the calls and stores that may reach it
        return sym.name not in self.kernel.address_taken

    def read_var(self, sym: Symbol) -> int:
        value = self.env.get(sym)
        if value is None:
            value = self.entry_value(sym)
            self.env[sym] = value
        return value

    def entry_value(self, sym: Symbol) -> int:
        tid = self.terms.add("Var", sym.type, "", (sym.name, self.symkey(sym)))
        if tid not in self.leaves:
            inside = id(sym) in self.body_symbols
            self.leaves[tid] = (
                LeafInfo(0.0, "k0", sym)
                if not inside
                else LeafInfo(
                    self.decl_pos.get(id(sym), 0.0), self.decl_ctx.get(id(sym), "k0"), sym
                )
            )
        return tid

    def phi(self, sym: Symbol, tag: str, pos: float, ctx: str) -> int:
        tid = self.terms.add("Phi", sym.type, "", (sym.name, f"{self.symkey(sym)}.{tag}"))
        self.leaves[tid] = LeafInfo(pos, ctx, sym)
        return tid

    def record_assign(self, sym: Symbol, pos: float) -> None:
        self.assigns.setdefault(sym, []).append(pos)

    def emit(self, stmt: ir.Stmt) -> None:
        self.block.stmts.append(stmt)
        if isinstance(stmt, (ir.Assign, ir.Store, ir.Eval)):
            self.stats.statements += 1
