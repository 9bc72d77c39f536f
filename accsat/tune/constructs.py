"""Compute constructs: the unit the tuner times and chooses a variant for.

A construct is an OpenACC compute construct (``acc parallel``, ``kernels``,
``serial``, with or without ``loop``) or an OpenMP region (``omp parallel...``,
``target...``, ``teams...``; not ``target data``/``update``) that no other one
encloses, with the statement it applies to. Every accsat kernel inside it gets
the construct's choice.

They are found on the tokens of the text as written, without preprocessing
or parsing: the profiler needs them with accsat off (``ACCSAT_DISABLE=1``) and
in files accsat cannot read. A construct's identity is its file (relative to
the build directory), the line of its directive, and a hash of its text with
whitespace and comments ignored, so that an edited kernel is not given a
choice measured on its old text.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
from dataclasses import dataclass

from ..frontend import directives
from ..frontend.source_map import SourceMap, Token

_PRAGMA = re.compile(r"#\s*pragma\s+(.*)", re.DOTALL)
_LINE = re.compile(r"#\s*(?:line\s+)?\d+")
_LINE_DIRECTIVE = re.compile(
    r'^[ \t]*#[ \t]*(?:line[ \t]+)?(\d+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?', re.M
)
# a range of device functions (OpenMP 4.5 and 5.x spellings); a construct in one
# runs on the device, where the host's clock does not exist
_DECLARE_TARGET = re.compile(r"omp\s+(begin\s+)?declare\s+target\s*$")
_END_DECLARE_TARGET = re.compile(r"omp\s+end\s+declare\s+target\b")


@dataclass(frozen=True)
class Construct:
    """One outermost compute construct of a text (offsets and lines in that text)."""

    line: int  # the directive's physical line
    start: int  # offset of the directive's '#'
    end: int  # offset just after the statement (== start when ``skip`` says why)
    last_line: int  # physical line of the statement's last token
    name: str  # "acc parallel loop", "omp target teams distribute parallel for"
    hash: str  # of the normalised text (see ``normalised``)
    untimed: str = ""  # why its launches cannot be timed ("async"): counted, not timed
    skip: str = ""  # why no timer can be put around it: listed only


def find(text: str) -> list[Construct]:
    """The outermost compute constructs of ``text``, in order."""
    source = SourceMap(text)
    toks = source.tokens
    found: list[Construct] = []
    covered = -1  # offset up to which an enclosing construct reaches
    device = 0  # depth of declare-target ranges
    for i, tok in enumerate(toks):
        if tok.kind != "directive" or tok.start < covered:
            continue
        body = _pragma_text(tok.text)
        if body is None:
            continue
        if _DECLARE_TARGET.match(body):
            device += 1
            continue
        if _END_DECLARE_TARGET.match(body):
            device = max(0, device - 1)
            continue
        d = directives.parse(body)
        if not _is_compute(d):
            continue
        name = " ".join((d.model, *d.words))
        untimed = "async" if "async" in d.clauses else "nowait" if "nowait" in d.clauses else ""
        end = source._statement_end(i + 1)  # the statement scanner of the kernel mapper
        if end is None:
            found.append(
                Construct(
                    tok.line,
                    tok.start,
                    tok.start,
                    tok.line,
                    name,
                    _hash(toks[i : i + 1]),
                    untimed,
                    "cannot find the end of its statement",
                )
            )
            continue
        conditional = _conditional_before_statement(toks, i + 1, end)
        if not conditional:  # else the directives up to the statement are alternatives
            covered = toks[end - 1].end
        skip = "in a declare target range (device code)" if device else conditional
        found.append(
            Construct(
                tok.line,
                tok.start,
                toks[end - 1].end,
                toks[end - 1].line,
                name,
                _hash(toks[i:end]),
                untimed,
                skip,
            )
        )
    return found


def _pragma_text(directive: str) -> str | None:
    m = _PRAGMA.match(directive)
    return " ".join(m.group(1).replace("\\\n", " ").split()) if m else None


def _is_compute(d: directives.Directive) -> bool:
    return d.is_region  # the directives' table: ``target data``/``update`` open none


def _conditional_before_statement(toks: list[Token], i: int, end: int) -> str:
    """A preprocessor line other than a pragma (or our #line) between the directive and
    its statement: the two may not be compiled together (``#else``, ``#endif``)."""
    while i < end and toks[i].kind == "directive":
        if _pragma_text(toks[i].text) is None and not _LINE.match(toks[i].text):
            return "a preprocessor conditional between the directive and its statement"
        i += 1
    return ""


def normalised(toks: list[Token]) -> str:
    """The construct's tokens, one space apart (no comments, whitespace or #line)."""
    words = []
    for t in toks:
        if t.kind == "directive":
            body = _pragma_text(t.text)
            if body is None:
                continue  # #line and the like: where, not what
            words.append("#pragma " + body)
        else:
            words.append(t.text)
    return " ".join(words)


def _hash(toks: list[Token]) -> str:
    return hashlib.sha256(normalised(toks).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def relative_file(path: str, base: str) -> str:
    """``path`` relative to the build directory ``base`` (as the database names it)."""
    return os.path.relpath(os.path.abspath(path), os.path.abspath(base))


def kernel_id(file: str, line: int) -> str:
    return f"{file}:{line}"


class LineMap:
    """Which line (and file) the compiler gives each physical line of a text, following
    ``#line`` directives: ours after rewritten bodies, and any the user wrote."""

    def __init__(self, text: str, name: str):
        self.text = text
        self.marks: list[tuple[int, int, str]] = [(0, 0, name)]  # (physical, delta, name)
        for m in _LINE_DIRECTIVE.finditer(text):
            physical = text.count("\n", 0, m.start()) + 1
            raw = m.group(2)
            file = re.sub(r"\\(.)", r"\1", raw) if raw is not None else self.marks[-1][2]
            # the line after the directive is numbered as it says
            self.marks.append((physical, int(m.group(1)) - (physical + 1), file))
        self._physicals = [p for p, _, _ in self.marks]

    def at(self, offset: int) -> tuple[int, str]:
        physical = self.text.count("\n", 0, offset) + 1
        _, delta, name = self.marks[bisect.bisect_left(self._physicals, physical) - 1]
        return physical + delta, name
