"""NPB-ACC as a suite of the sweep engine: check, build, run one cell.

Host and nvptx cells run the binary; ptx cells (``--ptx``) run nothing: the
build leaves gcc's linked PTX behind and the "run" is the static analysis
(ptxas registers and spills, instruction counts, source lines).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from accsat import __version__ as accsat_version
from accsat.options import ORIG, TUNED
from accsat.sweep import BUILD_TIMEOUT, RUN_TIMEOUT, accsat_cc
from accsat.sweep import __version__ as sweep_version
from accsat.sweep.cells import Cell
from accsat.sweep.ptxview import analyse_cell
from accsat.sweep.results import COMPILER_NOT_FOUND, NO_GPU, UNSUPPORTED, Result
from accsat.toolchain.compilers import Compiler, Flags, flags_for, gpu_present, nvptx_offload

from .build import build_cell, make_commands
from .run import run_cell
from .tuned import build_tuned

MODEL = "openacc"  # NPB-ACC


@dataclass
class NPBSuite:
    root: Path
    out: Path
    compilers: dict[str, Compiler]
    runs: int = 3
    timeout: float = RUN_TIMEOUT  # per run
    build_timeout: float = BUILD_TIMEOUT  # the accsat variant of BT alone takes minutes
    make_jobs: int = 1
    name: str = "npb"
    tune_variants: tuple[str, ...] = ()  # what the tuned cells tune over (orig always)

    @property
    def accsat_cache(self) -> Path:
        # per sweep: variants and sweeps of other trees never share entries by accident
        return self.out / "accsat-cache"

    def flags(self, cell: Cell) -> Flags | str:
        return flags_for(self.compilers[cell.compiler], MODEL, cell.target)

    def precheck(self, cell: Cell) -> Result | None:
        flags = self.flags(cell)
        if isinstance(flags, str):
            return Result(cell, UNSUPPORTED, flags)
        compiler = self.compilers[cell.compiler]
        if compiler.path() is None:
            return Result(cell, COMPILER_NOT_FOUND, f"'{compiler.command}' is not on PATH")
        if cell.target == "ptx" and not nvptx_offload(compiler.command):
            return Result(
                cell,
                UNSUPPORTED,
                f"'{compiler.command}' has no nvptx offload compiler (Debian: gcc-N-offload-nvptx)",
            )
        if cell.target == "nvptx" and not gpu_present():
            return Result(cell, NO_GPU, "nvidia-smi finds no GPU: offloaded runs skipped")
        return None

    def build_key(self, cell: Cell) -> dict:
        compiler = self.compilers[cell.compiler]
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        key: dict[str, object] = {
            "root": str(self.root.resolve()),
            "cell": cell.as_dict(),
            "compiler": compiler.command,
            "compiler_path": compiler.path(),
            "make": make_commands(cell, compiler, flags, 1)[0],
            "harness": sweep_version,
            "accsat": accsat_version,
        }
        if cell.variant != ORIG:
            key["accsat_code"] = accsat_cc.accsat_code()
            key.update(accsat_cc.kept_settings())
        if cell.variant == TUNED:  # its build is the tuning: what it compares, how often
            key["tune"] = {
                "variants": list(self.tune_variants),
                "runs": self.runs,
                "timeout": self.timeout,
            }
        return key

    def run_key(self, cell: Cell) -> dict:
        return {"runs": self.runs, "timeout": self.timeout} if cell.target != "ptx" else {}

    def build(self, cell: Cell, folder: Path) -> dict:
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        if cell.variant == TUNED:
            return build_tuned(
                cell,
                self.root,
                self.compilers[cell.compiler],
                flags,
                folder,
                self.accsat_cache,
                self.make_jobs,
                list(self.tune_variants),
                self.runs,
                self.timeout,
                self.build_timeout,
            )
        return build_cell(
            cell,
            self.root,
            self.compilers[cell.compiler],
            flags,
            folder,
            self.accsat_cache,
            self.make_jobs,
            self.build_timeout,
        )

    def run(self, cell: Cell, build: dict, folder: Path) -> Result:
        if cell.target == "ptx":
            return analyse_cell(cell, Path(build["source_dir"]), folder)
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        env = accsat_cc.environment(ORIG, None, None, dict(flags.run_env))
        return run_cell(cell, Path(build["artifact"]), folder, self.runs, self.timeout, env)
