"""A register model of a printed kernel body: what it keeps live, and where.

It walks a plan (``placement.Plan``) as ``printer.BodyPrinter`` prints it:
every temporary, every user variable and every value named by a variable is a
*value* with a live range over the printed statements ("slots": a temporary's
definition or a statement); a value read inside an inner loop and made before
it stays live to the loop's end. A slot's own work adds its *transient*
registers: the loads it issues (``ld`` results wait in registers) or, when
more, a Sethi-Ullman count of its expression tree. ptxas also issues loads of
later statements early, within straight-line code and never above the event
that made their memory version (a store that may alias them): those *loads in
flight* add up to ``FLIGHT`` registers. 64-bit values (double, long, pointers)
count two registers, others one.

    pressure(slot) = live values across it + min(FLIGHT, loads issued ahead)
                     + max(transient, values it defines)
    peak           = max over slots
    registers      ~ BASE + SLOPE * peak          (calibrated against ptxas)

``BASE``, ``SLOPE`` and ``FLIGHT`` are fitted on NPB-ACC BT, LU and SP (class S)
against ``ptxas -arch=sm_80 -v`` of gcc 12's nvptx code:
``benchmarks/register_model.py`` prints the fit and its error (docs/rewrites.md).
It ranks kernels fairly (Spearman about 0.6) but misses single kernels by a
dozen registers on average: the register budget (budget.py) compares a rewrite
with the kernel as written under the same model, and takes ptxas's count of the
kernel as written where it is at hand. Occupancy follows by ``accsat.occupancy``.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

from ..egraph.graph import ENode
from ..ssa import ir
from .placement import Plan
from .program import Holder, Point, Program, Use

# registers >= BASE + SLOPE * peak: what ptxas needs at least (it uses more where it
# issues loads earlier); chosen by benchmarks/register_model.py on NPB BT LU SP, class S,
# so that ptxas's count of a rewrite is max(its count as written, this) (module's text)
BASE = 14.0
SLOPE = 1.3
HOIST = 1000  # slots a load may be issued ahead of its use (bounded by FLIGHT)
FLIGHT = 8  # registers of loads issued ahead of their statement, at most
MAX_REGISTERS = 255  # per thread (sm_80)

_WIDE = ("double", "long")


def width(ctype: str) -> int:
    """Registers a value of C type ``ctype`` takes: 2 for 64-bit ones."""
    t = ctype.split("@", 1)[0]
    if "*" in t or "[" in t:
        return 2
    return 2 if any(w in t.split() for w in _WIDE) else 1


@dataclass
class Figures:
    """What the model says about one printed body."""

    peak: int = 0  # modelled registers at the busiest slot (before calibration)
    at: int = 0  # that slot's index
    line: int = 0  # the source line of the statement there
    temps: int = 0  # registers taken by temporaries there
    loads_in_flight: int = 0  # most registers one slot's own loads take
    loads: int = 0  # loads as printed (each evaluated load once)
    slots: int = 0

    @property
    def registers(self) -> int:
        """The calibrated estimate of ptxas's registers per thread."""
        return estimate(self.peak)

    def as_dict(self) -> dict[str, int]:
        return {
            "peak": self.peak,
            "registers": self.registers,
            "temps": self.temps,
            "loads_in_flight": self.loads_in_flight,
            "loads": self.loads,
            "line": self.line,
        }


def estimate(peak: float) -> int:
    return int(min(MAX_REGISTERS, max(1, round(BASE + SLOPE * peak))))


def peak_for(registers: int) -> int:
    """The largest modelled peak whose estimate stays within ``registers``."""
    peak = math.floor((registers + 0.5 - BASE) / SLOPE)
    while peak > 0 and estimate(peak) > registers:
        peak -= 1
    return peak


@dataclass
class _Value:
    width: int
    start: int  # the slot that defines it (-1: before the body)
    end: int = -1  # the last slot that reads it
    temp: bool = False


@dataclass
class _Slot:
    pos: float
    line: int
    region: int  # the first slot of its straight-line code
    need: int = 0  # Sethi-Ullman registers of its own evaluation
    loads: int = 0  # registers of the loads it issues itself
    seen: set[int] = field(default_factory=set)  # classes already evaluated here
    early: list[tuple[int, float]] = field(default_factory=list)  # loads: width, version pos


