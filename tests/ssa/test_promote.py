"""Values carried across inner loops (``accsat.ssa.promote``): what is promoted, what
is not, how the rewrite prints, and that it stays correct.

The differential corpus has the same shapes run end to end: tests/kernels/promote_acc.c.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pycparser import c_ast, c_generator, c_parser

from accsat.check import check_file
from accsat.codegen.layout import layout
from accsat.frontend.load import load
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from accsat.ssa import ir, promote
from accsat.ssa.statements import build_ssa

_GEN = c_generator.CGenerator()

GEMM = """#define NI 24
#define NK 16
typedef double real;
real A[NI][NK], B[NK][NI], C[NI][NI];

void gemm(real alpha, real beta)
{
  int i, j, k;
#pragma acc parallel loop collapse(2)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NI; j++) {
      C[i][j] *= beta;
      for (k = 0; k < NK; k++)
        C[i][j]  +=  alpha * A[i][k] * B[k][j];   /* accumulate */
    }
}
"""


def _rewrite(tmp_path: Path, text: str, variant: str = "cse"):
    path = tmp_path / "k.c"
    path.write_text(text)
    return rewrite_file(path, Options(variant=variant))


def _function(text: str, name: str) -> c_ast.FuncDef:
    """The function ``name`` of a rewritten file (macros and typedefs made parsable)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    lines = [x for x in text.splitlines() if not x.startswith("#")]
    src = "typedef double real;\n" + "\n".join(lines).replace("typedef double real;", "")
    for macro, value in (("NI", "24"), ("NK", "16"), ("N", "32"), ("K", "8")):
        src = src.replace(f"[{macro}]", f"[{value}]").replace(f"< {macro})", f"< {value})")
    ast = c_parser.CParser().parse(src)
    return next(f for f in ast.ext if isinstance(f, c_ast.FuncDef) and f.decl.name == name)


def _loops(node: c_ast.Node, var: str) -> list[c_ast.Node]:
    """The for loops over ``var`` in ``node``."""
    out = []
    if isinstance(node, c_ast.For) and var in _GEN.visit(node.next or c_ast.EmptyStatement()):
        out.append(node)
    for child in node:
        out.extend(_loops(child, var))
    return out


def _accesses(node: c_ast.Node) -> list[str]:
    out = [_GEN.visit(node)] if isinstance(node, c_ast.ArrayRef) else []
    for child in node:
        out.extend(_accesses(child))
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_gemm_has_no_access_of_c_in_the_k_loop(tmp_path, variant):
    result = _rewrite(tmp_path, GEMM, variant)
    (report,) = result.kernels
    assert report.status == "rewritten" and report.promoted == 1
    (kloop,) = _loops(_function(result.text, "gemm"), "k")
    inside = _accesses(kloop.stmt)
    assert "C[i][j]" not in inside and "A[i][k]" in inside
    # the header and the declaration keep the user's spelling; the body's comment stays
    assert "for (k = 0; k < NK; k++)" in result.text
    assert "/* accumulate */" in result.text


def test_a_promoted_statement_is_never_printed_as_written(tmp_path):
    """``C[i][j]  +=  ...`` costs, as printed (``_vp0 += ...``), no more than as written:
    printing the user's text would read and write C[i][j] in the loop again, and miss
    the carried value. Its origin is a node the layout never matched."""
    result = _rewrite(tmp_path, GEMM)
    assert "C[i][j]  +=" not in result.text
    path = tmp_path / "k.c"
    loaded = load(path)
    (kernel,) = loaded.kernels
    ssa = build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined, "_vp")
    shape = layout(loaded.source, kernel.span, kernel.loop.stmt)
    (loop,) = ssa.loops
    for stmt, _ in ir.walk(loop.body):
        assert shape.written(ssa.origins[stmt.pos].node) is None
    # the loop's own origin is the user's loop, for its header only
    assert shape.header(ssa.origins[loop.pos].node) == "for (k = 0; k < NK; k++)"


def test_a_pragma_before_the_loop_stays_just_before_it(tmp_path):
    text = GEMM.replace("      for (k", "#pragma acc loop seq\n      for (k")
    result = _rewrite(tmp_path, text)
    assert result.kernels[0].promoted == 1
    assert "#pragma acc loop seq\n      for (k = 0; k < NK; k++)" in result.text


def test_statistics_are_those_of_the_body_as_written(tmp_path):
    (tmp_path / "k.c").write_text(GEMM)
    loaded = load(tmp_path / "k.c")
    (kernel,) = loaded.kernels
    plain = build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined)
    promoted = build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined, "_vp")
    assert promoted.stats == plain.stats
    assert promote.count(promoted, "_vp") == 1 and promote.count(plain, "_vp") == 0


NOT_PROMOTED = """#define N 32
#define K 8
double A[N][K], B[K][N], C[N][N], S[N];
int n[N];

void alias(double *out, double *in, int m)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    out[i] = 0.0;
    for (k = 0; k < m; k++)
      out[i] += in[i * m + k];
  }
}

void other_index(void)
{
  int i, j, k;
#pragma acc parallel loop collapse(2)
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < K; k++)
        C[i][j] += C[i][k] * B[k][j];
    }
}

void cond_only(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++)
    for (k = 0; k < n[i]; k++)
      if (A[i][k] > 0.5)
        S[i] += A[i][k];
}

void address(void)
{
  int i, k;
  double *p;
#pragma acc parallel loop private(p)
  for (i = 0; i < N; i++) {
    S[i] = 0.0;
    for (k = 0; k < K; k++) {
      p = &S[i];
      S[i] += A[i][k];
    }
  }
}

void variant_index(void)
{
  int i, j, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    j = 0;
    S[i] = 0.0;
    for (k = 0; k < K; k++) {
      C[i][j] += A[i][k];
      j = k;
    }
  }
}
"""


