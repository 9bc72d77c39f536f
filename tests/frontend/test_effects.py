"""What a call of a function of the file may do (frontend/effects.py), and what the
rewrite makes of it: loads shared across the calls that cannot change them, pure calls
computed once; accsat check runs the callees themselves, so a summary that missed an
effect is caught (issue 37)."""

from __future__ import annotations

from pathlib import Path

import pytest
from difftest import compile_run

from accsat.check import check_file
from accsat.frontend import effects
from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import rewrite_file

from .conftest import needs_gcc

FUNCTIONS = """\
double g[8], *gp;
int counter;
double ext(double);
static double sq(double x) { double t = x; return t * t; }
static double first(const double *p, int k) { return p[k] + p[k + 1]; }
static void put(double *p, int k, double v) { p[k] = v; }
static void tick(void) { counter++; }
static double rng(void) { static unsigned s = 1; s = s * 1103515245u + 12345u; return s; }
static void moved(double *p) { p = gp; p[0] = 1.0; }
static double calls_ext(double x) { return ext(x); }
static void via(double *q) { put(q, 0, sq(2.0)); }
static double loop(int n) { double a[4] = {0}; for (int i = 0; i < 4; i++) a[i] = i * n; return a[2]; }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static void global_array(void) { g[1] = 2.0; }
static void through_global_pointer(void) { gp[1] = 2.0; }
void kernel(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    g[i % 8] = sq(g[i % 8]);
}
"""


@pytest.fixture(scope="module")
def summaries(tmp_path_factory):
    path = tmp_path_factory.mktemp("effects") / "f.c"
    path.write_text(FUNCTIONS)
    return load(path, cache=False).symbols.effects


def test_pure_functions(summaries):
    for name in ("sq", "loop", "fact"):
        assert summaries(name).pure, name


def test_reads_and_writes_through_parameters(summaries):
    assert summaries("first") == effects.Effects(reads=effects.Access(params=frozenset({0})))
    put = summaries("put")
    assert put.writes == effects.Access(params=frozenset({0})) and not put.reads.anywhere
    assert summaries("via").writes == effects.Access(params=frozenset({0}))  # through put


def test_objects_of_the_file_and_static_locals(summaries):
    assert summaries("tick").writes == effects.Access(globals=frozenset({"counter"}))
    assert summaries("global_array").writes == effects.Access(globals=frozenset({"g"}))
    assert summaries("rng").writes == effects.Access(globals=frozenset({"rng.s"}))
    assert not summaries("rng").pure  # it changes between calls


def test_anywhere(summaries):
    assert summaries("moved").writes.anywhere  # the parameter is assigned first
    assert summaries("calls_ext").writes.anywhere  # a function of another file
    assert summaries("through_global_pointer").writes.anywhere
    assert summaries("ext") is None  # not defined here: the SSA's "every location"


KERNEL = """\
#include <stdio.h>
#define N 32
double a[N], b[N], out[N], log_[N];
int calls;
static double sq(double x) { return x * x; }
static void note(int k, double v) { log_[k] = v; calls++; }
static void scale(double *p, double s) { *p *= s; }
void f(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * b[i];
    note(i, t);
    scale(&out[i], 2.0);
    out[i] += sq(a[i] + b[i]) + a[i] * b[i] + sq(a[i] + b[i]);
  }
}
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = i * 0.5; b[i] = 3.0 - i; out[i] = i; }
  f(N);
  double s = calls;
  for (int i = 0; i < N; i++) s += out[i] + log_[i];
  printf("%a\\n", s);
  return 0;
}
"""


def test_loads_shared_across_calls_that_cannot_change_them(tmp_path):
    path = tmp_path / "k.c"
    path.write_text(KERNEL)
    (k,) = [k for k in rewrite_file(path, Options(variant="cse")).kernels if k.function == "f"]
    assert k.status == "rewritten"
    # a[i] and b[i] once each though note() and scale() come between (they write log_,
    # calls and out only); out[i] read back after scale() wrote it
    assert k.loads == {"before": 9, "after": 3}
    _, checked = check_file(path, Options(variant="cse"), trials=6)
    assert [v.verdict for v in checked.verdicts if v.function == "f"] == ["pass"]


def test_a_summary_that_misses_a_write_is_caught_by_accsat_check(tmp_path, monkeypatch):
    """The mutation: every function of the file said to write nothing. The rewrite then
    keeps out[i] from before scale() doubled it; the interpreter runs scale() itself."""
    real = effects.Summaries.of

    def blind(self, name):
        found = real(self, name)
        return None if found is None else effects.Effects(found.reads, effects.NOTHING)

    monkeypatch.setattr(effects.Summaries, "of", blind)
    path = tmp_path / "k.c"
    path.write_text(KERNEL.replace("out[i] += ", "double before = out[i];\n    out[i] = before + "))
    Path(path).write_text(
        path.read_text().replace(
            "    scale(&out[i], 2.0);\n",
            "    double o = out[i];\n    scale(&out[i], 2.0);\n    out[i] += o;\n",
        )
    )
    _, checked = check_file(path, Options(variant="cse"), trials=6)
    assert [v.verdict for v in checked.verdicts if v.function == "f"] == ["fail"]


