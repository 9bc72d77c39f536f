"""Helpers for the ``accsat`` command-line tests: C files in tmp_path, accsat in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

KERNEL = """double a[16], b[16];
void f(int n) {
  int i;
  #pragma acc parallel loop
  for (i = 0; i < n; i++) { b[i] = a[i] * a[i] + a[i]; }
}
"""

KERNELS_DIR = Path(__file__).resolve().parents[1] / "kernels"


def kernels(count: int) -> str:
    """A file with ``count`` small kernels."""
    text = "double a[16], b[16];\n"
    for k in range(count):
        text += (
            f"void f{k}(int n) {{\n  int i;\n  #pragma acc parallel loop\n"
            f"  for (i = 0; i < n; i++) {{ b[i] = a[i] * a[i] + a[i] * {k + 2}.0; }}\n}}\n"
        )
    return text


@pytest.fixture
def cfile(tmp_path):
    def write(text: str = KERNEL, name: str = "k.c") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def accsat(*args: str, **kw) -> subprocess.CompletedProcess:
    """``python -m accsat.cli ARGS`` (the accsat of this interpreter's path, so that
    PYTHONPATH=/work/before runs the same tests on the old code)."""
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    return subprocess.run([sys.executable, "-m", "accsat.cli", *map(str, args)], **kw)


def one_line(stderr: str) -> str:
    """The only line of ``stderr``; fails on a traceback or several lines."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]
