"""Constants printed as the user wrote them (``UINT_MAX``, ``LLONG_MAX / 4``, ``t``).

The e-graph knows a constant by its value: left to itself the printer spells
``INT_MIN + 2`` folded (``-2147483646``), a macro expanded (``4294967295U``), or
a literal by a variable that happens to hold it (``int t = 0;`` ... ``x >= t``).
Inside a statement that changed, a constant prints as that statement wrote it:

- the SSA notes, per C statement, each constant expression it evaluates (a
  parser node that reads no variable) and each variable it reads whose value
  is a constant (``ssa.state.Spelled``);
- every run of tokens of the body that can be a constant expression (literals,
  macros, operators, casts; no variable) is a candidate text; one that names a
  macro is expanded by the preprocessor with the accesses (``macros.FileMacros``);
- a candidate within the statement's text spells the e-class of a noted node
  when its expansion parses to the node's very tree: it then denotes the node's
  value with the node's type, which is the value and type of every e-node of
  the class. It is printed where the extraction chose a constant expression for
  the class (the compiler folds it, so the spelling costs nothing), in
  parentheses where its expansion's precedence needs them;
- a variable spells a class only where the statement read it for that value,
  and only where it still holds it.

A class the statement spells more than one way (``N`` and ``8``, or ``2.0`` and
a variable holding 2.0), or through a node whose text it cannot find (a literal
inside a macro's expansion), prints as the extraction chose it: a literal
never becomes a variable. A class the statement does not read (a temporary's
value, a load bulk load hoisted) is spelled as the whole body spells it, if it
spells it one way.

An access printed with a constant where its statement read a variable holding
it (``u[1][k][j][3]`` for the user's ``u[1][k][j][i+2]`` after ``i = 1;``)
prints as written when exactly one written access matches it with each such
variable read as its value, and those variables still hold it (``access``).
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field

from pycparser import c_ast

from ..frontend.ctypes import INT
from ..frontend.literals import parse_int
from ..frontend.source_map import tokenize
from ..frontend.symbols import Symbol
from ..ops import COND_PREC, FROM_C_BINARY, OPS, PRIMARY, UNARY_PREC
from ..ssa.state import Origin, SSAKernel
from .const_texts import Candidate, access_texts
from .layout import Layout
from .macros import expression, subscripts, tree_key


@dataclass(frozen=True)
class Spell:
    """How a constant prints: ``text`` at precedence ``prec``, or the variable ``sym``.
    Two spellings are one when they differ in blanks only (``C1*C5``, ``C1 * C5``)."""

    text: str = field(compare=False)
    prec: int = field(compare=False)
    sym: Symbol | None = field(default=None, compare=False)
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "".join(self.text.split()))


@functools.lru_cache(maxsize=65536)
def parsed(text: str) -> tuple[object, int] | None:
    """The tree key of an expression's text and its precedence where it is pasted
    (None if it is not one expression)."""
    tree = expression(text)
    if tree is None:
        return None
    prec = PRIMARY if _enclosed(text) else _precedence(tree)
    return (tree_key(tree), prec) if prec else None


@functools.lru_cache(maxsize=65536)
def _enclosed(text: str) -> bool:
    """``( ... )`` with the first parenthesis closed by the last one."""
    toks = tokenize(text)
    if not toks or toks[0].text != "(" or toks[-1].text != ")":
        return False
    depth = 0
    for k, t in enumerate(toks):
        depth += t.text == "("
        depth -= t.text == ")"
        if depth == 0:
            return k == len(toks) - 1
    return False


def _precedence(tree: c_ast.Node) -> int:
    """C's precedence of an expression as parsed (0: not an operand anywhere)."""
    if isinstance(
        tree, (c_ast.Constant, c_ast.ID, c_ast.FuncCall, c_ast.ArrayRef, c_ast.StructRef)
    ):
        return PRIMARY
    if isinstance(tree, c_ast.UnaryOp):
        return PRIMARY if tree.op in ("p++", "p--") else UNARY_PREC
    if isinstance(tree, c_ast.Cast):
        return UNARY_PREC
    if isinstance(tree, c_ast.BinaryOp) and tree.op in FROM_C_BINARY:
        return OPS[FROM_C_BINARY[tree.op]].prec or 0
    if isinstance(tree, c_ast.TernaryOp):
        return COND_PREC
    return 0


