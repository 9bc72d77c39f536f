"""accsat-cc with a real gcc (and clang, ccache where installed): every argument case.

Each call checks that the user's files did not change and that the private
folder is gone.  Rewrites go through one cache for the session (the first call
on a file pays for the pipeline), with the ``cse`` variant unless a test says.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from marks import CLANG, needs_clang

GCC = shutil.which("gcc")
pytestmark = pytest.mark.skipif(GCC is None, reason="gcc is not installed")

WRAPPER = [sys.executable, "-m", "accsat.wrapper"]
ACC = ["-fopenacc", "-foffload=disable"]

HEADER = "#define SCALE 2.0\n"
KERNEL = """\
#include <stdio.h>
#include "kern.h"
#define N 64
double a[N], b[N], c[N];

void kern(int n)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = a[i] * b[i] + a[i] * c[i];
    int unused_here = 3;
    c[i] = t * SCALE + a[i] * b[i];
    b[i] = t - a[i];
  }
}
"""
MAIN = """\
#include <stdio.h>
#define N 64
extern double a[N], b[N], c[N];
void kern(int n);
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; c[i] = 1; }
  kern(N);
  double s = 0;
  for (int i = 0; i < N; i++) s += c[i] + b[i];
  printf("%.17g\\n", s);
  return 0;
}
"""
GNU = """\
#include <stdio.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
static int sq(int x) __attribute__((const));
static int sq(int x) { return x * x; }
double v[32];
int main(void)
{
  typeof(v[0]) total = 0;
#pragma acc parallel loop
  for (int i = 0; i < 32; i++)
    v[i] = MAX(i, 5) + sq(i) * 0.5;
  for (int i = 0; i < 32; i++) total += v[i];
  printf("%g\\n", total);
  return 0;
}
"""


@pytest.fixture(scope="session")
def session_env(tmp_path_factory):
    base = tmp_path_factory.mktemp("wrapper-session")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    env.update(ACCSAT_CACHE_DIR=str(base / "cache"), ACCSAT_VARIANT="cse", LC_ALL="C")
    env.pop("GCC_COLORS", None)
    return env


@pytest.fixture
def proj(tmp_path, session_env):
    """A project folder with our kernel, a main, a header in src/, and a private TMPDIR."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kern.c").write_text(KERNEL)
    (tmp_path / "src" / "kern.h").write_text(HEADER)
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "tmp").mkdir()
    return tmp_path


def digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.suffix in (".c", ".h", ".cpp", ".s") and "keep" not in p.parts and "tmp" not in p.parts
    }


def wrap(
    proj: Path, env: dict, *args: str, extra: dict | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess:
    e = dict(env, TMPDIR=str(proj / "tmp"), **(extra or {}))
    before = digest(proj)
    proc = subprocess.run(
        [*WRAPPER, *args], cwd=proj, env=e, capture_output=True, text=True, input=stdin, timeout=240
    )
    assert digest(proj) == before, "accsat-cc changed a user file"
    assert not list((proj / "tmp").glob("accsat-cc-*")), "private folder left behind"
    return proc


def plain(proj: Path, env: dict, *args: str, stdin: str | None = None):
    return subprocess.run(
        list(args),
        cwd=proj,
        env=dict(env, TMPDIR=str(proj / "tmp")),
        capture_output=True,
        text=True,
        input=stdin,
        timeout=240,
    )


@pytest.fixture(scope="session")
def expected_output(tmp_path_factory, session_env):
    """What main.c + kern.c print, built by plain gcc."""
    folder = tmp_path_factory.mktemp("reference")
    (folder / "kern.c").write_text(KERNEL)
    (folder / "kern.h").write_text(HEADER)
    (folder / "main.c").write_text(MAIN)
    subprocess.run(["gcc", "-O2", *ACC, "main.c", "kern.c", "-o", "ref"], cwd=folder, check=True)
    return subprocess.run(["./ref"], cwd=folder, capture_output=True, text=True).stdout


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("accsat-cc:")]


