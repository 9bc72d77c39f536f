"""Skip marks for tests that need tools CI does not install."""

from __future__ import annotations

import shutil

import pytest

from accsat.toolchain.compilers import nvptx_offload

needs_offload = pytest.mark.skipif(
    shutil.which("ptxas") is None or shutil.which("gcc") is None or not nvptx_offload("gcc"),
    reason="needs gcc with nvptx offloading and ptxas",
)
