"""``#line`` directives in the user's own text: generated code names other lines.

Code generators write ``#line 12 "kernels.src"`` (or cpp's own ``# 12 "kernels.src"``)
so that diagnostics name the file they generated from. accsat reads such a file with
those directives blanked (each character but line breaks a space): the parser's lines
are then the file's own, every stage maps them to the text as usual, and the file
name of every kernel is the one accsat was given. What the compiler will call each
line (``LineMap.presumed``) is used where accsat speaks to the user: the report, and
the ``#line`` directives printed in and after a rewritten body.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from .preprocess import marker_file

# a line directive at the start of a line (comments and continuations are cut below), or
# the start or end of a conditional group (a line directive inside one is not read)
_START = re.compile(r"^[ \t]*#[ \t]*(?:(line\b|(?=[0-9]))|(if|ifdef|ifndef)\b|(endif)\b)", re.M)
# its operands: a line number and perhaps a file name (any flags after it are cpp's)
_OPERANDS = re.compile(r'[ \t]*([0-9]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?[ \t0-9]*$')
_COMMENT = re.compile(r"/\*.*?\*/|//.*", re.S)


@dataclass(frozen=True)
class LineMap:
    """The lines a file's ``#line`` directives give its lines after them."""

    main: str  # the file's own name (what its first lines are called)
    starts: tuple[int, ...]  # the first line each directive names, ascending
    # (line the compiler calls it, file name) of that line; None: operands accsat cannot
    # read (a macro: ``#line __LINE__``)
    names: tuple[tuple[int, str] | None, ...]

    @property
    def files(self) -> frozenset[str]:
        """The files the directives name."""
        return frozenset(n[1] for n in self.names if n is not None)

    def renamed_within(self, first: int, last: int) -> bool:
        """Whether a directive renames a line in ``first..last`` (after the first)."""
        k = bisect.bisect_right(self.starts, first)
        return k < len(self.starts) and self.starts[k] <= last

    def presumed(self, line: int) -> tuple[str, int] | None:
        """(file, line) the compiler calls the file's ``line``; None where unknown."""
        k = bisect.bisect_right(self.starts, line) - 1
        if k < 0:
            return self.main, line
        named = self.names[k]
        if named is None:
            return None
        first, file = named
        return file, first + line - self.starts[k]


def directive_spans(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, inside a conditional group) of each line directive of ``text``: to
    the end of its line, backslash continuations followed."""
    spans = []
    depth = 0
    for m in _START.finditer(text):
        if m.group(2) or m.group(3):
            depth = depth + 1 if m.group(2) else max(depth - 1, 0)
            continue
        end = m.end()
        while True:
            nl = text.find("\n", end)
            if nl < 0:
                end = len(text)
                break
            if text[nl - 1 : nl] == "\\" or text[nl - 2 : nl] == "\\\r":
                end = nl + 1
                continue
            end = nl
            break
        spans.append((m.start(), end, depth > 0))
    return spans


def line_map(text: str, main: str) -> LineMap | None:
    """The map of ``text``'s line directives (``main``: the file's own name); None when
    it has none, the common case (one regular expression search)."""
    spans = directive_spans(text)
    if not spans:
        return None
    starts: list[int] = []
    names: list[tuple[int, str] | None] = []
    file: str | None = main
    for start, end, conditional in spans:
        directive = text[start:end].replace("\\\r\n", "").replace("\\\n", "")
        operands = _COMMENT.sub(" ", directive.split("#", 1)[1]).strip()
        operands = operands.removeprefix("line").rstrip()
        m = None if conditional else _OPERANDS.fullmatch(operands)
        if m is None:
            file = None  # unknown from here on, unless a later directive names a file
        elif m.group(2) is not None:
            file = marker_file(m.group(2))
        last_line = text.count("\n", 0, end) + 1  # the directive's own last line
        starts.append(last_line + 1)
        names.append(None if m is None or file is None else (int(m.group(1)), file))
    return LineMap(main, tuple(starts), tuple(names))


def blanked(text: str) -> str:
    """``text`` with its line directives blanked: every character but line breaks (so
    that offsets and lines stay) a space."""
    out = list(text)
    for start, end, _ in directive_spans(text):
        for k in range(start, end):
            if out[k] not in "\r\n":
                out[k] = " "
    return "".join(out)
