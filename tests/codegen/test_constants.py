"""Constants and nested accessor macros print as the user wrote them inside rewritten
statements (accsat/codegen/constants.py, macros.py; docs/rewrites.md): a literal never
becomes a variable that holds its value, a variable the statement read stays that
variable, ``<limits.h>``/``<float.h>`` macros and constant expressions keep their text,
and an accessor macro defined through another macro keeps its invocation. Each
program, rewritten, prints what the original prints."""

from __future__ import annotations

import re
import shutil

import pytest
from difftest import compile_run

from accsat.codegen.constants import parsed
from accsat.ops import ADD_PREC, PRIMARY, UNARY_PREC
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

GCC = shutil.which("gcc")
needs_gcc = pytest.mark.skipif(GCC is None, reason="gcc not found")

# every value is exact in double: any variant prints the same bits as the original
LITERALS = """\
#include <stdio.h>
#define N 16
int idx[N], out[N];
double x[N], w[N], y[N], z[N];
int main(void)
{
  int i;
  for (i = 0; i < N; i++) { idx[i] = (i * 7) % 5 - 2; x[i] = i * 0.5; w[i] = 3 - i; }
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    int t = 0;
    double s = 2.0;
    if (idx[i] >= 0) out[i] = idx[i] * 3 + idx[i] * 3 + t;
    else out[i] = -1;
    y[i] = x[i] * s + x[i] * s;
    z[i] = w[i] * 2.0 + w[i] * 2.0;
  }
  for (i = 0; i < N; i++) printf("%d %a %a\\n", out[i], y[i], z[i]);
  return 0;
}
"""

LIMITS = """\
#include <stdio.h>
#include <limits.h>
#include <float.h>
#define N 6
unsigned int w[N];
long long q[N];
double d[N];
int a[N] = { INT_MAX, INT_MIN + 1, -7, 0, 1, 3 }, b[N] = { 1, -1, 2, 5, 0, 9 }, r[N];
long l[N] = { LONG_MIN + 5, 2, -3, 4, LONG_MAX - 9, 6 }, lr[N];
int main(void)
{
  int k;
  for (k = 0; k < N; k++) { w[k] = k * 1000u; q[k] = k * 100000LL; d[k] = k * 1e300; }
#pragma acc parallel loop
  for (k = 0; k < N; k++) {
    w[k] = (UINT_MAX - w[k]) + (UINT_MAX - w[k]) / 2u;
    q[k] = q[k] + LLONG_MAX / 4 - (q[k] + LLONG_MAX / 4) / 3;
    d[k] = d[k] / DBL_MAX + d[k] / DBL_MAX;
    if (b[k] != 0 && a[k] > INT_MIN + 2) r[k] = a[k] / b[k] - a[k] / b[k] % 3;
    else r[k] = INT_MIN;
    lr[k] = l[k] / 4 + LONG_MIN / 8 + l[k] / 4 - (-0x7fffffffffffffffL - 1) / 16;
  }
  for (k = 0; k < N; k++) printf("%u %lld %a %d %ld\\n", w[k], q[k], d[k], r[k], lr[k]);
  return 0;
}
"""

NESTED = """\
#include <stdio.h>
#define NX 6
#define NY 5
#define IDX(i,j) ((i)*NX+(j))
#define A_(a,i,j,c) (a[IDX(i,j) + NX*NY*(c)])
double u[NX*NY*2], v[NX*NY*2];
int main(void)
{
  int i, j, k;
  for (k = 0; k < NX*NY*2; k++) u[k] = k * 0.25;
#pragma acc parallel loop
  for (i = 1; i < NY - 1; i++) {
    for (j = 1; j < NX - 1; j++) {
      A_(v,i,j,0) = A_(u,i,j,0) * A_(u,i,j,1) + A_(u,i,j,0) * A_(u,i,j,1) + A_(u,i+1,j,0);
      A_(v,i,j,1) = A_(u,i,j,1) * 2.0;
    }
  }
  for (k = 0; k < NX*NY*2; k++) printf("%a\\n", v[k]);
  return 0;
}
"""

