"""Printing a planned kernel body back to C text."""

from __future__ import annotations

from dataclasses import dataclass

from ..frontend import ctypes as ct
from ..ssa import ir
from .cexpr import Counts, ExprPrinter, scalar_type
from .placement import Plan
from .program import Point, Program, Use


@dataclass
class Printed:
    text: str  # the body, from "{" to "}"
    counts: Counts
    temps: int


class BodyPrinter:
    def __init__(self, program: Program, plan: Plan, types: dict[int, ct.CType],
                 prefix: str, fma_call: bool, indent: str, unit: str,
                 line_file: str | None = None):
        self.p = program
        self.plan = plan
        self.types = types  # class -> C type, for declarations of temporaries
        self.prefix = prefix
        self.indent0 = indent
        self.unit = unit
        self.counts = Counts()
        self.names: dict[int, str] = {}  # class -> temporary, while it is in scope
        self.scope_names: list[list[int]] = []
        self.use = Use(0.0, "k0")
        self.expr = ExprPrinter(plan.choice, self._name_of, fma_call, self.counts)
        self.lines: list[str] = []
        self.ntemps = 0
        self.line_file = line_file  # emit #line so diagnostics name the user's lines
        self.current_line = 0

    # -- names ------------------------------------------------------------------------------
    def _name_of(self, cls: int) -> str | None:
        """The user's variable when it still holds the value (reads like the
        original), else the temporary computed for it."""
        for h in self.plan.holders.get(cls, ()):
            if self.p.holds_at(h, self.use):
                return h.sym.name
        return self.names.get(cls)

    def at(self, pos: float, ctx: str) -> None:
        self.use = Use(pos, ctx)

    def new_temp(self, cls: int) -> str:
        name = f"{self.prefix}{self.ntemps}"
        self.ntemps += 1
        self.names[cls] = name
        self.scope_names[-1].append(cls)
        return name

    def declaration(self, cls: int, name: str) -> str:
        t = self.types.get(cls) or scalar_type(self.plan.choice[cls].ctype)
        if t is None:
            raise ValueError(f"no C type for a temporary of {self.plan.choice[cls].ctype}")
        return ct.spell(t, name)

    # -- blocks and statements -----------------------------------------------------------
    def body(self) -> Printed:
        self.block(self.p.ssa.body, self.indent0 + self.unit)
        text = "{\n" + "\n".join(self.lines) + "\n" + self.indent0 + "}"
        return Printed(text, self.counts, self.ntemps)

    def block(self, block: ir.Block, indent: str) -> None:
        self.scope_names.append([])
        for i, stmt in enumerate(block.stmts):
            self.source_line(stmt.line)
            self.temps(Point(block.ctx, i), indent)
            self.statement(stmt, block.ctx, indent)
        self.temps(Point(block.ctx, len(block.stmts)), indent)
        for cls in self.scope_names.pop():
            del self.names[cls]

    def source_line(self, line: int) -> None:
        if self.line_file is not None and line != self.current_line:
            name = self.line_file.replace("\\", "\\\\").replace('"', '\\"')
            self.lines.append(f'#line {line} "{name}"')
            self.current_line = line

    def temps(self, point: Point, indent: str) -> None:
        for cls in self.plan.order.get(point, ()):
            self.at(self.p.point_pos(point), point.ctx)
            text, _ = self.expr.node(cls, self.plan.choice[cls])
            name = self.new_temp(cls)
            self.lines.append(f"{indent}{self.declaration(cls, name)} = {text};")

    def statement(self, stmt: ir.Stmt, ctx: str, indent: str) -> None:
        self.at(float(stmt.pos), ctx)
        cls = self.plan.class_of
        if isinstance(stmt, ir.Assign):
            value = self.expr.value(cls[stmt.value], stmt.sym.type)
            lhs = stmt.decl if stmt.decl else stmt.sym.name
            self.lines.append(f"{indent}{lhs} = {value};")
        elif isinstance(stmt, ir.Store):
            self.lines.append(f"{indent}{self.store_target(stmt)} = "
                              f"{self.expr.value(cls[stmt.value], self._stored_type(stmt))};")
        elif isinstance(stmt, ir.Eval):
            self.call(stmt, indent)
        elif isinstance(stmt, ir.Verbatim):
            self.lines.append(indent + stmt.text)
        elif isinstance(stmt, ir.If):
            cond, _ = self.expr.expr(cls[stmt.cond])
            self.lines.append(f"{indent}if ({cond}) {{")
            self.block(stmt.then, indent + self.unit)
            if stmt.orelse is not None:
                self.lines.append(f"{indent}}} else {{")
                self.block(stmt.orelse, indent + self.unit)
            self.lines.append(f"{indent}}}")
        elif isinstance(stmt, ir.Loop):
            self.lines.append(f"{indent}{stmt.header} {{")
            self.block(stmt.body, indent + self.unit)
            self.lines.append(f"{indent}}}" + (f" {stmt.trailer}" if stmt.trailer else ""))
        elif isinstance(stmt, ir.Braced):
            self.lines.append(f"{indent}{{")
            self.block(stmt.block, indent + self.unit)
            self.lines.append(f"{indent}}}")

    def store_target(self, stmt: ir.Store) -> str:
        cls = self.plan.class_of
        return self.expr.access(cls[stmt.base], stmt.template, [cls[i] for i in stmt.indices])

    def _stored_type(self, stmt: ir.Store) -> ct.CType | None:
        return scalar_type(self.plan.choice[self.plan.class_of[stmt.value]].ctype)

    def call(self, stmt: ir.Eval, indent: str) -> None:
        cls = self.plan.class_of
        args = ", ".join(self.expr.expr(cls[a])[0] for a in stmt.args)
        text = f"{stmt.callee}({args})"
        if stmt.result not in cls:  # no result, or nobody reads it
            self.lines.append(f"{indent}{text};")
            return
        rcls = cls[stmt.result]
        name = self.new_temp(rcls)
        self.lines.append(f"{indent}{self.declaration(rcls, name)} = {text};")
