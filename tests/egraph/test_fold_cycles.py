"""saturate._absorbs: the folds that would make a class contain an operation on itself."""

from __future__ import annotations

import pytest

from accsat.egraph.saturate import _absorbs


@pytest.mark.parametrize(
    "op, value, ty, operands, skipped",
    [
        ("Mul", "0.0", "double", [("2.0", "double"), ("0.0", "double")], True),  # absorbing
        ("Mul", "-0.0", "double", [("2.0", "double"), ("-0.0", "double")], True),
        ("Mul", "0", "int", [("0", "int"), ("7", "int")], True),
        ("Mul", "3", "int", [("3", "int"), ("1", "int")], False),  # identities: no hub
        ("Add", "0.25", "double", [("0.0", "double"), ("0.25", "double")], False),
        ("Sub", "5", "int", [("5", "int"), ("0", "int")], False),
        ("Sub", "1", "int", [("2", "int"), ("1", "int")], False),  # 1 is no identity there
        ("Sub", "-5", "int", [("0", "int"), ("5", "int")], False),
        ("Mul", "6.0", "double", [("2.0", "double"), ("3.0", "double")], False),
        ("BitAnd", "5", "int", [("5", "int"), ("15", "int")], False),  # bounded values
    ],
)
def test_only_products_with_a_zero_are_not_folded(op, value, ty, operands, skipped):
    assert _absorbs(op, value, ty, operands) is skipped
