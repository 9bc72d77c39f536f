"""Atomic statements inside a kernel (issue 25): update, write, read and capture (and
the statement of ``omp critical``) stay as written right after their directive, ordered against every load and store like a
call, and a read or capture gives its variable a new value; the rest of the body is
rewritten. Compare, other forms, and an atomic variable the body also uses leave the
kernel as written with a reason."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from accsat.options import Options
from accsat.pipeline import rewrite_file

HIST = """\
#include <stdio.h>
#define N 512
#define BIN(x) ((x) & 15)
static double a[N], b[N], c[N], h[N];
static int idx[N];
static long count[16];
static double total;

void hist(int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    b[i] = a[i] * a[i] + a[i];
#pragma acc atomic update
    h[BIN(idx[i])]   +=   a[i] * 2.0;  /* kept as written */
#pragma acc atomic
    count[idx[i] & 15]++;
    c[i] = a[i] * a[i] + h[i] * h[i];
  }
}

void sum(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    total += a[i] * a[i];
    b[i] = b[i] * a[i] + a[i] * a[i];
#pragma omp atomic update
    total = total + b[i];
  }
}

void inner(int n, int m)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      c[i] = c[i] + a[j] * a[j];
#pragma acc atomic update
      h[idx[j]] += c[i] * a[j];
    }
  }
}

void capture(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long slot;
    double old;
#pragma omp atomic capture
    slot = count[idx[i] & 15]++;
    c[slot % N] = a[i] * a[i] + a[i] * b[i];
#pragma omp atomic read
    old = h[i];
#pragma omp atomic read
    c[(i + 1) % N] = h[(i + 3) % N];
#pragma omp atomic capture
    { old = h[i]; h[i] += a[i]; }
    b[i] = old * a[i] + a[i] * a[i];
  }
}

void crit(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double m;
    b[i] = a[i] * a[i] + a[i];
#pragma omp critical (sum)
    {
      m = total;
      total = total + b[i];
    }
    c[i] = m * a[i] + a[i] * a[i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    a[i] = (i % 7) * 0.25 - 0.5;
    idx[i] = i % 3 ? i : (i * 5) % 16;  /* h[i] is the location updated at i */
  }
  hist(N);
  sum(N);
  inner(64, 9);
  capture(N);
  crit(N);
  double s = total;
  long k = 0;
  for (int i = 0; i < N; i++) s += b[i] + c[i] + h[i];
  for (int i = 0; i < 16; i++) k += count[i];
  printf("%.17g %ld\\n", s, k);
  return 0;
}
"""


def rewrite(tmp_path: Path, text: str, variant: str = "cse"):
    path = tmp_path / "k.c"
    path.write_text(text)
    return rewrite_file(path, Options(variant=variant, fp_exact=True))


def test_the_kernels_are_rewritten_around_their_atomic_statements(tmp_path):
    done = rewrite(tmp_path, HIST)
    assert [k.status for k in done.kernels] == ["rewritten"] * 5
    for line in ("h[BIN(idx[i])]   +=   a[i] * 2.0;  /* kept as written */",
                 "count[idx[i] & 15]++;", "total += a[i] * a[i];",
                 "total = total + b[i];"):  # fmt: skip
        assert line in done.text
    hist = done.text[done.text.index("void hist") : done.text.index("void sum")]
    # a[i] is loaded once before the atomic statements and again after them: they may
    # write any location (h[i] is updated at i)
    assert hist.count("= a[i];") == 2 and "h[i]" in hist


def test_an_inner_loop_with_an_atomic_statement_carries_no_location(tmp_path):
    done = rewrite(tmp_path, HIST)
    inner = done.text[done.text.index("void inner") : done.text.index("int main")]
    assert "c[i] = c[i] + " in inner  # c[i] read and written in every iteration


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("flags", [["-fopenacc", "-foffload=disable"], ["-fopenmp"]])
def test_the_rewritten_program_prints_the_same(tmp_path, flags):
    out = []
    for name, text in (("orig.c", HIST), ("new.c", rewrite(tmp_path, HIST).text)):
        (tmp_path / name).write_text(text)
        exe = tmp_path / name.replace(".c", ".x")
        cmd = ["gcc", "-O2", "-ffp-contract=off", *flags, str(tmp_path / name), "-o", str(exe)]
        subprocess.run(cmd, check=True)
        # one thread: the kernels read what other iterations update, and a float sum's
        # order decides its rounding; with threads neither program is deterministic
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        out.append(subprocess.run([str(exe)], capture_output=True, check=True, env=env).stdout)
    assert out[0] == out[1]


@pytest.mark.parametrize(
    "statement, reason",
    [
        ("#pragma omp atomic compare\n    if (h[i] < v) h[i] = v;", "atomic compare"),
        (
            "#pragma omp atomic capture\n    { v = h[i]; h[i] += 1; v += 1; }",
            "capture statement of a",
        ),
        ("#pragma omp atomic\n    t += a[i];", "atomic update of the variable 't', which"),
        (
            "#pragma omp critical\n    {\n#ifdef X\n      v = 2.0;\n#endif\n    }",
            "group inside a crit",
        ),
        ("#pragma omp atomic\n    h[i] += a[i]++;", "another side effect"),
        ("#pragma omp atomic\n    h[i] += g(a[i]);", "atomic statement that calls 'g'"),
    ],
)
def test_other_atomic_forms_leave_the_kernel_as_written(tmp_path, statement, reason):
    text = (
        "double a[64], h[64], t;\ndouble g(double);\nvoid k(int n)\n{\n"
        "#pragma omp parallel for\n  for (int i = 0; i < n; i++) {\n    double v = t;\n"
        f"    {statement}\n    a[i] = a[i] * a[i] + v;\n  }}\n}}\n"
    )
    (kernel,) = rewrite(tmp_path, text).kernels
    assert kernel.status == "unchanged" and reason in kernel.reason
