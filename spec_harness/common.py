"""What the two SPEC modes share: settings, flags per cell, the checks before a build."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from accsat.options import ORIG
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.sweep.results import COMPILER_NOT_FOUND, NO_GPU, UNSUPPORTED, Result
from accsat.toolchain.compilers import Compiler, Flags, gpu_present

from .flags import spec_flags
from .layout import SpecTree


@dataclass
class SpecSuiteBase:
    tree: SpecTree
    out: Path
    compilers: dict[str, Compiler]
    runs: int = 3
    timeout: float = 3600.0  # per run (all its command lines)
    build_timeout: float = 3600.0
    make_jobs: int = 1

    @property
    def accsat_cache(self) -> Path:
        return self.out / "accsat-cache"

    def flags(self, cell: Cell) -> Flags | str:
        return spec_flags(self.compilers[cell.compiler], cell.benchmark, cell.target)

    def precheck(self, cell: Cell) -> Result | None:
        flags = self.flags(cell)
        if isinstance(flags, str):
            return Result(cell, UNSUPPORTED, flags)
        compiler = self.compilers[cell.compiler]
        if compiler.path() is None:
            return Result(cell, COMPILER_NOT_FOUND, f"'{compiler.command}' is not on PATH")
        if cell.target == "nvptx" and not gpu_present():
            return Result(cell, NO_GPU, "nvidia-smi finds no GPU: offloaded runs skipped")
        return None

    def base_key(self, cell: Cell) -> dict:
        compiler = self.compilers[cell.compiler]
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        key = {
            "root": str(self.tree.root.resolve()),
            "cell": cell.as_dict(),
            "compiler": compiler.command,
            "compiler_path": compiler.path(),
            "flags": [list(flags.compile), list(flags.link), list(flags.run_env)],
        }
        if cell.variant != ORIG:
            key["accsat_code"] = accsat_cc.accsat_code()
        return key
