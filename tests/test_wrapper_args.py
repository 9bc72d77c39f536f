"""accsat-cc: reading compiler command lines (no compiler runs here)."""

from __future__ import annotations

import pytest

from accsat.ccconfig import Config
from accsat.wrapper.args import UsageError, classify, split_compiler


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a.c", "b.c", "x.cpp", "y.s", "z.i", "k.inc", "lib.o", "libq.a"):
        (tmp_path / name).write_text("int v;\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.c").write_text("int w;\n")
    return tmp_path


def sources(argv):
    return [s.path for s in classify(argv).sources]


@pytest.mark.parametrize(
    "argv, launcher, compiler",
    [
        (["gcc", "-c", "a.c"], [], "gcc"),
        (["ccache", "gcc", "-c", "a.c"], ["ccache"], "gcc"),
        (["/usr/bin/ccache", "distcc", "gcc-12"], ["/usr/bin/ccache", "distcc"], "gcc-12"),
        (["/opt/nvidia/bin/nvc", "-acc"], [], "/opt/nvidia/bin/nvc"),
    ],
)
def test_launcher_and_compiler(argv, launcher, compiler):
    assert split_compiler(argv)[:2] == (launcher, compiler)


@pytest.mark.parametrize("argv", [[], ["ccache"], ["-c", "a.c"]])
def test_usage_errors(argv):
    with pytest.raises(UsageError):
        split_compiler(argv)


def test_sources_found(files):
    assert sources(["gcc", "-c", "a.c"]) == ["a.c"]
    assert sources(["gcc", "a.c", "sub/c.c", "lib.o", "libq.a", "-o", "prog", "-lm"]) == [
        "a.c",
        "sub/c.c",
    ]
    assert sources(["gcc", "-c", "x.cpp", "y.s", "z.i"]) == []
    assert sources(["gcc", "-c", "missing.c", "a.c"]) == ["a.c"]  # the compiler reports it


def test_option_values_are_not_sources(files):
    # a value of an option that takes the next argument is never a source
    assert sources(["gcc", "-c", "-include", "b.c", "-MF", "b.c", "-o", "b.c", "a.c"]) == ["a.c"]
    assert sources(["gcc", "-c", "-I", "sub", "-D", "X", "a.c"]) == ["a.c"]


def test_language_flags(files):
    assert sources(["gcc", "-c", "-x", "c", "k.inc"]) == ["k.inc"]
    assert sources(["gcc", "-c", "-xc", "k.inc"]) == ["k.inc"]
    assert sources(["gcc", "-c", "-x", "c++", "a.c"]) == []
    assert sources(["gcc", "-c", "-x", "c++", "a.c", "-x", "none", "b.c"]) == ["b.c"]
    assert sources(["g++", "-c", "a.c"]) == []  # a C++ driver compiles .c as C++
    assert sources(["clang++", "-x", "c", "-c", "a.c"]) == ["a.c"]


@pytest.mark.parametrize(
    "flag",
    [
        "-E",
        "-M",
        "-MM",
        "--version",
        "-v",
        "-dumpversion",
        "-dumpmachine",
        "-###",
        "-fsyntax-only",
        "-print-search-dirs",
        "--help",
        "-print-file-name=libc.so",
    ],
)
def test_passthrough_flags(files, flag):
    inv = classify(["gcc", flag, "-c", "a.c"])
    assert inv.passthrough is not None


def test_passthrough_calls(files):
    assert classify(["gcc", "-x", "c", "-c", "-", "-o", "s.o"]).passthrough  # stdin
    assert classify(["gcc", "lib.o", "libq.a", "-o", "prog"]).passthrough  # link only
    assert classify(["gcc", "-c", "x.cpp"]).passthrough
    assert classify(["gcc", "-c", "a.c", "-o", "-"]).passthrough is None  # -o - is output
    assert classify(["gcc", "-c", "-MD", "a.c"]).passthrough is None
    assert classify(["gcc", "-S", "a.c"]).passthrough is None