CALLERS = """\
#include <stdio.h>
#define N 32
double a[N], b[N], out[N], g;
int calls;
void ext(int k) { calls += k; }
static void setg(double v) { g = v; }
static double readonly(const double *p, int k) { return p[k] + p[k + 1]; }
static void putp(double *p, int k, double v) { p[k] = v; }
static void copy(const double *src, double *dst, int k) { dst[k] = src[k] * 2.0; }
static void rec(double *p, int k) {
  if (k > 0) { p[k] = 0.5 * k; rec(p, k - 1); }
}
static void recg(int k) {
  if (k > 0) { calls++; recg(k - 1); }
}
void glob(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { double t = a[i] + g; setg(t); out[i] = a[i] + g; }
}
void ro(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n - 1; i++) {
    double t = a[i] * b[i]; out[i] = readonly(a, i); out[i] += a[i] * b[i] + t;
  }
}
void alias(double *p, double *q, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { double t = q[i] * q[i]; putp(p, i, t); out[i] += q[i] * q[i]; }
}
void apart(double *q, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = q[i] * q[i]; putp(b, i, t); out[i] = a[i] * a[i] + t; out[i] += a[i] * a[i];
  }
}
void second(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * b[i]; copy(a, b, i); out[i] += a[i] * b[i] + t;
  }
}
void recursive(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { double t = a[i] * a[i]; rec(b, 3); recg(2); out[i] += a[i] * a[i] + t; }
}
void unknown(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { double t = a[i] * a[i]; ext(i); out[i] += a[i] * a[i] + t; }
}
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = 1.0 + i * 0.25; b[i] = 2.0 - i; out[i] = 0.0; }
  glob(N); ro(N); second(N); alias(out, out, N); alias(b, a, N); apart(a, N); recursive(N); unknown(N);
  double s = calls + g;
  for (int i = 0; i < N; i++) s += out[i] + a[i] + b[i];
  printf("%a %d\\n", s, calls);
  return 0;
}
"""
# ext() defined after the kernels that call it (then removed: a function of another file)
CALLERS_UNKNOWN = CALLERS.replace("void ext(int k) { calls += k; }", "void ext(int);").replace(
    "int main(void)", "void ext(int k) { calls += k; }\nint main(void)"
)


@pytest.fixture(scope="module")
def callers(tmp_path_factory):
    path = tmp_path_factory.mktemp("callers") / "c.c"
    path.write_text(CALLERS)
    result = rewrite_file(path, Options(variant="cse"))
    return path, result, {k.function: k for k in result.kernels}


def _body(text: str, function: str) -> str:
    return text.split(f"void {function}(")[1].split("\n}\n")[0]


@pytest.mark.parametrize(
    ("function", "loads", "reloaded"),
    [
        ("glob", {"before": 4, "after": 3}, "g"),  # setg writes g: g read again, a[i] not
        ("ro", {"before": 5, "after": 2}, None),  # readonly reads a only
        ("alias", {"before": 5, "after": 3}, "q[i]"),  # putp(p, ...) may write q[i] (out[i] +=)
        ("apart", {"before": 7, "after": 2}, None),  # putp(b, ...) writes b only
        ("second", {"before": 5, "after": 4}, "b[i]"),  # copy(a, b, i) writes b, not a
        ("recursive", {"before": 5, "after": 2}, None),  # rec writes b, recg calls: a[i] once
    ],
)
def test_loads_across_calls_of_the_file(callers, function, loads, reloaded):
    _, result, found = callers
    assert found[function].status == "rewritten"
    assert found[function].loads == loads
    if reloaded is not None:  # read before the call and again after it
        body = _body(result.text, function)
        call = body.index({"glob": "setg(", "second": "copy("}.get(function, "putp("))
        assert reloaded in body[:call] and reloaded in body[call:]


def test_recursive_summaries_are_solved(callers):
    path, _, _ = callers
    summaries = load(path, cache=False).symbols.effects
    assert summaries("rec").writes == effects.Access(params=frozenset({0}))
    assert summaries("recg").writes == effects.Access(globals=frozenset({"calls"}))
    copy = summaries("copy")  # by position: the second parameter written, the first read
    assert copy.writes == effects.Access(params=frozenset({1}))
    assert 0 in copy.reads.params and not copy.reads.anywhere  # (the store's place: read too)


def test_unknown_callee_overwrites_every_location(tmp_path):
    path = tmp_path / "u.c"
    path.write_text(CALLERS_UNKNOWN)
    found = {k.function: k for k in rewrite_file(path, Options(variant="cse")).kernels}
    # ext is declared before the kernel and defined after it: still the file's
    assert found["unknown"].loads == {"before": 5, "after": 2}  # a[i] once, out[i]
    path.write_text(CALLERS_UNKNOWN.replace("void ext(int k) { calls += k; }\n", ""))
    assert load(path, cache=False).symbols.effects("ext") is None
    found = {k.function: k for k in rewrite_file(path, Options(variant="cse")).kernels}
    assert found["unknown"].loads == {"before": 5, "after": 3}  # a[i] read again after ext()


@needs_gcc
def test_callers_print_what_gcc_builds_of_the_original(callers, tmp_path):
    path, result, _ = callers
    rewritten = tmp_path / "rewritten.c"
    rewritten.write_text(result.text)
    assert compile_run(rewritten, tmp_path, "acc", tag=".rw") == compile_run(path, tmp_path, "acc")
