"""Keeping a rewrite within a register budget (``Options.registers``).

Sharing a value saves its loads but keeps it in a register from its first use to
its last; on a GPU more registers per thread means fewer threads in flight
(occupancy), which costs more than the loads saved (issue 26). Under a budget:

1. The plan as today (``make_plan``) is kept when the register model
   (registers.py) says it fits.
2. Otherwise the kernel is planned as written (``planner(share=False)``: every
   value computed where it is used, a value a store left in memory read back
   from there), and sharing is added back with at most ``B`` values held at a
   time: walking the body in print order, a value needed again is kept in a
   temporary; when ``B`` are held, the one needed again furthest ahead is given
   up (Belady's rule) and computed again, or read back from memory, at its next
   use. The largest ``B`` whose model fits is taken.

Every value given up is computed again exactly where the kernel as written
computes it (that plan is checked like any other), or read back from a store's
location where no event since the store may have changed it (``SSAKernel.stored``).
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from ..egraph.graph import ENode
from ..occupancy import BLOCK_THREADS, MAX_REGISTERS, step_limit
from ..settings import ANY, AUTO, KEEP, Registers
from ..ssa import ir
from .placement import INLINE_ONLY, PlacementError, Plan, _Planner, make_plan, planner
from .program import Point, Program, Use
from .registers import Figures, model, peak_for


class OverBudget(PlacementError):
    """Not even the kernel planned as written fits the budget: it stays as written."""


def parse(setting: object) -> str | int:
    """``any``, ``keep`` or a register count per thread (``Options.registers``; a count
    above what a thread may have is ``any``, and so is ``auto`` where no compile said it
    makes GPU code: ``Options.for_target``)."""
    value = Registers()(ANY if setting is None else setting)
    return ANY if value == AUTO or isinstance(value, int) and value > MAX_REGISTERS else value


def written_choice(program: Program) -> tuple[dict[int, ENode], dict[int, int]]:
    """The terms as written, each its own class (no e-graph)."""
    terms = program.ssa.terms.terms
    choice = {i: ENode(t.op, t.ty, t.attrs, t.args) for i, t in enumerate(terms)}
    return choice, {i: i for i in range(len(terms))}


def written_plan(program: Program) -> Plan:
    """The kernel as written, as a plan (a value a store left in memory read back)."""
    choice, class_of = written_choice(program)
    return _Belady(planner(program, choice, class_of, False, share=False), 0).run()


def written_figures(program: Program) -> Figures:
    """The model of the kernel as written."""
    return model(program, written_plan(program))


def limit(
    setting: str | int, written: Figures, ptxas_written: int | None = None, margin: int = 0
) -> int:
    """The most registers the model's estimate of a rewrite may reach.

    The model's estimate is what ptxas needs at least; ptxas's count of a rewrite is
    about the larger of its count as written and that estimate (registers.py). ``keep``:
    the estimate stays within the occupancy step (at 128 threads a block) of the kernel
    as written, its registers from ptxas where given (and never below the estimate of
    the kernel as written), else the estimate (a lower bound: its step is never above
    the real one), less ``margin`` registers. ``N``: the estimate stays within N."""
    if setting == KEEP:
        if ptxas_written is None:
            return step_limit(written.registers, BLOCK_THREADS) - margin
        # the code as written fits its step whatever the model says of it: a rewrite the
        # model finds no dearer is let through too (ptxas then checks: wrapper/ptxkeep.py)
        return max(step_limit(ptxas_written, BLOCK_THREADS) - margin, written.registers)
    assert isinstance(setting, int)
    return setting


def budget_plan(
    program: Program,
    choice: dict[int, ENode],
    class_of: dict[int, int],
    bulk: bool,
    registers: object = ANY,
    ptxas_written: int | None = None,
    most_held: int | None = None,
    margin: int = 0,
) -> Plan:
    """``make_plan`` within the register budget ``registers`` (``Options.registers``);
    ``plan.budget`` says what the model found and whether the budget bound.
    ``ptxas_written``: ptxas's registers for the kernel as written, where known;
    ``most_held``: hold at most this many values at a time (a caller that compiled the
    rewrite and saw ptxas need more than the model said asks again with fewer);
    ``margin``: registers ``keep`` leaves free below the step's top."""
    setting = parse(registers)
    full = make_plan(program, choice, class_of, bulk)
    if setting == ANY:
        return full
    try:
        written = written_figures(program)
    except PlacementError as exc:  # then the budget cannot be judged: keep it as written
        raise PlacementError(
            f"register budget {setting}: the kernel as written could not be modelled ({exc})"
        ) from exc
    most = limit(setting, written, ptxas_written, margin)
    cap = peak_for(most)
    now = model(program, full)
    report = {
        "setting": str(setting),
        "written": written.registers,
        **({"ptxas_written": ptxas_written} if ptxas_written is not None else {}),
        "limit": most,
        "before": now.registers,
        "bound": now.peak > cap,
    }
    if now.peak <= cap and most_held is None:
        full.budget = {**report, "after": now.registers}
        return full
    base = planner(program, choice, class_of, False, share=False)
    try:
        best, figures, slots = _search(program, base, cap, most_held)
    except OverBudget as exc:
        raise OverBudget(f"{_allowed(setting, most, ptxas_written)}; {exc}") from None
    best.budget = {**report, "after": figures.registers, "held": slots}
    return best


