"""Decide, for every extracted value, where it is computed.

A value is printed inline where it is used, or computed once into a
temporary. A temporary goes into the innermost block that covers all the
places that need it, just before the first of them. A value already held by a
variable (the user's own assignment, or a variable's value at kernel entry or
after an if/loop) is read from that variable wherever it still holds it.

Safety rules, checked here so a wrong placement can never be printed:
- a value that can trap or has undefined behaviour carries its control context
  (``ty@ctx``) and is never computed outside it;
- nothing is computed before the values it reads exist (``avail``);
- a load is never evaluated after a store that may change its location.
With bulk load, every load goes to the earliest point of its own context
where its inputs exist, loads at one point sorted by array and index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..egraph.graph import ENode, reach
from ..frontend import ctypes as ct
from ..frontend.symbols import Symbol
from ..ops import LEAVES as LEAF_OPS
from ..ops import OPS
from ..ssa import ir
from ..ssa.state import LeafInfo
from .cexpr import constant_expr, scalar_type
from .program import Holder, Point, Program, Use

INLINE_ONLY = {"Const", "Sym", "TNil", "TCons"}
_INDEX_OPS = {
    "Add", "Sub", "Mul", "Div", "Mod", "Neg", "Shl", "Shr", "BitAnd", "BitOr", "BitXor",
    "BitNot", "Cast",
}  # fmt: skip
# the access path of a named variable or of a member of one (``n``, ``s.len``, ``s.p.q``)
_NAMED = re.compile(r"(\.\w+)*")
_INDEX_LEAVES = {"Var", "Phi", "Const"}
# Leaves that exist from a point of the kernel on (variables' values, call
# results); constants and symbols exist everywhere.
LEAVES = LEAF_OPS - INLINE_ONLY


class PlacementError(Exception):
    """The extraction cannot be printed safely; the kernel stays as written."""


# why a value the extraction shares is printed at each use (Plan.inline_shared)
INDEX, NEGATION, GUARDED = "index arithmetic", "negation", "operand under a guard"
CONVERSION = "integer converted to floating"
# FLT_EVAL_METHOD 2 (x87): a floating-point value put in a variable is rounded to its
# type, where the original kept it at the wider precision it was computed in
EXCESS = "floating-point value kept at its evaluation precision"
NAME = "variable or array read by name"


@dataclass
class Plan:
    choice: dict[int, ENode]
    class_of: dict[int, int]
    temps: dict[int, Point] = field(default_factory=dict)  # class -> where it is computed
    order: dict[Point, list[int]] = field(default_factory=dict)  # emission order per point
    holders: dict[int, list[Holder]] = field(default_factory=dict)
    calls: set[int] = field(default_factory=set)  # CallRes classes (named by their Eval)
    # where each CallRes class is read (a call read once, by its own statement, prints there)
    call_uses: dict[int, list[float]] = field(default_factory=dict)
    hoisted: int = 0  # bulk loads moved above a store they do not alias (what pays)
    # under a register budget (budget.py) a class may be computed again at a later point
    # (``order`` names it there too); a value read back from where a store put it is
    # printed as this load of the store's location
    nodes: dict[tuple[Point, int], ENode] = field(default_factory=dict)
    budget: dict[str, object] = field(default_factory=dict)  # what the budget did (report)
    # values the extraction shares (two uses or more) that are printed at each use, by
    # why: index arithmetic, a negation, an operand that runs only under a guard
    inline_shared: dict[int, str] = field(default_factory=dict)  # class -> why


class _Planner:
    def __init__(
        self,
        program: Program,
        choice: dict[int, ENode],
        class_of: dict[int, int],
        bulk: bool,
        share: bool = True,
    ):
        self.p = program
        self.ssa = program.ssa
        self.choice = choice
        self.class_of = class_of
        self.bulk = bulk
        # share=False: no temporary of our own; every value is computed where it is used,
        # and one a store left in memory is read back from there (the kernel as written)
        self.share = share
        self.uses: dict[int, list[Use]] = {}  # class -> where it is evaluated
        # class -> use position -> the use and the store whose location holds it there
        self.reloaded: dict[int, dict[float, tuple[Use, ir.Store]]] = {}
        self._homes: dict[int, list[tuple[ir.Store, LeafInfo]]] | None = None
        self._declared: dict[Symbol, str] | None = None
        self.leaf: dict[int, LeafInfo] = {}
        for tid, info in self.ssa.leaves.items():
            if tid in class_of:
                self.leaf.setdefault(class_of[tid], info)
        self.plan = Plan(choice, class_of)
        self._pin: dict[int, str | None] = {}
        self._avail: dict[int, float] = {}
        self._index: dict[int, bool] = {}
        self._constant: dict[int, bool] = {}
        self.stores = [
            (float(s.pos), b.ctx) for s, b in ir.walk(self.ssa.body) if isinstance(s, ir.Store)
        ]
        self.branches = {
            frozenset((s.then.ctx, s.orelse.ctx))
            for s, _ in ir.walk(self.ssa.body)
            if isinstance(s, ir.If) and s.orelse is not None
        }

    # -- facts about classes ---------------------------------------------------------------
    def collect_holders(self) -> None:
        """The user's variables that hold each class's value, where the printer may
        spell the value by their name.  A variable assigned a value computed in the
        body holds it unless the value is an array's own address (``c`` spells it) or
        the variable points to const or volatile (``const double *p = c;``: a store to
        ``c[k]`` is not ``p[k] = ...``)."""
        holders = self.plan.holders
        for tid, info in self.ssa.leaves.items():
            if info.holder is not None and tid in self.class_of:
                holders.setdefault(self.class_of[tid], []).append(
                    Holder(info.holder, info.pos, info.ctx)
                )
        for stmt, block in ir.walk(self.ssa.body):
            if isinstance(stmt, ir.Assign):
                cls = self.class_of[stmt.value]
                node = self.choice.get(cls)
                if stmt.sym.qualified_target or node is not None and node.op == "Sym":
                    continue
                holders.setdefault(cls, []).append(Holder(stmt.sym, float(stmt.pos), block.ctx))

    def pin(self, cls: int) -> str | None:
        """The innermost context this value may be computed in (None: anywhere).

        An operand C evaluates only on some paths (``&&``, ``||``, ``?:``) is lowered in
        a context of its own, just inside the one the operator is in; the operator runs
        it only there, wherever the operator itself is computed. So such an operand
        pins the operator to its context's parent, not to itself: ``c ? b[i] : d[i]``
        may be computed once wherever ``c`` and the loads' inputs exist, and each load
        still runs only under its arm of the condition."""
        if cls in self._pin:
            return self._pin[cls]
        node = self.choice[cls]
        own = node.ctx or None
        if node.op == "CallRes":
            own = self.leaf[cls].ctx
        guarded = OPS[node.op].guarded
        for k, child in enumerate(node.children):
            inner = self.pin(child)
            if k in guarded and inner is not None and inner in self.ssa.inline_ctxs:
                inner = self.p.parent(inner)
            own = self._deeper(own, inner)
        self._pin[cls] = own
        return own

    def _deeper(self, a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return a or b
        if self.p.is_within(a, b):
            return a
        if self.p.is_within(b, a):
            return b
        raise PlacementError(f"value needs two unrelated contexts {a} and {b}")

    def avail(self, cls: int) -> float:
        """The position from which every leaf this value reads exists."""
        if cls in self._avail:
            return self._avail[cls]
        node = self.choice[cls]
        at = 0.0
        if node.op in LEAVES or node.op == "Load":
            info = self.leaf.get(cls)
            at = info.pos if info is not None else 0.0
        for child in node.children:
            at = max(at, self.avail(child))
        self._avail[cls] = at
        return at

    def index_arithmetic(self, cls: int) -> bool:
        """Integer arithmetic (+, -, *, /, %, shifts, bitwise operators) and conversions
        over variables and constants (i + 1, (k * ny + j) * nx + i, x % 5, i * n with
        ``n`` a global): printed where used, never in a temporary. Every compiler shares
        and strength-reduces such address arithmetic by itself, so a temporary would
        change the text without changing the code (docs/rewrites.md)."""
        if cls not in self._index:
            node = self.choice[cls]
            t = scalar_type(node.ctype)
            self._index[cls] = (
                t is not None
                and ct.is_integer(t)
                and (
                    node.op in _INDEX_LEAVES
                    or self.named_load(cls)
                    or node.op in _INDEX_OPS
                    and all(self.index_arithmetic(c) for c in node.children)
                )
            )
        return self._index[cls]

    def named_load(self, cls: int) -> bool:
        """A load of a variable by its name, or of a member of one (``n``, ``s.len``: a
        global, a local whose address is taken): a compiler keeps its value in a
        register as long as no store can reach it, which is as long as accsat shares
        it, so a temporary of ours would only copy it."""
        node = self.choice[cls]
        if node.op != "Load" or self.choice[node.children[0]].op != "Sym":
            return False
        return bool(_NAMED.fullmatch(node.attrs[0])) and self.choice[node.children[1]].op == "TNil"

    def int_to_floating(self, cls: int) -> bool:
        """``(double)i``: printed where used, never in a temporary. gcc folds
        ``0.0 - (double)i`` to ``-(double)i`` when it sees the conversion in the same
        expression (-0.0 for i == 0 where C gives +0.0; gcc 12, at -O0 too), but not
        through a variable at -O1; printing the conversion where the user wrote it keeps
        what the user's compiler computes (fuzz seed 5000903). A conversion costs one
        instruction, and compilers share it by themselves."""
        node = self.choice[cls]
        if node.op != "Cast":
            return False
        to, source = scalar_type(node.ctype), self.choice[node.children[0]].ctype
        frm = scalar_type(source)
        return to is not None and frm is not None and ct.is_float(to) and ct.is_integer(frm)

    def excess_precision(self, cls: int) -> bool:
        """A floating-point operation's value where the target evaluates wider than the
        type (``ctypes.Target.excess_precision``): only the user's own assignments round."""
        node = self.choice[cls]
        t = scalar_type(node.ctype)
        return (
            ct.target().excess_precision
            and t is not None
            and ct.is_float(t)
            and node.op not in ("Load", "Var", "Phi", "Const", "CallRes")
        )

    def to_pointer(self, cls: int) -> bool:
        """``(real_t *)p``: a conversion to a pointer costs no instruction; printed
        where used (``*((real_t *)p) -= 5;``), never in a temporary of its own."""
        node = self.choice[cls]
        return node.op == "Cast" and node.ctype.rstrip().endswith("*")

    def constant(self, cls: int) -> bool:
        return constant_expr(self.choice, cls, self._constant)

    def covered(self, cls: int, use: Use) -> bool:
        return any(self.p.holds_at(h, use) for h in self.plan.holders.get(cls, ()))

    # -- the pass ------------------------------------------------------------------------------
    def run(self) -> Plan:
        self.collect_holders()
        uses: dict[int, list[Use]] = {}
        for stmt, block in ir.walk(self.ssa.body):
            for tid in ir.uses(stmt):
                uses.setdefault(self.class_of[tid], []).append(Use(float(stmt.pos), block.ctx))
            if isinstance(stmt, ir.Eval) and stmt.result in self.class_of:
                self.plan.calls.add(self.class_of[stmt.result])
        for cls in self.topological(list(uses)):
            evaluated = self.place(cls, uses.get(cls, []))
            for child in self.choice[cls].children:
                uses.setdefault(child, []).extend(evaluated)
        for served in self.reloaded.values():  # a read back evaluates its location
            for use, store in served.values():
                for tid in (store.base, *store.indices):
                    self.evaluate(self.class_of[tid], [use], uses)

        self.uses = uses
        self.plan.call_uses = {  # where no variable of the user's holds it
            c: sorted({u.pos for u in uses.get(c, []) if not self.covered(c, u)})
            for c in self.plan.calls
        }
        self.order_points()
        return self.plan

    def _inline_shared(self, cls: int, uses: list[Use], why: str) -> None:
        if len(uses) > 1:
            self.plan.inline_shared[cls] = why

    def evaluate(self, cls: int, at: list[Use], uses: dict[int, list[Use]]) -> None:
        """Place ``cls`` for more uses (index arithmetic and the variables it reads)."""
        uses.setdefault(cls, []).extend(at)
        for child in self.choice[cls].children:
            self.evaluate(child, self.place(cls, at), uses)

    def topological(self, roots: list[int]) -> list[int]:
        """Classes reachable through the chosen nodes, every parent before its children."""
        order: list[int] = []
        state: dict[int, int] = {}
        for root in roots:
            stack = [(root, 0)]
            while stack:
                cls, i = stack.pop()
                if i == 0:
                    if state.get(cls) == 2:
                        continue
                    if state.get(cls) == 1:
                        raise PlacementError("the extracted graph has a cycle")
                    state[cls] = 1
                kids = self.choice[cls].children
                if i < len(kids):
                    stack.append((cls, i + 1))
                    if state.get(kids[i]) != 2:
                        stack.append((kids[i], 0))
                else:
                    state[cls] = 2
                    order.append(cls)
        return order[::-1]

    def place(self, cls: int, uses: list[Use]) -> list[Use]:
        """Decide how ``cls`` is computed; return where its node is evaluated."""
        node = self.choice[cls]
        if node.op in INLINE_ONLY or self.constant(cls):  # the compiler folds constants
            if node.op == "Sym":
                self._inline_shared(cls, uses, NAME)
            return uses
        if node.op == "CallRes":
            return []
        if node.op in ("Var", "Phi"):  # read by name at each use, held or not
            self._inline_shared(cls, uses, NAME)
        open_uses = [u for u in uses if not self.covered(cls, u)]
        if not open_uses:
            return []
        if not self.share and node.op not in ("Var", "Phi") and not self.index_arithmetic(cls):
            served = {
                u.pos: (u, s) for u in open_uses if (s := self.store_home(cls, u)) is not None
            }
            if served:
                self.reloaded[cls] = served
            return self.check(cls, [u for u in open_uses if u.pos not in served])
        if node.op in ("Var", "Phi"):
            info = self.leaf.get(cls)
            if info is None:
                raise PlacementError(f"no definition for {node.attrs[0]}")
            scope = self.declared_in().get(info.holder) if info.holder is not None else None
            if scope is not None and any(not self.p.is_within(u.ctx, scope) for u in open_uses):
                # its value reached memory (a loop's promoted location written back) and
                # is read again after the block that declares its variable
                raise PlacementError(
                    f"the value of '{node.attrs[0]}' is needed after the block declaring it"
                )
            self.plan.temps[cls] = self.p.first_point_after(info.ctx, info.pos)
            return []
        if self.named_load(cls) and self.fits(cls, open_uses):
            self._inline_shared(cls, open_uses, NAME)  # read by name at each use
            return self.check(cls, open_uses)

        pin = self.pin(cls)
        if pin is not None and not self.p.is_block(pin):
            self._inline_shared(cls, open_uses, GUARDED)
            return self.check(cls, open_uses)  # inside a guarded operand: only inline
        point = self.bulk_point(cls, pin, open_uses)
        if point is not None:
            self.plan.hoisted += 1
        elif len(open_uses) == 1 or self.index_arithmetic(cls) or node.op == "Neg":
            # a negation goes into what uses it (a - b * c): never a temporary of its own
            self._inline_shared(cls, open_uses, NEGATION if node.op == "Neg" else INDEX)
            return self.check(cls, open_uses)
        elif self.int_to_floating(cls) or self.to_pointer(cls):
            self._inline_shared(cls, open_uses, CONVERSION)
            return self.check(cls, open_uses)
        elif self.excess_precision(cls):
            self._inline_shared(cls, open_uses, EXCESS)
            return self.check(cls, open_uses)
        else:
            scope = self.p.lca([u.ctx for u in open_uses])
            if pin is not None and not self.p.is_within(scope, pin):
                raise PlacementError("a value is needed outside the context it may run in")
            point = self.p.point_before_use(scope, min(open_uses, key=lambda u: u.pos))
        at = self.p.point_pos(point)
        if at <= self.avail(cls):
            raise PlacementError("a value would be computed before its inputs exist")
        self.plan.temps[cls] = point
        return self.check(cls, [Use(at, point.ctx)])

    def declared_in(self) -> dict[Symbol, str]:
        """The block of each variable declared in the body (the user's and promote.py's)."""
        if self._declared is None:
            self._declared = {}
            for stmt, block in ir.walk(self.ssa.body):
                if (sym := ir.declared(stmt)) is not None:
                    self._declared[sym] = block.ctx
        return self._declared

    def store_home(self, cls: int, use: Use) -> ir.Store | None:
        """The latest store whose location still holds ``cls``'s value where ``use`` is
        (it ran before on every path there, and no later event may have changed it), when
        that location prints anywhere: a variable or array indexed by index arithmetic."""
        if self._homes is None:
            self._homes = {}
            for stmt, _ in ir.walk(self.ssa.body):
                if isinstance(stmt, ir.Store) and stmt.pos in self.ssa.stored:
                    self._homes.setdefault(self.class_of[stmt.value], []).append(
                        (stmt, self.ssa.stored[stmt.pos])
                    )
        best = None
        for store, info in self._homes.get(cls, ()):
            if (
                info.pos < use.pos
                and (info.kill is None or use.pos <= info.kill)
                and self.p.is_within(use.ctx, info.ctx)
                and self.plain_location(store)
                and (best is None or store.pos > best.pos)
            ):
                best = store
        return best

    def plain_location(self, store: ir.Store) -> bool:
        base = self.choice[self.class_of[store.base]].op
        return base in ("Sym", "Var", "Phi") and all(
            self.index_arithmetic(self.class_of[i]) for i in store.indices
        )

    def bulk_point(self, cls: int, pin: str | None, uses: list[Use]) -> Point | None:
        """With bulk load, where a load goes: the earliest point of its context where
        its inputs exist, when that moves it above a store (it does not alias one: a
        load is never placed before its memory version). A load that would pass no
        store stays where it is: the compiler may move it there by itself."""
        if not self.bulk or self.choice[cls].op != "Load" or pin is None:
            return None
        point = self.p.first_point_after(pin, self.avail(cls))
        return point if self.above_store(self.p.point_pos(point), uses) else None

    def above_store(self, at: float, uses: list[Use]) -> bool:
        """Is there a store on the way from ``at`` to the first use? (A load placed
        after its memory version never moves above a store that may alias it.)"""
        first = min(uses, key=lambda u: u.pos)
        return any(
            at < pos < first.pos and not self.exclusive(ctx, first.ctx) for pos, ctx in self.stores
        )

    def exclusive(self, a: str, b: str) -> bool:
        """Are blocks ``a`` and ``b`` in different branches of one if (never both run)?"""
        top = self.p.lca([a, b])
        return frozenset((self._below(a, top), self._below(b, top))) in self.branches

    def _below(self, ctx: str, top: str) -> str:
        """The block just inside ``top`` that holds ``ctx`` (``top`` itself if it is ``ctx``)."""
        while ctx != top and (up := self.p.parent(ctx)) != top:
            assert up is not None, f"{top} does not hold {ctx}"
            ctx = up
        return ctx

    def check(self, cls: int, evaluated: list[Use]) -> list[Use]:
        for u in evaluated:
            why = self.misplaced(cls, u)
            if why:
                raise PlacementError(why)
        return evaluated

    def fits(self, cls: int, uses: list[Use]) -> bool:
        """``cls`` may be computed at each of ``uses`` (check would pass)."""
        return not any(self.misplaced(cls, u) for u in uses)

    def misplaced(self, cls: int, u: Use) -> str:
        """Why ``cls`` may not be computed at ``u``; "" when it may."""
        pin = self.pin(cls)
        if pin is not None and self.p.is_block(pin) and not self.p.is_within(u.ctx, pin):
            return "a value would be computed outside its context"
        if self.choice[cls].op == "Load":
            info = self.leaf.get(cls)
            if info is not None and info.kill is not None and u.pos > info.kill:
                return "a load would move past a store that may alias it"
        return ""

    def order_points(self) -> None:
        """At each point: inputs before users; loads first, sorted by array and index."""
        rank = {c: i for i, c in enumerate(self.topological(list(self.plan.temps))[::-1])}
        by_point: dict[Point, list[int]] = {}
        for cls, point in self.plan.temps.items():
            by_point.setdefault(point, []).append(cls)
        for point, classes in by_point.items():
            self.plan.order[point] = self._sorted(classes, rank)

    def _sorted(self, classes: list[int], rank: dict[int, int]) -> list[int]:
        members = set(classes)
        deps = {c: {d for d in self._deps(c) if d in members and d != c} for c in classes}
        out: list[int] = []
        while deps:
            ready = [c for c, ds in deps.items() if not ds]
            if not ready:
                raise PlacementError("temporaries depend on each other")
            best = min(ready, key=lambda c: self._key(c, rank))
            out.append(best)
            del deps[best]
            for ds in deps.values():
                ds.discard(best)
        return out

    def _deps(self, cls: int) -> set[int]:
        """Classes read while computing ``cls`` (through inline parts)."""

        def inline_children(c: int) -> tuple[int, ...]:
            return () if c in self.plan.temps else self.choice[c].children

        return set(reach(self.choice[cls].children, inline_children))

    def _key(self, cls: int, rank: dict[int, int]) -> tuple:
        node = self.choice[cls]
        if self.bulk and node.op == "Load":
            return (0, load_sort_key(self.choice, node), rank.get(cls, 0))
        return (1, (), rank.get(cls, 0))


