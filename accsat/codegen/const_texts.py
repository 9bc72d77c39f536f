"""Texts of a kernel body that may be constant expressions (``INT_MIN + 2``, ``NX*NY``).

Candidates for the spelling of constants (``constants.py``): token ranges of the
user's text made of literals, names that are no variable of the body (macros,
type names), type words and operators, balanced and starting and ending where an
operand can. Which of them denote a constant, and which constant, is decided by
parsing each one's expansion; a text that is no expression costs a failed parse.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frontend.source_map import SourceMap
from ..ops import COND_PREC, FROM_C_BINARY, OPS, PRIMARY, UNARY_PREC

_MAX_TOKENS = 48  # the longest candidate text
_MAX_CANDIDATES = 4000  # per body: beyond that, constants print as chosen


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_OPERATORS = _words("+ - * / % << >> & | ^ ~ ! < > <= >= == != && || ? : ( ) ,")
_TYPE_WORDS = _words("sizeof char short int long float double signed unsigned const volatile _Bool")
_C_KEYWORDS = _TYPE_WORDS | _words(
    "auto break case continue default do else enum extern for goto if inline register "
    "restrict return static struct switch typedef union void while"
)
_STARTS = _words("( - + ~ !")
# binary operators' precedence; the conditional operator's two tokens as its own
_BINARY = {c: OPS[name].prec or 0 for c, name in FROM_C_BINARY.items()} | {
    "?": COND_PREC,
    ":": COND_PREC,
}


@dataclass(frozen=True)
class Candidate:
    """A text of the body that may be a constant expression: ``text[start:end]``,
    with blanks made single spaces; ``probe``: it names a macro (expand it)."""

    start: int
    end: int
    text: str
    probe: bool


def candidates(source: SourceMap, start: int, end: int, variables: set[str]) -> list[Candidate]:
    """The texts in ``source.text[start:end]`` that may be constant expressions: token
    ranges of literals, names that are no variable (``variables``: the body's), type
    words and operators, balanced, starting and ending where an operand can."""
    toks = source.tokens
    span = source.within(start, end)
    out: list[Candidate] = []
    run: list[int] = []
    for k in [*span, None]:
        if k is not None and _allowed(toks[k], variables):
            run.append(k)
            continue
        for a in range(len(run)):
            out.extend(_from(source, run, a))
            if len(out) > _MAX_CANDIDATES:
                return []
        run = []
    return out


def _allowed(tok, variables: set[str]) -> bool:
    if tok.kind == "number":
        return True
    if tok.kind == "string":
        return tok.text.startswith("'")
    if tok.kind == "ident":
        return tok.text not in variables and (
            tok.text in _TYPE_WORDS or tok.text not in _C_KEYWORDS
        )
    return tok.kind == "punct" and tok.text in _OPERATORS


def _from(source: SourceMap, run: list[int], a: int):
    """The candidates that start at ``run[a]`` and can be an operand where they stand:
    an operator next to one binds less tightly than the candidate's own loosest one
    (``4 + N`` in ``x / 4 + N`` is no operand of anything)."""
    toks = source.tokens
    k0 = run[a]
    first = toks[k0]
    if first.kind == "punct" and (first.text not in _STARTS or _after_operand(toks, k0)):
        return  # a binary operator (or one no operand starts with)
    if first.text in _TYPE_WORDS and first.text != "sizeof":
        return
    before = _binding(toks, k0 - 1) if k0 > 0 else 0
    depth, probe, loosest = 0, False, PRIMARY
    for b in range(a, min(len(run), a + _MAX_TOKENS)):
        k = run[b]
        tok = toks[k]
        depth += tok.text == "("
        depth -= tok.text == ")"
        if depth < 0 or (depth == 0 and tok.text == ","):
            return
        probe |= tok.kind == "ident" and tok.text not in _C_KEYWORDS
        if depth == 0 and tok.text in _BINARY and b > a and _after_operand(toks, k):
            loosest = min(loosest, _BINARY[tok.text])
            if loosest <= before:
                return  # the operator before takes part of it
        if depth or (tok.kind == "punct" and tok.text != ")"):
            continue
        after = toks[k + 1].text if k + 1 < len(toks) else ""
        if _BINARY.get(after, 0) > loosest:
            continue  # the operator after takes its last operand
        if b == a:  # one token: its text
            yield Candidate(first.start, tok.end, tok.text, probe)
            continue
        raw = source.text[first.start : tok.end]
        if "/*" in raw or "//" in raw:
            return
        yield Candidate(first.start, tok.end, " ".join(raw.split()), probe)


def _binding(toks, k: int) -> int:
    """How tightly token ``k`` binds what follows it: a binary operator its precedence,
    a prefix operator or a cast's ``)`` the unary one, anything else nothing (0)."""
    tok = toks[k]
    if tok.text in _BINARY and _after_operand(toks, k):
        return _BINARY[tok.text]
    if tok.text in _STARTS - {"("} or tok.text == ")":
        return UNARY_PREC - 1  # the candidate must be a unary expression or tighter
    return 0


def _after_operand(toks, k: int) -> bool:
    """Token ``k`` follows an operand: ``-`` or ``+`` there is binary."""
    if k == 0:
        return False
    prev = toks[k - 1]
    return prev.kind in ("ident", "number", "string") or prev.text in (")", "]")


def access_texts(source: SourceMap, start: int, end: int) -> list[tuple[int, str]]:
    """Every access path written in ``source.text[start:end]`` (``u[0][k][j][i + 1]``,
    ``p->f``): where it starts, and its text with blanks made single spaces."""
    toks = source.tokens
    span = source.within(start, end)
    out: list[tuple[int, str]] = []
    for k in span[:-1]:
        if toks[k].kind != "ident" or toks[k + 1].text not in ("[", "->", "."):
            continue
        stop = source.path_end(k + 1)
        if stop is None or stop > span[-1] + 1:
            continue
        raw = source.text[toks[k].start : toks[stop - 1].end]
        if "/*" not in raw and "//" not in raw:
            out.append((toks[k].start, " ".join(raw.split())))
    return out
