"""Map a loop of the parsed (preprocessed) program back to the user's own text.

pycparser gives only the line where a node starts, in the preprocessed text
(where tabs and macro expansions moved the columns). We find the loop's ``for``
keyword on that line of the original file, then the exact extent of its body
with a small statement scanner over the original tokens. Anything that does not
line up (the loop comes from a macro, a preprocessor directive sits inside
the body) is reported so the kernel stays as written.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from .conditional import GroupSpan, find_groups

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\f\v\r]+|\\\r?\n)
  | (?P<nl>\n)
  | (?P<comment>//(?:[^\n\\]|\\.)*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#|[{}()\[\];,.?:~!%^&*+\-/<>=|\#])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Token:
    kind: str  # "ident" | "number" | "string" | "punct" | "directive" | "other"
    text: str
    start: int  # offset in the source text
    end: int
    line: int


def tokenize(text: str) -> list[Token]:
    """Tokens of C source text; a whole preprocessor line is one "directive" token."""
    tokens: list[Token] = []
    pos, line = 0, 1
    at_line_start = True
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None  # the "other" group matches any character
        kind = m.lastgroup or "other"
        if kind == "punct" and m.group() == "#" and at_line_start:
            end = _directive_end(text, pos)
            tokens.append(Token("directive", text[pos:end], pos, end, line))
            line += text.count("\n", pos, end)
            pos = end
            continue
        if kind not in ("ws", "nl", "comment"):
            tokens.append(Token(kind, m.group(), pos, m.end(), line))
            at_line_start = False
        if kind == "nl":
            at_line_start = True
        line += m.group().count("\n")
        pos = m.end()
    return tokens


def _directive_end(text: str, pos: int) -> int:
    """End of a preprocessor line, following backslash continuations and comments."""
    i = pos
    while i < len(text):
        c = text[i]
        if c == "\\" and text.startswith(("\n", "\r\n"), i + 1):  # a continuation
            i += 3 if text[i + 1] == "\r" else 2
        elif c == "\n":
            return i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = len(text) if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            return len(text) if j < 0 else j
        else:
            i += 1
    return i


@dataclass(frozen=True)
class BodySpan:
    """Where a loop's body lies in the original text: text[start:end]."""

    start: int
    end: int
    first_line: int
    last_line: int
    braced: bool
    # the body's outermost conditional-compilation groups (frontend/conditional.py)
    groups: tuple[GroupSpan, ...] = ()


_INDENT = re.compile(r"[ \t]*")


