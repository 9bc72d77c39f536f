"""The tree is as ruff formats and checks it (pyproject.toml's settings), like mypy's
test beside it: CI runs both through the README's test command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREE = ["accsat", "npb_harness", "spec_harness", "tests", "benchmarks"]

pytestmark = pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")


@pytest.mark.parametrize("command", [["format", "--check"], ["check"]])
def test_ruff(command):
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, *TREE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