def _allowed(setting: str | int, most: int, ptxas_written: int | None) -> str:
    """What the budget allows, in words (a reason's first half)."""
    if setting == KEEP and ptxas_written is not None:
        return (
            f"keep allows {most} registers a thread (the occupancy step of the "
            f"{ptxas_written} ptxas gives the kernel as written)"
        )
    if setting == KEEP:
        return f"keep allows {most} registers a thread (the occupancy step as written)"
    return f"the budget is {most} registers a thread"


def _search(
    program: Program, base: _Planner, cap: float, most_held: int | None = None
) -> tuple[Plan, Figures, int]:
    """The plan with the most values held (at most B at a time) that fits ``cap``."""
    top = sum(len(s) > 1 for s in _sites(base).values())
    if most_held is not None:
        top = min(top, max(most_held, 0))
    plan = _Belady(base, 0).run()
    figures = model(program, plan)
    lo, hi, found = 0, top, (plan, figures, 0)
    if figures.peak > cap:
        raise OverBudget(
            f"accsat's model puts the kernel at {figures.registers} registers even sharing no value"
        )
    while lo < hi:
        mid = (lo + hi + 1) // 2
        plan = _Belady(base, mid).run()
        figures = model(program, plan)
        if figures.peak <= cap:
            lo, found = mid, (plan, figures, mid)
        else:
            hi = mid - 1
    return found


def _sites(base: _Planner) -> dict[int, list[float]]:
    """Where the kernel as written computes each class (not where a variable holds it)."""
    return {
        cls: sorted({u.pos for u in uses if not base.covered(cls, u)})
        for cls, uses in base.uses.items()
    }


