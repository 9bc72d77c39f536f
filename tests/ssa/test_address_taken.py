"""Locals whose address is taken (issue 25): they live in memory, so their loads and
stores are ordered like any other against the calls and stores that may reach them,
and the rest of the body is rewritten instead of the kernel being left as written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

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


def rewrite(tmp_path: Path, variant: str):
    path = tmp_path / "k.c"
    path.write_text(PROGRAM)
    return rewrite_file(path, Options(variant=variant))


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_kernels_with_the_address_of_a_local_are_rewritten(tmp_path, variant):
    done = rewrite(tmp_path, variant)
    assert [k.status for k in done.kernels] == ["rewritten", "rewritten"], [
        k.reason for k in done.kernels
    ]
    # the call may change seed: its value is read again after the call, never the
    # value stored before it
    outside = done.text[done.text.index("void declared_outside") :]
    call = outside.index("next_random(&seed)")
    assert "i * 3u + 1u" not in outside[call : outside.index("int main")]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rewritten_program_prints_the_same(tmp_path, variant):
    out = []
    for name, text in (("orig.c", PROGRAM), ("new.c", rewrite(tmp_path, variant).text)):
        (tmp_path / name).write_text(text)
        exe = tmp_path / name.replace(".c", ".x")
        flags = ["-O2", "-ffp-contract=off", "-fopenmp"]
        subprocess.run(["gcc", *flags, str(tmp_path / name), "-o", str(exe)], check=True)
        env = {"OMP_NUM_THREADS": "1"}
        out.append(subprocess.run([str(exe)], capture_output=True, check=True, env=env).stdout)
    assert out[0] == out[1]
