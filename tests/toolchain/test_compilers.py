"""accsat.toolchain.compilers: the flags table and compiler families."""

from __future__ import annotations

import pytest

from accsat.toolchain.compilers import (
    FAMILIES,
    MODELS,
    TABLE,
    TARGETS,
    Compiler,
    Flags,
    family_of,
    flags_for,
    gpu_target,
)


def test_flags_table_is_complete():
    for key in [(f, m, t) for f in FAMILIES for m in MODELS for t in TARGETS]:
        assert key in TABLE, key
    assert flags_for(Compiler.parse("gcc"), "openacc", "host").compile == (
        "-O3",
        "-fopenacc",
        "-foffload=disable",
    )
    assert isinstance(flags_for(Compiler.parse("clang"), "openacc", "host"), str)
    nvptx = flags_for(Compiler.parse("nvc"), "openacc", "nvptx")
    assert isinstance(nvptx, Flags) and "-gpu=cc80" in nvptx.compile
    assert ("ACC_DEVICE_TYPE", "nvidia") in nvptx.run_env


def test_families_are_read_from_the_name_as_accsat_cc_reads_them():
    c = Compiler.parse("gcc=gcc-13")
    assert (c.name, c.command, c.family) == ("gcc", "gcc-13", "gcc")
    assert Compiler.parse("clang-17").family == "clang"
    assert Compiler.parse("nvc").family == "nvc"
    odd = Compiler.parse("xlc")
    assert odd.family not in FAMILIES
    assert flags_for(odd, "openacc", "host") == "no flags for xlc openacc host in the table"


@pytest.mark.parametrize(
    "name, family, cxx",
    [
        ("gcc", "gcc", False),
        ("gcc-12", "gcc", False),
        ("x86_64-linux-gnu-gcc-12", "gcc", False),
        ("cc", "gcc", False),
        ("clang", "clang", False),
        ("clang-14", "clang", False),
        ("/usr/lib/llvm-14/bin/clang", "clang", False),
        ("clang++", "clang", True),
        ("nvc", "nvc", False),
        ("nvc++", "nvc", True),
        ("pgcc", "nvc", False),
        ("g++", "gcc", True),
        ("c++", "gcc", True),
        ("icx", "clang", False),
        ("weirdcc", "gcc", False),
        ("tcc8", "gcc", False),
        ("xlc", "other", False),
    ],
)
def test_family(name, family, cxx):
    assert family_of(name) == (family, cxx)


@pytest.mark.parametrize(
    "family, args, gpu",
    [
        ("gcc", ["-fopenacc", "-foffload=nvptx-none"], True),
        ("gcc", ["-fopenacc", "-foffload=nvptx-none", "-foffload=disable"], False),
        ("gcc", ["-fopenacc"], False),  # no command to ask whether it offloads by default
        ("clang", ["-fopenmp", "-fopenmp-targets=nvptx64-nvidia-cuda"], True),
        ("clang", ["-fopenmp", "--offload-arch=sm_80"], True),
        ("clang", ["-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu"], False),
        ("nvc", ["-acc"], True),  # nvc's default OpenACC target is the GPU
        ("nvc", ["-acc=gpu", "-gpu=cc80"], True),
        ("nvc", ["-mp=gpu"], True),
        ("nvc", ["-acc=host"], False),
        ("nvc", ["-acc", "-acc=multicore"], False),  # the last one wins
        ("nvc", ["-mp"], False),
        ("nvc", ["-acc=multicore", "-gpu=cc80"], False),  # -gpu= only sets GPU options
        ("nvc", ["-mp", "-gpu=cc80"], False),
        ("nvc", ["-mp=gpu", "-mp"], False),
    ],
)
def test_gpu_target_reads_each_familys_spelling(family, args, gpu):
    assert gpu_target(family, args) is gpu


def fake_gcc(folder, config: str, mkoffload: bool) -> str:
    """A gcc that says ``config`` for -v and finds (or not) an nvptx mkoffload."""
    tool = folder / "mkoffload"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    found = tool if mkoffload else "accel/nvptx-none/mkoffload"
    gcc = folder / "gcc"
    gcc.write_text(
        '#!/bin/sh\ncase "$1" in\n'
        f'  -v) echo "Configured with: ... {config}" >&2 ;;\n'
        f"  -print-prog-name=*) echo {found} ;;\nesac\n"
    )
    gcc.chmod(0o755)
    return str(gcc)


@pytest.mark.parametrize(
    "config, mkoffload, gpu",
    [
        ("OFFLOAD_TARGET_NAMES=nvptx-none:amdgcn-amdhsa OFFLOAD_TARGET_DEFAULT=1", True, True),
        ("OFFLOAD_TARGET_NAMES=nvptx-none:amdgcn-amdhsa OFFLOAD_TARGET_DEFAULT=1", False, False),
        ("OFFLOAD_TARGET_NAMES=nvptx-none", True, False),  # offloads only when asked
        ("OFFLOAD_TARGET_NAMES=amdgcn-amdhsa OFFLOAD_TARGET_DEFAULT=1", True, False),
    ],
)
def test_a_gcc_that_offloads_by_default_makes_gpu_code_unless_told_otherwise(
    tmp_path, config, mkoffload, gpu
):
    """Debian's gcc 12 with gcc-12-offload-nvptx: plain -fopenacc runs nvptx mkoffload."""
    gcc = fake_gcc(tmp_path, config, mkoffload)
    assert gpu_target("gcc", ["-O3", "-fopenacc"], gcc) is gpu
    assert gpu_target("gcc", ["-O3"], gcc) is False  # no OpenACC or OpenMP: no device code
    assert gpu_target("gcc", ["-fopenacc", "-foffload=disable"], gcc) is False
