"""Conditional compilation inside a kernel body: ``#if``/``#ifdef`` ... ``#endif``.

Portable codes choose a body's statements this way. The parser sees only the
branch the flags select, so each outermost group of whole statements is kept as
one opaque statement (printed exactly as written, inactive branches included)
and the rest of the body is rewritten around it.

To find the group's statements in the parsed program, the file is preprocessed
again with a marker statement just before each group and one just after it
(``__accsat_group_begin(k);`` ... ``__accsat_group_end(k);``, ``k`` numbering the
groups of one body), followed by ``#line`` so that every other line keeps its
number. ``find_groups`` says which groups can be delimited so: each branch whole
statements, at a statement boundary, and no other directive than ``#pragma`` in
the body.

A group may declare variables (its text says which, ``declared_names``) as long as no
statement after it outside a group names one (``GroupSpan.after``): which variable such a
name means would depend on the flags. A group of directives alone (``#if
defined(_OPENACC)`` / ``#pragma acc loop seq`` / ``#endif``) applies them to the statement
after it: it is kept as written right before that statement (only a marker before it),
when no branch's directive changes what the rewrite may do there (``harmless``: a
sequential loop, a hint, a loop transformation, another compiler's pragma), whichever
branch the flags select.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pycparser import c_ast

from . import directives
from .preprocess import c_string

BEGIN, END = "__accsat_group_begin", "__accsat_group_end"
_OPEN = ("if", "ifdef", "ifndef")
_MIDDLE = ("elif", "else", "elifdef", "elifndef")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class GroupSpan:
    """One outermost conditional group of a body: its ``#if`` line through its
    ``#endif`` line, as written (``start``/``end``: offsets of those lines' first and
    last characters, the newline after ``#endif`` excluded)."""

    first_line: int
    last_line: int
    start: int
    end: int
    text: str
    # every branch directives alone (or nothing): they apply to the statement after it
    directive: bool = False
    # the names the body's statements after it use, those of other groups aside
    after: frozenset[str] = frozenset()


def directive_name(text: str) -> str:
    """``if`` for ``#  if X``, ``pragma`` for ``#pragma acc ...``."""
    word = text.lstrip("#").lstrip(" \t")
    name = ""
    for ch in word:
        if not (ch.isalnum() or ch == "_"):
            break
        name += ch
    return name


def find_groups(
    text: str, tokens: list, first: int, stop: int, others: tuple[str, ...] = ("pragma",)
) -> list[GroupSpan] | str:
    """The outermost conditional groups among ``tokens[first:stop]`` (a body), or why
    the body cannot be rewritten around them (``others``: the other directives it may
    hold)."""
    groups: list[GroupSpan] = []
    ranges: list[tuple[int, int]] = []  # each group's first and last token
    kinds: list[str] = []  # of the outermost group's branches: see _branch
    depth, opened, branch = 0, 0, first
    for k in range(first, stop):
        tok = tokens[k]
        if tok.kind != "directive":
            continue
        name = directive_name(tok.text)
        if name in others or name == "":  # "#" alone is a null directive
            continue
        if name.isdigit() and "line" in others:  # a line marker: "# 12 "file""
            continue
        if name in _OPEN:
            if depth == 0:
                why = _boundary_before(tokens, first, k)
                if why:
                    return why
                opened, branch, kinds = k, k + 1, []
            depth += 1
        elif name in _MIDDLE or name == "endif":
            if depth == 0:
                return f"'#{name}' without its '#if' inside the loop body"
            if depth == 1:
                kind = _branch(tokens, branch, k)
                if kind not in _BRANCHES:
                    return kind
                kinds.append(kind)
                branch = k + 1
            if name == "endif":
                depth -= 1
                if depth == 0:
                    directive = "directives" in kinds
                    why = _directive_group(tokens, opened, k, stop) if directive else None
                    if why:
                        return why
                    if k + 1 < stop and tokens[k + 1].text == "else":
                        return "a conditional group ends before the 'else' of its 'if'"
                    groups.append(_group(text, tokens[opened], tok, directive))
                    ranges.append((opened, k))
        else:
            return f"preprocessor directive '#{name}' inside the loop body"
    if depth:
        return "'#if' without its '#endif' inside the loop body"
    return [replace(g, after=_names_after(tokens, ranges, j, stop)) for j, g in enumerate(groups)]


