"""Skip marks for tests that need tools CI does not install."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from accsat.toolchain.compilers import nvptx_offload


def find_clang() -> str | None:
    """A clang on the PATH: ``clang``, else the newest ``clang-N`` (Debian's packages
    install ``clang-19`` without a ``clang``)."""
    if shutil.which("clang"):
        return "clang"
    found = [
        (int(m.group(1)), p.name)
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if folder and Path(folder).is_dir()
        for p in Path(folder).iterdir()
        if (m := re.fullmatch(r"clang-(\d+)", p.name)) and os.access(p, os.X_OK)
    ]
    return max(found)[1] if found else None


CLANG = find_clang()
needs_clang = pytest.mark.skipif(CLANG is None, reason="no clang on the PATH (clang, clang-N)")

needs_offload = pytest.mark.skipif(
    shutil.which("ptxas") is None or shutil.which("gcc") is None or not nvptx_offload("gcc"),
    reason="needs gcc with nvptx offloading and ptxas",
)
