"""Values under short-circuit and conditional operators (issue 25): an operand of
``&&``, ``||`` or ``?:`` is evaluated only where its guard says, wherever the operator
itself is computed; so the operator may be shared in a temporary, two loaded operands
of one chain no longer stop the kernel, and each guarded load stays guarded."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from difftest import prints_the_same

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

PROGRAM = """\
#include <stdio.h>
#define N 256
static double a[N], b[N], c[N], d[N], e[N];
static int hits;

void select2(int n, int np, const double *p)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    c[i] = (a[i] > 0.0 ? b[i] : d[i]) * 2.0 + (a[i] > 0.0 ? b[i] : d[i]) * a[i];
    e[i] = i < np && p[i] > 0.5 ? p[i] * a[i] + p[i] : i < np ? -p[i] * a[i] : 1.0;
    d[i] = (i < np ? p[i] : 1.0) + (i < np ? p[i] : 1.0) * a[i];
  }
}

void chain(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    if (a[i] != 6 || b[i] != 7 || d[i] != 8)
      c[i] = a[i] * b[i] + a[i] * b[i] * d[i];
    e[i] = (b[i] > 1.0 && d[i] > 1.0 && a[i] > 0.25) ? a[i] * b[i] : d[i] * a[i] + b[i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    a[i] = (i % 7) * 0.25 - 0.5;
    b[i] = i % 3 ? 7.0 : i * 0.125;
    d[i] = i % 5 ? 8.0 : 1.5 - i;
  }
  select2(N, 0, 0);
  double s = 0;
  for (int i = 0; i < N; i++) s += c[i] + e[i];
  select2(N, N / 2, b);
  chain(N);
  for (int i = 0; i < N; i++) s += c[i] * 3 + e[i];
  printf("%a %d\\n", s, hits);
  return 0;
}
"""


def rewrite(tmp_path: Path, variant: str):
    path = tmp_path / "k.c"
    path.write_text(PROGRAM)
    return rewrite_file(path, Options(variant=variant))


def body(text: str, function: str) -> str:
    start = text.index(f"void {function}(")
    return text[start : text.index("\n}\n", start)]


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_chains_and_conditionals_with_loads_are_rewritten(tmp_path, variant):
    done = rewrite(tmp_path, variant)
    assert [k.status for k in done.kernels] == ["rewritten", "rewritten"], [
        k.reason for k in done.kernels
    ]
    select2 = body(done.text, "select2")
    # the same ?: written twice is computed once, its loads inside its arms
    assert select2.count("? b[i] : d[i]") == 1
    assert select2.count("? p[i] : 1.0") == 1
    # a load under a guard is never read outside it (np == 0: p is a null pointer)
    for line in select2.splitlines():
        if "p[i]" in line:
            assert "?" in line or "&&" in line, line


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rewritten_program_prints_the_same(tmp_path, variant):
    flags = ["-O2", "-ffp-contract=off", "-fopenacc", "-foffload=disable"]
    prints_the_same(tmp_path, PROGRAM, rewrite(tmp_path, variant).text, flags)