_BRANCHES = ("statements", "directives", "empty")


def _branch(tokens: list, first: int, stop: int) -> str:
    """What one branch holds: "statements" (whole ones), "directives" (alone), "empty",
    or why it cannot be rewritten around."""
    if first == stop:
        return "empty"
    if only_directives(tokens[first:stop]):
        return "directives"
    return _whole_statements(tokens, first, stop) or "statements"


def holds_pragma(group: GroupSpan, text: str) -> bool:
    """Whether ``group`` holds the line ``#pragma text`` (spacing and splices aside)."""
    want = " ".join(text.replace("\\\n", " ").split())
    return want in _pragma_lines(group.text)


def _pragma_lines(text: str) -> list[str]:
    joined = text.replace("\\\r\n", " ").replace("\\\n", " ")
    out = []
    for line in joined.split("\n"):
        words = line.strip().lstrip("#").strip()
        if words.startswith("pragma"):
            out.append(" ".join(words.removeprefix("pragma").split()))
    return out


def only_directives(tokens: list) -> bool:
    """Whether the tokens (of a group as written) are directives and nothing else."""
    return all(t.kind == "directive" for t in tokens)


def _directive_group(tokens: list, opened: int, closed: int, stop: int) -> str | None:
    """Why the group of directives ``tokens[opened..closed]`` cannot be kept before the
    statement after it: a branch holds statements too, no statement follows, or a
    directive would change what the rewrite may do under some flags."""
    inner = tokens[opened + 1 : closed]
    if any(t.kind != "directive" for t in inner):
        return "a conditional group whose branch ends with a directive (it would apply to what follows)"
    if (
        closed + 1 >= stop
        or tokens[closed + 1].text == "}"
        or tokens[closed + 1].kind == "directive"
    ):
        return "a conditional group of directives with no statement right after it"
    for t in inner:
        if directive_name(t.text) == "pragma" and not harmless(t.text):
            said = " ".join(t.text.split())
            return f"a conditional group that puts '{said}' before a statement under some flags"
    return None


def harmless(text: str) -> bool:
    """Whether the ``#pragma`` line ``text``, before a statement of a body, leaves what the
    rewrite may do there as it is: a sequential loop (``acc loop seq``), a hint (``acc
    cache``), a loop transformation (``omp unroll``, ``tile``), another compiler's pragma
    (``GCC unroll``, ``ivdep``): as before it, when it is not compiled."""
    body = text.lstrip().lstrip("#").lstrip().removeprefix("pragma")
    d = directives.parse(body)
    return (
        d.model == "" or d.is_sequential_loop or d.kinds <= {directives.HINT, directives.TRANSFORM}
    )


def _names_after(tokens: list, ranges: list[tuple[int, int]], j: int, stop: int) -> frozenset[str]:
    """The identifiers of ``tokens`` after group ``j`` up to ``stop``, outside every group."""
    out = set()
    k = ranges[j][1] + 1
    for first, last in ranges[j + 1 :] + [(stop, stop)]:
        out |= {t.text for t in tokens[k:first] if t.kind == "ident"}
        k = last + 1
    return frozenset(out)


def _group(text: str, opening, closing, directive: bool = False) -> GroupSpan:
    start = text.rfind("\n", 0, opening.start) + 1
    return GroupSpan(
        opening.line,
        closing.line + closing.text.count("\n"),
        start,
        closing.end,
        text[start : closing.end],
        directive,
    )


def _boundary_before(tokens: list, first: int, k: int) -> str | None:
    """A group begins where a statement may: after ``;``, ``{`` or ``}``, or first."""
    j = k - 1
    while j >= first and tokens[j].kind == "directive":
        if directive_name(tokens[j].text) == "pragma":
            return "a conditional group right after a '#pragma'"
        j -= 1
    if j < first or tokens[j].text in (";", "{", "}"):
        return None
    return "a conditional group inside a statement"


