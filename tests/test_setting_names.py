"""Every ACCSAT_* name is a declared setting's, and code spells none by hand (issue 38).

The names derive from the declarations (accsat.settings: Setting.env): accsat-cc's and
the rewrite's (accsat.ccconfig.Config), and those read from the environment alone
(settings.Environment). Code that sets or reads one asks the declarations for its name
(ccconfig.env, ccconfig.environment, settings.environment); prose may name them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from accsat.ccconfig import SETTINGS
from accsat.settings import PREFIX, Environment, declared

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(rf"\b{PREFIX}[A-Z][A-Z0-9_]*")
DECLARED = {s.env for s in (*SETTINGS, *declared(Environment))}
# names that are no setting of accsat's: the tests' own switch
NOT_SETTINGS = {"ACCSAT_UPDATE_GOLDEN"}
PACKAGES = ("accsat", "npb_harness", "spec_harness")


def _texts():
    for package in PACKAGES:
        yield from (ROOT / package).rglob("*.py")
    yield from (ROOT / "accsat" / "wrapper" / "bin").iterdir()
    yield from (ROOT / "docs").glob("*.md")
    yield ROOT / "README.md"


def test_every_name_said_is_declared():
    unknown = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in _texts()
        for name in NAME.findall(path.read_text(errors="replace"))
        if name not in DECLARED | NOT_SETTINGS
    }
    assert not unknown, sorted(unknown)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def spelled_by_hand(path: Path) -> list[str]:
    """The string constants of ``path``'s code (docstrings aside) that hold a name."""
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and NAME.search(node.value)
    ]


def test_no_code_spells_a_name():
    # the wrapper's --help prose names a few in its text: said, not read or set
    prose = {ROOT / "accsat" / "wrapper" / "help.py"}
    found = [
        hit
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path not in prose
        for hit in spelled_by_hand(path)
    ]
    assert found == []


def test_a_spelled_name_is_found(tmp_path):
    sample = ROOT / "accsat" / "_sample_for_test.py"
    try:
        sample.write_text('"""ACCSAT_REPORT in a docstring is prose."""\nX = "ACCSAT_REPORT"\n')
        assert [h.split(": ", 1)[1] for h in spelled_by_hand(sample)] == ["'ACCSAT_REPORT'"]
    finally:
        sample.unlink()
