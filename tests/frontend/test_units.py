"""Functions as rewrite units (frontend/units.py, issue 37): which functions of a file
are units and of which kind, their returns and early returns, and their pointer
parameters, which may alias each other unless ``restrict`` or their types say not."""

from __future__ import annotations

from pathlib import Path

import pytest
from pycparser import c_parser

from accsat.frontend import units
from accsat.options import Options
from accsat.pipeline import rewrite_file
from accsat.report import CALLEE, LOOP_BODY, ROUTINE

MARKED = """\
#define N 16
double a[N], out[N];

#pragma acc routine seq
double proto(const double *x, int k);
#pragma acc routine(named) seq
double named(const double *x, int k) { return x[k] * x[k] + x[k]; }
double proto(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma acc routine worker
double wk(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma acc routine vector
double vec(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma acc routine gang
double gg(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma omp declare target
double inside(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma omp end declare target
double tgt(const double *x, int k) { return x[k] * x[k] + x[k]; }
#pragma omp declare target to(tgt)
static double inner(const double *x, int k) { return x[k] * x[k] + x[k]; }
static double outer(const double *x, int k) { return inner(x, k) + x[k] * x[k]; }
static double nobody(const double *x, int k) { return x[k] * x[k] + x[k]; }
static double own(double *x, int n) {
  double s = 0;
#pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] + x[i];
  return s;
}
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] = outer(a, i) + own(a, n);
}
int main(void) { return (int)nobody(a, 1); }
"""


def _rewrite(tmp_path: Path, text: str, variant: str = "cse"):
    path = tmp_path / "u.c"
    path.write_text(text)
    return rewrite_file(path, Options(variant=variant))


def _by_function(result) -> dict[str, object]:
    return {k.function: k for k in result.kernels}


def test_marked_functions_by_directive():
    ast = c_parser.CParser().parse(MARKED.replace("#define N 16\n", "").replace("[N]", "[16]"))
    marked = units.marked_functions(ast)
    assert marked == {
        "proto": "acc routine seq",  # marked at its prototype
        "named": "acc routine seq",  # routine(named)
        "wk": "acc routine worker",
        "vec": "acc routine vector",
        "gg": "acc routine gang",
        "inside": "omp declare target",
        "tgt": "omp declare target",  # declare target to(tgt), after the definition
    }


def test_kinds_of_units(tmp_path):
    found = _by_function(_rewrite(tmp_path, MARKED))
    kinds = {name: (k.kind, k.construct) for name, k in found.items()}
    assert kinds == {
        "named": (ROUTINE, "acc routine seq"),
        "proto": (ROUTINE, "acc routine seq"),
        "wk": (ROUTINE, "acc routine worker"),
        "vec": (ROUTINE, "acc routine vector"),
        "gg": (ROUTINE, "acc routine gang"),
        "inside": (ROUTINE, "omp declare target"),
        "tgt": (ROUTINE, "omp declare target"),
        "inner": (CALLEE, "called from outer"),  # called from a callee
        "outer": (CALLEE, "called from a compute construct"),
        "own": (LOOP_BODY, "acc parallel loop"),  # by its kernel, not as a whole
        "f": (LOOP_BODY, "acc parallel loop"),
    }  # nobody: called from main only; main: never
    for name in ("named", "proto", "wk", "vec", "gg", "inside", "tgt", "inner"):
        assert found[name].status == "rewritten", name
        assert found[name].loads == {"before": 3, "after": 1}, name


RETURNS = """\
double a[16], out[16];
static double early(const double *x, int k) {
  if (x[k] < 0.0) return x[k] * x[k];
  return x[k] + x[k] * x[k];
}
static int ints(const int *v, int k) { if (v[k] == 0) return 0; return v[k] * v[k]; }
static void nothing(double *x, int k) { if (k < 0) return; x[k] = x[k] * x[k] + x[k]; }
int iv[16];
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { out[i] = early(a, i) + ints(iv, i); nothing(out, i); }
}
"""


def test_returns_and_early_returns(tmp_path):
    result = _rewrite(tmp_path, RETURNS)
    found = _by_function(result)
    assert found["early"].status == "rewritten"
    assert found["early"].loads == {"before": 6, "after": 1}
    assert found["ints"].loads == {"before": 3, "after": 1}
    assert found["nothing"].loads == {"before": 3, "after": 1}
    # every return is still there, each returning the value it returned
    early = result.text.split("static double early")[1].split("static int ints")[0]
    assert early.count("return") == 2
    assert "if (" in early
    nothing = result.text.split("static void nothing")[1].split("int iv[16]")[0]
    assert "return;" in nothing