# one macro, two spellings of its value: each statement keeps its own; a macro whose
# expansion is not parenthesized gets parentheses where the printed context needs them
SPELLINGS = """\
#include <stdio.h>
#define K 8
#define SUM 2.0 + 1.0
double x[16], w[16], y[16], z[16], s[16];
int main(void)
{
  int i;
  for (i = 0; i < 16; i++) { x[i] = i * 0.5; w[i] = 3 - i; }
#pragma acc parallel loop
  for (i = 0; i < 16; i++) {
    y[i] = x[i] * K + x[i] * K;
    z[i] = w[i] * 8 + w[i] * 8;
    s[i] = (x[i] + x[i]) * (SUM) + (x[i] + x[i]) * (SUM);
  }
  for (i = 0; i < 16; i++) printf("%a %a %a\\n", y[i], z[i], s[i]);
  return 0;
}
"""


# i holds 1 where the statements read it, beside the literals 0 and 1 (NPB BT's rhs.c)
ACCESSES = """\
#include <stdio.h>
#define N 8
double u[2][N], r[2][N], d[N];
int main(void)
{
  int k, m;
  for (k = 0; k < N; k++) { d[k] = 0.25 * k; for (m = 0; m < 2; m++) { u[m][k] = m + k; r[m][k] = k; } }
#pragma acc parallel loop
  for (k = 0; k < N; k++) {
    int i = 1;
    r[0][i] = r[0][i] - d[k] * (5.0*u[0][i] - 4.0*u[0][i+1] + u[0][i+2]);
    r[1][i] = r[1][i] - d[k] * (5.0*u[1][i] - 4.0*u[1][i+1] + u[1][i+2]);
  }
  for (m = 0; m < 2; m++) for (k = 0; k < N; k++) printf("%a\\n", r[m][k]);
  return 0;
}
"""


def _rewrite(tmp_path, text: str, variant: str) -> str:
    path = tmp_path / "k.c"
    path.write_text(text)
    result = rewrite_file(path, Options(variant=variant))
    assert [k.status for k in result.kernels] == ["rewritten"] * len(result.kernels), [
        k.reason for k in result.kernels
    ]
    return result.text


def _kernels(text: str) -> str:
    """The rewritten text from the first kernel's pragma to its end (the rest is as written)."""
    return text[text.index("#pragma acc") : text.rindex("  for (")]


def _same_output(tmp_path, original: str, rewritten: str) -> None:
    old, new = tmp_path / "old.c", tmp_path / "new.c"
    old.write_text(original)
    new.write_text(rewritten)
    assert compile_run(new, tmp_path, "acc", tag="new") == compile_run(
        old, tmp_path, "acc", tag="old"
    )


def _line(text: str, start: str) -> str:
    """The printed statement that stores to ``start`` (e.g. ``y[i] =``)."""
    return next(line for line in text.splitlines() if line.strip().startswith(start))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_literal_never_prints_as_a_variable_holding_it(tmp_path, variant):
    text = _kernels(_rewrite(tmp_path, LITERALS, variant))
    # t holds 0 and s holds 2.0 where the literals are read: the literals stay
    assert re.search(r">= 0\)", text) and not re.search(r">= t\b", text), text
    w, x = _name(text, "w[i]"), _name(text, "x[i]")
    assert f"{w} * 2.0" in text and f"{w} * s" not in text, text
    # the variable the user wrote stays the variable
    assert f"{x} * s" in text and f"{x} * 2.0" not in text, text


def _name(text: str, load: str) -> str:
    """How the rewritten kernel reads ``load``: a temporary loaded from it, or itself."""
    m = re.search(r"(_v\d+) = " + re.escape(load) + ";", text)
    return m.group(1) if m else load


@needs_gcc
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_literals_rewritten_print_the_same(tmp_path, variant):
    _same_output(tmp_path, LITERALS, _rewrite(tmp_path, LITERALS, variant))


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_limits_macros_keep_their_spelling(tmp_path, variant):
    text = _kernels(_rewrite(tmp_path, LIMITS, variant))
    for written in (
        "UINT_MAX - ",
        "LLONG_MAX / 4",
        "/ DBL_MAX",
        "INT_MIN + 2",
        "= INT_MIN;",
        "LONG_MIN / 8",
        "(-0x7fffffffffffffffL - 1) / 16",
    ):
        assert written in text, (written, text)
    for folded in (
        "4294967295",
        "2305843009213693951",
        "1.797",
        "2147483646",
        "2147483647",
        "1152921504606846976",
        "576460752303423488",
    ):
        assert folded not in text, (folded, text)


