"""Parse preprocessed C with pycparser; parse errors become one-line AccsatErrors."""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser
from pycparser.c_parser import ParseError

from ..errors import AccsatError
from .preprocess import marker_file

_WHERE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::\d+)?:\s*(?P<msg>.*)$", re.DOTALL)


def parse(text: str, filename: str) -> c_ast.FileAST:
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
