"""Local arrays and structs as the scalars they hold (ssa/aggregate.py, issue 37):
initialisers (``{0}``, ``{1, 2}``, designated), struct copies from memory and struct
assignment become one store per scalar, so later loads take the stored values and a
copy's loads are shared; what accsat does not model (a struct from a call) is printed
as written and the rest still rewritten. gcc's build of the rewrite prints what the
original's prints."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from difftest import compile_run
from ssa_dump import dump
from stage_helpers import load_file

from accsat.options import Options
from accsat.pipeline import rewrite_file
from accsat.ssa.statements import build_ssa

SOURCE = """\
#include <stdio.h>
typedef struct { double x, y; } P;
typedef struct { P p; double w[2]; int n; } R;
struct Q { double e; int n; };
double a[16], out[16];
P pts[16], dst[16];
R rs[16];
static P mk(double v) { P r = {v, 2 * v}; return r; }
void zero(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double v[4] = {0}; v[1] = a[i]; out[i] = v[0] + v[1] + v[2] + a[i] * a[i] + a[i];
  }
}
void listed(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { double v[3] = {1, 2}; out[i] += v[0] + v[1] * v[2] + a[i] * a[i] + a[i]; }
}
void designated(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { struct Q q = {.n = 2}; out[i] += q.e + q.n + a[i] * a[i] + a[i]; }
}
void nested(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    R r = {{1.0}, {0.0, 2.0}, 3}; R s = rs[i];
    out[i] += r.p.x + r.p.y + r.w[1] + r.n + s.p.x * s.w[0] + rs[i].p.x * rs[i].w[0];
  }
}
void fromarray(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { P p = pts[i]; out[i] += p.x * p.y + pts[i].x * pts[i].y; }
}
void assign(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { P p, r; p = pts[i]; r = p; out[i] += r.x * r.y + pts[i].x * pts[i].y; }
}
void through(P *d, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { d[i] = pts[i]; out[i] += pts[i].x * pts[i].x + pts[i].x; }
}
void fromcall(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { P p = mk(a[i]); out[i] += p.x * p.y + a[i] * a[i] + a[i]; }
}
static double byvalue(P p, const double *x, int k) { return p.x * x[k] + p.y * x[k] + p.x * p.y; }
void param(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) out[i] += byvalue(pts[i], a, i);
}
int main(void)
{
  for (int i = 0; i < 16; i++) {
    a[i] = 0.5 * i - 3.0; pts[i].x = i; pts[i].y = 1.0 / (i + 1);
    rs[i].p.x = i * 0.25; rs[i].p.y = -i; rs[i].w[0] = 3.0 - i; rs[i].w[1] = i; rs[i].n = i;
  }
  zero(16); listed(16); designated(16); nested(16); fromarray(16); assign(16);
  through(dst, 16); through(pts, 16); fromcall(16); param(16);
  for (int i = 0; i < 16; i++) printf("%a %a %a\\n", out[i], dst[i].x, dst[i].y);
  return 0;
}
"""


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory):
    path = tmp_path_factory.mktemp("aggregate") / "agg.c"
    path.write_text(SOURCE)
    result = rewrite_file(path, Options(variant="cse"))
    return path, result, {k.function: k for k in result.kernels}


def _body(text: str, function: str) -> str:
    return text.split(f"void {function}(")[1].split("\n}\n")[0]


@pytest.mark.parametrize(
    ("function", "loads", "stored"),
    [
        # v[0], v[2] are the zeros the initialiser leaves out, v[1] the a[i] stored (the
        # declaration printed as written: nothing in it changed)
        ("zero", {"before": 7, "after": 1}, ("double v[4] = {0};", "out[i] = 0 + _v0 + 0.0")),
        ("listed", {"before": 7, "after": 2}, ("v[2] = 0.0;", "1 + 2 * 0.0")),
        ("designated", {"before": 6, "after": 2}, ("q.e = 0.0;", "q.n = 2;", "0.0 + 2")),
        (
            "nested",
            {"before": 14, "after": 6},
            ("R r = {{1.0}, {0.0, 2.0}, 3};", "s.w[0] = _v", "1.0 + 0.0 + 2.0 + 3"),
        ),
        # the copy's loads are the loads of pts[i] written after it
        ("fromarray", {"before": 7, "after": 3}, ("p.x = _v0;", "p.y = _v1;")),
        ("assign", {"before": 9, "after": 3}, ("r.x = _v0;", "r.y = _v1;")),
        # through a pointer: d[i] may be pts[i], pts[i].x read again after the copy
        ("through", {"before": 6, "after": 4}, ("d[i].x = pts[i].x;",)),
    ],
)
def test_aggregates_become_scalars(rewritten, function, loads, stored):
    _, result, found = rewritten
    assert (found[function].status, found[function].loads) == ("rewritten", loads)
    body = _body(result.text, function)
    for text in stored:
        assert text in body, text


def test_struct_from_a_call_is_kept_as_written(rewritten):
    """errors.Opaque: the statement printed as written, the rest of the body rewritten."""
    _, result, found = rewritten
    assert found["fromcall"].status == "rewritten"
    body = _body(result.text, "fromcall")
    assert "P p = mk(a[i]);" in body
    assert "_v0 * _v0 + _v0" in body  # a[i] * a[i] + a[i] after it: one load
    assert found["mk"].status == "unchanged"  # returns a struct: nothing to gain there


def test_struct_parameter_fields_are_loaded_once(rewritten):
    """The by-value parameter's fields are memory of the call's own: p.x is one term
    (printed twice as written, a field of a local needs no temporary)."""
    path, _, found = rewritten
    assert found["byvalue"].loads == {"before": 6, "after": 5}  # x[k] once
    loaded = load_file(path)
    (kernel,) = [k for k in loaded.kernels if k.function == "byvalue"]
    text = dump(build_ssa(kernel, loaded.symbols, lambda op, ty: 1.0, loaded.defined))
    assert text.count("Load double@k0 [.x") == 1 and text.count("Load double@k0 [.y") == 1


def test_array_designator(tmp_path):
    path = tmp_path / "d.c"
    path.write_text(
        "double a[16], out[16];\nvoid f(int n) {\n#pragma acc parallel loop\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    double v[4] = {1.0, [2] = 3.0, 4.0}; out[i] = v[1] + v[2] + v[3] + a[i] * a[i];\n"
        "  }\n}\n"
    )
    (k,) = rewrite_file(path, Options(variant="cse")).kernels
    assert "a designator accsat cannot read" not in k.reason
    assert (k.status, k.loads) == ("rewritten", {"before": 5, "after": 1})


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_rewrite_prints_what_the_original_prints(rewritten, tmp_path):
    path, result, _ = rewritten
    copy = Path(tmp_path) / "rewritten.c"
    copy.write_text(result.text)
    assert compile_run(copy, tmp_path, "acc", tag=".rw") == compile_run(path, tmp_path, "acc")


# review findings: designators C reads otherwise than a count of items
DESIGNATED = """\
#include <stdio.h>
double a[8], out[8];
void octal(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double v[4] = {[03] = 1.0, [1] = 2.0}; out[i] = v[3] * a[i] + v[1] + a[i] * a[i];
  }
}
void unsized(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double z[] = {a[i], 7.0}; out[i] += z[1] * a[i] + z[0] + a[i] * a[i];
  }
}
int main(void) {
  for (int i = 0; i < 8; i++) a[i] = i + 0.5;
  octal(8); unsized(8);
  for (int i = 0; i < 8; i++) printf("%a\\n", out[i]);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_octal_designators_and_unsized_arrays(tmp_path, variant):
    """``[03] =`` is index 3 (it raised ValueError out of the rewrite); ``double z[] =
    {...}`` keeps its length once its list is stores (``double z[];`` is not C)."""
    path = tmp_path / "d.c"
    path.write_text(DESIGNATED)
    done = rewrite_file(path, Options(variant=variant))
    assert [k.status for k in done.kernels] == ["rewritten", "rewritten"], done.kernels
    assert "double z[2];" in done.text
    copy = tmp_path / "rewritten.c"
    copy.write_text(done.text)
    assert compile_run(copy, tmp_path, "acc", tag=".rw") == compile_run(path, tmp_path, "acc")


@pytest.mark.parametrize(
    "decl, reason",
    [
        ("double m[2][2] = {[0] = {1.0, 2.0}, [0] = {[1] = 3.0}};", "a member twice"),
        ("P p = {.x = 1.0, .y = 2.0, .x = a[i]};", "a member twice"),
        ("double w[] = {1.0, [0] = a[i]};", "'w' declared without its length"),
    ],
)
def test_designators_accsat_does_not_model_are_refused(tmp_path, decl, reason):
    """A member initialised twice (C overrides the whole member: gcc zeroes the rest of a
    braced one; accsat merged the two lists) and an unsized array with designators (its
    length is the highest index, not the count) leave the body as written."""
    path = tmp_path / "t.c"
    path.write_text(
        "typedef struct { double x, y; } P;\ndouble a[8], out[8];\nvoid k(int n) {\n"
        "#pragma acc parallel loop\n  for (int i = 0; i < n; i++) {\n"
        f"    {decl}\n    out[i] = a[i] * a[i] + a[i];\n  }}\n}}\n"
    )
    (k,) = rewrite_file(path, Options(variant="cse")).kernels
    assert k.status == "unchanged" and reason in k.reason, k.reason