class SourceMap:
    """The tokens of one original file, indexed for locating loops."""

    def __init__(self, text: str, tokens: list[Token] | None = None):
        self.text = text
        self.tokens = tokenize(text) if tokens is None else tokens
        self._depths: list[int] | None = None  # brace depth before each token (_brace_depth)
        self._line_starts: list[int] | None = None  # offset of each line (line_indent)
        self.starts = [t.start for t in self.tokens]  # for bisect: the tokens of a span
        self._fors_by_line: dict[int, list[int]] = {}
        for idx, tok in enumerate(self.tokens):
            if tok.kind == "ident" and tok.text == "for":
                self._fors_by_line.setdefault(tok.line, []).append(idx)

    @classmethod
    def joined(cls, maps: list[SourceMap]) -> SourceMap:
        """The tokens of several texts, for their names only (no text: no span maps)."""
        return cls("", [t for m in maps for t in m.tokens])

    def within(self, start: int, end: int) -> range:
        """Indices of the tokens that lie wholly in ``text[start:end]``."""
        first = bisect.bisect_left(self.starts, start)
        last = bisect.bisect_left(self.starts, end)
        while last > first and self.tokens[last - 1].end > end:
            last -= 1
        return range(first, last)

    def for_tokens_on_line(self, line: int) -> list[int]:
        return self._fors_by_line.get(line, [])

    def loop_body(self, line: int, nth: int, count_on_line: int) -> BodySpan | str:
        """The body of the ``nth`` ``for`` on ``line``; a reason string when it cannot be mapped.

        ``count_on_line`` is how many loops the parser saw starting on that line:
        when it differs from what the original text shows, a macro made some of them.
        """
        fors = self.for_tokens_on_line(line)
        if len(fors) != count_on_line or nth >= len(fors):
            return "loop comes from a macro expansion"
        i: int | None = self._skip_group(fors[nth] + 1, "(", ")")
        if i is None:
            return "cannot match the loop header in the source text"
        end = self._statement_end(i)
        if end is None:
            return "cannot find the end of the loop body in the source text"
        first, last = self.tokens[i], self.tokens[end - 1]
        # a #line directive may sit between statements (generated code): the body is read
        # with the directives blanked (linemap.py)
        groups = find_groups(self.text, self.tokens, i, end, ("pragma", "line"))
        if isinstance(groups, str):
            return groups
        return BodySpan(
            first.start, last.end, first.line, last.line, first.text == "{", tuple(groups)
        )

    def function_body(self, name: str, line: int) -> BodySpan | str:
        """The body of the function ``name`` defined on ``line`` (its name's line); a
        reason string when it cannot be mapped (a macro made the definition)."""
        # ``name (`` on the line outside every body: the definition's. A call of it on the
        # same line (a one-line recursive body, an earlier function calling it) is inside
        # a body; columns cannot tell them apart (pycparser counts the preprocessed line)
        found = [
            k
            for k in range(len(self.tokens) - 1)
            if self.tokens[k].line == line
            and self.tokens[k].text == name
            and self.tokens[k + 1].text == "("
            and self._brace_depth(k) == 0
        ]
        if len(found) != 1:
            return "function comes from a macro expansion"
        i: int | None = self._skip_group(found[0] + 1, "(", ")")
        depth = 0
        while i is not None and i < len(self.tokens):  # K&R declarations, attributes
            t = self.tokens[i].text
            if t == "{" and depth == 0:
                break
            depth += t == "("
            depth -= t == ")"
            if self.tokens[i].kind == "directive":
                return "a preprocessor directive between the function's header and its body"
            i += 1
        if i is None or i >= len(self.tokens):
            return "cannot find the function's body in the source text"
        end = self._skip_group(i, "{", "}")
        if end is None:
            return "cannot find the end of the function's body in the source text"
        first, last = self.tokens[i], self.tokens[end - 1]
        groups = find_groups(self.text, self.tokens, i, end)
        if isinstance(groups, str):
            return groups
        return BodySpan(first.start, last.end, first.line, last.line, True, tuple(groups))

    def _brace_depth(self, k: int) -> int:
        """How many braces are open before token ``k`` (0: at file scope)."""
        if self._depths is None:
            depth, self._depths = 0, []
            for t in self.tokens:
                self._depths.append(depth)
                depth += (t.text == "{") - (t.text == "}")
        return self._depths[k]

    def _skip_group(self, i: int, open_: str, close: str) -> int | None:
        """Index after the group that starts at token ``i`` (which must be ``open_``)."""
        if i >= len(self.tokens) or self.tokens[i].text != open_:
            return None
        depth = 0
        while i < len(self.tokens):
            t = self.tokens[i].text
            if t == open_:
                depth += 1
            elif t == close:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return None

    def path_end(self, j: int) -> int | None:
        """Index after the subscripts and members of an access path whose first ``[``,
        ``->`` or ``.`` is token ``j`` (None: a ``[`` is never closed)."""
        toks = self.tokens
        while j < len(toks):
            if toks[j].text == "[":
                after = self._skip_group(j, "[", "]")
                if after is None:
                    return None
                j = after
            elif toks[j].text in ("->", ".") and j + 1 < len(toks) and toks[j + 1].kind == "ident":
                j += 2
            else:
                break
        return j

    def _statement_end(self, i: int) -> int | None:
        """Index after the statement starting at token ``i``."""
        toks = self.tokens
        while i < len(toks) and toks[i].kind == "directive":
            i += 1  # a #pragma before the statement belongs to it
        if i >= len(toks):
            return None
        t = toks[i].text
        if t == "{":
            return self._skip_group(i, "{", "}")
        if t in ("for", "while", "switch"):
            j = self._skip_group(i + 1, "(", ")")
            return None if j is None else self._statement_end(j)
        if t == "if":
            j = self._skip_group(i + 1, "(", ")")
            j = None if j is None else self._statement_end(j)
            if j is not None and j < len(toks) and toks[j].text == "else":
                return self._statement_end(j + 1)
            return j
        if t == "do":
            j = self._statement_end(i + 1)
            if j is None or j >= len(toks) or toks[j].text != "while":
                return None
            j = self._skip_group(j + 1, "(", ")")
            return None if j is None or toks[j].text != ";" else j + 1
        depth = 0
        while i < len(toks):
            t = toks[i].text
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    return None
            elif t == ";" and depth == 0:
                return i + 1
            i += 1
        return None

    def for_column(self, line: int, nth: int, count_on_line: int) -> int:
        """The column of the ``nth`` ``for`` on ``line`` as gcc counts columns in its
        diagnostics (from 1, a tab to the next multiple of 8); where a macro made the
        loop (``loop_body``'s test), the line's first character that is not blank."""
        fors = self.for_tokens_on_line(line)
        start = 0
        for _ in range(line - 1):
            start = self.text.find("\n", start) + 1
            if start == 0:
                return 0  # no such line here (a text whose #line names another's lines)
        if len(fors) == count_on_line and nth < len(fors):
            at = self.tokens[fors[nth]].start
        else:
            blank = re.match(r"[ \t]*", self.text[start:])
            at = start + (len(blank.group()) if blank else 0)
        return len(self.text[start:at].expandtabs(8)) + 1

    def line_indent(self, line: int) -> str:
        """Leading whitespace of a 1-based line of the original text."""
        if self._line_starts is None:  # (a walk of the text for each line: quadratic)
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        if line > len(self._line_starts):
            raise ValueError(f"no line {line}")
        m = _INDENT.match(self.text, self._line_starts[line - 1] if line > 0 else 0)
        return m.group() if m else ""