def _whole_statements(tokens: list, first: int, stop: int) -> str | None:
    """One branch: whole statements (brackets balanced, ending with ``;`` or ``}``)."""
    stack: list[str] = []
    last = None
    if stop > first and tokens[stop - 1].kind == "directive":
        return "a conditional group whose branch ends with a directive (it would apply to what follows)"
    for tok in tokens[first:stop]:
        if tok.kind == "directive":
            continue
        if last is None and tok.text in ("else", "while"):
            return f"a conditional group that begins with '{tok.text}'"
        last = tok.text
        if tok.text in _PAIRS:
            stack.append(_PAIRS[tok.text])
        elif tok.text in (")", "]", "}") and (not stack or stack.pop() != tok.text):
            return "a conditional group whose branch is not whole statements"
    if stack or last not in (None, ";", "}"):
        return "a conditional group whose branch is not whole statements"
    return None


def marked(text: str, groups: list[list[GroupSpan]], filename: str) -> str:
    """``text`` with the marker statements around each group (``groups``: per body, in
    text order) and ``#line`` after each, naming ``filename`` as cpp would."""
    every = sorted(
        ((k, g) for body in groups for k, g in enumerate(body)), key=lambda p: p[1].start
    )
    return f"#line 1 {c_string(filename)}\n" + _with_markers(text, every, c_string(filename))


def marked_body(body: str, tokens: list) -> str:
    """A printed body (``tokens``: its own) with the marker statements around each of
    its conditional groups, numbered as ``marked`` numbers them (no ``#line``: the
    re-read check reads no line numbers)."""
    groups = find_groups(body, tokens, 0, len(tokens), ("pragma", "line"))  # accsat-cc's
    if isinstance(groups, str):
        return body
    return _with_markers(body, list(enumerate(groups)), None)


def _with_markers(text: str, groups: list[tuple[int, GroupSpan]], quoted: str | None) -> str:
    """``BEGIN(k);`` before and ``END(k);`` after each group (in text order; a group of
    directives: ``BEGIN(k);`` alone, nothing between them and their statement), each
    followed by ``#line`` naming ``quoted`` (None: no ``#line``)."""
    out, last = [], 0
    for k, g in groups:
        first = f"#line {g.first_line} {quoted}\n" if quoted else ""
        after = f"\n#line {g.last_line + 1} {quoted}" if quoted else ""
        out += [text[last : g.start], f"{BEGIN}({k});\n{first}", text[g.start : g.end]]
        if not g.directive:
            out.append(f"\n{END}({k});{after}")
        last = g.end
    out.append(text[last:])
    return "".join(out)


def marker(node: c_ast.Node) -> tuple[str, int] | None:
    """(BEGIN or END, k) for a marker statement, else None."""
    if (
        isinstance(node, c_ast.FuncCall)
        and isinstance(node.name, c_ast.ID)
        and node.name.name in (BEGIN, END)
        and node.args is not None
        and len(node.args.exprs) == 1
        and isinstance(node.args.exprs[0], c_ast.Constant)
    ):
        return node.name.name, int(node.args.exprs[0].value)
    return None


class Group(c_ast.Node):
    """The statements of conditional group ``index`` of a body (those of the branch the
    flags select), as one statement (ssa/statements.py)."""

    __slots__ = ("index", "items", "coord", "directive", "__weakref__")
    attr_names = ("index",)

    def __init__(self, index: int, items: list[c_ast.Node], coord=None, directive=False):
        self.index = index
        self.items = items
        self.coord = coord
        self.directive = directive  # of directives: they apply to the statement after it

    def children(self):
        return tuple((f"items[{k}]", item) for k, item in enumerate(self.items))

    def __iter__(self):
        yield from self.items


_UPDATES = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"}


_KEYWORDS = frozenset(("if", "for", "while", "switch", "return", "sizeof", "do", "else"))


