"""accsat check on function units (issue 37): the interpreter runs a routine's body and
compares its return value and its stores, and runs the file's functions a loop body
calls, so a rewrite that gets a return, an early return, an aliasing store or a
callee's effect wrong fails, and accsat's own rewrite passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from accsat.check import check_file
from accsat.options import Options
from accsat.verify import verify_file

SOURCE = """\
double a[64], b[64], out[64];
int count;
#pragma acc routine seq
static double pick(const double *x, int k) {
  if (x[k] < 0.0) return x[k] * x[k];
  return x[k] + x[k] * x[k];
}
#pragma acc routine seq
static void upd(double *p, double *q, int k) {
  double t = q[k];
  p[k] = t * 2.0;
  q[k + 1] = t + q[k];
}
#pragma acc routine seq
static void updr(double *restrict p, double *restrict q, int k) {
  double t = q[k];
  p[k] = t * 2.0;
  q[k + 1] = t + q[k];
}
static void bump(double *p, int k) { p[k] = p[k] + 1.0; count++; }
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * a[i];
    bump(b, i);
    out[i] = pick(a, i) + a[i] * a[i] + t + b[i];
  }
}
"""
OPTIONS = Options(variant="cse")
TRIALS = 8


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    path = tmp_path_factory.mktemp("callees") / "v.c"
    path.write_text(SOURCE)
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    return path, result, {v.function: v for v in verification.verdicts}


def _verdict(path: Path, text: str, function: str):
    found = verify_file(path, text, OPTIONS, trials=TRIALS).verdicts
    (v,) = [v for v in found if v.function == function]
    return v


def test_accsat_rewrite_of_units_passes(checked):
    _, result, verdicts = checked
    kinds = {k.function: (k.kind, k.status) for k in result.kernels}
    assert kinds["pick"] == ("routine", "rewritten")
    assert kinds["updr"] == ("routine", "rewritten")
    assert kinds["f"] == ("loop body", "rewritten")
    for name in ("pick", "updr", "f"):
        assert verdicts[name].verdict == "pass", verdicts[name].message
        assert verdicts[name].states_tried >= TRIALS


def _replaced(text: str, function: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new`` in ``function``'s body only."""
    head, rest = text.split(f" {function}(", 1)
    body, tail = rest.split("\n}\n", 1)
    assert old in body, (old, body)
    return f"{head} {function}({body.replace(old, new, 1)}\n}}\n{tail}"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("return _v1;", "return _v0;"),  # the early return's value
        ("return _v0 + _v1;", "return _v0 - _v1;"),  # the other path's
        ("if (_v0 < 0.0)", "if (_v0 > 0.0)"),  # which return is taken
    ],
)
def test_a_wrong_return_fails(checked, old, new):
    path, result, _ = checked
    v = _verdict(path, _replaced(result.text, "pick", old, new), "pick")
    assert v.verdict == "fail", v.message


def test_a_load_shared_across_an_aliasing_parameter_store_fails(checked):
    """upd's p may be q (+1): its q[k] must be read again after the store to p[k]; with
    restrict (updr) the same sharing passes."""
    path, result, _ = checked
    assert "q[k + 1] = t + q[k];" in result.text.split(" upd(")[1]  # kept by accsat
    shared = _replaced(result.text, "upd", "q[k + 1] = t + q[k];", "q[k + 1] = t + t;")
    assert _verdict(path, shared, "upd").verdict == "fail"
    restrict_body = result.text.split(" updr(")[1].split("\n}\n")[0]
    assert "q[k]" in restrict_body and restrict_body.count("q[k]") == 1  # shared by accsat


def test_a_callee_run_by_the_interpreter_catches_a_moved_load(checked):
    """bump() writes b[i] and count: b[i] read above the call, or the call dropped, fails;
    a[i] read above it (accsat's own rewrite) passes."""
    path, result, _ = checked
    moved = _replaced(result.text, "f", "bump(b, i);", "double _w = b[i];\n    bump(b, i);")
    moved = _replaced(moved, "f", "+ b[i];", "+ _w;")
    assert _verdict(path, moved, "f").verdict == "fail"
    dropped = _replaced(result.text, "f", "bump(b, i);", "")
    assert _verdict(path, dropped, "f").verdict == "fail"


