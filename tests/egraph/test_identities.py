"""rules/identities.egg and integer folding: each identity fires, in every variant,
whatever the constant's spelling; the floating-point ones IEEE does not make exact
never do."""

from __future__ import annotations

import pytest

from accsat.egraph.rules import load_manifest, rulesets_for
from accsat.egraph.saturate import saturate
from accsat.extract import load_cost_model
from accsat.frontend.load import load
from accsat.options import VARIANTS, Options
from accsat.pipeline import _op_cost
from accsat.ssa import ir
from accsat.ssa.statements import build_ssa

SRC = """\
int ri[8]; unsigned ru[8]; long rl[8]; double rd[8]; float rf[8];
void k(int n, int x, unsigned u, long l, double d, float f)
{{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {{
    {stmt}
  }}
}}
"""

# statement, the variable the stored value equals ("x") or "0" for the constant zero
FIRES = [
    ("ri[i] = x * 1;", "x"),
    ("ri[i] = 1 * x;", "x"),
    ("ri[i] = x / 1;", "x"),
    ("ri[i] = x + 0;", "x"),
    ("ri[i] = 0 + x;", "x"),
    ("ri[i] = x - 0;", "x"),
    ("ri[i] = x << 0;", "x"),
    ("ri[i] = x >> 0;", "x"),
    ("ri[i] = x | 0;", "x"),
    ("ri[i] = x ^ 0;", "x"),
    ("ri[i] = x * 0x1;", "x"),
    ("ri[i] = x * 0;", "0"),
    ("ri[i] = 0 * x;", "0"),
    ("ri[i] = x % 1;", "0"),
    ("ri[i] = x & 0;", "0"),
    ("ri[i] = x - x;", "0"),
    ("ri[i] = x * (3 - 2);", "x"),
    ("ri[i] = x * (2 - 2);", "0"),
    ("ru[i] = u * 1u;", "u"),
    ("ru[i] = u + 0u;", "u"),
    ("ru[i] = u - u;", "0"),
    ("rl[i] = l * 1L;", "l"),
    ("rl[i] = l * 1;", "l"),
    ("rl[i] = l - l;", "0"),
    ("rd[i] = d * 1.0;", "d"),
    ("rd[i] = 1.0 * d;", "d"),
    ("rd[i] = d / 1.0;", "d"),
    ("rd[i] = d - 0.0;", "d"),
    ("rd[i] = d * 1e0;", "d"),
    ("rf[i] = f * 1.0f;", "f"),
]
# floating-point identities that are not exact: x+0.0 (-0.0), x*0.0 (NaN, inf, -0.0),
# x-x (NaN, inf), 0.0-x (+0.0 - +0.0 is +0.0, -(+0.0) is -0.0)
NEVER = [
    "rd[i] = d + 0.0;",
    "rd[i] = 0.0 + d;",
    "rd[i] = d * 0.0;",
    "rd[i] = 0.0 * d;",
    "rd[i] = d - d;",
    "rd[i] = 0.0 - d;",
    "rf[i] = f + 0.0f;",
    "rf[i] = f * 0.0f;",
    "rd[i] = d - -0.0;",
]


def _saturated(tmp_path, stmt: str, variant: str, **kw):
    path = tmp_path / "k.c"
    path.write_text(SRC.format(stmt=stmt))
    loaded = load(path)
    (kernel,) = loaded.kernels
    ssa = build_ssa(kernel, loaded.symbols, _op_cost(load_cost_model("paper")), loaded.defined)
    options = Options(variant=variant, **kw)
    sat = saturate(ssa.terms, ssa.roots, rulesets_for(options), options.limits)
    (store,) = [s for s, _ in ir.walk(ssa.body) if isinstance(s, ir.Store)]
    return ssa, sat, sat.class_of[store.value]


def _var_class(ssa, sat, name: str) -> int | None:
    for tid, term in enumerate(ssa.terms.terms):
        if term.op == "Var" and term.attrs[0] == name and tid in sat.class_of:
            return sat.class_of[tid]
    return None


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("stmt,result", FIRES)
def test_identity_fires_in_every_variant(tmp_path, stmt, result, variant):
    ssa, sat, cls = _saturated(tmp_path, stmt, variant)
    if result == "0":
        zeros = [n for n in sat.egraph.classes[cls] if n.op == "Const"]
        assert zeros and all(n.attrs[0].rstrip("uUlL") == "0" for n in zeros), sat.egraph.classes[
            cls
        ]
    else:
        assert cls == _var_class(ssa, sat, result), sat.egraph.classes[cls]


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("stmt", NEVER)
def test_inexact_float_identity_never_fires(tmp_path, stmt, variant):
    ssa, sat, cls = _saturated(tmp_path, stmt, variant)
    nodes = sat.egraph.classes[cls]
    assert all(n.op not in ("Const", "Var") for n in nodes), nodes
    assert cls != _var_class(ssa, sat, "d") and cls != _var_class(ssa, sat, "f")