class _Belady:
    """The kernel as written (``base``), with values held in temporaries, at most
    ``slots`` at a time, the one needed furthest ahead given up first."""

    def __init__(self, base: _Planner, slots: int):
        self.pl = base
        self.p = base.p
        self.slots = slots
        self.sites = _sites(base)
        self.choice = dict(base.choice)
        self.order: dict[Point, list[int]] = {}
        self.nodes: dict[tuple[Point, int], ENode] = {}
        self.temps: dict[int, Point] = dict(base.plan.temps)
        self.bound: set[int] = set()  # classes with a temporary in scope
        self.scopes: list[list[tuple[int, bool]]] = []
        self.held: dict[int, float] = {}  # class -> end of the block its temporary is in
        self._fresh = 0
        self._loads: dict[int, bool] = {}

    def run(self) -> Plan:
        self.block(self.p.ssa.body)
        base = self.pl.plan
        order = {pt: list(cs) for pt, cs in base.order.items()}
        for pt, classes in self.order.items():
            order.setdefault(pt, []).extend(classes)
        return replace(
            base, choice=self.choice, temps=self.temps, order=order, nodes=self.nodes, hoisted=0
        )

    # -- the walk, as the printer goes ----------------------------------------------
    def block(self, block: ir.Block) -> None:
        self.scopes.append([])
        for i, stmt in enumerate(block.stmts):
            point = Point(block.ctx, i)
            for cls in self.pl.plan.order.get(point, ()):
                self.bind(cls)
            use = Use(float(stmt.pos), block.ctx)
            for tid in ir.uses(stmt):
                self.visit(self.pl.class_of[tid], use, point)
            for child in ir.children(stmt):
                self.block(child)
        for cls, was in reversed(self.scopes.pop()):
            self.held.pop(cls, None)
            if not was:
                self.bound.discard(cls)

    def bind(self, cls: int) -> None:
        self.scopes[-1].append((cls, cls in self.bound))
        self.bound.add(cls)

    def visit(self, cls: int, use: Use, point: Point) -> None:
        pl, node = self.pl, self.choice[cls]
        if node.op == "TCons":  # an index list: its items are computed here
            for child in node.children:
                self.visit(child, use, point)
            return
        if node.op in INLINE_ONLY or node.op in ("Var", "Phi", "CallRes") or pl.constant(cls):
            return
        if pl.covered(cls, use) or cls in self.held:
            return
        home = pl.reloaded.get(cls, {}).get(use.pos)
        ahead = self.next_site(cls, use.pos, point.ctx)
        if home is not None:  # read back from memory, into a temporary
            self.hold(cls, ahead, use.pos, point.ctx)
            self.define(cls, point, self.read_back(cls, home[1]))
            return
        kept = (
            self.movable(cls, point)
            and self.loads(cls)
            and self.hold(cls, ahead, use.pos, point.ctx)
        )
        if kept or cls in self.bound and self.movable(cls, point):
            for child in node.children:
                self.visit(child, use, point)
            self.define(cls, point, None)
            return
        if cls in self.bound:  # the printer reads a temporary given up: held again
            self.held[cls] = self.p.blocks[point.ctx].end
            return
        for child in node.children:
            self.visit(child, use, point)

    def movable(self, cls: int, point: Point) -> bool:
        """May ``cls`` be computed into a temporary at ``point`` (just before the
        statement that computes it as written)?"""
        pl, node = self.pl, self.choice[cls]
        if node.op == "Neg" or pl.index_arithmetic(cls):
            return False
        pin = pl.pin(cls)
        if pin is not None and not (self.p.is_block(pin) and self.p.is_within(point.ctx, pin)):
            return False
        return pl.avail(cls) < self.p.point_pos(point)

    def loads(self, cls: int) -> bool:
        """Does computing ``cls`` again cost a load (else holding it saves no load)?"""
        if cls not in self._loads:
            node = self.choice[cls]
            self._loads[cls] = (
                node.op == "Load"
                or cls in self.pl.reloaded
                or any(self.loads(c) for c in node.children)
            )
        return self._loads[cls]

    def next_site(self, cls: int, pos: float, ctx: str) -> float | None:
        """Where the kernel as written next computes ``cls`` within block ``ctx``."""
        sites = self.sites.get(cls, [])
        k = bisect.bisect_right(sites, pos)
        if k == len(sites) or sites[k] >= self.p.blocks[ctx].end:
            return None
        return sites[k]

    def hold(self, cls: int, ahead: float | None, now: float, ctx: str) -> bool:
        """Keep ``cls`` (needed again at ``ahead``) in its temporary, if fewer than
        ``slots`` are held or one held is needed only further ahead (Belady: that one
        is given up)."""
        if ahead is None or self.slots == 0:
            return False
        furthest, victim = ahead, None
        for other, end in list(self.held.items()):
            nxt = self._next_after(other, now, end)
            if nxt is None:
                del self.held[other]
                continue
            if nxt > furthest:
                furthest, victim = nxt, other
        if len(self.held) >= self.slots:
            if victim is None:
                return False
            del self.held[victim]
        self.held[cls] = self.p.blocks[ctx].end
        return True

    def _next_after(self, cls: int, pos: float, end: float) -> float | None:
        sites = self.sites.get(cls, [])
        k = bisect.bisect_left(sites, pos)
        return sites[k] if k < len(sites) and sites[k] < end else None

    def define(self, cls: int, point: Point, node: ENode | None) -> None:
        self.order.setdefault(point, []).append(cls)
        self.temps.setdefault(cls, point)
        if node is not None:
            self.nodes[(point, cls)] = node
        self.bind(cls)

    def read_back(self, cls: int, store: ir.Store) -> ENode:
        """A load of the location ``store`` wrote ``cls``'s value to."""
        of = self.pl.class_of
        tail = self._new(ENode("TNil", ""))
        for tid in reversed(store.indices):
            tail = self._new(ENode("TCons", "", (), (of[tid], tail)))
        node = self.choice[cls]
        return ENode("Load", node.ty, (store.template, f"s{store.pos}"), (of[store.base], tail))

    def _new(self, node: ENode) -> int:
        self._fresh -= 1
        self.choice[self._fresh] = node
        return self._fresh
