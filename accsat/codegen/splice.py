"""Put rewritten loop bodies back into the user's text, touching nothing else.

Printed bodies end their lines with "\n"; in a file whose lines end with "\r\n"
(CRLF) they get the line ending of the line they start on.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..frontend.preprocess import c_string
from .probe import Probe

_LONE_LF = re.compile(r"(?<!\r)\n")


@dataclass(frozen=True)
class Replacement:
    start: int  # offsets into the original text
    end: int
    text: str
    last_line: int  # line of the original text where the replaced span ends
    # the body printed with assertions of its types, for the compiler (codegen/probe.py)
    probe: Probe | None = None


def splice(
    source: str,
    replacements: list[Replacement],
    filename: str | None = None,
    directive: Callable[[int], str] | None = None,
) -> str:
    """``source`` with each span replaced; with ``filename``, a ``#line`` after each
    replacement puts the following lines back on their original numbers (``directive``,
    if given, writes it for a line of ``source``: one its own ``#line`` names otherwise)."""
    if directive is None and filename is not None:
        directive = functools.partial(_directive_naming, filename)
    out: list[str] = []
    pos = 0
    for r in sorted(replacements, key=lambda r: r.start):
        if r.start < pos:
            raise ValueError("overlapping replacements")
        out.append(source[pos : r.start])
        eol = line_ending(source, r.start)
        out.append(r.text if eol == "\n" else _LONE_LF.sub(eol, r.text))
        if directive is not None:
            rest_of_line = source.find("\n", r.end)
            if rest_of_line < 0:
                rest_of_line = len(source)
            elif rest_of_line > r.end and source[rest_of_line - 1] == "\r":
                rest_of_line -= 1  # the directive goes after the whole "\r\n"
            # finish the original line, then resume numbering at the next one
            out.append(source[r.end : rest_of_line])
            out.append(eol + directive(r.last_line + 1).rstrip("\n"))
            pos = rest_of_line
        else:
            pos = r.end
    out.append(source[pos:])
    return "".join(out)


def excerpt(
    source: str, line: int, span: tuple[int, int], new: Replacement | None
) -> tuple[str, str]:
    """The whole lines from ``line`` to the end of ``span`` (offsets of a body in
    ``source``) as written, and as they read with ``new`` spliced in (without the
    ``#line`` directives of a body printed for the wrapper): a record's two bodies."""
    start = 0
    for _ in range(line - 1):
        start = source.find("\n", start) + 1
    end = source.find("\n", span[1])
    end = len(source) if end < 0 else end
    written = source[start:end]
    if new is None:
        return written, written
    body = _LINE_DIRECTIVE.sub("", new.text)
    return written, source[start : span[0]] + body + source[span[1] : end]


_LINE_DIRECTIVE = re.compile(r'^[ \t]*#line \d+ "(?:[^"\\\n]|\\.)*"\r?\n', re.MULTILINE)


def line_ending(source: str, offset: int) -> str:
    """The line ending ("\n" or "\r\n") of the line of ``source`` holding ``offset``;
    on a last line without one, that of the line before; "\n" in a one-line file."""
    end = source.find("\n", offset)
    if end < 0:
        end = source.rfind("\n", 0, offset)
    return "\r\n" if end > 0 and source[end - 1] == "\r" else "\n"


def _directive_naming(filename: str, line: int) -> str:
    return line_directive(line, filename)


def line_directive(line: int, filename: str) -> str:
    return f"#line {line} {c_string(filename)}\n"
