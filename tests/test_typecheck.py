"""The type checker: mypy, at the level pyproject.toml's [tool.mypy] states, finds nothing
in accsat, npb_harness and spec_harness."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")


def test_mypy_finds_nothing():
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("not a source tree")
    # its cache outside the tree, kept between runs: a second run takes a few seconds
    cache = Path(tempfile.gettempdir()) / f"accsat-mypy-{os.getuid()}"
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
