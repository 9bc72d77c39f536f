"""Print a statement as the user wrote it when its computation did not change.

A C statement of the body (the SSA statements one parser node made, see
``ssa.state.Origin``) is printed from the user's text (``layout.Written``:
comments, macros, typedef names, literals and line breaks included) when, as
printed, it
- costs what it cost as written (the cost model's price of every operation
  evaluated: no identity, fold, fused multiply-add or shared value paid off in it),
- reads no temporary (nothing it computes was moved out of it),
- needs no temporary of its own inside it (nested blocks included), and
- every statement nested in it is printed as written too.
That is always correct: temporaries have names of their own and every store,
call and assignment stays at its place, so each statement sees the state the
original program gives it. A statement that did change keeps the comment lines
before it and the comment after it on its line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pycparser import c_ast

from ..ops import ARITHMETIC, COND_PREC
from ..ssa import ir
from ..ssa.state import Origin
from .layout import Layout, Written
from .lines import next_line
from .program import Point
from .splice import line_directive

# compound assignment -> the operations whose first operand may be its target
_COMPOUND = {"+=": ("Add", "Fma"), "-=": ("Sub",), "*=": ("Mul",), "/=": ("Div",)}
# an increment or decrement as pycparser spells it -> its operation, and how it prints
_STEPS = {
    "p++": ("Add", "{}++"),
    "++": ("Add", "++{}"),
    "p--": ("Sub", "{}--"),
    "--": ("Sub", "--{}"),
}


_SIMPLE = (ir.Assign, ir.Store, ir.Eval, ir.Verbatim)
_WIDTH = 90  # a rewritten statement the user wrote on several lines is wrapped at this


def wrap(line: str, cont: str, width: int) -> str:
    """``line`` broken before its outermost ``+`` and ``-`` (those after the ``=``) so
    that no piece is much wider than ``width``; later pieces start with ``cont``."""
    depth, breaks, after_eq = 0, [], False
    for k, ch in enumerate(line):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and line.startswith(" = ", k - 1):
            after_eq = True
        elif (
            depth == 0
            and after_eq
            and ch in "+-"
            and line.startswith(" ", k + 1)
            and line[k - 1] == " "
        ):
            breaks.append(k - 1)
    out, start, last = [], 0, 0
    for b in breaks:
        if b - start > width and last > start:
            out.append(line[start:last])
            start = last
        last = b
    if len(line) - start > width and last > start:
        out.append(line[start:last])
        start = last
    out.append(line[start:])
    return ("\n" + cont).join(piece if k == 0 else piece.lstrip() for k, piece in enumerate(out))


@dataclass
class _Frame:
    origin: Origin
    written: Written | None
    line: int  # index in the printer's lines where the statement's own text starts
    cost: float  # printed cost when it started
    reads: int  # names read when it started
    temps: int  # temporaries when it started
    changed: bool = False  # something nested in it is not printed as written
    nested: float = 0.0  # printed cost of the statements nested in it
    own: float = 0.0  # what it cost as written (an if: its condition)


class Keeper:
    def __init__(self, printer: Any, layout: Layout | None):
        """``printer``: the BodyPrinter it works for (its lines, counts, temporaries)."""
        self.pr = printer
        self.layout = layout
        self.origins = printer.p.ssa.origins if layout is not None else {}
        self.frames: list[_Frame] = []
        self.kept = 0  # statements printed as written

    def _origin(self, block: ir.Block, i: int) -> Origin | None:
        if not 0 <= i < len(block.stmts):
            return None
        return self.origins.get(block.stmts[i].pos)

    def _group(self, block: ir.Block, i: int) -> object:
        """What statement ``i`` belongs to: its text as written (a declaration of several
        declarators is one text for several parser nodes), else its origin."""
        origin = self._origin(block, i)
        if origin is None:
            return None
        w = self.written(block.stmts[i])
        return origin if w is None else w

    def _cost(self, block: ir.Block, i: int) -> float:
        """What the statement starting at ``i`` cost as written, all its origins."""
        group, seen, cost = self._group(block, i), set(), 0.0
        while i < len(block.stmts) and self._group(block, i) is group:
            origin = self._origin(block, i)
            assert origin is not None  # a statement of the group
            if id(origin) not in seen:
                seen.add(id(origin))
                cost += origin.cost
            i += 1
        return cost

    def written(self, stmt: ir.Stmt) -> Written | None:
        origin = self.origins.get(stmt.pos)
        if origin is None or origin.node is None or self.layout is None:
            return None
        return self.layout.written(origin.node)

    # -- what the printer asks ----------------------------------------------------------
    def indent(self, stmt: ir.Stmt) -> str | None:
        """The user's indentation of the statement ``stmt`` comes from, where it starts a
        line of its own (its temporaries and its lines are printed at it)."""
        w = self.written(stmt)
        if w is None or not w.own_line or self.layout is None:
            return None
        span = self.layout.span
        # a body written without braces gets ours, and its statements a level inside them
        return w.indent if span is None or span.braced else None

    def gap(self, stmt: ir.Stmt, part: str, indent: str) -> str:
        """The blanks the user wrote at ``part`` of a loop or an if (layout.Written's
        ``open_gap``, ``else_lead``, ``else_gap``): ``){`` or ``) {``, ``} else`` or a
        line break (then at ``indent``); a space where the statement was not written so."""
        w = self.written(stmt)
        blank = getattr(w, part) if w is not None else None
        if part.endswith("_trail"):  # after a brace: as written, else nothing
            return blank or ""
        if blank is None:
            return " "
        return "\n" + indent if "\n" in blank else blank

    def header(self, stmt: ir.Loop) -> str:
        """A loop's header as written (macros in its bounds included)."""
        origin = self.origins.get(stmt.pos)
        if origin is not None and origin.node is not None and self.layout is not None:
            return self.layout.header(origin.node) or stmt.header
        return stmt.header

    def condition(self, stmt: ir.If, cond: Callable[[], str]) -> str:
        """``if (...)`` as written when its condition, printed by ``cond``, costs what it
        cost as written and reads no temporary; else ``if (<printed>)``."""
        pr = self.pr
        cost, reads = pr.counts.cost, len(pr.expr.reads)
        text = f"if ({cond()})"
        origin = self.origins.get(stmt.pos)
        if origin is None or origin.node is None or self.layout is None:
            return text
        written = self.layout.header(origin.node)
        same = abs(pr.counts.cost - cost - origin.cost) < 1e-9 and not any(
            self._is_temp(name) for name in pr.expr.reads[reads:]
        )
        return written if same and written is not None and "\n" not in written else text

    def declarator(self, stmt: ir.Assign) -> str | None:
        """``real w`` of a declaration of one declarator, as written."""
        origin = self.origins.get(stmt.pos)
        if stmt.decl is None or origin is None or self.layout is None:
            return stmt.decl
        return self.layout.declarator(origin.node) or stmt.decl

    def compound(self, stmt: ir.Assign | ir.Store, lhs: str, cls: int) -> str | None:
        """``x += e`` for a statement the user wrote as a compound assignment, when its
        value is still ``x + e`` with ``x`` its own target (else None: ``x = ...``)."""
        origin = self.origins.get(stmt.pos)
        node = origin.node if origin is not None else None
        if isinstance(node, c_ast.UnaryOp) and node.op in _STEPS:
            return self._step(stmt, lhs, cls, node.op)
        if not isinstance(node, c_ast.Assignment) or node.op not in _COMPOUND:
            return None
        ex = self.pr.expr
        value = ex.choice[cls]
        if ex.name_of(cls) is not None or value.op not in _COMPOUND[node.op]:
            return None
        target, rest = value.children[0], value.children[1:]
        if not self._is_target(stmt, target):
            return None
        self._charge_target(stmt, target)
        ex.charge(cls, value)
        if value.op in ARITHMETIC:
            self.pr.counts.ops += 1
        if value.op == "Fma":
            self.pr.counts.fma += 1
            return f"{lhs} {node.op} {ex.product(*rest)}"
        # converted to the target's type as in ``x op e``: a cast that does so is implied
        return f"{lhs} {node.op} {ex.operand(rest[0], ex.ctype(target), COND_PREC)[0]}"

    def _step(self, stmt: ir.Assign | ir.Store, lhs: str, cls: int, op: str) -> str | None:
        """``x[i]++`` (as written: ``++x``, ``x--``...) for a statement the user wrote as
        an increment or decrement, when its value is still its target plus or minus 1."""
        ex = self.pr.expr
        value = ex.choice[cls]
        kind, spelling = _STEPS[op]
        if ex.name_of(cls) is not None or value.op != kind:
            return None
        target, step = value.children
        if not self._is_target(stmt, target) or not self._is_one(step):
            return None
        self._charge_target(stmt, target)
        ex.charge(cls, value)
        self.pr.counts.ops += 1
        return spelling.format(lhs)

    def _is_one(self, cls: int) -> bool:
        """The constant 1 (of any arithmetic type, through a conversion of it)."""
        ex = self.pr.expr
        node = ex.choice[cls]
        while node.op == "Cast" and ex.name_of(cls) is None:
            cls = node.children[0]
            node = ex.choice[cls]
        if node.op != "Const" or ex.name_of(cls) is not None:
            return False
        try:
            return float(node.attrs[0].rstrip("uUlLfF")) == 1.0
        except ValueError:
            return False

    def _charge_target(self, stmt: ir.Assign | ir.Store, target: int) -> None:
        """The read of its target a compound assignment or an increment does."""
        ex = self.pr.expr
        if isinstance(stmt, ir.Assign):
            ex.charge_read(target)
        else:  # the load the compound assignment does
            ex.charge(target, ex.choice[target])
            self.pr.counts.loads += 1

    def _is_target(self, stmt: ir.Assign | ir.Store, cls: int) -> bool:
        ex = self.pr.expr
        if isinstance(stmt, ir.Assign):
            return ex.name_of(cls) == stmt.sym.name
        load = ex.choice[cls]
        class_of = self.pr.plan.class_of
        return (
            load.op == "Load"
            and ex.name_of(cls) is None
            and load.attrs[0] == stmt.template
            and load.children[0] == class_of[stmt.base]
            and ex.items(load.children[1]) == [class_of[i] for i in stmt.indices]
        )

    def closing(self, indent: str) -> tuple[list[str], str]:
        """The comment lines before the body's closing brace, and its indentation, as
        written (else none, and ``indent``)."""
        if self.layout is None or self.layout.close_indent is None:
            return [], indent
        tail = self.layout.tails.get(self.layout.body, [])
        return (tail if self.pr.line_file is None else []), self.layout.close_indent

    # -- braces ---------------------------------------------------------------------------
    def unbrace_if(self, stmt: ir.If, start: int, middle: int) -> None:
        """Drop the braces the printer put around a branch the user wrote without,
        when the branch is still one line (``start``: the if's line, ``middle``: the
        else's or the closing brace's)."""
        node = self._node(stmt)
        if not isinstance(node, c_ast.If):
            return
        lines = self.pr.lines
        end = len(lines) - 1
        then_bare = self._bare(node.iftrue, start + 1, middle)
        else_bare = stmt.orelse is not None and self._bare(node.iffalse, middle + 1, end)
        indent = _indent(lines[start])
        chain = self._else_if(stmt, node, indent, middle, end)
        if not then_bare and not else_bare and chain is None:
            return
        if then_bare:
            lines[start] = _without_brace(lines[start])
        closing = "" if then_bare else "}" + self.gap(stmt, "else_lead", indent)
        if chain is not None:  # } else if (...): the else's one statement is an if
            lines[middle : end + 1] = [indent + closing + "else " + chain[0].lstrip(), *chain[1:]]
            return
        if stmt.orelse is not None:
            opening = (
                ""
                if else_bare
                else self.gap(stmt, "else_gap", indent) + "{" + self.gap(stmt, "else_trail", "")
            )
            lines[middle] = indent + closing + "else" + opening
        if else_bare or (then_bare and stmt.orelse is None):
            del lines[end]

    def _else_if(
        self, stmt: ir.If, node: c_ast.If, indent: str, middle: int, end: int
    ) -> list[str] | None:
        """The lines of an ``else if`` the user wrote, one level less indented, when the
        else branch still prints as that one if (else None)."""
        orelse = stmt.orelse
        if (
            orelse is None
            or not isinstance(node.iffalse, c_ast.If)
            or len(orelse.stmts) != 1
            or not isinstance(orelse.stmts[0], ir.If)
            or any(self.pr.plan.order.get(Point(orelse.ctx, k)) for k in (0, 1))
        ):
            return None
        nested = self.pr.lines[middle + 1 : end]
        inner = _indent(nested[0]) if nested else ""
        if not nested or not nested[0].lstrip().startswith("if (") or len(inner) <= len(indent):
            return None
        unit = inner[len(indent) :]
        if not all(x.startswith(indent + unit) for x in nested if not x.startswith("#")):
            return None
        return [x if x.startswith("#") else indent + x[len(indent + unit) :] for x in nested]

    def unbrace_loop(self, stmt: ir.Loop, start: int) -> None:
        node = self._node(stmt)
        if isinstance(node, (c_ast.For, c_ast.While)) and self._bare(
            node.stmt, start + 1, len(self.pr.lines) - 1
        ):
            lines = self.pr.lines
            lines[start] = _without_brace(lines[start])
            del lines[len(lines) - 1]

    def _node(self, stmt: ir.Stmt) -> object:
        origin = self.origins.get(stmt.pos)
        return None if origin is None else origin.node

    def _bare(self, branch: c_ast.Node | None, first: int, stop: int) -> bool:
        """A branch written without braces, printed as one statement line."""
        if branch is None or isinstance(branch, c_ast.Compound) or stop - first != 1:
            return False
        text = self.pr.lines[first]
        return (
            not text.startswith("#")
            and "\n" not in text
            and not isinstance(branch, (c_ast.Decl, c_ast.Pragma))
        )

    # -- around each statement -----------------------------------------------------------
    def start(self, block: ir.Block, i: int) -> None:
        group = self._group(block, i)
        if group is None or self._group(block, i - 1) is group:
            return
        pr = self.pr
        w = self.written(block.stmts[i])
        if w is not None and w.own_line and pr.line_file is None:
            pr.lines.extend(w.lead)
        origin = self._origin(block, i)
        assert origin is not None  # it has a group
        self.frames.append(
            _Frame(
                origin,
                w,
                len(pr.lines),
                pr.counts.cost,
                len(pr.expr.reads),
                pr.ntemps,
                own=self._cost(block, i),
            )
        )

    def end(self, block: ir.Block, i: int) -> None:
        group = self._group(block, i)
        if group is None or self._group(block, i + 1) is group:
            return
        frame = self.frames.pop()
        cost = self.pr.counts.cost - frame.cost
        kept = self._same(frame, cost) and self._replace(frame)
        if not kept and frame.written is not None:
            self._reindent(frame, block, i)
            self.pr.lines[-1] += frame.written.trail
        if self.frames:
            self.frames[-1].nested += cost
            self.frames[-1].changed |= not kept

    def _reindent(self, frame: _Frame, block: ir.Block, last: int) -> None:
        """A changed simple statement (and its temporaries) at the user's indentation."""
        w = frame.written
        first = last
        while first > 0 and self._group(block, first - 1) is w:
            first -= 1
        if (
            w is None
            or not w.own_line
            or not all(isinstance(s, _SIMPLE) for s in block.stmts[first : last + 1])
        ):
            return
        lines = self.pr.lines
        for k in range(frame.line, len(lines)):
            ours = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
            # the user's tabs for our spaces, where they line up the same
            if not lines[k].startswith("#") and ours.expandtabs() == w.indent.expandtabs():
                lines[k] = w.indent + lines[k].lstrip()
        source = self.layout.source(w) if self.layout is not None else ""
        if "\n" in source:  # the user broke it into lines: so do we, at + and - on top
            cont = source.split("\n")[1]
            cont = cont[: len(cont) - len(cont.lstrip())]
            lines[len(lines) - 1] = wrap(lines[-1], cont, max(_WIDTH, len(source.split("\n")[0])))

    def _same(self, frame: _Frame, cost: float) -> bool:
        pr = self.pr
        reads = pr.expr.reads[frame.reads :]
        return (
            not frame.changed
            and pr.ntemps == frame.temps
            and not any(self._is_temp(name) for name in reads)
            and abs(cost - frame.nested - frame.own) < 1e-9
        )

    def _is_temp(self, name: str) -> bool:
        prefix = self.pr.prefix
        return name.startswith(prefix) and name[len(prefix) :].isdigit()

    def _replace(self, frame: _Frame) -> bool:
        lines = self.pr.lines
        w = frame.written
        if w is None:
            if not frame.origin.synthetic or len(lines) - frame.line < 2:
                return False
            # a block accsat made around the statements after a break: its braces go
            del lines[len(lines) - 1]
            del lines[frame.line]
            return True
        if not w.own_line or self.layout is None:
            return False
        text = (w.indent + self.layout.source(w) + w.trail).split("\n")
        if self.pr.line_file is not None:  # the text is the user's lines from its first on
            line = self.layout.text.count("\n", 0, w.start) + 1
            if next_line(lines[: frame.line]) != line:
                text.insert(0, line_directive(line, self.pr.line_file).rstrip("\n"))
        lines[frame.line :] = text
        self.kept += 1
        return True


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _without_brace(line: str) -> str:
    """A header line without the ``{`` that ends it (and the blanks around the brace)."""
    line = line.rstrip(" \t")
    assert line.endswith("{"), line
    return line[:-1].rstrip()
