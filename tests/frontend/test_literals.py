"""Literals accsat writes: the shortest text that reads back as the value, in C's usual
notation (10.0f, never 1e+01f)."""

from __future__ import annotations

import pytest

from accsat.frontend.literals import DOUBLE, FLOAT, format_float, parse_float, to_f32


@pytest.mark.parametrize(
    "value,float_text,double_text",
    [
        (10.0, "10.0f", "10.0"),
        (0.1, "0.1f", "0.1"),
        (1.5, "1.5f", "1.5"),
        (0.001, "0.001f", "0.001"),
        (123456.0, "123456.0f", "123456.0"),
        (1e20, "1e+20f", "1e+20"),
    ],
)
def test_shortest_round_tripping_form(value, float_text, double_text):
    assert format_float(to_f32(value), FLOAT) == float_text
    assert format_float(value, DOUBLE) == double_text


@pytest.mark.parametrize("value", [10.0, 0.1, 1.0 / 3.0, 3.4028234663852886e38, 1e-45, 16777217.0])
def test_float_literals_read_back_exactly(value):
    v = to_f32(value)
    assert parse_float(format_float(v, FLOAT))[0] == v
