"""A tiny two-kernel C program, and accsat-cc as the tests call it (this checkout's)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GCC = shutil.which("gcc")
needs_gcc = pytest.mark.skipif(GCC is None, reason="gcc is not installed")
WRAPPER = [sys.executable, "-m", "accsat.wrapper"]
CC = " ".join(shlex.quote(w) for w in [*WRAPPER, "gcc"])

# two constructs, an OpenACC one and an OpenMP one, each with a body accsat rewrites;
# VARIANT (from the build's ACCSAT_VARIANT) is printed, so that --check can tell configs apart
TWO = """\
#include <stdio.h>
#include <stdlib.h>
#define N 4000
static double a[N], b[N], c[N];
#ifndef VARIANT
#define VARIANT ""
#endif

static void stencil(int n)
{
  int i;
#pragma acc parallel loop copyin(a, b) copyout(c)
  for (i = 1; i < n - 1; i++) {
    c[i] = (a[i - 1] + a[i] + a[i + 1]) * b[i] + (a[i - 1] + a[i] + a[i + 1]) * 0.5;
  }
}

static void scale(int n)
{
  int i;
  /* the second kernel */
#pragma omp parallel for
  for (i = 0; i < n; i++)
    b[i] = b[i] * 0.5 + a[i] * a[i] - a[i] * a[i];
}

int main(int argc, char **argv)
{
  int i, it, reps = argc > 1 ? atoi(argv[1]) : 3;
  double s = 0;
  for (i = 0; i < N; i++) { a[i] = i % 7; b[i] = 1.0 / (1 + i % 5); }
  for (it = 0; it < reps; it++) { stencil(N); scale(N); }
  for (i = 0; i < N; i++) s += c[i];
  printf("checksum %.6e\\nvariant=%s\\n", s, VARIANT);
  return 0;
}
"""
STENCIL_LINE, SCALE_LINE = 12, 22  # the directives' lines

MAKEFILE = """\
CFLAGS = -O1 -Wno-unknown-pragmas
two: two.c
\t$(CC) $(CFLAGS) -DVARIANT='"$(ACCSAT_VARIANT)"' -o two two.c
clean:
\trm -f two
"""


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No user setting of accsat's reaches the test; a private cache."""
    for name in list(os.environ):
        if name.startswith("ACCSAT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("ACCSAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


@pytest.fixture
def project(isolated):
    """The two-kernel program with its Makefile, in a folder of its own."""
    folder = isolated / "proj"
    folder.mkdir()
    (folder / "two.c").write_text(TWO)
    (folder / "Makefile").write_text(MAKEFILE)
    return folder


def compile_with(
    folder: Path, env: dict[str, str], *args: str, out: str = "two", source: str = "two.c"
) -> subprocess.CompletedProcess:
    """accsat-cc gcc on ``source`` in ``folder`` with ``env`` added to the environment."""
    return subprocess.run(
        [*WRAPPER, "gcc", "-O1", "-Wno-unknown-pragmas", *args, "-o", out, source],
        cwd=folder,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