def assigned_names(tokens: list, is_function: Callable[[str], bool]) -> set[str]:
    """Names any branch of a group (its ``tokens``) may assign: followed by an
    assignment operator or ``++``/``--``, preceded by ``++``/``--``, or inside the
    arguments of a macro (a name ``is_function`` does not know: ``BUMP(t)`` may
    assign ``t``). A call is a memory event, and ``address_taken`` refuses ``&t``."""
    toks = [t for t in tokens if t.kind != "directive"]
    names = set()
    depth, macro_depths = 0, []
    for k, tok in enumerate(toks):
        if tok.text == "(":
            depth += 1
            prev = toks[k - 1] if k > 0 else None
            if (
                prev is not None
                and prev.kind == "ident"
                and prev.text not in _KEYWORDS
                and not is_function(prev.text)
            ):
                macro_depths.append(depth)
        elif tok.text == ")":
            if macro_depths and macro_depths[-1] == depth:
                macro_depths.pop()
            depth -= 1
        if tok.kind != "ident":
            continue
        after = toks[k + 1].text if k + 1 < len(toks) else ""
        before = toks[k - 1].text if k > 0 else ""
        if after in _UPDATES or before in ("++", "--") or macro_depths:
            names.add(tok.text)
    return names


def address_taken(tokens: list) -> set[str]:
    """Names any branch of a group takes the address of (``&t``, not ``a & t``)."""
    toks = [t for t in tokens if t.kind != "directive"]
    return {
        tok.text
        for k, tok in enumerate(toks[1:], 1)
        if tok.kind == "ident"
        and toks[k - 1].text == "&"
        and (
            k < 2
            or toks[k - 2].kind not in ("ident", "number")
            and toks[k - 2].text not in (")", "]")
        )
    }


_TYPE_WORDS = frozenset(
    (
        *("int", "char", "short", "long", "float", "double", "signed", "unsigned", "void"),
        *("_Bool", "_Complex", "_Atomic", "const", "volatile", "restrict", "inline"),
        *("static", "extern", "register", "auto", "typedef", "struct", "union", "enum"),
    )
)


def declared_names(tokens: list, is_type: Callable[[str], bool]) -> set[str]:
    """Names a group's text (``tokens``, every branch) may declare at its own level (not
    inside braces): in each statement that begins with a type word, a typedef name
    (``is_type``) or two names (``T x``, ``T *x``), every name before an ``=`` at its
    outer level, type words and typedef names aside (more than it declares, never less)."""
    out: set[str] = set()
    statement: list = []
    braces = brackets = 0
    for tok in (t for t in tokens if t.kind != "directive"):
        if tok.text in ("{", "}"):
            braces += 1 if tok.text == "{" else -1
            tagged = bool(statement) and statement[0].text in ("struct", "union", "enum")
            if braces == 0 and not tagged:
                statement = []  # a block or a statement with one: what it declares is its own
            continue
        if braces:
            continue
        brackets += (tok.text in ("(", "[")) - (tok.text in (")", "]"))
        if tok.text == ";" and brackets == 0:
            out |= _declared(statement, is_type)
            statement = []
        else:
            statement.append(tok)
    return out


def _declared(statement: list, is_type: Callable[[str], bool]) -> set[str]:
    if not statement or statement[0].kind != "ident":
        return set()
    head, second = statement[0].text, statement[1] if len(statement) > 1 else None
    declares = (
        head in _TYPE_WORDS
        or is_type(head)
        or (second is not None and (second.kind == "ident" or second.text == "*"))
    )
    if not declares:
        return set()
    names, depth, before_init = set(), 0, True
    for tok in statement:
        if tok.text in ("(", "["):
            depth += 1
        elif tok.text in (")", "]"):
            depth -= 1
        elif depth == 0 and tok.text in ("=", ","):
            before_init = tok.text == ","
        elif tok.kind == "ident" and before_init and tok.text not in _TYPE_WORDS:
            names |= set() if is_type(tok.text) else {tok.text}
    return names