ALIAS = """\
double a[16], out[16];
int ia[16];
static double same(double *p, double *q, int k) { double t = q[k]; p[k] = t + 1; return t * q[k]; }
static double mixed(int *p, double *q, int k) { double t = q[k]; p[k] = 1; return t * q[k]; }
static double restricted(double *restrict p, double *restrict q, int k) {
  double t = q[k]; p[k] = t + 1; return t * q[k];
}
static double constq(double *p, const double *q, int k) { double t = q[k]; p[k] = t + 1; return t * q[k]; }
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] = same(out, a, i) + mixed(ia, a, i) + restricted(out, a, i) + constq(out, a, i);
}
"""


@pytest.mark.parametrize(
    ("name", "after"),
    [
        ("same", 2),  # p may be q: q[k] read again after the store through p
        ("constq", 2),  # const says nothing of another pointer's stores
        ("restricted", 1),
    ],
)
def test_pointer_parameters_may_alias(tmp_path, name, after):
    found = _by_function(_rewrite(tmp_path, ALIAS))
    assert found[name].loads == {"before": 2, "after": after}


@pytest.mark.xfail(
    strict=True,
    reason="no type-based alias analysis: accsat/ssa/memory.py Region.may_alias (line ~75) "
    "lets any two 'ptr' regions alias whatever their accessed types, so an int store "
    "through p kills the load of double q[k] (units.py's docstring names restrict only)",
)
def test_pointers_of_incompatible_types_do_not_alias(tmp_path):
    found = _by_function(_rewrite(tmp_path, ALIAS))
    assert found["mixed"].loads == {"before": 2, "after": 1}


RECURSIVE = """\
double a[16], out[16];
static double down(const double *x, int k) {
  if (k <= 0) return x[0] * x[0] + x[0];
  return x[k] * x[k] + down(x, k - 1);
}
void f(int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) out[i] = down(a, i);
}
"""


def test_recursive_callee_is_a_unit(tmp_path):
    found = _by_function(_rewrite(tmp_path, RECURSIVE))
    assert (found["down"].kind, found["down"].status) == (CALLEE, "rewritten")
    assert found["down"].loads == {"before": 5, "after": 2}


def test_one_line_recursive_callee_is_a_unit(tmp_path):
    one_line = RECURSIVE.replace(
        "{\n  if (k <= 0) return x[0] * x[0] + x[0];\n  return",
        "{ if (k <= 0) return x[0] * x[0] + x[0]; return",
    ).replace("down(x, k - 1);\n}", "down(x, k - 1); }")
    assert one_line.count("\n") == RECURSIVE.count("\n") - 3
    found = _by_function(_rewrite(tmp_path, one_line))
    assert found["down"].reason != "function comes from a macro expansion"
    assert found["down"].loads == {"before": 5, "after": 2}


CALLED_EARLIER_ON_ITS_LINE = """static double g(double x);
double f(double x) { double y = g(x); { y = y + x; } return y; } double g(double x) { return x * x * 3.0 + x * x * 3.0 + x; }
void k(int n, double *restrict a)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        a[i] = g(a[i]) + f(a[i]);
}
"""


def test_a_function_called_earlier_on_its_line_is_found_at_its_own_name(tmp_path):
    """``g (`` is on the definition's line twice: f's call of it first, then g's own
    name; g's body is the one after its name (the declaration's column), and f's inner
    block is left alone (taking the first ``g (`` spliced g's rewrite into f)."""
    result = _rewrite(tmp_path, CALLED_EARLIER_ON_ITS_LINE, "accsat")
    assert "double f(double x) { double y = g(x); { y = y + x; } return y; }" in result.text
    g = _by_function(result)["g"]
    assert g.status == "rewritten" and g.ops["after"] < g.ops["before"]


def test_region_calls_after_the_directives_of_a_construct():
    """``acc parallel`` then ``acc loop`` then the loop: the loop's calls are the region's."""
    ast = c_parser.CParser().parse(
        "void k(int n, double *a) {\n#pragma acc parallel\n#pragma acc loop\n"
        "for (int i = 0; i < n; i++) a[i] = g(a[i]);\nh(a);\n}"
    )
    assert units.region_calls(ast.ext[0].body) == {"g"}


MACRO_BEFORE_THE_NAME = """#define S static inline const double
S g(double x);
S g(double x){return x>1e9?g(x*0.5):x * x * 3.0 + x * x * 3.0 + x;}
double f(double x) { double y = x * x * 7.0 + x * x * 7.0 + 2.0 * x; return y; }
void k(int n, double *restrict a)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = g(a[i]);
}
"""


def test_a_recursive_call_at_the_definitions_column_is_not_the_definition(tmp_path):
    """pycparser's column counts the preprocessed line (S expanded), where g's name is
    at the user's column of the recursive call g(x*0.5): the definition is the
    ``g (`` outside every body, and f's body is left alone (a review's reproducer)."""
    result = _rewrite(tmp_path, MACRO_BEFORE_THE_NAME, "accsat")
    assert (
        "double f(double x) { double y = x * x * 7.0 + x * x * 7.0 + 2.0 * x; return y; }"
        in result.text
    )
    g = _by_function(result)["g"]
    assert g.status == "rewritten" and g.ops["after"] < g.ops["before"]
