"""Locals whose address is taken (issue 25): they live in memory, so their loads and
stores are ordered like any other against the calls and stores that may reach them,
and the rest of the body is rewritten instead of the kernel being left as written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from difftest import prints_the_same

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from accsat.report import LOOP_BODY

PROGRAM = """\
#include <stdio.h>
#define N 64
double a[N], b[N], c[N];

double next_random(unsigned *seed)
{
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 8) * (1.0 / 16777216.0);
}

void monte_carlo(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    unsigned seed = i * 2654435761u;
    double x = next_random(&seed);
    b[i] = x * a[i] + a[i] * a[i] + seed * a[i];
  }
}

void declared_outside(int n)
{
  unsigned seed = 7u;
#pragma acc parallel loop private(seed)
  for (int i = 0; i < n; i++) {
    seed = i * 3u + 1u;
    double x = next_random(&seed);
    c[i] = x * a[i] + a[i] * a[i] + seed * a[i];
    b[i] = seed + seed * a[i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++)
    a[i] = (i % 7) * 0.25 - 0.5;
  monte_carlo(N);
  declared_outside(N);
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += b[i] + 3.0 * c[i];
  printf("%a\\n", s);
  return 0;
}
"""


def loop_bodies(done):
    """The loop kernels of a result (its functions called from them are units too)."""
    return [k for k in done.kernels if k.kind == LOOP_BODY]


def rewrite(tmp_path: Path, variant: str):
    path = tmp_path / "k.c"
    path.write_text(PROGRAM)
    return rewrite_file(path, Options(variant=variant))


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_kernels_with_the_address_of_a_local_are_rewritten(tmp_path, variant):
    done = rewrite(tmp_path, variant)
    assert [k.status for k in loop_bodies(done)] == ["rewritten", "rewritten"], [
        k.reason for k in loop_bodies(done)
    ]
    # the call may change seed: its value is read again after the call, never the
    # value stored before it
    outside = done.text[done.text.index("void declared_outside") :]
    call = outside.index("next_random(&seed)")
    assert "i * 3u + 1u" not in outside[call : outside.index("int main")]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rewritten_program_prints_the_same(tmp_path, variant):
    flags = ["-O2", "-ffp-contract=off", "-fopenmp"]
    prints_the_same(tmp_path, PROGRAM, rewrite(tmp_path, variant).text, flags, threads=1)


CONST_INIT = """\
#include <stdio.h>
#define N 16
double a[N], b[N];
static double get(const double *p) { return *p * 2.0; }

void k(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    const double t = a[i] * a[i];
    b[i] = get(&t) + a[i] * a[i];
  }
}

int main(void)
{
  double sum = 0.0;
  for (int i = 0; i < N; i++) { a[i] = i * 0.5; }
  k(N);
  for (int i = 0; i < N; i++) sum += 3.0 * b[i];
  printf("%a\\n", sum);
  return 0;
}
"""
C89_INIT = """\
#include <stdio.h>
#define N 16
double a[N], b[N];
static void bump(double *p) { *p += 1.0; }

void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    double t = a[i] * a[i];
    double w[2];
    w[0] = a[i] * a[i] + 1.0;
    bump(&t);
    w[1] = t;
    b[i] = w[0] * w[1] + a[i] * a[i];
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


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize(
    "program, flags",
    [(CONST_INIT, ["-std=gnu99"]), (C89_INIT, ["-std=c89", "-pedantic-errors"])],
    ids=["const", "c89"],
)
def test_an_initialised_local_whose_address_is_taken_stays_one_declaration(
    tmp_path, program, flags
):
    """``const double t = ...;`` cannot be split into a declaration and an assignment,
    nor can a C89 block's declarations be followed by one (review findings)."""
    path = tmp_path / "k.c"
    path.write_text(program)
    done = rewrite_file(path, Options(variant="cse", declarations_first="-std=c89" in flags))
    assert [k.status for k in loop_bodies(done)] == ["rewritten"], loop_bodies(done)[0].reason
    flags = [*flags, "-O1", "-ffp-contract=off", "-fopenacc", "-foffload=disable"]
    prints_the_same(tmp_path, program, done.text, flags)