def test_a_struct_argument_is_checked(tmp_path):
    """dot takes a struct by value: both the routine and the loop body calling it are
    checked (each passes)."""
    path = tmp_path / "s.c"
    path.write_text(
        "typedef struct { double x, y; } P;\ndouble a[64], out[64];\nP pts[64];\n"
        "static double dot(P u, const double *x, int k) { return u.x * x[k] + u.y * x[k]; }\n"
        "void f(int n) {\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++) {\n"
        "    double t = a[i] * a[i];\n    out[i] = dot(pts[i], a, i) + a[i] * a[i] + t;\n  }\n}\n"
    )
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    assert {k.function: k.status for k in result.kernels} == {
        "dot": "rewritten",
        "f": "rewritten",
    }
    assert {v.function: v.verdict for v in verification.verdicts} == {"dot": "pass", "f": "pass"}


@pytest.mark.parametrize(
    "source, right, wrong",
    [
        # mk returns a struct (a copy the caller reads): accsat rewrites around the kept
        # declaration; a rewrite reading the wrong member fails
        (
            "double a[64], out[64];\n"
            "static P mk(double v) { P r = {v, 2 * v}; return r; }\n"
            "void f(int n) {\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++) {\n"
            "    P p = mk(a[i]); out[i] = p.x * p.y + a[i] * a[i] + a[i];\n  }\n}\n",
            "p.x * p.y",
            "p.x * p.x",
        ),
        # g stores to its parameter, a copy: pts[i] keeps its member. A rewrite reading
        # it as g left it (0.0) fails; it would pass were the struct passed by address
        (
            "double a[64], out[64];\nP pts[64];\n"
            "static double g(P u) { u.x = 0.0; return u.y * u.y + u.y; }\n"
            "void f(int n) {\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++) {\n"
            "    double v = g(pts[i]);\n    out[i] = v + pts[i].x + a[i] * a[i] + a[i] * a[i];\n"
            "  }\n}\n",
            "v + pts[i].x",
            "v + 0.0",
        ),
    ],
)
def test_a_loop_body_with_struct_values_is_checked(tmp_path, source, right, wrong):
    """accsat's rewrite of the loop body passes; the written one with ``right`` made
    ``wrong`` fails."""
    path = tmp_path / "s.c"
    path.write_text("typedef struct { double x, y; } P;\n" + source)
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    assert [k.status for k in result.kernels if k.function == "f"] == ["rewritten"]
    assert [v.verdict for v in verification.verdicts if v.function == "f"] == ["pass"]
    assert _verdict(path, path.read_text().replace(right, wrong), "f").verdict == "fail"


def test_a_routine_returning_a_struct_is_checked(tmp_path):
    """scale returns a struct: what it returns is compared member by member (R:returned);
    accsat's rewrite (k * k once) passes, one that drops a factor from a member fails."""
    path = tmp_path / "s.c"
    path.write_text(
        "typedef struct { double x, y; } P;\n#pragma acc routine seq\n"
        "P scale(P u, double k) {\n  P r;\n  r.x = u.x * (k * k);\n  r.y = u.y * (k * k);\n"
        "  return r;\n}\n"
    )
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    assert [(k.kind, k.status) for k in result.kernels] == [("routine", "rewritten")]
    assert [v.verdict for v in verification.verdicts] == ["pass"]
    wrong = path.read_text().replace("u.y * (k * k)", "u.y * k")
    assert _verdict(path, wrong, "scale").verdict == "fail"


STRUCTS = """\
typedef struct { unsigned long x, y; } P;
unsigned long a[64], out[64];
P gs;
unsigned long h(int k);
void sink(int k, ...);
static P getg(void) { return gs; }
static unsigned long setx(unsigned long v) { gs.x = v; return 0; }
static P mk(unsigned long v) { P r; r.x = v; r.y = 2 * v; return r; }
static unsigned long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static P add(P u, P v) { P r; r.x = u.x + v.x; return r; }
static P sfib(int n) { P r; if (n < 2) { r.x = n; return r; } return add(sfib(n - 1), sfib(n - 2)); }
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    BODY
  }
}
"""


