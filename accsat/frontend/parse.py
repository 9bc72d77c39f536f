"""Parse preprocessed C with pycparser; parse errors become one-line AccsatErrors."""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser
from pycparser.c_parser import ParseError

from ..errors import AccsatError

_WHERE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::\d+)?:\s*(?P<msg>.*)$", re.DOTALL)


def parse(text: str, filename: str) -> c_ast.FileAST:
    try:
        return c_parser.CParser().parse(text, filename)
    except ParseError as exc:
        m = _WHERE.match(str(exc))
        if m:
            raise AccsatError(f"parse error: {m['msg']}", m["file"], int(m["line"])) from None
        raise AccsatError(f"parse error: {exc}", filename) from None
    except (RecursionError, AssertionError) as exc:
        raise AccsatError(f"parse error: {type(exc).__name__}", filename) from None
