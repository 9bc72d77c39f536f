"""What an install pulls in: every dependency bounded, so a new major release of one
cannot change what accsat does under a user who did nothing."""

from __future__ import annotations

import re
from pathlib import Path

from accsat.resources import tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def requirements() -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras = [r for group in project.get("optional-dependencies", {}).values() for r in group]
    return project["dependencies"] + extras


def test_every_dependency_has_an_upper_bound():
    unbounded = [r for r in requirements() if not re.search(r"(<|==|~=)", r.split(";")[0])]
    assert unbounded == []


def test_the_data_folders_are_installed():
    """A wheel (pip install ., not -e) carries rules/, cost_models/ and fakelibc/."""
    files = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["data-files"]
    root = PYPROJECT.parent
    listed = {Path(f) for patterns in files.values() for p in patterns for f in root.glob(p)}
    for folder in ("rules", "cost_models", "fakelibc"):
        present = {
            p.relative_to(root)
            for p in (root / folder).rglob("*")
            if p.is_file() and p.suffix in (".egg", ".toml", ".h")
        }
        assert present and present <= {p.relative_to(root) for p in listed}, folder


def test_the_package_data_is_installed():
    """A wheel carries every file of the accsat package that is not Python (the schema,
    the records page's template; the launcher is a script-file)."""
    setuptools = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]
    package = PYPROJECT.parent / "accsat"
    listed = {f for pattern in setuptools["package-data"]["accsat"] for f in package.glob(pattern)}
    data = {
        p
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and p.parent.name != "bin"
    }
    assert data and data <= listed, sorted(str(p) for p in data - listed)