class ConstantSpelling:
    """Class -> how a constant prints there, for one kernel body."""

    def __init__(
        self,
        ssa: SSAKernel,
        class_of: dict[int, int],
        layout: Layout | None,
        texts: list[tuple[Candidate, str]],
    ):
        """``texts``: the body's candidates, each with its expansion."""
        self.class_of = class_of
        self.layout = layout
        self.texts = texts
        self._starts = [c.start for c, _ in texts]  # in order: a statement's by bisection
        self.origins = list({id(o): o for o in ssa.origins.values()}.values())
        self._by_origin: dict[int, dict[int, set[Spell | None]]] = {}
        self._body: dict[int, set[Spell | None]] | None = None
        self.terms = ssa.terms
        self._access_by_origin: dict[int, dict[object, set[WrittenAccess]]] = {}
        self._every_access: dict[object, set[WrittenAccess]] | None = None
        self._printed: dict[str, object] = {}  # an access as printed -> its tree's key
        # per origin (None: the whole body): an access's tokens -> the texts written so
        self._spaced: dict[int | None, dict[str, set[str]]] = {}
        self._reads_constants = any(
            s.sym is not None and ssa.terms[s.tid].op == "Const"
            for o in self.origins
            for s in o.spelled
        )

    def get(self, cls: int, origin: Origin | None) -> Spell | None:
        """The spelling of ``cls`` in the statement ``origin`` (None: as chosen)."""
        found = self._of(origin).get(cls) if origin is not None else None
        if found is None:
            # from another statement only a name (``N``, ``INT_MIN``): an expression
            # there may spell the same value for another reason (``(long)(1u >> 1)``
            # for the user's ``0``)
            found = {
                s
                for s in self._whole().get(cls, ())
                if s is not None and s.sym is None and s.key.isidentifier()
            } or None
        if found is None or len(found) != 1:
            return None
        return next(iter(found))

    def _whole(self) -> dict[int, set[Spell | None]]:
        if self._body is None:
            self._body = {}
            for origin in self.origins:
                for cls, spells in self._of(origin).items():
                    self._body.setdefault(cls, set()).update(spells)
        return self._body

    def _of(self, origin: Origin) -> dict[int, set[Spell | None]]:
        key = id(origin)
        if key not in self._by_origin:
            self._by_origin[key] = self._build(origin)
        return self._by_origin[key]

    def _build(self, origin: Origin) -> dict[int, set[Spell | None]]:
        out: dict[int, set[Spell | None]] = {}
        if not origin.spelled:
            return out
        w = None if self.layout is None else self.layout.written(origin.node)
        by_tree: dict[object, set[Spell]] = {}
        first = len(self.texts) if w is None else bisect.bisect_left(self._starts, w.start)
        for cand, expansion in self.texts[first:]:
            if w is None or cand.start >= w.end:
                break
            # "(K)" is the occurrence "K" is too: the parentheses print where needed
            if cand.end <= w.end and not _enclosed(cand.text):
                got = parsed(expansion)
                if got is not None:
                    by_tree.setdefault(got[0], set()).add(Spell(cand.text, got[1]))
        for s in origin.spelled:
            cls = self.class_of.get(s.tid)
            if cls is None:
                continue
            spells = out.setdefault(cls, set())
            if s.sym is not None:
                spells.add(Spell(s.sym.name, PRIMARY, s.sym))
            else:
                spells.update(by_tree.get(tree_key(s.node)) or {None})  # None: no text found
        return out

    # -- accesses that read a variable holding a constant ---------------------------------
    def access(self, printed: str, origin: Origin | None) -> WrittenAccess | None:
        """The user's text for an access printed from the e-graph with a constant where
        the statement wrote a variable holding it (``u[0][k][j][3]`` for the user's
        ``u[0][k][j][i+2]`` after ``i = 1;``): the written access whose tree, each such
        variable read as its value, is the printed one. None where no text, or several,
        match, or the match reads no such variable."""
        if not self._reads_constants:  # no statement reads a variable holding one
            return None
        if printed not in self._printed:
            tree = expression(printed)
            self._printed[printed] = None if tree is None else tree_key(_canonical(tree))
        key = self._printed[printed]
        if key is None:
            return None
        found = self._accesses(origin).get(key) if origin is not None else None
        if found is None:
            found = self._all_accesses().get(key)
        if found is None or len(found) != 1:
            return None
        written = next(iter(found))
        return written if written.reads else None

    def spaced(self, printed: str, origin: Origin | None) -> str | None:
        """The user's text of an access that differs from ``printed`` in blanks only
        (``u[3*n + x]`` for the printed ``u[3 * n + x]``): the statement's, else the one
        text the body writes it with. Equal tokens read alike wherever they are printed."""
        key = _tokens(printed)
        for scope in (origin, None):
            found = self._spaced_texts(scope).get(key, set())
            if len(found) == 1:
                return next(iter(found))
            if found:
                return None
        return None

    def _spaced_texts(self, origin: Origin | None) -> dict[str, set[str]]:
        key = None if origin is None else id(origin)
        if key not in self._spaced:
            out: dict[str, set[str]] = {}
            for o in self.origins if origin is None else [origin]:
                w = None if self.layout is None else self.layout.written(o.node)
                if w is None or self.layout is None or self.layout.source_map is None:
                    continue
                for start, _ in access_texts(self.layout.source_map, w.start, w.end):
                    text = self._written_access(start)
                    if text is not None:
                        out.setdefault(_tokens(text), set()).add(text)
            self._spaced[key] = out
        return self._spaced[key]

    def _written_access(self, start: int) -> str | None:
        """The access written at ``start``, exactly (one line, no comment)."""
        assert self.layout is not None and self.layout.source_map is not None
        source = self.layout.source_map
        k = bisect.bisect_left(source.starts, start)
        stop = source.path_end(k + 1)
        if stop is None:
            return None
        text = source.text[start : source.tokens[stop - 1].end]
        return text if "\n" not in text and "/*" not in text and "//" not in text else None

    def _all_accesses(self) -> dict[object, set[WrittenAccess]]:
        if self._every_access is None:
            self._every_access = {}
            for origin in self.origins:
                for key, texts in self._accesses(origin).items():
                    self._every_access.setdefault(key, set()).update(texts)
        return self._every_access

    def _accesses(self, origin: Origin) -> dict[object, set[WrittenAccess]]:
        key = id(origin)
        if key not in self._access_by_origin:
            self._access_by_origin[key] = self._build_accesses(origin)
        return self._access_by_origin[key]

    def _build_accesses(self, origin: Origin) -> dict[object, set[WrittenAccess]]:
        out: dict[object, set[WrittenAccess]] = {}
        values: dict[str, tuple[Symbol, int, str]] = {}  # variable -> (sym, class, literal)
        for s in origin.spelled:
            term = self.terms[s.tid]
            if (
                s.sym is not None
                and s.tid in self.class_of
                and term.op == "Const"
                and self.terms.types[s.tid] == INT
            ):
                values.setdefault(s.sym.name, (s.sym, self.class_of[s.tid], term.attrs[0]))
        w = None if self.layout is None or not values else self.layout.written(origin.node)
        if w is None or self.layout is None or self.layout.source_map is None:
            return out
        for _, text in access_texts(self.layout.source_map, w.start, w.end):
            tree = expression(text)
            if tree is None:
                continue
            reads = _substitute(tree, values)
            out.setdefault(tree_key(_canonical(tree)), set()).add(WrittenAccess(text, reads))
        return out