def read_report(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- compiling ------------------------------------------------------------------------------


def test_c_without_o_writes_object_where_gcc_does(proj, session_env):
    report = proj / "r.jsonl"
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-c",
        "-O2",
        *ACC,
        "src/kern.c",
        extra={"ACCSAT_REPORT": str(report)},
    )
    assert r.returncode == 0, r.stderr
    assert (proj / "kern.o").exists() and not (proj / "src" / "kern.o").exists()
    kernels = read_report(report)
    assert [(k["file"], k["line"], k["status"]) for k in kernels] == [
        ("src/kern.c", 9, "rewritten")
    ]
    assert warnings(r.stderr) == []


def test_c_with_o_and_run_matches_plain(proj, session_env):
    (proj / "obj").mkdir()
    r = wrap(proj, session_env, "gcc", "-c", "-O2", *ACC, "src/kern.c", "-o", "obj/k.o")
    assert r.returncode == 0, r.stderr
    assert (proj / "obj" / "k.o").exists()
    r = wrap(proj, session_env, "gcc", "-O2", *ACC, "main.c", "obj/k.o", "-o", "prog")
    assert r.returncode == 0, r.stderr
    p = plain(proj, session_env, "gcc", "-O2", *ACC, "main.c", "src/kern.c", "-o", "ref")
    assert p.returncode == 0
    assert plain(proj, session_env, "./prog").stdout == plain(proj, session_env, "./ref").stdout


def test_several_sources_compile_and_link_in_one_call(proj, session_env, expected_output):
    report = proj / "r.jsonl"
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-O2",
        *ACC,
        "main.c",
        "src/kern.c",
        "-o",
        "prog",
        extra={"ACCSAT_REPORT": str(report)},
    )
    assert r.returncode == 0, r.stderr
    assert plain(proj, session_env, "./prog").stdout == expected_output
    assert {k["file"] for k in read_report(report)} == {"src/kern.c"}


def test_several_sources_with_c(proj, session_env):
    r = wrap(proj, session_env, "gcc", "-c", "-O2", *ACC, "main.c", "src/kern.c")
    assert r.returncode == 0, r.stderr
    assert (proj / "main.o").exists() and (proj / "kern.o").exists()


def test_objects_and_archives_pass_through(proj, session_env, expected_output):
    assert wrap(proj, session_env, "gcc", "-c", "-O2", *ACC, "src/kern.c").returncode == 0
    assert plain(proj, session_env, "ar", "rcs", "libk.a", "kern.o").returncode == 0
    r = wrap(proj, session_env, "gcc", "-O2", *ACC, "main.c", "libk.a", "-o", "prog")
    assert r.returncode == 0, r.stderr
    assert plain(proj, session_env, "./prog").stdout == expected_output
    assert wrap(proj, session_env, "gcc", "-c", "-O2", *ACC, "main.c").returncode == 0
    r = wrap(proj, session_env, "gcc", *ACC, "main.o", "kern.o", "-o", "prog2", "-lm")
    assert r.returncode == 0, r.stderr


def test_S_writes_assembly_of_the_rewritten_file(proj, session_env):
    r = wrap(proj, session_env, "gcc", "-S", "-O2", *ACC, "src/kern.c")
    assert r.returncode == 0, r.stderr
    assert (proj / "kern.s").exists()


# -- pass-through ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["-E", *ACC, "src/kern.c"],
        ["-M", "src/kern.c"],
        ["-MM", "src/kern.c"],
        ["--version"],
        ["-dumpversion"],
        ["-###", "-c", "src/kern.c"],
        ["-v", "-fsyntax-only", "src/kern.c"],
    ],
    ids=["E", "M", "MM", "version", "dumpversion", "###", "v"],
)
def test_passthrough_output_is_the_compilers(proj, session_env, args):
    r = wrap(proj, session_env, "gcc", *args, extra={"ACCSAT_REPORT": str(proj / "r.jsonl")})
    p = plain(proj, session_env, "gcc", *args)
    assert (r.returncode, r.stdout) == (p.returncode, p.stdout)
    mask = re.compile(r"cc\w{6}\.")  # gcc's own temporary names in -v/-### output
    assert mask.sub("TMP", r.stderr) == mask.sub("TMP", p.stderr)
    assert not (proj / "r.jsonl").exists()