def test_disable_rule_turns_an_identity_off(tmp_path):
    ssa, sat, cls = _saturated(tmp_path, "ri[i] = x * 1;", "cse", disabled_rules=("ident-int",))
    assert cls != _var_class(ssa, sat, "x")


def test_cse_folds_integers_only(tmp_path):
    """The variants without rules fold integer arithmetic; float folding needs the rules."""
    _, sat, cls = _saturated(tmp_path, "ri[i] = x + 32 * 16;", "cse")
    children = [sat.egraph.classes[c] for n in sat.egraph.classes[cls] for c in n.children]
    assert any(n.op == "Const" and n.attrs[0] == "512" for ns in children for n in ns)
    _, sat, cls = _saturated(tmp_path, "rd[i] = d + 2.0 * 3.0;", "cse")
    children = [sat.egraph.classes[c] for n in sat.egraph.classes[cls] for c in n.children]
    assert not any(n.op == "Const" and n.attrs[0] == "6.0" for ns in children for n in ns)
    _, sat, cls = _saturated(tmp_path, "rd[i] = d + 2.0 * 3.0;", "cse+sat")
    children = [sat.egraph.classes[c] for n in sat.egraph.classes[cls] for c in n.children]
    assert any(n.op == "Const" and n.attrs[0] == "6.0" for ns in children for n in ns)


def test_every_variant_rulesets_are_exact():
    every = [r for r in load_manifest() if r.every_variant]
    assert {r.name for r in every} >= {"ident-int", "ident-float", "fold-int"}
    assert not any(r.fp_changing for r in every)
    assert {r.name for r in rulesets_for(Options(variant="cse"))} == {r.name for r in every}
    assert {r.name for r in rulesets_for(Options(variant="accsat", fp_exact=True))} >= {
        r.name for r in every
    }


# constants of integer sums and products combine, when the combined constant fits
ASSOC = [
    ("ri[i] = (x + 2) - 3;", "Sub", "1"),
    ("ri[i] = (x - 2) + 3;", "Add", "1"),
    ("ri[i] = 2 + x + 3;", "Add", "5"),
    ("ri[i] = 3 + (x - 1);", "Add", "2"),
    ("ri[i] = x * 4 * 8;", "Mul", "32"),
    ("ri[i] = 8 * (4 * x);", "Mul", "32"),
    ("ru[i] = (u + 2u) - 3u;", "Sub", "1u"),
    ("rl[i] = (l - 5L) - 6L;", "Sub", "11L"),
]


@pytest.mark.parametrize("variant", ["cse", "accsat"])
@pytest.mark.parametrize("stmt,op,k", ASSOC)
def test_constants_of_sums_and_products_combine(tmp_path, stmt, op, k, variant):
    ssa, sat, cls = _saturated(tmp_path, stmt, variant)
    var = {"ri": "x", "ru": "u", "rl": "l"}[stmt[:2]]
    x = _var_class(ssa, sat, var)
    want = [n for n in sat.egraph.classes[cls] if n.op == op and n.children[0] == x]
    assert any(
        n.op == "Const" and n.attrs[0] == k for w in want for n in sat.egraph.classes[w.children[1]]
    ), sat.egraph.classes[cls]


def test_combined_constant_that_overflows_is_not_made(tmp_path):
    """(x + INT_MAX) - (-1) would need INT_MAX + 1: no rewrite (x + 2147483648 would
    overflow where the original may not)."""
    ssa, sat, cls = _saturated(tmp_path, "ri[i] = (x + 2147483647) - (-1);", "cse")
    x = _var_class(ssa, sat, "x")
    assert not any(n.children and n.children[0] == x for n in sat.egraph.classes[cls])
    _, sat, cls = _saturated(tmp_path, "ri[i] = x * 65536 * 65536;", "cse")
    assert not any(n.children and n.children[0] == x for n in sat.egraph.classes[cls])


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_a_zero_product_is_no_hub(tmp_path, variant):
    """x * 0 = 0 subsumes the product and runs before the other rules (``first`` in
    rules.toml): no rule sees ``0 * 2`` in the zero's class, so no constant beyond the
    kernel's own and their one product 6 (4, 12, 18...) is ever made from it
    (regressions/saturation_memory_assoc_zero_hub.c took gigabytes), and the store is
    the constant 0."""
    ssa, sat, cls = _saturated(tmp_path, "ru[i] = ru[i] * (0u * 2 * 3);", variant)
    assert any(n.op == "Const" and n.attrs[0] == "0u" for n in sat.egraph.classes[cls])
    consts = {n.attrs[0] for ns in sat.egraph.classes.values() for n in ns if n.op == "Const"}
    assert consts <= {"0u", "2", "2u", "3", "3u", "6u"}, consts
    assert sat.stop_reason == "saturated"


def test_the_first_rulesets_are_those_that_only_absorb():
    first = {r.name for r in load_manifest() if r.first}
    assert first == {"ident-int", "assoc-cancel"}
