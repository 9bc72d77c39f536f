"""The C math functions accsat treats as pure (no side effects, result from arguments only).

The SSA builder turns their calls into ``Call`` terms the e-graph may move or
share; the verifier's interpreter evaluates them (verify/mathlib.py). Each
function is used in its double form (``sqrt``) and its float form (``sqrtf``,
the same name with an ``f`` suffix); ``long double`` forms are not pure here.
"""

from __future__ import annotations

# Base name -> number of arguments, all of the function's floating type.
FLOAT_FUNCTIONS: dict[str, int] = {
    **dict.fromkeys(
        (
            "sqrt",
            "cbrt",
            "fabs",
            "exp",
            "exp2",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "floor",
            "ceil",
            "trunc",
            "round",
            "rint",
            "nearbyint",
            "erf",
            "erfc",
            "tgamma",
            "lgamma",
        ),
        1,
    ),
    **dict.fromkeys(("pow", "atan2", "fmin", "fmax", "fmod", "hypot", "copysign", "fdim"), 2),
    "fma": 3,
}
# Integer absolute values -> their argument and result type.
INT_FUNCTIONS: dict[str, str] = {"abs": "int", "labs": "long", "llabs": "long long"}

PURE_MATH = frozenset([*FLOAT_FUNCTIONS, *(f + "f" for f in FLOAT_FUNCTIONS), *INT_FUNCTIONS])


def float_base(name: str) -> tuple[str, bool]:
    """(base name, is the float form) of a floating pure function: "sqrtf" -> ("sqrt", True)."""
    if name.endswith("f") and name[:-1] in FLOAT_FUNCTIONS:
        return name[:-1], True
    return name, False
