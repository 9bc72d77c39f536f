"""``declarations_first`` (issue 25): C89 has no declaration after a statement in a
block, so temporaries first computed after one are declared where their block begins
and assigned where they were computed. The rewrite then builds with
``-std=c89 -pedantic-errors`` and prints what the original prints."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from accsat.report import LOOP_BODY

PROGRAM = """\
#include <stdio.h>
#define N 64
double a[N], b[N], c[N];

static double twice(double x)
{
  return 2.0 * x;
}

void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    double x = a[i] * a[i];
    int j;
    b[i] = x + a[i] * c[i];
    c[i] = a[i] * c[i] + b[i] * b[i] + twice(b[i]) * twice(b[i]);
    for (j = 0; j < 4; j++) {
      c[i] = c[i] + a[j] * a[j];
      b[i] = a[j] * a[j] * c[i];
    }
    if (x > 0.25) {
      b[i] = b[i] * 2.0;
      c[i] = b[i] * b[i] + c[i] * a[i] + a[i] * b[i];
    }
  }
}

int main(void)
{
  int i;
  double s = 0.0;
  for (i = 0; i < N; i++) {
    a[i] = (i % 7) * 0.25 - 0.5;
    c[i] = i * 0.125;
  }
  k(N);
  for (i = 0; i < N; i++)
    s += b[i] + 3.0 * c[i];
  printf("%a\\n", s);
  return 0;
}
"""
C89 = ["-std=c89", "-pedantic-errors", "-O2", "-ffp-contract=off", "-fopenacc"]


def loop_bodies(done):
    """The loop kernels of a result (its functions called from them are units too)."""
    return [k for k in done.kernels if k.kind == LOOP_BODY]


def rewrite(tmp_path: Path, variant: str, first: bool) -> str:
    path = tmp_path / "k.c"
    path.write_text(PROGRAM)
    done = rewrite_file(path, Options(variant=variant, declarations_first=first))
    assert [k.status for k in loop_bodies(done)] == ["rewritten"]
    return done.text


def build(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    (tmp_path / name).write_text(text)
    exe = tmp_path / name.replace(".c", ".x")
    cmd = ["gcc", *C89, "-foffload=disable", str(tmp_path / name), "-o", str(exe)]
    return subprocess.run(cmd, capture_output=True, text=True)


needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


@needs_gcc
def test_without_it_the_rewrite_is_not_c89(tmp_path):
    """What the setting is for: cse's temporaries follow statements."""
    built = build(tmp_path, "new.c", rewrite(tmp_path, "cse", first=False))
    assert built.returncode != 0 and "mixed declarations and code" in built.stderr


@needs_gcc
@pytest.mark.parametrize("variant", VARIANTS)
def test_declared_first_the_rewrite_is_c89_and_prints_the_same(tmp_path, variant):
    out = []
    for name, text in (("orig.c", PROGRAM), ("new.c", rewrite(tmp_path, variant, True))):
        built = build(tmp_path, name, text)
        assert built.returncode == 0, built.stderr
        exe = tmp_path / name.replace(".c", ".x")
        out.append(subprocess.run([str(exe)], capture_output=True, check=True).stdout)
    assert out[0] == out[1]


CALL_INIT = """\
#include <stdio.h>
#define N 16
double a[N], b[N], c[N];
double g(double x) { return x + 1.0; }

void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    const double u = g(a[i]);
    const double v = u * a[i] + a[i] * a[i];
    b[i] = v + u * a[i];
  }
}

int main(void)
{
  int i;
  double sum = 0.0;
  for (i = 0; i < N; i++) { a[i] = i * 0.5; b[i] = i; }
  k(N);
  for (i = 0; i < N; i++) sum += 3.0 * b[i];
  printf("%a\\n", sum);
  return 0;
}
"""


@needs_gcc
def test_a_declaration_initialised_by_a_call_stays_a_declaration(tmp_path):
    """The call's result is a declared temporary, not a statement: the user's
    declarations after it are not split (review finding: 'internal' re-read error)."""
    path = tmp_path / "k.c"
    path.write_text(CALL_INIT)
    done = rewrite_file(path, Options(variant="cse", declarations_first=True))
    assert [k.status for k in loop_bodies(done)] == ["rewritten"], loop_bodies(done)[0].reason
    assert build(tmp_path, "new.c", done.text).returncode == 0
