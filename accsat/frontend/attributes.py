"""GNU attributes: read off the preprocessed text, blanked for pycparser, attached to
the declarations they belong to.

pycparser has no grammar for ``__attribute__((...))``. Most attributes change nothing
accsat looks at (``unused``, ``always_inline``, ``aligned`` on a variable...), but some
change a type: ``mode(DI)`` makes ``unsigned int`` a 64-bit type, ``vector_size`` makes
a vector, ``packed`` moves struct members. Dropping those silently printed wrong
programs, so each attribute is found here, its text replaced by blanks of the same
length (every line and column stays where cpp put it), and attached to a declaration
by position: to the declarator it follows (``T name __attribute__((mode(DI)))``), else
to the first declarator after it in the same declaration (``__attribute__((mode(DI)))
unsigned u64;``), else to the struct or union it follows (``struct __attribute__
((packed)) S``, ``} __attribute__((packed))``). ``symbols.TypeReader`` models or
refuses what it gets (``type_effect``); whatever the model says is checked against
the compiler for every printed kernel (``verify/typecheck.py``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from pycparser import c_ast

from .preprocess import marker_file

Position = tuple[str, int, int]  # (file, line, column) as pycparser's coords give them

# attributes that change no value, type or layout accsat models (on any declaration)
HARMLESS = frozenset(
    [
        "access",
        "alias",
        "alloc_align",
        "alloc_size",
        "always_inline",
        "artificial",
        "assume_aligned",
        "cold",
        "const",
        "constructor",
        "deprecated",
        "designated_init",
        "destructor",
        "error",
        "externally_visible",
        "fallthrough",
        "flatten",
        "format",
        "format_arg",
        "gnu_inline",
        "hot",
        "ifunc",
        "leaf",
        "malloc",
        "no_icf",
        "no_instrument_function",
        "no_profile_instrument_function",
        "no_reorder",
        "no_sanitize",
        "no_sanitize_address",
        "no_split_stack",
        "no_stack_limit",
        "noclone",
        "nocommon",
        "noinline",
        "noipa",
        "nonnull",
        "nonstring",
        "noplt",
        "noreturn",
        "nothrow",
        "optimize",
        "pure",
        "retain",
        "returns_nonnull",
        "returns_twice",
        "section",
        "sentinel",
        "simd",
        "target",
        "target_clones",
        "tls_model",
        "unavailable",
        "unused",
        "used",
        "visibility",
        "warn_if_not_aligned",
        "warn_unused_result",
        "warning",
        "weak",
        "weakref",
    ]
)
# attributes of a variable or function that change nothing about its type
DECLARATION_ONLY = frozenset(("aligned", "common", "nocommon", "cleanup", "copy"))

_TOKEN = re.compile(
    r"""(?P<marker>^[ \t]*\#[^\n]*)
      | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
      | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
      | (?P<punct>\S)""",
    re.M | re.X,
)
_MARKER = re.compile(r'^[ \t]*#[ \t]*(?:line[ \t]+)?(\d+)[ \t]+"((?:\\.|[^"\\])*)"')
_KEYWORDS = frozenset(("__attribute__", "__attribute"))


@dataclass(frozen=True)
class Attribute:
    """One attribute: its name without surrounding underscores (``__mode__``: ``mode``)
    and the text of its arguments (``DI``), where it was written."""

    name: str
    args: str
    where: Position

    def __str__(self) -> str:
        return (
            f"__attribute__(({self.name}({self.args})))"
            if self.args
            else (f"__attribute__(({self.name}))")
        )


@dataclass
class _Site:
    """Where one ``__attribute__((...))`` stood: its attributes, the token before it, and
    the declaration segment around it (between ``; { } , (`` and ``; { } , = )``)."""

    attributes: tuple[Attribute, ...]
    at: Position
    before: str  # the token before the attribute
    start: Position  # the segment's first position
    end: Position  # the segment's end
    opened: Position | None = None  # after ``}``: where that ``{`` was


@dataclass
class Attributes:
    """The attributes of a file, by the position of the declaration they belong to."""

    by_position: dict[Position, list[Attribute]] = field(default_factory=dict)
    sites: list[_Site] = field(default_factory=list)

    def of(self, node: c_ast.Node | None) -> tuple[Attribute, ...]:
        if node is None or node.coord is None or not self.by_position:
            return ()
        return tuple(self.by_position.get(_pos(node.coord), ()))

    def attach(self, ast: c_ast.FileAST) -> Attributes:
        """Attach every site to a declaration of ``ast`` (see the module's docstring)."""
        if not self.sites:
            return self
        decls: list[Position] = []
        structs: list[Position] = []
        for node in _walk(ast):
            if isinstance(node, (c_ast.Decl, c_ast.Typedef, c_ast.Typename)) and node.coord:
                decls.append(_pos(node.coord))
            elif isinstance(node, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and node.coord:
                structs.append(_pos(node.coord))
        decls.sort()
        structs.sort()
        for site in self.sites:
            target = _target(site, decls, structs)
            if target is not None:
                self.by_position.setdefault(target, []).extend(site.attributes)
        return self


def _target(site: _Site, decls: list[Position], structs: list[Position]) -> Position | None:
    if site.before in ("struct", "union", "enum"):
        k = bisect.bisect_right(structs, site.at)
        return structs[k] if k < len(structs) and structs[k] <= site.end else None
    if site.before == "}" and site.opened is not None:
        k = bisect.bisect_left(structs, site.opened) - 1
        return structs[k] if k >= 0 else None
    k = bisect.bisect_left(decls, site.at) - 1
    if k >= 0 and decls[k] >= site.start:
        return decls[k]
    k += 1
    if k < len(decls) and decls[k] <= site.end:
        return decls[k]
    return None


def strip(text: str, default_file: str = "") -> tuple[str, Attributes]:
    """``text`` with every ``__attribute__((...))`` blanked, and the attributes found."""
    if "__attribute" not in text:
        return text, Attributes()
    lines = _LineTable(text, default_file)
    tokens = list(_tokens(text))
    out = list(text)
    found = Attributes()
    braces: list[int] = []  # positions of open braces
    k = 0
    while k < len(tokens):
        kind, value, pos = tokens[k]
        if value == "{":
            braces.append(pos)
        elif value == "}" and braces:
            braces.pop()
        if not (kind == "ident" and value in _KEYWORDS):
            k += 1
            continue
        close = _balanced(tokens, k + 1)
        if close is None:
            break  # not C we read: pycparser will say so
        end = tokens[close][2] + 1
        inner = text[tokens[k + 1][2] : end]
        before = _previous(tokens, k)
        opened = None
        if before is not None and before[1] == "}":
            opened = _matching_open(tokens, before[0])
        found.sites.append(
            _Site(
                _parse(inner, lines.position(pos)),
                lines.position(pos),
                before[1] if before else "",
                lines.position(_segment_start(tokens, k)),
                lines.position(_segment_end(tokens, close + 1, len(text))),
                lines.position(tokens[opened][2]) if opened is not None else None,
            )
        )
        for i in range(pos, end):
            if out[i] not in "\r\n":
                out[i] = " "
        k = close + 1
    return "".join(out), found


def _tokens(text: str):
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind == "marker":
            continue
        yield kind, m.group(), m.start()


def _balanced(tokens: list, k: int) -> int | None:
    """The index of the ``)`` closing the ``(`` at ``k``."""
    if k >= len(tokens) or tokens[k][1] != "(":
        return None
    depth = 0
    for j in range(k, len(tokens)):
        if tokens[j][1] == "(":
            depth += 1
        elif tokens[j][1] == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def _previous(tokens: list, k: int) -> tuple[int, str] | None:
    """The token before ``k`` that is not part of another attribute."""
    j = k - 1
    while j >= 0:
        if tokens[j][1] == ")":
            opened = _matching_open(tokens, j)
            if opened is not None and opened > 0 and tokens[opened - 1][1] in _KEYWORDS:
                j = opened - 2
                continue
        return j, tokens[j][1]
    return None


def _matching_open(tokens: list, j: int) -> int | None:
    close = tokens[j][1]
    open_ = {")": "(", "}": "{", "]": "["}.get(close)
    if open_ is None:
        return None
    depth = 0
    for i in range(j, -1, -1):
        if tokens[i][1] == close:
            depth += 1
        elif tokens[i][1] == open_:
            depth -= 1
            if depth == 0:
                return i
    return None


def _segment_start(tokens: list, k: int) -> int:
    """Where the declaration segment holding token ``k`` begins."""
    j = k - 1
    while j >= 0:
        value = tokens[j][1]
        if value in (")", "]"):
            opened = _matching_open(tokens, j)
            if opened is None:
                return tokens[j][2]
            j = opened - 1
            continue
        if value in (";", "{", "}", ",", "("):
            return tokens[j][2] + 1
        j -= 1
    return 0


def _segment_end(tokens: list, k: int, default: int) -> int:
    depth = 0
    for j in range(k, len(tokens)):
        value = tokens[j][1]
        if value in ("(", "["):
            depth += 1
        elif value in (")", "]"):
            if depth == 0:
                return tokens[j][2]
            depth -= 1
        elif depth == 0 and value in (";", "{", "}", ",", "="):
            return tokens[j][2]
    return default


def _parse(inner: str, where: Position) -> tuple[Attribute, ...]:
    """``((a, b(x, y), __c__))`` -> a, b with "x, y", c."""
    body = inner.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1].strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    out = []
    for part in _split_top(body):
        part = part.strip()
        if not part:
            continue
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", part, re.S)
        if m is None:
            out.append(Attribute(part, "", where))
            continue
        name = m.group(1)
        if name.startswith("__") and name.endswith("__") and len(name) > 4:
            name = name[2:-2]
        out.append(Attribute(name, " ".join((m.group(2) or "").split()), where))
    return tuple(out)


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


class _LineTable:
    """Offsets of the preprocessed text -> (file, line, column) as the line markers say."""

    def __init__(self, text: str, default_file: str):
        self.starts = [0]
        self.names: list[tuple[str, int]] = []  # per physical line: (file, its line number)
        file, line = default_file, 1
        for m in re.finditer(r"[^\n]*\n?", text):
            if not m.group():
                break
            self.names.append((file, line))
            marker = _MARKER.match(m.group())
            if marker:
                file, line = marker_file(marker.group(2)), int(marker.group(1))
            else:
                line += 1
            self.starts.append(m.end())

    def position(self, offset: int) -> Position:
        k = bisect.bisect_right(self.starts, offset) - 1
        k = min(k, len(self.names) - 1)
        file, line = self.names[k] if self.names else ("", 1)
        return file, line, offset - self.starts[k] + 1


def _pos(coord) -> Position:
    return (marker_file(coord.file or ""), coord.line or 0, coord.column or 0)


def _walk(node: c_ast.Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(child for _, child in n.children())