def test_models_and_preprocessing_flags(files):
    inv = classify(
        [
            "gcc",
            "-c",
            "-O3",
            "-fopenacc",
            "-Iinc",
            "-I",
            "inc2",
            "-DX=1",
            "-D",
            "Y",
            "-UZ",
            "-include",
            "pre.h",
            "-isystem",
            "sys",
            "-std=c99",
            "-Wall",
            "-Wp,-DW",
            "-Wp,-MD,a.d",
            "-fgnu89-inline",
            "-o",
            "a.o",
            "a.c",
            "-lm",
        ]
    )
    assert inv.openacc and not inv.openmp
    assert inv.cpp_flags == [
        "-O3",
        "-Iinc",
        "-I",
        "inc2",
        "-DX=1",
        "-D",
        "Y",
        "-UZ",
        "-include",
        "pre.h",
        "-isystem",
        "sys",
        "-std=c99",
        "-Wp,-DW",
        "-fgnu89-inline",
    ]
    assert inv.deps and inv.dep_file == "a.d"  # -Wp,-MD: a dependency file from cpp
    assert inv.output == "a.o"
    nvc = classify(["nvc", "-acc=gpu", "-mp", "-Minfo=accel", "-c", "a.c"])
    assert nvc.openacc and nvc.openmp and nvc.family == "nvc" and not nvc.gnu_like
    assert classify(["clang", "-fopenmp=libomp", "-c", "a.c"]).openmp
    assert not classify(["gcc", "-fopenmp", "-fno-openmp", "-c", "a.c"]).openmp


def test_dependency_and_debug_flags(files):
    inv = classify(["gcc", "-c", "-g", "-MMD", "-MP", "-MFdeps/a.d", "-MT", "t", "a.c"])
    assert inv.deps and inv.dep_file == "deps/a.d" and inv.debug
    assert not classify(["gcc", "-c", "-g", "-g0", "a.c"]).debug
    assert classify(["gcc", "-c", "-fdiagnostics-color=never", "a.c"]).color_given


def test_response_file(files):
    (files / "args.rsp").write_text('-c "a.c" -DQ="x y"\n-o out.o\n')
    inv = classify(["gcc", "@args.rsp"])
    assert inv.args == ["-c", "a.c", "-DQ=x y", "-o", "out.o"]
    assert [s.path for s in inv.sources] == ["a.c"]


def test_config_from_environment(monkeypatch, tmp_path):
    for name in (
        "ACCSAT_VARIANT",
        "ACCSAT_DISABLE",
        "ACCSAT_STRICT",
        "ACCSAT_REPORT",
        "ACCSAT_KEEP",
        "ACCSAT_CACHE",
        "ACCSAT_CACHE_DIR",
        "ACCSAT_TIMEOUT",
        "XDG_CACHE_HOME",
        "XDG_CONFIG_HOME",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = Config.from_env()
    assert cfg.rewrite_settings.variant == "accsat" and not cfg.disable and not cfg.strict
    assert cfg.cache_dir == tmp_path / ".cache" / "accsat"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert Config.from_env().cache_dir == tmp_path / "xdg" / "accsat"
    monkeypatch.setenv("ACCSAT_CACHE", "0")
    assert Config.from_env().cache_dir is None
    monkeypatch.setenv("ACCSAT_VARIANT", "bogus")
    monkeypatch.setenv("ACCSAT_TIMEOUT", "-3")
    assert len(Config.from_env().problems) == 2
    monkeypatch.setenv("ACCSAT_VARIANT", "cse+bulk")
    monkeypatch.setenv("ACCSAT_TIMEOUT", "2.5")
    monkeypatch.setenv("ACCSAT_DISABLE", "1")
    cfg = Config.from_env()
    assert (cfg.rewrite_settings.variant, cfg.timeout, cfg.disable, cfg.problems) == (
        "cse+bulk",
        2.5,
        True,
        (),
    )


def test_a_response_file_with_bytes_that_are_not_utf8_is_expanded(tmp_path):
    from accsat.wrapper.args import expand_response_files

    rsp = tmp_path / "args.rsp"
    rsp.write_bytes(b"-DNAME=caf\xe9 -c k.c\n")
    got = expand_response_files([f"@{rsp}"])
    assert got == ["-DNAME=caf\udce9", "-c", "k.c"]
    assert got[0].encode("utf-8", "surrogateescape") == b"-DNAME=caf\xe9"
