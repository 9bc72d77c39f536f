"""Helpers for the front-end tests that drive the commands: ``accsat`` and ``accsat-cc``
in subprocesses (bytes in, bytes out), with no user setting read."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    """No ACCSAT_* of the caller's, no config file of theirs, a private cache and TMPDIR."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    (tmp_path / "tmp").mkdir(exist_ok=True)
    e.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ACCSAT_CACHE_DIR=str(tmp_path / "cache"),
        ACCSAT_VARIANT="cse",
        TMPDIR=str(tmp_path / "tmp"),
        LC_ALL="C",
    )
    e.pop("GCC_COLORS", None)
    return e


def accsat(cwd: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "accsat.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=300,
        check=False,
    )


def accsat_cc(cwd: Path, env: dict, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "accsat.wrapper", *args],
        cwd=cwd,
        env=dict(env, **extra),
        capture_output=True,
        timeout=300,
        check=False,
    )


def gcc(cwd: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["gcc", *args], cwd=cwd, env=env, capture_output=True, timeout=300, check=False
    )
