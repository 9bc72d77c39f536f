"""The report's per-kernel frontend seconds: each kernel its share of the file's."""

from __future__ import annotations

import dataclasses

import accsat.pipeline as pipeline
from accsat.options import Options

from .conftest import kernels


def test_each_kernel_gets_its_share_of_the_files_frontend_time(cfile, monkeypatch):
    load = pipeline.load
    monkeypatch.setattr(
        pipeline, "load", lambda *a, **kw: dataclasses.replace(load(*a, **kw), seconds=8.0)
    )
    result = pipeline.rewrite_file(cfile(kernels(4)), Options(variant="cse"))
    assert [r.seconds["frontend"] for r in result.kernels] == [2.0] * 4
