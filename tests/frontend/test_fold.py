import pytest

from accsat.frontend.fold import fold


@pytest.mark.parametrize(
    "op,ty,operands,expected",
    [
        ("Add", "int", [("2", "int"), ("3", "int")], "5"),
        ("Mul", "int", [("65536", "int"), ("65536", "int")], None),  # signed overflow: no fold
        ("Add", "unsigned int", [("4294967295u", "unsigned int"), ("1u", "unsigned int")], "0u"),
        ("Div", "int", [("7", "int"), ("0", "int")], None),
        ("Div", "int", [("-7", "int"), ("2", "int")], "-3"),  # C truncates toward zero
        ("Mod", "int", [("-7", "int"), ("2", "int")], "-1"),
        ("Shl", "int", [("1", "int"), ("40", "int")], None),
        ("Mul", "double", [("2.0", "double"), ("0.1", "double")], "0.2"),
        ("Add", "float", [("0.1f", "float"), ("0.2f", "float")], "0.3f"),
        ("Div", "double", [("1.0", "double"), ("0.0", "double")], None),  # inf has no literal
        ("Neg", "double", [("2.0", "double")], "-2.0"),
        ("Cast", "double", [("3", "int")], "3.0"),
        ("Cast", "float", [("0.1", "double")], "0.1f"),
        ("Cast", "int", [("3.9", "double")], "3"),
        ("Cast", "int", [("1e20", "double")], None),  # out of range: undefined
        ("Lt", "int", [("1.5", "double"), ("2.0", "double")], "1"),
        ("Add", "long", [("2147483647L", "long"), ("1L", "long")], "2147483648L"),
        # a Python float does not hold a long double: no fold, whatever the result's type
        ("Lt", "int", [("0.9999999999999999999L", "long double"), ("1.0L", "long double")], None),
        ("Cast", "int", [("0.9999999999999999999L", "long double")], None),
        ("Cast", "double", [("0.1L", "long double")], None),
    ],
)
def test_fold(op, ty, operands, expected):
    assert fold(op, ty, operands) == expected


def test_float_folds_in_float():
    # 0.1f + 0.2f rounds in float; the double sum would differ
    import numpy as np

    text = fold("Add", "float", [("0.1f", "float"), ("0.2f", "float")])
    assert np.float32(float(text[:-1])) == np.float32(0.1) + np.float32(0.2)


def test_non_literals_are_not_folded():
    assert fold("Add", "int", [("N", "int"), ("1", "int")]) is None
    assert (
        fold(
            "Mul", "unsigned long", [("sizeof(double)", "unsigned long"), ("2UL", "unsigned long")]
        )
        is None
    )
