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
from dataclasses import dataclass
from pathlib import Path

import pytest
from pycparser import c_ast

from accsat.frontend.kernels import Kernel, find_kernels
from accsat.frontend.parse import parse
from accsat.frontend.preprocess import preprocess
from accsat.frontend.source_map import SourceMap
from accsat.frontend.symbols import FileSymbols

try:  # the lead is moving Options out of the pipeline
    from accsat.options import Limits, Options
except ImportError:  # pragma: no cover - the older layout
    from accsat.egraph.saturate import Limits
    from accsat.pipeline import Options

__all__ = ["Limits", "Loaded", "Options", "check_golden", "load_file", "updating"]

UPDATE_ENV = "ACCSAT_UPDATE_GOLDEN"


def updating() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


@dataclass
class Loaded:
    path: Path
    text: str
    source: SourceMap
    kernels: list[Kernel]
    symbols: FileSymbols
    defined: frozenset[str]


def load_file(path: Path) -> Loaded:
    """The front end's view of ``path`` (what the pipeline's loading step computes)."""
    text = path.read_text()
    ast = parse(preprocess(path), str(path))
    source = SourceMap(text)
    kernels, symbols = find_kernels(ast, source, str(path))
    defined = frozenset(e.decl.name for e in ast.ext if isinstance(e, c_ast.FuncDef))
    return Loaded(path, text, source, kernels, symbols, defined)


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
        pytest.fail(f"no golden file {golden}; run with {UPDATE_ENV}=1 to create it, "
                    "then read it before committing it", pytrace=False)
    expected = golden.read_text()
    if expected != actual:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=str(golden), tofile="actual"))
        pytest.fail(f"output differs from {golden.name} ({UPDATE_ENV}=1 rewrites it):\n{diff}",
                    pytrace=False)