def test_stdin_source_passes_through(proj, session_env):
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-x",
        "c",
        "-c",
        "-",
        "-o",
        "s.o",
        stdin=KERNEL.replace('#include "kern.h"', HEADER),
        extra={"ACCSAT_REPORT": str(proj / "r.jsonl")},
    )
    assert r.returncode == 0, r.stderr
    assert (proj / "s.o").exists() and not (proj / "r.jsonl").exists()


def test_other_languages_pass_through(proj, session_env):
    (proj / "x.cpp").write_text("int f(int x) { return x + 1; }\n")
    (proj / "y.s").write_text(".text\n.globl yfun\nyfun:\n ret\n")
    report = proj / "r.jsonl"
    r = wrap(proj, session_env, "gcc", "-c", "x.cpp", "y.s", extra={"ACCSAT_REPORT": str(report)})
    assert r.returncode == 0, r.stderr
    assert (proj / "x.o").exists() and (proj / "y.o").exists() and not report.exists()
    if shutil.which("g++"):  # a C++ driver compiles .c as C++: not ours
        r = wrap(
            proj,
            session_env,
            "g++",
            "-c",
            *ACC,
            "src/kern.c",
            "-o",
            "kpp.o",
            extra={"ACCSAT_REPORT": str(report)},
        )
        assert r.returncode == 0, r.stderr
        assert not report.exists()


def test_link_only_call_passes_through(proj, session_env):
    assert wrap(proj, session_env, "gcc", "-c", *ACC, "main.c", "src/kern.c").returncode == 0
    r = wrap(proj, session_env, "gcc", *ACC, "main.o", "kern.o", "-o", "prog")
    assert r.returncode == 0 and r.stderr == ""


# -- what the user sees ---------------------------------------------------------------------


def test_warning_in_a_rewritten_body_names_the_users_file_and_line(proj, session_env):
    args = ["gcc", "-c", "-O2", "-Wall", *ACC, "src/kern.c"]
    report = proj / "r.jsonl"
    r = wrap(proj, session_env, *args, extra={"ACCSAT_REPORT": str(report)})
    p = plain(proj, session_env, *args)
    assert read_report(report)[0]["status"] == "rewritten"
    assert "src/kern.c:11:9: warning: unused variable 'unused_here'" in r.stderr
    assert r.stderr == p.stderr and r.returncode == p.returncode == 0


def test_compile_error_reads_as_without_accsat(proj, session_env):
    (proj / "bad.c").write_text(
        KERNEL.replace("b[i] = t - a[i];", "b[i] = t - undeclared_v;").replace(
            '#include "kern.h"', HEADER
        )
    )
    args = ["gcc", "-c", "-O2", *ACC, "bad.c"]
    r = wrap(proj, session_env, *args)
    p = plain(proj, session_env, *args)
    assert r.returncode == p.returncode == 1
    assert r.stderr == p.stderr and "bad.c:14:16: error" in r.stderr
    (proj / "bad2.c").write_text(KERNEL + "int g(void) { return 1 }\n")  # accsat parses, gcc no
    r = wrap(proj, session_env, "gcc", "-c", *ACC, "-Isrc", "bad2.c")
    p = plain(proj, session_env, "gcc", "-c", *ACC, "-Isrc", "bad2.c")
    assert (r.returncode, r.stderr) == (p.returncode, p.stderr)


