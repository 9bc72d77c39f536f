"""Memory accesses printed through the user's macros (``U(i + 1, j, k)``, ``u[i + NX * j]``).

Inside a rewritten statement a load or store prints from the e-graph as a raw
access path (``u[i + 1 + 12 * (j + 10 * k)]``), which is correct where it is
printed by construction. The user's text of the kernel body holds the accesses
as written: accessor-macro invocations and access paths that name object-like
macros. Each is expanded by the C preprocessor with the definitions in force
at the kernel (the file's text with the invocations inserted at the body, the
same include paths); an access prints as a written text when the printed
access and that text's expansion parse to the same tree (parentheses aside).
Both are then read at the same place in the same scope, so they are the same
access. Anything that does not line up prints expanded, as before.

The texts of each body that may be constant expressions (``const_texts.py``)
and name a macro are probed in the same run, for the spelling of constants
(``constants.py``). The probes of every kernel body of a file go through one
preprocessor run with the compilation's own flags (``-D``/``-I`` included),
made the first time a rewritten kernel of the file prints an access or a
constant; a file whose bodies use no macro costs nothing. A macro of a system
header expands with line markers around it (gcc), which the probes drop.
"""

from __future__ import annotations

import functools
import re
import tempfile
from dataclasses import replace
from pathlib import Path

from pycparser import c_ast, c_parser

from ..errors import AccsatError
from ..frontend import cint
from ..frontend.ctypes import INT
from ..frontend.literals import parse_int
from ..frontend.load import LoadedFile
from ..frontend.preprocess import PreprocessOptions, preprocess
from ..frontend.source_map import BodySpan, SourceMap
from . import const_texts
from .const_texts import Candidate
from .layout import Layout

_BEGIN, _END = "__accsat_probe__", "__accsat_probe_end__"
_PROBE = re.compile(rf"{_BEGIN} (\d+_\d+) (.*?) {_END}", re.S)
# a line marker gcc writes inside an expansion (a macro of a system header: INT_MIN)
_MARKER = re.compile(r'^# \d+ "[^\n]*$', re.M)
_ACCESS = (c_ast.ArrayRef, c_ast.StructRef)


def tree_key(node: object) -> object:
    """A hashable form of a pycparser tree: equal for trees equal up to coordinates
    (and so up to parentheses).  A kernel looks up each printed access among the
    file's macro texts: a dict of these, not a scan of trees per access."""
    if isinstance(node, list):
        return tuple(tree_key(x) for x in node)
    if not isinstance(node, c_ast.Node):
        return node
    return (
        type(node).__name__,
        tuple(tree_key(getattr(node, n)) for n in node.attr_names),
        tuple((name, tree_key(child)) for name, child in node.children()),
    )


def same_tree(a: object, b: object) -> bool:
    """Two pycparser trees equal up to coordinates (and so up to parentheses)."""
    return tree_key(a) == tree_key(b)


def expression(text: str) -> c_ast.Node | None:
    """The tree of one C expression (None if it does not parse as one), with the
    integer identities the printer folds in subscripts folded (``subscripts``)."""
    try:
        ast = _parser().parse(f"void {_BEGIN}(void) {{ ({text}); }}")
    except Exception:  # pycparser raises several kinds; any means "not one expression"
        return None
    items = ast.ext[0].body.block_items or []
    return subscripts(items[0]) if len(items) == 1 else None


@functools.lru_cache(maxsize=8192)
def _access_key(printed: str) -> object | None:
    """``tree_key`` of the access ``printed`` (None: not an access); the same printed
    accesses recur in every kernel of a file, and parsing one is most of the lookup."""
    tree = expression(printed)
    return tree_key(tree) if isinstance(tree, _ACCESS) else None


@functools.cache
def _parser() -> c_parser.CParser:
    """One parser per process: building one costs more than parsing an access."""
    return c_parser.CParser()


def subscripts(tree: c_ast.Node) -> c_ast.Node:
    """``tree`` with ``0 + x``, ``x + 0``, ``x - 0``, ``1 * x`` and ``x * 1`` read as ``x``
    in the ``+ - *`` chains that make up a subscript (``R(0, i)`` is ``r[(0) + 3 * (i)]``,
    printed ``r[3 * i]`` once the identity is folded), and such an operation on two
    ``int`` literals read as its value when that is an ``int`` (``6 * 5 * (1)``, what
    ``NX*NY*(c)`` expands to, is ``30``: the printer folds constants). Exact there: a
    subscript is an integer or a pointer, so is every operand of such a chain (a
    floating operand would make the subscript floating), and with the literal an
    ``int`` the operation gives ``x``'s value with the type ``x`` is promoted to anyway
    by the operation above."""
    for node in _nodes(tree):
        if isinstance(node, c_ast.ArrayRef):
            node.subscript = _fold(node.subscript)
    return tree


