"""SourceMap.within: the tokens wholly inside a span, found by bisection (the codegen
asks once per kernel, instead of scanning all of the file's tokens)."""

from __future__ import annotations

import random

import pytest

from accsat.frontend.source_map import SourceMap

TEXT = "double a[4];\nvoid f(int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 2.0; }\n"


def test_within_is_the_tokens_wholly_inside_the_span():
    src = SourceMap(TEXT)
    rng = random.Random(7)
    for _ in range(500):
        start, end = sorted(rng.randrange(len(TEXT) + 1) for _ in range(2))
        expected = [k for k, t in enumerate(src.tokens) if start <= t.start and t.end <= end]
        assert list(src.within(start, end)) == expected, (start, end)


def test_a_token_cut_by_either_end_is_not_within():
    src = SourceMap(TEXT)
    at = TEXT.index("2.0")
    assert [src.tokens[k].text for k in src.within(at + 1, at + 3)] == []
    assert [src.tokens[k].text for k in src.within(at - 2, at + 2)] == ["*"]
    assert [src.tokens[k].text for k in src.within(at, at + 3)] == ["2.0"]


def test_line_indent_of_each_line():
    """Each line's leading blanks (tabs as written); the first line's at 0; a line past
    the end is none of the text's."""
    text = "a\n  b\n\t\tc\n\n   \nd"
    source = SourceMap(text, [])
    assert [source.line_indent(n) for n in range(1, 7)] == ["", "  ", "\t\t", "", "   ", ""]
    assert source.line_indent(0) == ""
    with pytest.raises(ValueError):
        source.line_indent(8)
