"""Helpers: advise C text written to tmp_path."""

from __future__ import annotations

import pytest

from accsat.advise.files import AdviseOptions, FileAdvice, advise_file


@pytest.fixture
def advise(tmp_path):
    def run(text: str, name: str = "k.c", **options) -> FileAdvice:
        path = tmp_path / name
        path.write_text(text)
        options.setdefault("pressure", False)
        return advise_file(path, AdviseOptions(**options))

    return run