def test_exit_code_is_the_compilers(proj, session_env):
    r = wrap(proj, session_env, "gcc", *ACC, "src/kern.c", "-o", "prog")  # no main: link fails
    p = plain(proj, session_env, "gcc", *ACC, "src/kern.c", "-o", "prog")
    assert r.returncode == p.returncode != 0
    r = wrap(proj, session_env, "gcc", "-c", "nonexistent.c")
    p = plain(proj, session_env, "gcc", "-c", "nonexistent.c")
    assert (r.returncode, r.stderr) == (p.returncode, p.stderr)


@pytest.mark.parametrize(
    "flags",
    [
        ["-MD"],
        ["-MMD"],
        ["-MD", "-MF", "deps/k.dep"],
        ["-MMD", "-MP", "-MT", "my-target"],
        ["-MD", "-MQ", "$(OBJ)/k.o", "-o", "obj/k.o"],
        ["-MMD", "-o", "obj/k.o"],
        ["-Wp,-MMD,w.d"],
        ["-Wp,-MD,deps/w.dep"],
    ],
    ids=["MD", "MMD", "MF", "MT-MP", "MQ", "MMD-o", "Wp", "Wp-dir"],
)
def test_dependency_files_name_the_users_source(proj, session_env, flags):
    (proj / "deps").mkdir()
    (proj / "obj").mkdir()
    args = ["gcc", "-c", "-O2", *ACC, *flags, "src/kern.c"]
    assert plain(proj, session_env, *args).returncode == 0
    expected = {p: p.read_text() for p in [*proj.glob("*.d"), *proj.glob("*/*.d*")]}
    assert expected, "gcc wrote no dependency file"
    for p in expected:
        p.unlink()
    r = wrap(proj, session_env, *args)
    assert r.returncode == 0, r.stderr
    got = {p: p.read_text() for p in [*proj.glob("*.d"), *proj.glob("*/*.d*")]}
    assert got == expected
    assert "src/kern.c" in next(iter(got.values()))


def test_debug_info_names_the_users_file(proj, session_env):
    if not shutil.which("readelf"):
        pytest.skip("readelf is not installed")
    args = ["gcc", "-c", "-g", "-O2", *ACC, "src/kern.c"]
    assert wrap(proj, session_env, *args).returncode == 0
    info = plain(proj, session_env, "readelf", "--debug-dump=info", "kern.o").stdout
    names = re.findall(r"DW_AT_name\s*:\s*\(.*?\):\s*(\S+)", info)
    assert names[0] == "src/kern.c" and "accsat-cc-" not in info
    lines = plain(proj, session_env, "readelf", "--debug-dump=line", "kern.o").stdout
    assert "accsat-cc-" not in lines


# -- accsat fails: the original is compiled -------------------------------------------------


def test_gnu_extensions_build_and_run_with_one_warning(proj, session_env):
    (proj / "gnu.c").write_text(GNU)
    r = wrap(proj, session_env, "gcc", "-O2", *ACC, "gnu.c", "-o", "gnu")
    assert r.returncode == 0, r.stderr
    w = warnings(r.stderr)
    assert len(w) == 1 and r.stderr.strip() == w[0]
    assert re.fullmatch(r"accsat-cc: gnu\.c:\d+: .+; compiling the original", w[0])
    assert plain(proj, session_env, "./gnu").stdout == "5719\n"
    # strict: the same failure is an error and nothing is compiled
    r = wrap(
        proj, session_env, "gcc", "-O2", *ACC, "gnu.c", "-o", "gnu2", extra={"ACCSAT_STRICT": "1"}
    )
    assert r.returncode != 0 and not (proj / "gnu2").exists()
    assert warnings(r.stderr) and "compiling the original" not in r.stderr


def test_timeout_compiles_the_original(proj, session_env):
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-c",
        *ACC,
        "-DVARIANT_FOR_TIMEOUT",
        "src/kern.c",
        extra={"ACCSAT_TIMEOUT": "0.001", "ACCSAT_CACHE": "0"},
    )
    assert r.returncode == 0
    assert warnings(r.stderr) == [
        "accsat-cc: src/kern.c: timed out after 0.001 s (ACCSAT_TIMEOUT); compiling the original"
    ]
    assert (proj / "kern.o").exists()