@needs_gcc
@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_limits_macros_rewritten_print_the_same(tmp_path, variant):
    _same_output(tmp_path, LIMITS, _rewrite(tmp_path, LIMITS, variant))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_nested_accessor_macros_keep_their_spelling(tmp_path, variant):
    text = _kernels(_rewrite(tmp_path, NESTED, variant))
    assert "A_(u,i,j,0)" in text and "A_(u,i,j,1)" in text and "A_(u,i+1,j,0)" in text, text
    assert "A_(v,i,j,0) =" in text and "A_(v,i,j,1) =" in text, text
    assert "u[" not in text and "v[" not in text, text


@needs_gcc
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_nested_accessor_macros_rewritten_print_the_same(tmp_path, variant):
    _same_output(tmp_path, NESTED, _rewrite(tmp_path, NESTED, variant))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_an_access_keeps_the_variable_it_read_beside_literals(tmp_path, variant):
    text = _kernels(_rewrite(tmp_path, ACCESSES, variant))
    assert "r[1][i] =" in text and "u[0][i+2]" in text, text
    assert "[i][" not in text, text  # the literal 1 never printed as i
    if not VARIANTS[variant].bulk:  # bulk load reads u[1][...] before i is declared
        for written in ("u[1][i+1]", "u[1][i]", "u[1][i+2]"):
            assert written in text, (written, text)
        assert not re.search(r"\[[23]\]", text), text  # i + 1 and i + 2 not folded


@needs_gcc
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_accesses_rewritten_print_the_same(tmp_path, variant):
    _same_output(tmp_path, ACCESSES, _rewrite(tmp_path, ACCESSES, variant))


def test_each_statement_keeps_its_own_spelling_of_a_value(tmp_path):
    text = _kernels(_rewrite(tmp_path, SPELLINGS, "cse"))
    assert f"{_name(text, 'x[i]')} * K" in text and f"{_name(text, 'w[i]')} * 8" in text, text
    assert text.count("K") == 1, text  # not for the literal 8
    # 2.0 + 1.0 needs its parentheses in a product: printed (SUM), not SUM
    assert "* (SUM)" in text and not re.search(r"[^(]SUM", text), text


@needs_gcc
def test_spellings_rewritten_print_the_same(tmp_path):
    _same_output(tmp_path, SPELLINGS, _rewrite(tmp_path, SPELLINGS, "cse"))


def test_a_texts_precedence_is_its_expansions():
    assert parsed("(-2147483647 - 1)")[1] == PRIMARY  # INT_MIN in glibc: parenthesized
    assert parsed("2147483647 * 2U + 1U")[1] == ADD_PREC  # pasted as is: a sum
    assert parsed("-1")[1] == UNARY_PREC
    assert parsed("(double)8")[1] == UNARY_PREC
    assert parsed("(1) + (2)")[1] == ADD_PREC  # "(" ... ")" but not one group
    assert parsed("x = 1") is None  # no operand anywhere


def test_candidate_texts_are_operands_without_variables():
    from accsat.codegen.const_texts import candidates
    from accsat.frontend.source_map import SourceMap

    text = "{ x[i] = a * (N + 1) - UINT_MAX /* max */ + 2; y = -K; }"
    found = [c.text for c in candidates(SourceMap(text), 0, len(text), {"x", "i", "a", "y"})]
    for want in ("N", "1", "N + 1", "(N + 1)", "UINT_MAX", "2", "-K", "K"):
        assert want in found, (want, found)
    # no variable, no binary operator taken for a unary one, nothing across a comment
    assert not any(t.startswith(("a", "x", "+", "*")) or "/*" in t for t in found), found
    assert "UINT_MAX + 2" not in found and "- UINT_MAX" not in found, found
    probes = {c.text for c in candidates(SourceMap(text), 0, len(text), set()) if c.probe}
    assert "N + 1" in probes and "1" not in probes  # only a text naming a macro is expanded
