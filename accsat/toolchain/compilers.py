"""Compiler families and the one table of flags: per family, programming model and target.

A family (``gcc``, ``clang``, ``nvc``) is read from the compiler's name, for
accsat-cc as for the sweep. Every suite reads the table (NPB-ACC is all OpenACC; SPEC ACCEL 3xx is OpenACC, 5xx
OpenMP target). A cell whose combination has a string instead of flags is
recorded as "unsupported" with that string as the reason, never built.

Targets: ``host`` (the compute constructs run on the CPU, one thread for
OpenACC under gcc), ``nvptx`` (offloaded to an NVIDIA GPU, runs only where
``nvidia-smi`` works) and ``ptx`` (gcc's nvptx offload compiler builds the
device code so that ``ptxas`` can report on it; nothing runs).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache

from . import process

OFFLOAD_FLAGS = (
    "-foffload=nvptx-none",
    "-foffload-options=nvptx-none=-misa=sm_80",
    # gcc 12 asks ptxas to verify for sm_35, which CUDA 13 no longer knows
    "-foffload-options=nvptx-none=-Wa,--no-verify",
)

# At link time the device code needs its own libm (SP and LU call sqrt in kernels).
OFFLOAD_LINK_FLAGS = (*OFFLOAD_FLAGS, "-foffload-options=nvptx-none=-lm")

FAMILIES = ("gcc", "clang", "nvc")
MODELS = ("openacc", "openmp")
TARGETS = ("host", "nvptx", "ptx")


def family_of(compiler: str) -> tuple[str, bool]:
    """(family, is a C++ driver) from the compiler's name, e.g. ``x86_64-linux-gnu-gcc-12``:
    ``gcc``, ``clang``, ``nvc`` or ``other``."""
    name = os.path.basename(compiler)
    name = re.sub(r"(-\d+(\.\d+)*|\d+(\.\d+)*)$", "", name)  # versioned names
    cxx = name.endswith("++") or name in ("CC", "icpc", "icpx", "xlC") or name.endswith("g++")
    if "clang" in name or name in ("icx", "icpx"):
        return "clang", cxx
    if name in ("nvc", "nvc++", "pgcc", "pgc++", "pgCC"):
        return "nvc", cxx
    if name.endswith(("gcc", "g++", "cc", "c++")) or name in ("c", "icc", "icpc"):
        return "gcc", cxx
    return "other", cxx


@dataclass(frozen=True)
class Flags:
    compile: tuple[str, ...]
    link: tuple[str, ...]
    # set for the run so that an offloaded binary fails instead of silently
    # falling back to the host when the device is not usable
    run_env: tuple[tuple[str, str], ...] = ()


_GCC_HOST_ACC = ("-O3", "-fopenacc", "-foffload=disable")
_GCC_HOST_OMP = ("-O3", "-fopenmp", "-foffload=disable")
_GCC_DEV_ACC = ("-O3", "-fopenacc", *OFFLOAD_FLAGS)
_GCC_DEV_OMP = ("-O3", "-fopenmp", *OFFLOAD_FLAGS)
# the device code's own libm (newlib's, in gcc's offload compiler): NPB's SP calls
# sqrt in its kernels, and the nvptx link fails without it
_DEV_LIBM = OFFLOAD_LINK_FLAGS[len(OFFLOAD_FLAGS) :]
# -g for the PTX .loc lines that map entries back to source (gcc promises that
# -g does not change the generated code); -save-temps keeps mkoffload's PTX
_PTX_EXTRA = ("-g", "-save-temps")
_NO_CLANG_ACC = "clang does not compile OpenACC"
_PTX_GCC_ONLY = "the static PTX view uses gcc's nvptx offload compiler"

TABLE: dict[tuple[str, str, str], Flags | str] = {
    ("gcc", "openacc", "host"): Flags(_GCC_HOST_ACC, _GCC_HOST_ACC),
    ("gcc", "openacc", "nvptx"): Flags(
        _GCC_DEV_ACC, _GCC_DEV_ACC + _DEV_LIBM, (("ACC_DEVICE_TYPE", "nvidia"),)
    ),
    ("gcc", "openacc", "ptx"): Flags(
        _GCC_DEV_ACC + _PTX_EXTRA, _GCC_DEV_ACC + _PTX_EXTRA + _DEV_LIBM
    ),
    ("gcc", "openmp", "host"): Flags(_GCC_HOST_OMP, _GCC_HOST_OMP),
    ("gcc", "openmp", "nvptx"): Flags(
        _GCC_DEV_OMP, _GCC_DEV_OMP + _DEV_LIBM, (("OMP_TARGET_OFFLOAD", "MANDATORY"),)
    ),
    ("gcc", "openmp", "ptx"): Flags(
        _GCC_DEV_OMP + _PTX_EXTRA, _GCC_DEV_OMP + _PTX_EXTRA + _DEV_LIBM
    ),
    ("clang", "openacc", "host"): _NO_CLANG_ACC,
    ("clang", "openacc", "nvptx"): _NO_CLANG_ACC,
    ("clang", "openacc", "ptx"): _NO_CLANG_ACC,
    ("clang", "openmp", "host"): Flags(("-O3", "-fopenmp"), ("-O3", "-fopenmp")),
    ("clang", "openmp", "nvptx"): Flags(
        ("-O3", "-fopenmp", "--offload-arch=sm_80"),
        ("-O3", "-fopenmp", "--offload-arch=sm_80"),
        (("OMP_TARGET_OFFLOAD", "MANDATORY"),),
    ),
    ("clang", "openmp", "ptx"): _PTX_GCC_ONLY,
    # nvc: -acc=host is the sequential host build, as gcc's host fallback is
    ("nvc", "openacc", "host"): Flags(("-O3", "-acc=host", "-Minfo=accel"), ("-O3", "-acc=host")),
    ("nvc", "openacc", "nvptx"): Flags(
        ("-O3", "-acc=gpu", "-gpu=cc80", "-Minfo=accel"),
        ("-O3", "-acc=gpu", "-gpu=cc80"),
        (("ACC_DEVICE_TYPE", "nvidia"),),
    ),
    ("nvc", "openacc", "ptx"): _PTX_GCC_ONLY,
    ("nvc", "openmp", "host"): Flags(
        ("-O3", "-mp=multicore", "-Minfo=mp"), ("-O3", "-mp=multicore")
    ),
    ("nvc", "openmp", "nvptx"): Flags(
        ("-O3", "-mp=gpu", "-gpu=cc80", "-Minfo=mp"),
        ("-O3", "-mp=gpu", "-gpu=cc80"),
        (("OMP_TARGET_OFFLOAD", "MANDATORY"),),
    ),
    ("nvc", "openmp", "ptx"): _PTX_GCC_ONLY,
}


@dataclass(frozen=True)
class Compiler:
    """``gcc`` or ``gcc=/opt/gcc-13/bin/gcc``: a family name and the command that runs it."""

    name: str
    command: str

    @property
    def family(self) -> str:
        """``gcc``, ``clang``, ``nvc`` (the table's rows), else ``other``: read from the
        name, as accsat-cc reads it from the command (``gcc-13``, ``clang-17``)."""
        return family_of(self.name)[0]

    @staticmethod
    def parse(spec: str) -> Compiler:
        name, _, command = spec.partition("=")
        return Compiler(name.strip(), (command or name).strip())

    def path(self) -> str | None:
        return shutil.which(self.command.split()[0])


def flags_for(compiler: Compiler, model: str, target: str) -> Flags | str:
    """Flags, or the reason this combination is not supported."""
    if model not in MODELS:
        return f"programming model {model} is not supported"
    entry = TABLE.get((compiler.family, model, target))
    if entry is None:
        return f"no flags for {compiler.name} {model} {target} in the table"
    return entry


def nvptx_target(args: list[str]) -> bool:
    """A gcc command line that asks for nvptx device code by name (``-foffload=nvptx-none``,
    or a list naming it); the last ``-foffload=`` wins, as for gcc."""
    targets = [a.split("=", 1)[1] for a in args if a.startswith("-foffload=")]
    return bool(targets) and "nvptx" in targets[-1] and "disable" not in targets[-1]


def gpu_target(family: str, args: list[str], command: str = "") -> bool:
    """Whether a compile command line makes GPU code.

    gcc: the last ``-foffload=`` names nvptx; without one, an OpenACC or OpenMP compile
    by a gcc that offloads by default to an installed nvptx compiler (Debian's gcc 12
    with gcc-12-offload-nvptx: ``default_nvptx``). clang: ``-fopenmp-targets=`` naming
    nvptx or amdgcn, or ``--offload-arch=``. nvc: the last ``-acc`` (its default target
    is the GPU) or ``-acc=`` naming gpu, or the last ``-mp=`` naming gpu, or ``-cuda``;
    ``-gpu=`` only sets GPU options."""
    if family == "gcc":
        if any(a.startswith("-foffload=") for a in args):
            return nvptx_target(args)
        parallel = any(a in ("-fopenacc", "-fopenmp") for a in args)
        return parallel and bool(command) and default_nvptx(command)
    if family == "clang":
        return any(
            a.startswith("--offload-arch=")
            or a.startswith("-fopenmp-targets=")
            and ("nvptx" in a or "amdgcn" in a)
            for a in args
        )
    if family == "nvc":
        acc = mp = False
        for a in args:
            if a == "-acc":
                acc = True
            elif a.startswith("-acc="):
                acc = "gpu" in a.split("=", 1)[1].split(",")
            elif a == "-mp" or a.startswith("-mp="):
                mp = "gpu" in a.partition("=")[2].split(",")
        return acc or mp or "-cuda" in args
    return False


@lru_cache(maxsize=8)
def default_nvptx(command: str) -> bool:
    """Whether gcc ``command`` offloads to nvptx without being asked: configured with
    nvptx among its default offload targets, and that target's compiler installed."""
    try:
        done = process.capture([*command.split(), "-v"], timeout=30)
        prog = process.capture(
            [*command.split(), "-print-prog-name=accel/nvptx-none/mkoffload"], timeout=30
        )
    except OSError:
        return False
    config = done.err + done.out
    names = re.search(r"OFFLOAD_TARGET_NAMES=(\S+)", config)
    path = prog.out.strip()
    return (
        "OFFLOAD_TARGET_DEFAULT=1" in config
        and names is not None
        and "nvptx" in names.group(1)
        and os.path.isabs(path)
        and os.access(path, os.X_OK)
    )


@lru_cache(maxsize=8)
def nvptx_offload(command: str) -> bool:
    """Whether ``command`` (a gcc) links an OpenACC program with nvptx offloading."""
    import tempfile

    program = "int main(void){int x=0;\n#pragma acc parallel copy(x)\nx=1;\nreturn !x;}\n"
    with tempfile.TemporaryDirectory(prefix="accsat-offload-") as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write(program)
        try:
            done = process.capture(
                [*command.split(), "-fopenacc", *OFFLOAD_FLAGS, src, "-o", os.path.join(tmp, "t")],
                timeout=120,
            )
        except OSError:
            return False
    return done.ok


@lru_cache(maxsize=1)
def gpu_present() -> bool:
    """``nvidia-smi -L`` lists at least one GPU."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        done = process.capture([smi, "-L"], timeout=30)
    except OSError:
        return False
    return done.ok and "GPU" in done.out
