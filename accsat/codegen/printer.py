"""Printing a planned kernel body back to C text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from ..egraph.graph import ENode
from ..frontend import ctypes as ct
from ..frontend.source_map import SourceMap
from ..ssa import ir
from ..ssa.state import Origin
from .cexpr import Counts, ExprPrinter, scalar_type
from .constants import ConstantSpelling, WrittenAccess
from .keep import Keeper
from .layout import Layout
from .lines import next_line, serving_lines, without_shadowed
from .macros import FileMacros, MacroSpelling
from .placement import Plan
from .probe import Check, assertion
from .program import Point, Program, Use
from .splice import line_directive
from .typenames import body_typedefs, declare

_GEN = c_generator.CGenerator()


def temp_prefix(source: SourceMap) -> str:
    """``_v`` unless the file already uses names like ``_v3`` (temporaries are
    the prefix and a number, see ``BodyPrinter.new_temp``)."""
    idents = {t.text for t in source.tokens if t.kind == "ident"}
    for prefix in ("_v", "_acc_v", "_accsat_v"):
        if not any(name.startswith(prefix) and name[len(prefix) :].isdigit() for name in idents):
            return prefix
    return "_accsat_tmp_v"


@dataclass
class Printed:
    text: str  # the body, from "{" to "}"
    counts: Counts
    temps: int
    hoisted: int = 0  # loads bulk load moved above a store they do not alias
    budget: dict | None = None  # what the register budget did (Plan.budget), if one was set
    # the control context each temporary's class is computed in (Plan.temps): the re-read
    # check's evidence that a value computed there (a bulk load) is the extraction's
    placed: dict[int, str] = field(default_factory=dict)
    # values the extraction shares, printed at each use, by why (Plan.inline_shared)
    inline_shared: dict[str, int] = field(default_factory=dict)
    # a probe's (``probe=True``): what the assertions of the text say, by number
    checks: tuple[Check, ...] = ()


class BodyPrinter:
    def __init__(
        self,
        program: Program,
        plan: Plan,
        types: dict[int, ct.CType],
        prefix: str,
        fma_call: bool,
        indent: str,
        unit: str,
        line_file: str | None = None,
        cost: Callable[[ENode], float] | None = None,
        layout: Layout | None = None,
        macros: FileMacros | None = None,
        declarations_first: bool = False,
        own: tuple[str, ...] = (),
        probe: bool = False,
    ):
        """``probe``: print the body with an assertion of the type of every expression
        it prints at the end of each block (codegen/probe.py), for the compiler."""
        self.p = program
        self.plan = plan
        self.types = types  # class -> C type, for declarations of temporaries
        self.prefix = prefix
        self.indent0 = indent
        self.unit = unit
        self.counts = Counts()
        self.names: dict[int, str] = {}  # class -> temporary, while it is in scope
        # per open block: the classes it named, each with the name it hid (a value computed
        # again under a register budget, placement.Plan.nodes)
        self.scope_names: list[list[tuple[int, str | None]]] = []
        self.use = Use(0.0, "k0")
        self.origin: Origin | None = None  # the statement being printed (its constants)
        texts = macros.constants(layout) if macros is not None else []
        self.constants = ConstantSpelling(program.ssa, plan.class_of, layout, texts)
        self.expr = ExprPrinter(
            plan.choice,
            self._name_of,
            fma_call,
            self.counts,
            cost,
            frozenset(plan.calls),
            MacroSpelling(layout, macros),
            self._constant_text,
            self._access_text,
        )
        self.lines: list[str] = []
        self.ntemps = 0
        self.line_file = line_file  # emit #line so diagnostics name the user's lines
        self.serving = serving_lines(program.ssa.body, plan) if line_file is not None else {}
        self.keep = Keeper(self, layout)  # statements whose computation did not change
        self.typedefs = body_typedefs(program.ssa)  # "real": how temporaries may be declared
        # C89: no declaration after a statement in a block. Per open block: where its
        # lines begin, whether a statement was printed yet, and the declarations of
        # temporaries assigned after one (inserted where the block begins, at its end)
        self.declarations_first = declarations_first
        self.own = own or (prefix,)  # prefixes of the variables accsat declares
        self.declared_last: tuple[str, int] | None = None  # name, its declaration's line
        self.merged_store = -1  # pos of the store printed as its declaration's initialiser
        self.current: tuple[ir.Block, int] | None = None  # the statement being printed
        # a call printed where it is read (read_once_after): the names its arguments read
        self.inlined: dict[int, list[str]] = {}
        self.decl_frames: list[_DeclFrame] = []
        self.checks: list[Check] = []  # a probe's assertions, by number
        if probe:
            self.expr.typed = []

    # -- names ------------------------------------------------------------------------------
    def _name_of(self, cls: int) -> str | None:
        """The user's variable when it still holds the value (reads like the
        original), else the temporary computed for it. A constant is a variable
        only where the statement read that variable for it (constants.py)."""
        sym = None
        if self.expr.constant(cls):
            spell = self.constants.get(cls, self.origin)
            if spell is None or spell.sym is None:
                return None
            sym = spell.sym
        for h in self.plan.holders.get(cls, ()):
            if (sym is None or h.sym is sym) and self.p.holds_at(h, self.use):
                return h.sym.name
        if cls in self.inlined:  # what reads the call reads its arguments' names
            self.expr.reads.extend(self.inlined[cls])
        return self.names.get(cls)

    def _access_text(self, printed: str) -> WrittenAccess | None:
        """The user's text for an access printed with a constant where the statement
        read a variable holding it, when each such variable still holds it here."""
        found = self.constants.access(printed, self.origin)
        if found is None:
            spaced = self.constants.spaced(printed, self.origin)
            return None if spaced is None else WrittenAccess(spaced, ())
        for sym, cls in found.reads:
            if not any(
                h.sym is sym and self.p.holds_at(h, self.use)
                for h in self.plan.holders.get(cls, ())
            ):
                return None
        return found

    def _constant_text(self, cls: int) -> tuple[str, int] | None:
        """The user's text for constant ``cls`` in the statement being printed."""
        spell = self.constants.get(cls, self.origin)
        return None if spell is None or spell.sym is not None else (spell.text, spell.prec)

    def at(self, pos: float, ctx: str) -> None:
        self.use = Use(pos, ctx)

    def new_temp(self, cls: int) -> str:
        name = f"{self.prefix}{self.ntemps}"
        self.ntemps += 1
        self.scope_names[-1].append((cls, self.names.get(cls)))
        self.names[cls] = name
        return name

    def declaration(self, cls: int, name: str) -> str:
        t = self.types.get(cls) or scalar_type(self.plan.choice[cls].ctype)
        if t is None:
            raise ValueError(f"no C type for a temporary of {self.plan.choice[cls].ctype}")
        return declare(t, name, self.typedefs)

    # -- blocks and statements -----------------------------------------------------------
    def body(self) -> Printed:
        self.block(self.p.ssa.body, self.indent0 + self.unit)
        if self.line_file is not None:
            self.lines = without_shadowed(self.lines)
        tail, close = self.keep.closing(self.indent0)
        text = "{\n" + "\n".join(self.lines + tail) + "\n" + close + "}"
        placed = {cls: point.ctx for cls, point in self.plan.temps.items()}
        shared = Counter(self.plan.inline_shared.values())
        return Printed(
            text,
            self.counts,
            self.ntemps,
            self.plan.hoisted,
            placed=placed,
            inline_shared=shared,
            checks=tuple(self.checks),
        )

    def block(self, block: ir.Block, indent: str) -> None:
        self.scope_names.append([])
        self.decl_frames.append(_DeclFrame(len(self.lines)))
        typed = len(self.expr.typed) if self.expr.typed is not None else 0
        outer = self.origin
        for i, stmt in enumerate(block.stmts):
            self.origin = self.p.ssa.origins.get(stmt.pos)
            # the user's indentation where the statement has a line of its own (their
            # tabs or spaces), for it and for the temporaries printed before it
            written = self.keep.indent(stmt)
            here = indent if written is None else written
            self.source_line(stmt.line)
            self.temps(Point(block.ctx, i), here)
            self.source_line(stmt.line)  # again, after its temporaries
            self.keep.start(block, i)
            self.current = (block, i)
            self.statement(stmt, block.ctx, here)
            self.keep.end(block, i)
            self.decl_frames[-1].statement_seen |= not self.is_declaration(stmt)
        self.origin = None
        self.temps(Point(block.ctx, len(block.stmts)), indent)
        self.origin = outer
        self.declare_late(self.decl_frames.pop())
        if self.expr.typed is not None:
            self.assert_types(typed, indent, block.ctx)
        for cls, hidden in reversed(self.scope_names.pop()):
            if hidden is None:
                del self.names[cls]
            else:
                self.names[cls] = hidden

    def assert_types(self, since: int, indent: str, ctx: str) -> None:
        """A probe's assertions of the types of the block just printed: of each expression
        printed in it (from ``since`` in ``expr.typed``), with the type accsat gives its
        class, and of each expression of the body as written lowered in that block, with
        the type the typer gave it (SSAKernel.written_types). At the block's end, where
        every name they read is in scope (the blocks of both are the same)."""
        assert self.expr.typed is not None
        checks = [
            (text, self.types.get(cls) or scalar_type(self.plan.choice[cls].ctype), False)
            for text, cls in self.expr.typed[since:]
        ]
        del self.expr.typed[since:]
        checks += [(_GEN.visit(n), t, True) for n, t in self.p.ssa.written_types.get(ctx, ())]
        seen: set[tuple[str, ct.CType]] = set()
        for text, t, written in checks:
            if t is None or (text, t) in seen:
                continue
            seen.add((text, t))
            check = Check(text, t, written)
            line = assertion(check, len(self.checks))
            if line is not None:
                self.checks.append(check)
                self.lines.append(indent + line)

    def source_line(self, line: int) -> None:
        """With ``line_file``: the next printed line is the user's ``line``."""
        if self.line_file is not None and line and line != next_line(self.lines):
            self.lines.append(line_directive(line, self.line_file).rstrip("\n"))

    def temps(self, point: Point, indent: str) -> None:
        for cls in self.plan.order.get(point, ()):
            self.at(self.p.point_pos(point), point.ctx)
            node = self.plan.nodes.get((point, cls), self.plan.choice[cls])  # a read back
            text, _ = self.expr.node(cls, node)
            name = self.new_temp(cls)
            self.source_line(self.serving.get(cls, 0))
            self.define(cls, name, text, indent)

    def is_declaration(self, stmt: ir.Stmt) -> bool:
        """Printed as a declaration (C89 allows only those before statements): a
        variable declared, or a call whose result a temporary is declared with."""
        if isinstance(stmt, ir.Eval):
            return stmt.result in self.plan.class_of
        return ir.declared(stmt) is not None or stmt.pos == self.merged_store

    def define(self, cls: int, name: str, text: str, indent: str) -> None:
        """``T name = text;``, or under ``declarations_first`` after a statement of the
        block ``name = text;`` with ``T name;`` where the block begins."""
        frame = self.decl_frames[-1]
        if self.declarations_first and frame.statement_seen:
            frame.late.append(f"{indent}{self.declaration(cls, name)};")
            self.lines.append(f"{indent}{name} = {text};")
        else:
            self.lines.append(f"{indent}{self.declaration(cls, name)} = {text};")

    def declare_late(self, frame: _DeclFrame) -> None:
        if not frame.late:
            return
        insert = list(frame.late)
        line = next_line(self.lines[: frame.start]) if self.line_file is not None else 0
        if line:  # the lines after the declarations keep the user's line numbers
            insert.append(line_directive(line, self.line_file or "").rstrip("\n"))
        self.lines[frame.start : frame.start] = insert

    def statement(self, stmt: ir.Stmt, ctx: str, indent: str) -> None:
        # a plain visitor, as pycparser's generator: one method per statement class
        self.at(float(stmt.pos), ctx)
        getattr(self, "stmt_" + type(stmt).__name__)(stmt, indent)

    def stmt_Assign(self, stmt: ir.Assign, indent: str) -> None:
        cls = self.plan.class_of[stmt.value]
        text = None if stmt.decl else self.keep.compound(stmt, stmt.sym.name, cls)
        if text is None:
            lhs = self.keep.declarator(stmt) or stmt.sym.name
            frame = self.decl_frames[-1]
            if (
                stmt.decl
                and self.declarations_first
                and frame.statement_seen
                and own_name(stmt.sym.name, self.own)
            ):
                frame.late.append(f"{indent}{lhs};")  # a variable promote.py declares
                lhs = stmt.sym.name
            text = f"{lhs} = {self.expr.value(cls, stmt.sym.type)}"
        self.lines.append(f"{indent}{text};")

    def stmt_Store(self, stmt: ir.Store, indent: str) -> None:
        target = self.store_target(stmt)  # printed before the value, as C reads it
        cls = self.plan.class_of[stmt.value]
        if self.initialises(stmt):  # T t; + t = v;  ->  T t = v; (const, C89)
            value = self.expr.value(cls, self._stored_type(stmt))
            assert self.declared_last is not None
            # after the temporaries the value needs (the IR has nothing else between)
            declaration = self.lines.pop(self.declared_last[1])
            self.lines.append(f"{declaration[:-1]} = {value};")
            self.merged_store = stmt.pos
            return
        text = self.keep.compound(stmt, target, cls)
        if text is None:
            text = f"{target} = {self.expr.value(cls, self._stored_type(stmt))}"
        self.lines.append(f"{indent}{text};")

    def initialises(self, stmt: ir.Stmt) -> bool:
        """The store of the initial value of a variable whose address is taken, right
        after its declaration (ssa/statements.py st_Decl): printed as one declaration."""
        node = self.origin.node if self.origin is not None else None
        return (
            isinstance(stmt, ir.Store)
            and not stmt.template  # the variable itself, not a member or element of it
            and isinstance(node, c_ast.Decl)
            and self.declared_last is not None
            and self.declared_last[0] == node.name
        )

    def store_target(self, stmt: ir.Store) -> str:
        cls = self.plan.class_of
        return self.expr.access(cls[stmt.base], stmt.template, [cls[i] for i in stmt.indices])

    def _stored_type(self, stmt: ir.Store) -> ct.CType | None:
        return scalar_type(self.plan.choice[self.plan.class_of[stmt.value]].ctype)

    def stmt_Eval(self, stmt: ir.Eval, indent: str) -> None:
        cls = self.plan.class_of
        reads = len(self.expr.reads)
        args = ", ".join(self.expr.expr(cls[a])[0] for a in stmt.args)
        text = f"{stmt.callee}({args})"
        self.counts.cost += self.expr.cost(ENode("Call", stmt.result_type))
        if stmt.result not in cls:  # no result, or nobody reads it
            self.lines.append(f"{indent}{text};")
            return
        rcls = cls[stmt.result]
        if self.read_once_after(stmt, rcls):  # printed where it is read: as written
            self.scope_names[-1].append((rcls, self.names.get(rcls)))
            self.names[rcls] = text
            self.inlined[rcls] = self.expr.reads[reads:]
            return
        self.define(rcls, self.new_temp(rcls), text, indent)

    def stmt_Return(self, stmt: ir.Return, indent: str) -> None:
        if stmt.value is None:
            self.lines.append(f"{indent}return;")
            return
        t = self.p.ssa.returns
        value = self.expr.value(self.plan.class_of[stmt.value], t)
        self.lines.append(f"{indent}return {value};")

    def read_once_after(self, stmt: ir.Eval, rcls: int) -> bool:
        """Whether the call's result is read once, by the statement right after it that
        the same C statement made, with no temporary printed between: then the call
        prints there (``if (f(x))``, ``float u = h(v);``), where the user wrote it (its
        arguments read what they read here: nothing runs between). The call stays
        before what that statement loads only as C's order of evaluation has it, as
        written."""
        assert self.current is not None
        block, i = self.current
        if i + 1 >= len(block.stmts):
            return False
        after = block.stmts[i + 1]
        origins = self.p.ssa.origins
        origin = origins.get(stmt.pos)
        return (
            origin is not None
            and origins.get(after.pos) is origin
            and self.plan.call_uses.get(rcls) == [float(after.pos)]
            and not self.plan.order.get(Point(block.ctx, i + 1))
        )

    def stmt_Verbatim(self, stmt: ir.Verbatim, indent: str) -> None:
        self.lines.append(stmt.text if stmt.as_written else indent + stmt.text)
        if stmt.declares is not None:
            self.declared_last = (stmt.declares.name, len(self.lines) - 1)

    def stmt_If(self, stmt: ir.If, indent: str) -> None:
        head = self.keep.condition(stmt, lambda: self.expr.expr(self.plan.class_of[stmt.cond])[0])
        start = len(self.lines)
        opening = self.keep.gap(stmt, "open_gap", indent)
        trail = self.keep.gap(stmt, "open_trail", indent)
        self.lines.append(f"{indent}{head}{opening}{{{trail}")
        self.block(stmt.then, indent + self.unit)
        middle = len(self.lines)
        if stmt.orelse is not None:
            lead, gap, trail = (
                self.keep.gap(stmt, part, indent)
                for part in ("else_lead", "else_gap", "else_trail")
            )
            self.lines.append(f"{indent}}}{lead}else{gap}{{{trail}")
            self.block(stmt.orelse, indent + self.unit)
        self.lines.append(f"{indent}}}")
        self.keep.unbrace_if(stmt, start, middle)

    def stmt_Loop(self, stmt: ir.Loop, indent: str) -> None:
        start = len(self.lines)
        opening = self.keep.gap(stmt, "open_gap", indent)
        trail = self.keep.gap(stmt, "open_trail", indent)
        self.lines.append(f"{indent}{self.keep.header(stmt)}{opening}{{{trail}")
        self.block(stmt.body, indent + self.unit)
        self.lines.append(f"{indent}}}" + (f" {stmt.trailer}" if stmt.trailer else ""))
        self.keep.unbrace_loop(stmt, start)

    def stmt_Braced(self, stmt: ir.Braced, indent: str) -> None:
        self.lines.append(f"{indent}{{")
        self.block(stmt.block, indent + self.unit)
        self.lines.append(f"{indent}}}")


@dataclass
class _DeclFrame:
    start: int  # index in the printed lines where the block's own lines begin
    statement_seen: bool = False
    late: list[str] = field(default_factory=list)


def own_name(name: str, prefixes: tuple[str, ...]) -> bool:
    """A variable accsat introduced (a temporary, a promoted location), not the user's."""
    return any(name.startswith(p) and name[len(p) :].isdigit() for p in prefixes)