def test_rewritten_file_that_does_not_compile_falls_back(proj, session_env):
    # a "compiler" that rejects accsat's copies: the original must be compiled instead
    fake = proj / "picky-cc"
    fake.write_text(
        '#!/bin/sh\nfor a in "$@"; do case "$a" in *accsat-cc-*) '
        'echo "picky: no" >&2; exit 1;; esac; done\nexec gcc "$@"\n'
    )
    fake.chmod(0o755)
    report = proj / "r.jsonl"
    r = wrap(
        proj, session_env, str(fake), "-c", *ACC, "src/kern.c", extra={"ACCSAT_REPORT": str(report)}
    )
    assert r.returncode == 0
    assert warnings(r.stderr) == [
        "accsat-cc: src/kern.c: the rewritten source did not compile; compiled the original"
    ]
    assert "picky" not in r.stderr and (proj / "kern.o").exists()
    assert read_report(report)[0]["status"] == "unchanged"


def test_internal_errors_are_one_line(proj, session_env, monkeypatch):
    from accsat import pipeline
    from accsat.options import Options
    from accsat.wrapper.rewrite import rewrite

    def boom(path, options, **_):
        raise RuntimeError("kaput\nsecond line")

    monkeypatch.setattr(pipeline, "rewrite_file", boom)  # the forked child sees it
    out = rewrite(str(proj / "main.c"), Options(variant="cse", line_directives="main.c"), 60)
    assert out.error == f"{proj / 'main.c'}: internal error: RuntimeError: kaput"

    def die(path, options, **_):
        os.kill(os.getpid(), signal.SIGSEGV)

    monkeypatch.setattr(pipeline, "rewrite_file", die)
    out = rewrite(str(proj / "main.c"), Options(variant="cse", line_directives="main.c"), 60)
    assert out.error.endswith("internal error: the rewrite died (signal 11)")
    assert not out.cacheable


# -- environment ----------------------------------------------------------------------------


def test_disable_is_pure_passthrough(proj, session_env):
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-c",
        *ACC,
        "src/kern.c",
        extra={
            "ACCSAT_DISABLE": "1",
            "ACCSAT_REPORT": str(proj / "r.jsonl"),
            "ACCSAT_KEEP": str(proj / "keep"),
        },
    )
    assert r.returncode == 0 and (proj / "kern.o").exists()
    assert not (proj / "r.jsonl").exists() and not (proj / "keep").exists()


def test_keep_holds_the_rewritten_source(proj, session_env):
    keep = proj / "keep"
    r = wrap(proj, session_env, "gcc", "-c", *ACC, "src/kern.c", extra={"ACCSAT_KEEP": str(keep)})
    assert r.returncode == 0
    kept = keep / (proj / "src" / "kern.c").relative_to("/")
    text = kept.read_text()
    assert text.startswith('#line 1 "src/kern.c"\n') and "_v0" in text


def test_report_lines_stay_whole_with_concurrent_compilers(proj, session_env):
    report = proj / "r.jsonl"
    procs = []
    for n in range(4):
        (proj / f"k{n}.c").write_text(KERNEL.replace('#include "kern.h"', HEADER))
        procs.append(
            subprocess.Popen(
                [*WRAPPER, "gcc", "-c", *ACC, f"k{n}.c"],
                cwd=proj,
                stderr=subprocess.PIPE,
                env=dict(session_env, ACCSAT_REPORT=str(report), TMPDIR=str(proj / "tmp")),
            )
        )
    assert all(p.wait(timeout=240) == 0 for p in procs)
    kernels = read_report(report)
    assert sorted(k["file"] for k in kernels) == [f"k{n}.c" for n in range(4)]