class _Walk:
    def __init__(self, program: Program, plan: Plan):
        self.p = program
        self.plan = plan
        self.values: list[_Value] = []
        self.slots: list[_Slot] = []
        self.positions: list[float] = []
        self.names: dict[int, int] = {}  # class -> value of its temporary in scope
        self.scopes: list[list[tuple[int, int | None]]] = []
        self.held: dict[tuple[int, float], int] = {}  # (id(sym), from) -> value
        self.named: dict[str, int] = {}  # variables printed by their own name
        self.loops: list[tuple[int, int]] = []  # slots of each inner loop
        self.loads = 0
        self.use = Use(0.0, "k0")
        self.line = 0
        self.region = 0
        self.version: dict[int, float] = {}  # load class -> where its memory version is made
        for tid, info in program.ssa.leaves.items():
            if info.access is not None and tid in plan.class_of:
                self.version.setdefault(plan.class_of[tid], info.pos)

    # -- values ------------------------------------------------------------------------
    def value(self, w: int, start: int, temp: bool = False) -> int:
        self.values.append(_Value(w, start, start, temp))
        return len(self.values) - 1

    def read(self, vid: int) -> None:
        v = self.values[vid]
        v.end = max(v.end, len(self.slots) - 1)

    def slot(self, pos: float) -> _Slot:
        s = _Slot(pos, self.line, self.region)
        self.slots.append(s)
        self.positions.append(pos)
        self.use = Use(pos, self.use.ctx)
        return s

    def holder(self, h: Holder) -> int:
        key = (id(h.sym), h.pos)
        if key not in self.held:  # a variable's value at entry, after an if or a loop head
            start = bisect.bisect_left(self.positions, h.pos) - 1
            self.held[key] = self.value(width(str(h.sym.type)), start)
        return self.held[key]

    def bind(self, cls: int, vid: int) -> None:
        self.scopes[-1].append((cls, self.names.get(cls)))
        self.names[cls] = vid

    # -- expressions -------------------------------------------------------------------
    def expr(self, cls: int, s: _Slot) -> tuple[int, int]:
        """(registers the evaluation needs, registers of its result) of ``cls`` here."""
        for h in self.plan.holders.get(cls, ()):
            if self.p.holds_at(h, self.use):
                self.read(self.holder(h))
                return 0, 0
        if cls in self.names:
            self.read(self.names[cls])
            return 0, 0
        if cls in s.seen:  # the compiler computes it once per statement
            return 0, 0
        s.seen.add(cls)
        return self.tree(cls, self.plan.choice[cls], s)

    def tree(self, cls: int, node: ENode, s: _Slot) -> tuple[int, int]:
        op, w = node.op, width(node.ctype)
        if op in ("Const", "Sym", "TNil"):
            return 0, 0
        if op in ("Var", "Phi"):
            name = node.attrs[0]
            if name not in self.named:
                self.named[name] = self.value(w, -1)
            self.read(self.named[name])
            return 0, 0
        if op == "TCons":
            return self._combine([self.expr(c, s) for c in self._items(node)], 0)
        if op == "Load":
            self.loads += 1
            s.loads += w
            tag = node.attrs[1] if len(node.attrs) > 1 else ""
            # read back where a store left it (budget.py): from that store on
            made = float(tag[1:]) if tag.startswith("s") else self.version.get(cls, 0.0)
            s.early.append((w, made))
            base, index = node.children
            inner = self._combine([self.expr(base, s), self.expr(index, s)], 2)
            return max(inner[0], w), w
        return self._combine([self.expr(c, s) for c in node.children], w)

    def _items(self, node: ENode) -> list[int]:
        out = []
        while node.op == "TCons":
            out.append(node.children[0])
            node = self.plan.choice[node.children[1]]
        return out

    @staticmethod
    def _combine(kids: list[tuple[int, int]], w: int) -> tuple[int, int]:
        """Sethi-Ullman: the most demanding operand first, the others' results held."""
        need, held = w, 0
        for n, r in sorted(kids, key=lambda k: -k[0]):
            need = max(need, held + n)
            held += r
        return max(need, held), w

    # -- statements --------------------------------------------------------------------
    def block(self, block: ir.Block) -> None:
        self.scopes.append([])
        for i, stmt in enumerate(block.stmts):
            self.line = stmt.line
            self.temps(Point(block.ctx, i))
            self.use = Use(float(stmt.pos), block.ctx)
            self.statement(stmt)
        self.temps(Point(block.ctx, len(block.stmts)))
        for cls, hidden in reversed(self.scopes.pop()):
            if hidden is None:
                del self.names[cls]
            else:
                self.names[cls] = hidden

    def temps(self, point: Point) -> None:
        plan = self.plan
        for cls in plan.order.get(point, ()):
            self.use = Use(self.p.point_pos(point), point.ctx)
            s = self.slot(self.use.pos)
            node = plan.nodes.get((point, cls), plan.choice[cls])
            s.seen.add(cls)
            s.need = max(s.need, self.tree(cls, node, s)[0])
            self.bind(cls, self.value(width(node.ctype), len(self.slots) - 1, temp=True))

    def evaluate(self, tids: list[int]) -> _Slot:
        s = self.slot(self.use.pos)
        cls = self.plan.class_of
        held = 0
        for tid in tids:
            if tid in cls:
                need, res = self.expr(cls[tid], s)
                s.need = max(s.need, held + need)
                held += res
        return s

    def statement(self, stmt: ir.Stmt) -> None:
        if isinstance(stmt, ir.Assign):
            self.evaluate([stmt.value])
            key = (id(stmt.sym), float(stmt.pos))
            self.held[key] = self.value(width(str(stmt.sym.type)), len(self.slots) - 1)
        elif isinstance(stmt, (ir.Store, ir.Eval)):
            self.evaluate(ir.uses(stmt))
            result = getattr(stmt, "result", None)
            if isinstance(stmt, ir.Eval) and result is not None and result in self.plan.class_of:
                w = width(str(stmt.result_type))
                self.bind(self.plan.class_of[result], self.value(w, len(self.slots) - 1, True))
            if isinstance(stmt, ir.Eval):
                self.region = len(self.slots)  # a call: nothing moves across it
        elif isinstance(stmt, ir.If):
            self.evaluate([stmt.cond])
            for child in ir.children(stmt):
                self.region = len(self.slots)
                self.block(child)
            self.region = len(self.slots)
        elif isinstance(stmt, ir.Loop):
            self.slot(float(stmt.pos))  # the header: its variables are made here
            first = self.region = len(self.slots)
            self.block(stmt.body)
            self.loops.append((first, len(self.slots) - 1))
            self.region = len(self.slots)
        elif isinstance(stmt, ir.Braced):
            self.block(stmt.block)

    # -- liveness ----------------------------------------------------------------------
    def figures(self, hoist: int = HOIST, flight: int = FLIGHT) -> Figures:
        n = len(self.slots)
        for first, last in sorted(self.loops, key=lambda r: r[1] - r[0]):
            for v in self.values:  # made before the loop, read in it: live all through it
                if v.start < first <= v.end <= last:
                    v.end = last
        live = [0] * (n + 1)
        temps = [0] * (n + 1)
        made = [0] * (n + 1)
        ahead = [0] * (n + 1)
        for i, s in enumerate(self.slots):  # loads issued ahead of their slot
            for w, version in s.early:
                first = max(s.region, bisect.bisect_right(self.positions, version), i - hoist)
                if first < i:
                    ahead[first] += w
                    ahead[i] -= w
        for v in self.values:
            if v.end <= v.start:
                continue
            lo = max(v.start + 1, 0)
            live[lo] += v.width
            live[v.end + 1] -= v.width
            if v.temp:
                temps[lo] += v.width
                temps[v.end + 1] -= v.width
            if v.start >= 0:
                made[v.start] += v.width
        out = Figures(slots=n, loads=self.loads)
        running = running_temps = early = 0
        for i, s in enumerate(self.slots):
            running += live[i]
            running_temps += temps[i]
            early += ahead[i]
            pressure = running + min(early, flight) + max(s.need, s.loads, made[i])
            out.loads_in_flight = max(out.loads_in_flight, s.loads)
            if pressure > out.peak:
                out.peak, out.at, out.line, out.temps = pressure, i, s.line, running_temps
        return out


def model(program: Program, plan: Plan, hoist: int = HOIST, flight: int = FLIGHT) -> Figures:
    """The register model of ``plan`` printed (see the module's text)."""
    walk = _Walk(program, plan)
    walk.block(program.ssa.body)
    return walk.figures(hoist, flight)
