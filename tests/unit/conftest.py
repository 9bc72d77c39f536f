"""Helpers for unit tests: run the frontend and pipeline on C text written to tmp_path."""

from pathlib import Path

import pytest

from accsat.frontend.kernels import find_kernels
from accsat.frontend.parse import parse
from accsat.frontend.preprocess import preprocess
from accsat.frontend.source_map import SourceMap
from accsat.pipeline import Options, rewrite_file


@pytest.fixture
def cfile(tmp_path):
    def write(text: str, name: str = "k.c") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def kernels_of(path: Path):
    ast = parse(preprocess(path), str(path))
    ks, symbols = find_kernels(ast, SourceMap(path.read_text()), str(path))
    return ks


def rewrite(path: Path, **options):
    return rewrite_file(path, Options(**options))
