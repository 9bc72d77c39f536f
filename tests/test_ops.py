"""The operation table (accsat/ops.py) against every place that names operations."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from accsat import ops
from accsat.errors import AccsatError
from accsat.extract.costs import load_cost_model
from accsat.mathfuncs import INT_FUNCTIONS, PURE_MATH


def schema() -> str:
    return resources.files("accsat.egraph").joinpath("schema.egg").read_text()


def test_table_matches_schema():
    ops.check_schema(schema())
    assert set(ops.schema_signatures(schema())) == set(ops.OPS)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda s: s.replace("  (Shl String Term Term)\n", ""), "Shl missing from schema.egg"),
        (
            lambda s: s.replace(
                "  (Shl String Term Term)\n",
                "  (Shl String Term Term)\n  (Rotl String Term Term)\n",
            ),
            "Rotl missing from accsat/ops.py",
        ),
        (
            lambda s: s.replace("(Neg String Term)", "(Neg String Term Term)"),
            "Neg is (String Term Term) in schema.egg but (String Term)",
        ),
        (lambda s: s.replace("(Call String String Term)", "(Call String Term)"), "Call is"),
    ],
)
def test_drift_is_caught(edit, message):
    changed = edit(schema())
    assert changed != schema()
    with pytest.raises(ops.SchemaMismatch, match=re.escape(message)):
        ops.check_schema(changed)


def test_egraph_stage_uses_table():
    from accsat.egraph import saturate

    assert set(ops.OPS) == saturate.TERM_CONSTRUCTORS
    marked = re.findall(r"\(= e \((\w+)", saturate.fold_candidate_rules())
    assert set(marked) == ops.FOLDABLE


def test_printer_and_placement_views_are_in_table():
    from accsat.codegen import placement

    assert placement.LEAVES <= ops.LEAVES
    for name, c in {**ops.BINARY_C, **ops.UNARY_C}.items():
        assert ops.OPS[name].c == c and ops.OPS[name].prec is not None


def test_folder_covers_foldable():
    from accsat.frontend import fold

    assert set(fold._EXACT) <= ops.FOLDABLE
    for name in sorted(ops.FOLDABLE):
        op = ops.OPS[name]
        operands = [("6", "int"), ("3", "int")][: op.arity]
        ty = "double" if name == "Cast" else "int"
        assert fold.fold(name, ty, operands) is not None, name
    assert fold.fold("Fma", "double", [("1.0", "double")] * 3) is None


def test_c_spelling_round_trips_with_frontend():
    from accsat.frontend.typed import _BINOP

    for c, name in _BINOP.items():
        assert ops.BINARY_C[name] == c
    # every binary operator C evaluates both operands of is typed by typed.binary()
    eager = {n for n, op in ops.OPS.items() if op.arity == 2 and op.c and op.kind != "logic"}
    assert set(_BINOP.values()) == eager


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # acosh(0.5) is nan, as in C
def test_pure_math_has_one_home_and_every_function_an_implementation():
    from accsat.ssa import expressions
    from accsat.verify import mathlib

    assert expressions.PURE_MATH is PURE_MATH is mathlib.PURE_NAMES
    for name in sorted(PURE_MATH):
        ret, params = mathlib.signature(name)
        impl = mathlib.implementation(name)
        args = [1 if name in INT_FUNCTIONS else 0.5] * len(params)
        assert impl(*args) is not None, name


def test_cost_model_typo_is_rejected(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('name = "typo"\n[ops]\nLoad = 100\nBitand = 5\n')
    with pytest.raises(AccsatError) as err:
        load_cost_model(str(path))
    text = str(err.value)
    assert "\n" not in text and str(path) in text and "'Bitand'" in text and "'BitAnd'" in text


def test_shipped_cost_model_names_are_operations():
    assert set(load_cost_model("paper").ops) <= set(ops.OPS)


@pytest.mark.parametrize(
    "expr, op",
    [
        ("a[i] > 0 && b[i] > 0", "And"),
        ("a[i] > 0 || b[i] > 0", "Or"),
        ("a[i] > 0 ? b[i] : c[i]", "Select"),
    ],
)
def test_guarded_operands_are_the_ones_the_lowering_guards(tmp_path, expr, op):
    """``Op.guarded`` (what placement lifts out of an operator's arms) names exactly the
    operands the SSA lowering puts in contexts of their own."""
    from accsat.frontend.load import load
    from accsat.ssa.statements import build_ssa

    src = tmp_path / "k.c"
    src.write_text(
        "double a[8], b[8], c[8], d[8];\nvoid k(int n)\n{\n  int i;\n#pragma acc parallel loop\n"
        f"  for (i = 0; i < n; i++)\n    d[i] = {expr};\n}}\n"
    )
    loaded = load(src)
    ssa = build_ssa(loaded.kernels[0], loaded.symbols, lambda op, ty: 1.0, loaded.defined)
    (term,) = [t for t in ssa.terms.terms if t.op == op]

    def guarded(tid: int) -> bool:  # some load of the operand is pinned to an arm
        t = ssa.terms[tid]
        return t.ctx in ssa.inline_ctxs or any(guarded(a) for a in t.args)

    in_own = [k for k, arg in enumerate(term.args) if guarded(arg)]
    assert tuple(in_own) == ops.OPS[op].guarded
