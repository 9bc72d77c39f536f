"""Shared by the per-stage golden tests (tests/ssa, tests/codegen).

A case is a small C file with OpenACC kernels; these helpers run the front end
on it exactly as the pipeline does (preprocess, parse, find_kernels), and
compare a stage's text output against a golden file.

Regenerate the goldens with ``ACCSAT_UPDATE_GOLDEN=1 pytest tests/ssa tests/codegen``,
then read every changed file (``git diff tests/*/golden``) before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from accsat.frontend.load import LoadedFile as Loaded
from accsat.frontend.load import load
from accsat.options import Limits, Options

__all__ = ["Limits", "Loaded", "Options", "check_golden", "load_file", "updating"]

UPDATE_ENV = "ACCSAT_UPDATE_GOLDEN"


def updating() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


def load_file(path: Path) -> Loaded:
    """The front end's view of ``path``, as the pipeline loads it."""
    return load(path)


def check_golden(golden: Path, actual: str) -> None:
    """Fail with a unified diff unless ``golden`` holds ``actual`` (or rewrite it when updating)."""
    if not actual.endswith("\n"):
        actual += "\n"
    if updating():
        golden.parent.mkdir(parents=True, exist_ok=True)
        if not golden.exists() or golden.read_text() != actual:
            golden.write_text(actual)
        return
    if not golden.exists():
        pytest.fail(
            f"no golden file {golden}; run with {UPDATE_ENV}=1 to create it, "
            "then read it before committing it",
            pytrace=False,
        )
    expected = golden.read_text()
    if expected != actual:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=str(golden),
                tofile="actual",
            )
        )
        pytest.fail(
            f"output differs from {golden.name} ({UPDATE_ENV}=1 rewrites it):\n{diff}",
            pytrace=False,
        )
