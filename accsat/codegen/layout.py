"""Where each C statement of a kernel body is written in the user's text.

The printer prints a statement whose computation did not change as the user
wrote it (macros, typedef names, literals, comments, line breaks), and a
loop header or a declaration as written even inside a rewritten statement.
For that, each statement node the parser made is matched with a statement of
the original text: the body's tokens are cut into statements (the scanner of
``SourceMap``), and the parser's statements of a block are matched in order,
each by its line; a declaration of n declarators is n parser nodes. A block
whose statements do not match one for one (a macro that expands to several
statements, for instance) gets no entries, and is printed as before.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from pycparser import c_ast

from ..frontend.source_map import BodySpan, SourceMap, Token

_TRAIL = re.compile(r"[ \t]*(//[^\n]*|/\*[^\n]*?\*/)?[ \t]*(?=\n)")


@dataclass
class Written:
    """One statement as written: ``text[start:end]`` and what surrounds it."""

    start: int
    end: int
    own_line: bool  # the first token on its line (the printer works line by line)
    indent: str  # the whitespace before it on its line
    lead: list[str] = field(default_factory=list)  # comment and blank lines just before it
    trail: str = ""  # a comment after it on its last line, with the spaces before it
    header_end: int | None = None  # loops and ifs: offset after the ')' of the header
    decl_end: int | None = None  # a declaration of one declarator: offset of its '='
    # the blanks the user wrote between a loop's or an if's ``)`` and the ``{`` of its body
    # (``){``, ``) {``, a line break), between the then-branch and ``else``, and between
    # ``else`` and its ``{``; None where there is no such brace (or a comment between)
    open_gap: str | None = None
    else_lead: str | None = None
    else_gap: str | None = None
    # the blanks after the ``{`` of the body (of the then-branch) and of the else-branch
    # up to the end of the line: a brace re-printed keeps them
    open_trail: str | None = None
    else_trail: str | None = None


@dataclass
class Layout:
    """The statements of one kernel body as written, by parser node."""

    text: str
    of: dict[int, Written] = field(default_factory=dict)  # id(node) -> where
    tails: dict[int, list[str]] = field(default_factory=dict)  # id(Compound) -> lines before }
    body: int = 0  # id() of the body's node
    close_indent: str | None = None  # the whitespace before the body's closing brace
    # where the body came from (the accesses written through macros, codegen/macros.py)
    source_map: SourceMap | None = None
    span: BodySpan | None = None
    node: c_ast.Node | None = None  # the body's statement as parsed

    def written(self, node: object) -> Written | None:
        return self.of.get(id(node))

    def source(self, w: Written) -> str:
        return self.text[w.start : w.end]

    def header(self, node: object) -> str | None:
        w = self.written(node)
        return None if w is None or w.header_end is None else self.text[w.start : w.header_end]

    def declarator(self, node: object) -> str | None:
        """``real w`` of ``real w = ...;`` as written."""
        w = self.written(node)
        if w is None or w.decl_end is None:
            return None
        return self.text[w.start : w.decl_end].rstrip()


def layout(source: SourceMap, span: BodySpan, body: c_ast.Node) -> Layout:
    """The layout of a kernel body (``body`` is the loop's statement)."""
    out = _Aligner(source).body(span, body)
    out.source_map, out.span, out.node = source, span, body
    return out


class _Aligner:
    def __init__(self, source: SourceMap):
        self.src = source
        self.toks: list[Token] = source.tokens
        self.starts = source.starts
        self.out = Layout(source.text)

    def body(self, span: BodySpan, body: c_ast.Node) -> Layout:
        first = bisect.bisect_left(self.starts, span.start)
        end = bisect.bisect_left(self.starts, span.end)
        if first < len(self.toks) and self.toks[first].start == span.start:
            self.branch(body, first, end)
        self.out.body = id(body)
        before = self.src.text[: span.end - 1]
        line_start = before.rfind("\n") + 1
        if span.braced and before[line_start:].strip() == "" and end - 1 > first:
            self.out.close_indent = before[line_start:]
        return self.out

    # -- blocks ------------------------------------------------------------------------
    def branch(self, stmt: c_ast.Node, i: int, stop: int) -> None:
        """A statement that is a block's whole content: a braced block or a single statement."""
        if isinstance(stmt, c_ast.Compound) and self.toks[i].text == "{":
            self.block(stmt, stmt.block_items or [], i + 1, stop - 1)
        else:
            self.block(None, [stmt], i, stop)

    def block(self, compound: c_ast.Compound | None, items: list, i: int, stop: int) -> None:
        """Match ``items`` with the statements of tokens ``i`` up to ``stop`` (exclusive)."""
        found = self.statements(i, stop)
        if found is None:
            return
        matched: dict[int, Written] = {}
        nested: list[tuple[c_ast.Node, int, int]] = []
        k = 0
        cursor = self.toks[i - 1].end  # after the "{", the header's ")", "else" or "do"
        for s0, s1 in found:
            if k >= len(items):
                return
            count = self.declarators(s0, s1) if isinstance(items[k], c_ast.Decl) else 1
            group = items[k : k + count]
            if len(group) != count or not all(self.matches(it, s0, s1) for it in group):
                return
            w, cursor = self.written(s0, s1, cursor)
            if count == 1 and isinstance(group[0], c_ast.Decl):
                w.decl_end = self.assign_at(s0, s1)
            for it in group:
                matched[id(it)] = w
            nested.append((group[0], s0, s1))
            k += count
        if k != len(items):
            return
        self.out.of.update(matched)
        if compound is not None:
            gap = self.src.text[cursor : self.toks[stop].start]
            self.out.tails[id(compound)] = _lead_lines(gap)
        for item, s0, s1 in nested:
            self.compound(item, s0, s1)

    def statements(self, i: int, stop: int) -> list[tuple[int, int]] | None:
        """Token ranges of the statements from ``i`` to ``stop``; a directive is one."""
        out = []
        while i < stop:
            if self.toks[i].kind == "directive":
                out.append((i, i + 1))
                i += 1
                continue
            end = self.src._statement_end(i)
            if end is None or end > stop:
                return None
            out.append((i, end))
            i = end
        return out

    def matches(self, item: c_ast.Node, s0: int, s1: int) -> bool:
        line = item.coord.line if item.coord is not None else None
        if line is None or not self.toks[s0].line <= line <= self.toks[s1 - 1].line:
            return False
        return isinstance(item, c_ast.Pragma) == (self.toks[s0].kind == "directive")

    def declarators(self, s0: int, s1: int) -> int:
        """Declarators of a declaration: one more than its commas outside brackets."""
        return 1 + sum(t.text == "," for t in self.outermost(s0, s1))

    def assign_at(self, s0: int, s1: int) -> int | None:
        """Where the first ``=`` outside brackets is (a declaration's initialiser)."""
        return next((t.start for t in self.outermost(s0, s1) if t.text == "="), None)

    def outermost(self, s0: int, s1: int):
        """The tokens of s0..s1 that are outside any brackets."""
        depth = 0
        for t in self.toks[s0:s1]:
            if t.text in ("(", "[", "{"):
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
            elif depth == 0:
                yield t

    def written(self, s0: int, s1: int, cursor: int) -> tuple[Written, int]:
        """The statement of tokens s0..s1, the text before it since ``cursor``; and the
        new cursor (after a comment on its last line)."""
        text = self.src.text
        start, end = self.toks[s0].start, self.toks[s1 - 1].end
        gap = text[cursor:start]
        pieces = gap.split("\n")
        own = len(pieces) > 1 and pieces[-1].strip() == "" and pieces[0].strip() == ""
        w = Written(start, end, own, pieces[-1] if own else "", _lead_lines(gap) if own else [])
        m = _TRAIL.match(text, end)
        if m is not None:
            w.trail = m.group().removesuffix("\r")  # a comment, and the blanks as written
            return w, m.end()
        return w, end

    # -- compound statements -------------------------------------------------------------
    def compound(self, item: c_ast.Node, s0: int, s1: int) -> None:
        toks = self.toks
        if isinstance(item, c_ast.Compound):
            self.branch(item, s0, s1)
        elif isinstance(item, (c_ast.For, c_ast.While)):
            h = self.src._skip_group(s0 + 1, "(", ")")
            if h is not None and h < s1:
                w = self.out.of[id(item)]
                w.header_end = toks[h - 1].end
                w.open_gap = self.blank_before(h, "{")
                w.open_trail = self.blank_after(h, "{")
                self.branch(item.stmt, h, s1)
        elif isinstance(item, c_ast.DoWhile):
            e = self.src._statement_end(s0 + 1)
            if e is not None and e < s1:
                self.branch(item.stmt, s0 + 1, e)
        elif isinstance(item, c_ast.If):
            h = self.src._skip_group(s0 + 1, "(", ")")
            e = None if h is None else self.src._statement_end(h)
            if h is None or e is None or e > s1:
                return
            w = self.out.of[id(item)]
            w.header_end = toks[h - 1].end
            w.open_gap = self.blank_before(h, "{")
            w.open_trail = self.blank_after(h, "{")
            self.branch(item.iftrue, h, e)
            if item.iffalse is not None and e < s1 and toks[e].text == "else":
                if toks[e - 1].text == "}":
                    w.else_lead = self.blank_before(e, "else")
                w.else_gap = self.blank_before(e + 1, "{")
                w.else_trail = self.blank_after(e + 1, "{")
                self.branch(item.iffalse, e + 1, s1)

    def blank_after(self, i: int, text: str) -> str | None:
        """The blanks after token ``i`` to the end of its line when token ``i`` is
        ``text`` and nothing else follows it on its line (None otherwise)."""
        if i >= len(self.toks) or self.toks[i].text != text:
            return None
        m = re.compile(r"[ \t]*(?=\r?\n)").match(self.src.text, self.toks[i].end)
        return m.group() if m else None

    def blank_before(self, i: int, text: str) -> str | None:
        """The blanks between token ``i - 1`` and token ``i`` when token ``i`` is
        ``text`` (None otherwise, or where a comment lies between)."""
        if i >= len(self.toks) or self.toks[i].text != text:
            return None
        gap = self.src.text[self.toks[i - 1].end : self.toks[i].start]
        return gap if gap.strip() == "" else None


def _lead_lines(gap: str) -> list[str]:
    """The whole lines of a gap between statements (comments and blank lines), as
    written (a line's blanks at its end too; its ``\r`` goes with its line end)."""
    pieces = gap.split("\n")
    return [p.removesuffix("\r") for p in pieces[1:-1]]