_INT_OPS = {"+": "Add", "-": "Sub", "*": "Mul"}


def _fold(e: c_ast.Node) -> c_ast.Node:
    if not isinstance(e, c_ast.BinaryOp) or e.op not in ("+", "-", "*"):
        return e
    left, right = _fold(e.left), _fold(e.right)
    a, b = _int_literal(left), _int_literal(right)
    if a is not None and b is not None:
        value = cint.binary(_INT_OPS[e.op], a, b, INT)
        if value is not None and value >= 0:  # an int, written as a literal
            return c_ast.Constant("int", str(value), e.coord)
    if e.op == "+" and _literal(left, "0"):
        return right
    if e.op in ("+", "-") and _literal(right, "0"):
        return left
    if e.op == "*" and _literal(left, "1"):
        return right
    if e.op == "*" and _literal(right, "1"):
        return left
    return c_ast.BinaryOp(e.op, left, right, e.coord)


def _int_literal(e: c_ast.Node) -> int | None:
    """The value of an ``int`` literal (None for any other node, ``0u``, ``7L``...)."""
    if not isinstance(e, c_ast.Constant) or e.type != "int":
        return None
    try:
        value, t = parse_int(e.value)
    except ValueError:
        return None
    return value if t == INT else None


def _literal(e: c_ast.Node, value: str) -> bool:
    """The plain ``int`` literal ``value`` (not ``0u``, ``0L``: those change the type)."""
    return isinstance(e, c_ast.Constant) and e.type == "int" and e.value == value


def written_names(node: c_ast.Node) -> set[str]:
    """Every name a parsed tree mentions (identifiers, type names, members)."""
    return _names(node)[0]


def _names(node: c_ast.Node) -> tuple[set[str], set[str]]:
    """Every name a parsed tree mentions, and those it reads or calls (``ID`` nodes:
    variables, functions, members), in one walk."""
    out: set[str] = set()
    ids: set[str] = set()
    for n in _nodes(node):
        if isinstance(n, c_ast.ID):
            ids.add(n.name)
        for attr in n.attr_names:
            value = getattr(n, attr)
            if isinstance(value, str):
                out.add(value)
            elif isinstance(value, list):
                out.update(v for v in value if isinstance(v, str))
    return out, ids


