"""K&R function definitions: read like any other function (``rewrite``, ``check``,
``advise``), their kernels and the kernels of the functions around them rewritten."""

from __future__ import annotations

from click.testing import CliRunner

from accsat.cli import main
from accsat.frontend.load import load

KR = """double scale(x, n)
double *x;
int n;
{
  int i;
  for (i = 0; i < n; i++) x[i] = x[i] * 2.0;
  return x[0];
}

void f(int n, double *a, double *b) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = b[i] * b[i] + b[i] * b[i];
}

void g(a, b, s, n)
float *a, *b;
float s;
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) a[i] = s * b[i] * b[i] + s * b[i] * b[i];
}
"""


def _run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_parameters_of_a_kr_definition_have_their_declared_types(tmp_path):
    path = tmp_path / "kr.c"
    path.write_text(KR)
    f, g = load(path, cache=False).kernels
    assert (f.function, g.function) == ("f", "g")
    s, n = g.scope.lookup("s"), g.scope.lookup("n")
    assert (str(s.type), s.kind) == ("float", "param")
    assert (str(n.type), n.kind) == ("int", "param")  # undeclared: int, as C89 says


def test_rewrite_rewrites_kernels_in_and_around_kr_definitions(tmp_path):
    path = tmp_path / "kr.c"
    path.write_text(KR)
    res = _run("rewrite", "--variant", "cse", str(path))
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith(KR[: KR.index("void f")])  # the K&R host function as written
    assert "double _v0 = b[i];" in out and "float _v0 = b[i];" in out
    assert "float s;\n{\n  int i;\n" in out


def test_check_and_advise_read_a_kr_file(tmp_path):
    path = tmp_path / "kr.c"
    path.write_text(KR)
    res = _run("check", "--variant", "cse", str(path))
    assert res.exit_code == 0, res.output
    assert res.output.count("pass") == 2
    res = _run("advise", "--no-pressure", str(path))
    assert res.exit_code == 0, res.output
    assert f"== {path}:12 f()" in res.output and f"== {path}:21 g()" in res.output
