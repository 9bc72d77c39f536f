"""Helpers for unit tests: run the frontend and pipeline on C text written to tmp_path."""

from pathlib import Path

import pytest

from accsat.frontend.load import load
from accsat.options import Options
from accsat.pipeline import rewrite_file


@pytest.fixture
def cfile(tmp_path):
    def write(text: str, name: str = "k.c") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def kernels_of(path: Path):
    return load(path).kernels


def rewrite(path: Path, **options):
    return rewrite_file(path, Options(**options))