@pytest.mark.parametrize(
    "original, rewrites",
    [
        # getg() runs first (calls first) and returns a copy: setx's store is not in it
        (
            "out[i] = getg().x + setx(a[i]);",
            {"unsigned long o = gs.x; gs.x = a[i]; out[i] = o;": "pass",
             "gs.x = a[i]; out[i] = gs.x;": "fail"},
        ),
        # a returned struct is a value: the opaque h() after it cannot change it
        (
            "out[i] = mk(a[i]).x + h(i);",
            {"unsigned long v = a[i]; out[i] = v + h(i);": "pass",
             "out[i] = mk(a[i] + 1).x + h(i);": "fail"},
        ),
        # recursion with two calls in one expression: each frame its own results
        ("out[i] = fib(6) + 1000 * sfib(6).x;", {"out[i] = 8008;": "pass", "out[i] = 3003;": "fail"}),
        # members never set are copied as such (C allows it); reading one is not
        ("P u; u.y = a[i]; out[i] = add(u, u).y;", {"out[i] = a[i];": "unsupported"}),
        ("P u; u.x = a[i]; out[i] = add(u, u).x;", {"out[i] = a[i] + a[i];": "pass",
                                                     "out[i] = a[i];": "fail"}),
    ],
)  # fmt: skip
def test_struct_values_of_the_files_functions(tmp_path, original, rewrites):
    """Structs passed to and returned by the file's functions, as C has them: copies."""
    path = tmp_path / "s.c"
    path.write_text(STRUCTS.replace("BODY", original))
    for body, verdict in rewrites.items():
        found = _verdict(path, STRUCTS.replace("BODY", body), "f")
        assert found.verdict == verdict, (body, found.message)


def test_a_struct_passed_to_a_function_it_cannot_run_is_unsupported(tmp_path):
    """A variadic function's struct argument (its members nowhere in the call's trace)
    is not checked: a wrong rewrite would pass."""
    path = tmp_path / "s.c"
    path.write_text(STRUCTS.replace("BODY", "sink(1, mk(a[i]));"))
    wrong = STRUCTS.replace("BODY", "sink(1, mk(a[i] + 1));")
    found = _verdict(path, wrong, "f")
    assert found.verdict == "unsupported"
    assert "a struct passed to 'sink'" in found.message


def test_a_callee_the_interpreter_cannot_run_is_not_a_failure(tmp_path):
    """accsat reads g's effects from its body (pure): the rewrite shares a[i] * a[i]
    across the call. The interpreter cannot run g (a designator it does not read); as an
    opaque call it overwrote every location, and the check failed a correct rewrite."""
    path = tmp_path / "g.c"
    path.write_text(
        "double a[64], out[64];\n#pragma acc routine seq\n"
        "double g(double x) { double v[4] = {[1 + 1] = 1.0, [3] = 2.0}; return x * v[2] + v[3]; }\n"
        "void k(int n) {\n#pragma acc parallel loop\n  for (int i = 0; i < n; i++)\n"
        "    out[i] = a[i] * a[i] + g(a[i]) + a[i] * a[i];\n}\n"
    )
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    assert {k.function: k.status for k in result.kernels}["k"] == "rewritten"
    (v,) = [v for v in verification.verdicts if v.function == "k"]
    assert v.verdict == "unsupported" and "cannot run" in v.message, v.message


def test_an_int_array_with_elements_left_out(tmp_path):
    """``int w[3] = {1, 2};``: the zero of an int element needs no conversion (the
    interpreter called None)."""
    path = tmp_path / "w.c"
    path.write_text(
        "double a[64], out[64];\nvoid k(int n) {\n#pragma acc parallel loop\n"
        "  for (int i = 0; i < n; i++) {\n    int w[3] = {1, 2};\n"
        "    out[i] = a[i] * a[i] + w[1] + w[2] + a[i] * a[i];\n  }\n}\n"
    )
    result, verification = check_file(path, OPTIONS, trials=TRIALS)
    assert [k.status for k in result.kernels] == ["rewritten"]
    assert [v.verdict for v in verification.verdicts] == ["pass"]