def load_sort_key(choice: dict[int, ENode], node: ENode) -> tuple:
    """Array name, then static index: u[0][k] before u[1][k] before v[0][k]."""
    base = choice[node.children[0]]
    name = base.attrs[0] if base.op in ("Sym", "Var", "Phi") else "~"
    index = []
    lst = choice[node.children[1]]
    while lst.op == "TCons":
        head = choice[lst.children[0]]
        index.append(_index_key(head, choice))
        lst = choice[lst.children[1]]
    return (name, node.attrs[0], tuple(index))


def _index_key(node: ENode, choice: dict[int, ENode]) -> tuple:
    if node.op == "Const":
        try:
            return (0, int(node.attrs[0].rstrip("uUlL")), "")
        except ValueError:
            return (1, 0, node.attrs[0])
    if node.op in ("Add", "Sub") and choice[node.children[1]].op == "Const":
        sign = 1 if node.op == "Add" else -1
        inner = choice[node.children[0]]
        try:
            k = sign * int(choice[node.children[1]].attrs[0].rstrip("uUlL"))
        except ValueError:
            k = 0
        return (1, k, inner.attrs[0] if inner.attrs else inner.op)
    return (1, 0, node.attrs[0] if node.attrs else node.op)


def make_plan(
    program: Program, choice: dict[int, ENode], class_of: dict[int, int], bulk: bool
) -> Plan:
    return _Planner(program, choice, class_of, bulk).run()


def planner(
    program: Program,
    choice: dict[int, ENode],
    class_of: dict[int, int],
    bulk: bool,
    share: bool = True,
) -> _Planner:
    """The planner after its pass (``.plan``; ``share=False``: the kernel as written,
    where the budget starts from, budget.py)."""
    p = _Planner(program, choice, class_of, bulk and share, share)
    p.run()
    return p
