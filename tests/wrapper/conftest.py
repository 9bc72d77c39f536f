"""A project folder with one kernel and an environment that reads no user setting."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WRAPPER = [sys.executable, "-m", "accsat.wrapper"]
ACC = ["-fopenacc", "-foffload=disable"]
KERNEL = """\
double a[64], b[64];
void kern(int n)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = a[i] * b[i] + a[i] * a[i];
    b[i] = t * 2.0 + a[i] * b[i];
  }
}
"""

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    """No ACCSAT_* of the caller's, no config file of theirs, a private cache and TMPDIR."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    (tmp_path / "tmp").mkdir()
    e.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ACCSAT_CACHE_DIR=str(tmp_path / "cache"),
        ACCSAT_VARIANT="cse",
        TMPDIR=str(tmp_path / "tmp"),
        LC_ALL="C",
    )
    e.pop("GCC_COLORS", None)
    return e


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    (folder / "k.c").write_text(KERNEL)
    return folder


def wrap(cwd: Path, env: dict, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*WRAPPER, *args],
        cwd=cwd,
        env=dict(env, **extra),
        capture_output=True,
        text=True,
        timeout=240,
    )


def lines(stderr: str) -> list[str]:
    """accsat-cc's own lines."""
    return [line for line in stderr.splitlines() if line.startswith("accsat-cc:")]


def imported_by(cwd: Path, env: dict, argv: list[str]) -> tuple[int, set[str], str]:
    """(exit status, modules imported, stderr) of ``accsat-cc ARGV`` run in one interpreter."""
    probe = (
        "import json, sys\nfrom accsat.wrapper import run_main\n"
        f"rc = run_main({argv!r})\n"
        "with open('modules.json', 'w') as f:\n    json.dump([rc, sorted(sys.modules)], f)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    rc, modules = json.loads((cwd / "modules.json").read_text())
    return rc, set(modules), r.stderr
