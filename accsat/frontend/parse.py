"""Parse preprocessed C with pycparser; parse errors become one-line AccsatErrors."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pycparser import c_ast, c_parser
from pycparser.c_parser import ParseError

from ..errors import AccsatError
from . import attributes
from .preprocess import marker_file

if TYPE_CHECKING:
    from .symbols import Scope

_WHERE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::\d+)?:\s*(?P<msg>.*)$", re.DOTALL)


def parse(text: str, filename: str) -> c_ast.FileAST:
    """The file's AST (its GNU attributes dropped: ``parse_attributed`` keeps them)."""
    return parse_attributed(text, filename)[0]


def parse_attributed(text: str, filename: str) -> tuple[c_ast.FileAST, attributes.Attributes]:
    """The file's AST and its GNU attributes, attached to their declarations
    (``frontend/attributes.py``: pycparser reads none)."""
    text, found = attributes.strip(text, filename)
    ast = _parse_whole(text, filename)
    return ast, found.attach(ast)


def _parse_whole(text: str, filename: str) -> c_ast.FileAST:
    """A file pycparser cannot read whole (a GNU statement expression,
    ``typeof`` or ``asm`` in some function) is read again with the bodies of the
    functions that hold no OpenACC or OpenMP directive blanked out (``kernel_functions``):
    accsat needs only the kernels' functions and the declarations. When that fails too,
    the first error is reported: the file's, not the blanked text's."""
    try:
        return _parse(text, filename)
    except AccsatError as whole:
        slim = kernel_functions(text)
        if slim == text or not _DIRECTIVE.search(slim):  # nothing of accsat's to read
            raise
        try:
            return _parse(slim, filename)
        except AccsatError:
            raise whole from None


# a directive line of the preprocessed text; a body that holds one is kept
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(acc|omp)\b|\b_Pragma\b", re.M)
_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#[^\n]*|[{}();]', re.M)


def kernel_functions(text: str) -> str:
    """``text`` with the body of every function definition that holds no directive
    blanked: each character but line breaks and the lines of preprocessor markers (the
    line numbers must stay) becomes a space, so that offsets and lines are the same.
    A function body is a ``{`` at file level right after ``)`` (or ``;``: a K&R
    definition's parameter declarations); a struct's follows a name, an
    initialiser's ``=``."""
    out = list(text)
    depth, start = 0, -1
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok[0] in "\"'#":
            continue
        if tok == "{":
            if depth == 0:
                start = m.start() if _before(text, m.start()) in (")", ";") else -1
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return text  # not C we understand: leave it to the parser's error
            if depth == 0 and start >= 0:
                body = text[start + 1 : m.start()]
                if not _DIRECTIVE.search(body):
                    _blank(out, start + 1, m.start(), body)
    return "".join(out)


def _before(text: str, pos: int) -> str:
    """The last character before ``pos`` that is not blank or on a marker line."""
    k = pos - 1
    while k >= 0:
        if text[k].isspace():
            k -= 1
            continue
        line = text.rfind("\n", 0, k) + 1
        if text[line : k + 1].lstrip().startswith("#"):
            k = line - 1
            continue
        return text[k]
    return ""


def _blank(out: list[str], first: int, end: int, body: str) -> None:
    offset = first
    for line in body.splitlines(keepends=True):
        if not line.lstrip().startswith("#"):
            for k, ch in enumerate(line):
                if ch not in "\r\n":
                    out[offset + k] = " "
        offset += len(line)


def _parse(text: str, filename: str) -> c_ast.FileAST:
    parser = c_parser.CParser()
    try:
        return parser.parse(text, filename)
    except ParseError as exc:
        m = _WHERE.match(str(exc))
        if m:
            file = marker_file(m["file"])
            raise AccsatError(f"parse error: {m['msg']}", file, int(m["line"])) from None
        msg = str(exc).split(": ", 1)[-1]
        file, line = _current_position(parser, filename)
        raise AccsatError(f"parse error: {msg}", file, line) from None
    except RecursionError:
        file, line = _current_position(parser, filename)
        raise AccsatError("parse error: nested too deeply for the parser", file, line) from None
    except AssertionError as exc:
        raise AccsatError(f"parse error: {type(exc).__name__}", filename) from None


def _current_position(parser: c_parser.CParser, filename: str) -> tuple[str, int | None]:
    """Where the parser stopped, for errors pycparser 3 reports without a line.

    Reads pycparser's private token stream: if that changes, we only lose the line.
    """
    try:
        coord = parser._tok_coord(parser._tokens.peek())
        return marker_file(coord.file) if coord.file else filename, coord.line
    except Exception:
        return filename, None


_PARSER: c_parser.CParser | None = None
# a string or character literal (kept), or a comment (gone: statements accsat prints as
# the user wrote them keep his comments, which pycparser does not read)
_COMMENT = re.compile(
    r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|//[^\n]*|/\*.*?\*/""", re.DOTALL
)


def parse_body(text: str, scope: Scope) -> c_ast.Compound:
    """Parse a printed body on its own: the typedef names of ``scope`` are declared first."""
    global _PARSER
    names: set[str] = set()
    hidden: set[str] = set()  # a variable of an inner scope hides a typedef's name
    s: Scope | None = scope
    while s is not None:
        names.update(n for n in s.typedefs if n not in hidden)
        hidden |= set(s.names) | set(s.typedefs)
        s = s.parent
    prelude = "".join(f"typedef int {n};\n" for n in sorted(names))
    text = _COMMENT.sub(lambda m: m.group(1) or "\n" * m.group().count("\n") or " ", text)
    src = f"{prelude}void __accsat_verify_body(void)\n{{\n{text}\n}}\n"
    if _PARSER is None:
        _PARSER = c_parser.CParser()
    try:
        ast = _PARSER.parse(src, "<rewritten body>")
    except Exception as exc:
        raise AccsatError(f"cannot parse the rewritten body: {exc}") from None
    fn = ast.ext[-1]
    assert isinstance(fn, c_ast.FuncDef)
    items = fn.body.block_items or []
    if len(items) == 1:
        return items[0]
    return fn.body