def _nodes(node: c_ast.Node):
    """Every node of the tree (iterative: a body may be deeper than the recursion limit)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(child for _, child in reversed(n.children()))


class FileMacros:
    """The accesses written through macros in every kernel body of one file, and the
    texts that may be constant expressions (``const_texts.py``), with their
    expansions: found and expanded together, once per file, on first use (one
    preprocessor run, with the compilation's own flags)."""

    def __init__(self, loaded: LoadedFile, options: PreprocessOptions):
        self.loaded = loaded
        self.options = options
        # body start -> (text as written, its expansion) of each access; None: not run yet
        self._expanded: dict[int, list[tuple[str, str]]] | None = None
        self._by_body: dict[int, list[tuple[str, c_ast.Node]]] = {}  # the parsed ones
        self._constants: dict[int, list[tuple[Candidate, str]]] = {}

    def candidates(self, layout: Layout | None) -> list[tuple[str, c_ast.Node]]:
        """(text as written, its expansion's tree) for the body ``layout`` is of.  The
        trees of a body are parsed when it asks (a file's other bodies may be printed
        by the compile server's other process: BT's x_solve.c parses 378 expansions)."""
        if layout is None or layout.span is None:
            return []
        at = layout.span.start
        if at not in self._by_body:
            self._by_body[at] = [
                (text, tree)
                for text, exp in self._expansions().get(at, [])
                if isinstance(tree := expression(exp), _ACCESS)
            ]
        return self._by_body[at]

    def constants(self, layout: Layout | None) -> list[tuple[Candidate, str]]:
        """The texts of the body ``layout`` is of that may be constant expressions,
        each with its expansion."""
        if layout is None or layout.span is None:
            return []
        self._expansions()
        return self._constants.get(layout.span.start, [])

    def _expansions(self) -> dict[int, list[tuple[str, str]]]:
        if self._expanded is None:
            self._expanded = self._expand_all()
        return self._expanded

    def _expand_all(self) -> dict[int, list[tuple[str, str]]]:
        texts: dict[int, list[str]] = {}
        accesses: dict[int, int] = {}  # how many of a body's texts are accesses (the first)
        consts: dict[int, list[Candidate]] = {}
        for kernel in self.loaded.kernels:
            span = kernel.span
            if isinstance(span, BodySpan):
                names, ids = _names(kernel.body)
                found = written_accesses(self.loaded.source, span.start, span.end, names)
                consts[span.start] = const_texts.candidates(
                    self.loaded.source, span.start, span.end, ids
                )
                probes = found + [c.text for c in consts[span.start] if c.probe]
                accesses[span.start] = len(found)
                if probes:
                    texts[span.start] = probes
        expanded = self._expand(texts) if texts else {}  # no macro: no preprocessor run
        out: dict[int, list[tuple[str, str]]] = {}
        for at, written in texts.items():
            for k, text in enumerate(written[: accesses[at]]):
                exp = expanded.get((at, k))
                if exp is not None:
                    out.setdefault(at, []).append((text, exp))
        for at, candidates in consts.items():
            k = accesses[at]
            for c in candidates:
                exp = expanded.get((at, k)) if c.probe else c.text
                k += c.probe
                if exp is not None:
                    self._constants.setdefault(at, []).append((c, exp))
        return out

    def _expand(self, texts: dict[int, list[str]]) -> dict[tuple[int, int], str]:
        """Each text as the preprocessor expands it at its kernel body: probes inserted
        into a copy of the file at each body, preprocessed with the same flags (quote
        includes resolved from the user's directory first, as they were)."""
        path, text = self.loaded.path, self.loaded.text
        for at in sorted(texts, reverse=True):  # from the end: offsets stay valid
            probe = "".join(f"\n{_BEGIN} {at}_{k} {t} {_END}" for k, t in enumerate(texts[at]))
            text = text[:at] + probe + "\n" + text[at:]
        opts = replace(
            self.options, flags=("-iquote", str(path.parent.resolve()), *self.options.flags)
        )
        with tempfile.TemporaryDirectory(prefix="accsat-probe-") as tmp:
            copy = Path(tmp) / path.name
            copy.write_bytes(text.encode("utf-8", "surrogateescape"))
            try:
                out = preprocess(copy, opts)
            except AccsatError:
                return {}
        found: dict[tuple[int, int], list[str]] = {}
        for m in _PROBE.finditer(_MARKER.sub("", out)):
            where, _, k = m.group(1).partition("_")
            found.setdefault((int(where), int(k)), []).append(" ".join(m.group(2).split()))
        return {key: v[0] for key, v in found.items() if len(v) == 1}


class MacroSpelling:
    """Printed access text -> the user's text for it, for one kernel body."""

    def __init__(self, layout: Layout | None, macros: FileMacros | None):
        self.layout = layout
        self.macros = macros
        self._texts: dict[object, str] | None = None  # tree_key -> text, built on first use
        self._memo: dict[str, str] = {}

    def __call__(self, printed: str) -> str:
        if printed not in self._memo:
            self._memo[printed] = self._find(printed)
        return self._memo[printed]

    def _find(self, printed: str) -> str:
        if self._texts is None:
            self._texts = {}
            for text, tree in [] if self.macros is None else self.macros.candidates(self.layout):
                self._texts.setdefault(tree_key(tree), text)  # the first one, as written
        if not self._texts:
            return printed
        key = _access_key(printed)
        return printed if key is None else self._texts.get(key, printed)


def written_accesses(source: SourceMap, start: int, end: int, parsed: set[str]) -> list[str]:
    """The accesses written in ``text[start:end]`` through a macro: invocations of a
    function-like macro, and access paths (``a[...]``, ``p->f``) that name a macro.
    A macro is a name of the text the parser never saw (``parsed``)."""
    toks = source.tokens
    inside = source.within(start, end)
    if not inside:
        return []
    first, last = inside[0], inside[-1] + 1
    macros = {t.text for t in toks[first:last] if t.kind == "ident" and t.text not in parsed}
    out: list[str] = []
    for k in range(first, last - 1):
        tok, nxt = toks[k], toks[k + 1]
        if tok.kind != "ident":
            continue
        if tok.text in macros and nxt.text == "(":
            stop = source._skip_group(k + 1, "(", ")")
        elif nxt.text in ("[", "->", "."):
            stop = source.path_end(k + 1)
        else:
            continue
        if stop is None or stop > last:
            continue
        names = {t.text for t in toks[k:stop] if t.kind == "ident"}
        if names & macros:
            text = " ".join(source.text[tok.start : toks[stop - 1].end].split())
            if text not in out:
                out.append(text)
    return out