@dataclass(frozen=True)
class WrittenAccess:
    """An access as written, and the variables holding a constant it reads, with the
    classes of their values (one entry per occurrence)."""

    text: str
    reads: tuple[tuple[Symbol, int], ...] = field(compare=False)


def _substitute(tree: c_ast.Node, values: dict[str, tuple[Symbol, int, str]]) -> tuple:
    """Each variable of ``values`` that ``tree`` reads replaced by its literal, in place;
    (variable, class of its value) for each occurrence."""
    reads, stack = [], [tree]
    while stack:
        n = stack.pop()
        for name, child in n.children():
            if isinstance(n, c_ast.StructRef) and name == "field":
                continue  # a member's name
            if not (isinstance(child, c_ast.ID) and child.name in values):
                stack.append(child)
                continue
            sym, cls, literal = values[child.name]
            reads.append((sym, cls))
            new = c_ast.Constant("int", literal, child.coord)
            item = re.fullmatch(r"(\w+)\[(\d+)\]", name)  # an element of a list child
            if item is None:
                setattr(n, name, new)
            else:
                getattr(n, item.group(1))[int(item.group(2))] = new
    return tuple(reads)


@functools.lru_cache(maxsize=4096)
def _tokens(text: str) -> str:
    """``text``'s tokens, one blank apart (the same access texts recur in every body)."""
    return " ".join(t.text for t in tokenize(text))


def _canonical(tree: c_ast.Node) -> c_ast.Node:
    """``tree`` with every ``int`` literal in decimal (``0x1`` is ``1``), then the
    integer folds of subscripts (``macros.subscripts``)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Constant) and n.type == "int":
            try:
                value, t = parse_int(n.value)
            except ValueError:
                value, t = None, None
            if t == INT:
                n.value = str(value)
        stack.extend(child for _, child in n.children())
    return subscripts(tree)