def test_cache_hits_misses_and_invalidation(proj, session_env, tmp_path):
    cache = tmp_path / "own-cache"
    extra = {"ACCSAT_CACHE_DIR": str(cache), "ACCSAT_VERBOSE": "1"}
    args = ["gcc", "-c", *ACC, "src/kern.c"]
    first = wrap(proj, session_env, *args, extra=extra)
    assert "(cse)" in first.stderr and list(cache.rglob("*.json"))
    second = wrap(proj, session_env, *args, extra=extra)
    assert "(cse, cached)" in second.stderr
    # a header the file includes changes: the preprocessed text does, so the key does
    (proj / "src" / "kern.h").write_text("#define SCALE 3.0\n")
    third = wrap(proj, session_env, *args, extra=extra)
    assert "(cse)" in third.stderr
    # so do the flags and the variant
    assert "(cse)" in wrap(proj, session_env, *args, "-DEXTRA", extra=extra).stderr
    assert (
        "(cse+bulk)"
        in wrap(proj, session_env, *args, extra=dict(extra, ACCSAT_VARIANT="cse+bulk")).stderr
    )
    entries = len(list(cache.rglob("*.json")))
    off = wrap(proj, session_env, *args, extra=dict(extra, ACCSAT_CACHE="0"))
    assert "cached" not in off.stderr and len(list(cache.rglob("*.json"))) == entries


def test_failures_are_cached_too(proj, session_env, tmp_path):
    (proj / "gnu.c").write_text(GNU)
    extra = {"ACCSAT_CACHE_DIR": str(tmp_path / "c2")}
    args = ["gcc", "-c", *ACC, "gnu.c"]
    first = wrap(proj, session_env, *args, extra=extra)
    start = time.perf_counter()
    second = wrap(proj, session_env, *args, extra=extra)
    assert warnings(first.stderr) == warnings(second.stderr) != []
    assert time.perf_counter() - start < 5


def test_bad_settings_warn_and_compile(proj, session_env):
    r = wrap(
        proj, session_env, "gcc", "-c", *ACC, "src/kern.c", extra={"ACCSAT_VARIANT": "fastest"}
    )
    assert r.returncode == 0 and (proj / "kern.o").exists()
    assert "ACCSAT_VARIANT='fastest'" in r.stderr


def test_usage_and_help(proj, session_env):
    r = wrap(proj, session_env)
    assert r.returncode == 2 and "usage" in r.stderr
    r = wrap(proj, session_env, "--accsat-help")
    assert r.returncode == 0
    for word in (
        "ACCSAT_VARIANT",
        "ACCSAT_DISABLE",
        "ACCSAT_STRICT",
        "ACCSAT_REPORT",
        "ACCSAT_KEEP",
        "ACCSAT_CACHE_DIR",
        "ACCSAT_TIMEOUT",
        "compiling the original",
    ):
        assert word in r.stdout
    r = wrap(proj, session_env, "no-such-compiler-xyz", "-c", "main.c")
    assert r.returncode == 127


def test_interrupt_removes_the_private_folder(proj, session_env):
    slow = proj / "slow-cc"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    env = dict(session_env, TMPDIR=str(proj / "tmp"))
    p = subprocess.Popen(
        [*WRAPPER, str(slow), "-c", *ACC, "src/kern.c"], cwd=proj, env=env, stderr=subprocess.PIPE
    )
    deadline = time.time() + 120
    while not list((proj / "tmp").glob("accsat-cc-*/*/0/kern.c")) and time.time() < deadline:
        time.sleep(0.05)
    assert list((proj / "tmp").glob("accsat-cc-*"))
    time.sleep(0.2)  # the compiler is running
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=30) == -signal.SIGTERM
    assert not list((proj / "tmp").glob("accsat-cc-*"))