def test_what_may_alias_or_move_is_not_promoted(tmp_path):
    """Pointer parameters that may alias, another index into the array, a store only
    under an if with no access before the loop (the loop may not run: nothing may be
    loaded or stored where the original does not), an address taken, an index the
    loop assigns."""
    result = _rewrite(tmp_path, NOT_PROMOTED)
    assert {r.function: r.promoted for r in result.kernels} == dict.fromkeys(
        ("alias", "other_index", "cond_only", "address", "variant_index"), 0
    )
    assert "_vp" not in result.text


FLAGGED = """#define N 32
#define K 8
double A[N][K], M[N], Z[N], R[N];
int n[N];

void rowmax(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++)
    for (k = 0; k < K; k++)
      if (A[i][k] > M[i])
        M[i] = A[i][k];
}

void zero_trip(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    double z0 = Z[i];
    for (k = 0; k < n[i]; k++)
      if (A[i][k] > z0)
        Z[i] = A[i][k];
  }
}
"""


@pytest.mark.parametrize("name, location", [("rowmax", "M[i]"), ("zero_trip", "Z[i]")])
def test_a_store_the_loop_may_not_do_is_not_carried(tmp_path, name, location):
    """Stored only under an if: not carried (a flag set at every such store was not
    sound for single-statement bodies and stores inside conditions: review findings),
    so the loop keeps its own stores and a location the original never wrote is never
    written."""
    result = _rewrite(tmp_path, FLAGGED)
    assert all(r.promoted == 0 for r in result.kernels)
    fn = _function(result.text, name)
    (loop,) = _loops(fn, "k")
    assert location in _accesses(loop)
    assert "_vpf" not in result.text


def _walk(node):
    yield node
    for child in node:
        yield from _walk(child)


HOIST = """#define N 32
#define K 8
double A[N][K], M[N], R[N], W[N][K];

void first_iteration(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (k = 0; k < K; k++) {
      s += A[i][k] * M[i];
      W[i][k] = s;
    }
    R[i] = s;
  }
}

void stores_nothing(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    double s = 0.0;
    for (k = 0; k < K; k++)
      s += A[i][k] * M[i];
    R[i] = s;
  }
}

void after_a_load(void)
{
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {
    double s = M[i];
    for (k = 0; k < K; k++)
      s += A[i][k] * M[i];
    R[i] = s;
  }
}
"""


def test_loop_invariant_loads_leave_the_loop(tmp_path):
    """A load after the same load before the loop is one value already (memory
    versions: the loop stores nowhere near it), nothing promoted; a load the loop's
    first iteration surely does (constant bounds) is promoted, loaded before the loop,
    unless the loop stores nothing (then the compiler hoists it itself)."""
    result = _rewrite(tmp_path, HOIST)
    assert [r.promoted for r in result.kernels] == [1, 0, 0]
    for name in ("first_iteration", "after_a_load"):
        (loop,) = _loops(_function(result.text, name), "k")
        assert "M[i]" not in _accesses(loop)


def test_build_ssa_promotes_only_when_asked(tmp_path):
    """``accsat advise`` and the golden tests see the body as written."""
    (tmp_path / "k.c").write_text(GEMM)
    loaded = load(tmp_path / "k.c")
    (kernel,) = loaded.kernels
    ssa = build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined)
    (loop,) = ssa.loops
    assert any(isinstance(s, ir.Store) for s, _ in ir.walk(loop.body))


def test_promoted_names_avoid_the_users(tmp_path):
    text = GEMM.replace("int i, j, k;", "int i, j, k, _vp0x;")
    result = _rewrite(tmp_path, text)
    assert "_vp_0" in result.text and "_vp0 " not in result.text


@pytest.mark.parametrize("variant", ["cse", "accsat"])
@pytest.mark.parametrize("text", [GEMM], ids=["gemm"])
def test_promoted_kernels_pass_translation_validation(tmp_path, variant, text):
    path = tmp_path / "k.c"
    path.write_text(text)
    result, ver = check_file(path, Options(variant=variant))
    assert all(r.promoted == 1 for r in result.kernels)
    assert all(v.verdict == "pass" for v in ver.verdicts)


GLOBAL_POINTER = """float c[8], b[8];
float *gp;
void k(int n) {
  int i, k;
#pragma acc parallel loop
  for (i = 0; i < 8; i++) {
    c[i] = 1.0f;
    for (k = 0; k < n; k++) { c[i] = c[i] + b[k]; gp[k] = 2.0f; }
  }
}
"""


def test_a_store_through_a_global_pointer_may_alias(tmp_path):
    """``gp`` may point into ``c`` (review finding: the pointer's own storage was taken
    for the region it points into)."""
    result = _rewrite(tmp_path, GLOBAL_POINTER)
    assert [r.promoted for r in result.kernels] == [0]
    assert "_vp" not in result.text