def test_default_variant_and_make_j(proj, session_env, expected_output):
    """The default (accsat) variant under make -j, 3 sources and a header."""
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    for n in range(3):
        (proj / f"m{n}.c").write_text(
            KERNEL.replace("void kern(", f"void kern{n}(").replace(
                "double a[N], b[N], c[N];", "extern double a[N], b[N], c[N];"
            )
        )
    (proj / "k.c").write_text(KERNEL)
    (proj / "Makefile").write_text(
        "OBJS = main.o k.o m0.o m1.o m2.o\nprog: $(OBJS)\n\t$(CC) $(CFLAGS) $(OBJS) -o prog\n"
        "%.o: %.c\n\t$(CC) $(CFLAGS) -Isrc -c $< -o $@\n"
    )
    report = proj / "r.jsonl"
    env = dict(session_env, ACCSAT_REPORT=str(report), TMPDIR=str(proj / "tmp"))
    env.pop("ACCSAT_VARIANT")
    r = subprocess.run(
        ["make", "-j4", f"CC={' '.join(WRAPPER)} gcc", f"CFLAGS=-O2 {' '.join(ACC)}"],
        cwd=proj,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert plain(proj, session_env, "./prog").stdout == expected_output
    kernels = read_report(report)
    assert len(kernels) == 4 and {k["variant"] for k in kernels} == {"accsat"}
    assert all(k["status"] == "rewritten" for k in kernels)


# -- other compilers and launchers ---------------------------------------------------------


@pytest.mark.skipif(shutil.which("ccache") is None, reason="ccache is not installed")
def test_ccache_launcher(proj, session_env, expected_output):
    extra = {"CCACHE_DIR": str(proj / "ccache"), "ACCSAT_REPORT": str(proj / "r.jsonl")}
    r = wrap(proj, session_env, "ccache", "gcc", "-c", "-O2", *ACC, "src/kern.c", extra=extra)
    assert r.returncode == 0, r.stderr
    assert (proj / "kern.o").exists() and read_report(proj / "r.jsonl")[0]["status"] == "rewritten"
    r = wrap(
        proj,
        session_env,
        "ccache",
        "gcc",
        "-O2",
        *ACC,
        "main.c",
        "kern.o",
        "-o",
        "prog",
        extra=extra,
    )
    assert r.returncode == 0 and plain(proj, session_env, "./prog").stdout == expected_output


@needs_clang
def test_clang_warnings_and_dependencies(proj, session_env):
    assert CLANG is not None
    args = [CLANG, "-c", "-O2", "-Wall", "-MMD", "-fopenmp", "src/kern.c"]
    p = plain(proj, session_env, *args)
    expected = (proj / "kern.d").read_text()
    (proj / "kern.d").unlink()
    r = wrap(proj, session_env, *args, extra={"ACCSAT_REPORT": str(proj / "r.jsonl")})
    assert (r.returncode, r.stderr) == (p.returncode, p.stderr)
    assert "src/kern.c:11:9: warning: unused variable 'unused_here'" in r.stderr
    assert (proj / "kern.d").read_text() == expected
    assert read_report(proj / "r.jsonl")[0]["status"] == "rewritten"


def test_files_without_directives_skip_accsat_but_pragma_operators_count(proj, session_env):
    (proj / "plain.c").write_text("int f(int x) { return x + 1; }\n")
    (proj / "prag.c").write_text(
        '#define PAR _Pragma("omp parallel for")\ndouble a[9];\nvoid g(void)\n{\n  PAR\n'
        "  for (int i = 0; i < 9; i++)\n    a[i] = a[i] * 2.0 + a[i] * 2.0;\n}\n"
    )
    report = proj / "r.jsonl"
    r = wrap(
        proj,
        session_env,
        "gcc",
        "-c",
        "-fopenmp",
        "plain.c",
        "prag.c",
        extra={"ACCSAT_REPORT": str(report), "ACCSAT_VERBOSE": "1"},
    )
    assert r.returncode == 0, r.stderr
    assert "plain.c: 0 of 0 kernels" in r.stderr
    assert [(k["file"], k["status"]) for k in read_report(report)] == [("prag.c", "rewritten")]
