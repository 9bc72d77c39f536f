"""Bytes that are not UTF-8 go through unchanged: ``accsat rewrite`` (stdout and -o),
``accsat check`` and ``accsat-cc`` (issue 12)."""

from __future__ import annotations

from accsat.frontend.load import read_source
from accsat.frontend.preprocess import preprocess

from .conftest import accsat, accsat_cc, gcc, needs_gcc

# A Latin-1 byte in a string literal and in comments, a CRLF line: all outside the kernel.
PREFIX = (
    b"#include <stdio.h>\n"
    b'const char *msg = "caf\xe9"; /* \xff\xfe not UTF-8 */\r\n'
    b"void k(int n, double *restrict a, const double *restrict b)\n{\n"
    b"#pragma acc parallel loop\n  for (int i = 0; i < n; i++) "
)
BODY = b"{\n    a[i] = b[i] * 2.0 + b[i] * 2.0;\n  }"
SUFFIX = b"\n}\nint tail(void) { return msg[3] == '\\xe9'; } // \xe9\n"
SOURCE = PREFIX + BODY + SUFFIX


def _kept_outside(out: bytes) -> None:
    assert out.startswith(PREFIX) and out.endswith(SUFFIX)
    assert out[len(PREFIX) : len(out) - len(SUFFIX)] != BODY  # the kernel was rewritten
    assert b"_v0" in out


def test_front_end_reads_bytes_as_they_are(tmp_path):
    path = tmp_path / "k.c"
    path.write_bytes(SOURCE)
    assert read_source(path).encode("utf-8", "surrogateescape") == SOURCE
    assert '"caf\udce9"' in preprocess(path)


def test_rewrite_keeps_every_byte_outside_the_kernel(tmp_path, env):
    (tmp_path / "k.c").write_bytes(SOURCE)
    r = accsat(tmp_path, env, "rewrite", "--variant", "cse", "k.c")
    assert r.returncode == 0, r.stderr
    _kept_outside(r.stdout)
    r = accsat(tmp_path, env, "rewrite", "--variant", "cse", "k.c", "-o", "out.c")
    assert r.returncode == 0, r.stderr
    _kept_outside((tmp_path / "out.c").read_bytes())
    assert (tmp_path / "k.c").read_bytes() == SOURCE


def test_check_validates_the_kernel(tmp_path, env):
    (tmp_path / "k.c").write_bytes(SOURCE)
    r = accsat(tmp_path, env, "check", "--variant", "cse", "k.c")
    assert r.returncode == 0, r.stderr
    assert b"pass" in r.stdout and b"Traceback" not in r.stderr


@needs_gcc
def test_accsat_cc_compiles_what_gcc_compiles(tmp_path, env):
    (tmp_path / "k.c").write_bytes(SOURCE)
    assert gcc(tmp_path, env, "-c", "k.c", "-o", "plain.o").returncode == 0
    r = accsat_cc(
        tmp_path,
        env,
        "gcc",
        "-c",
        "k.c",
        "-o",
        "k.o",
        ACCSAT_KEEP=str(tmp_path / "keep"),
        ACCSAT_VERBOSE="1",
    )
    assert r.returncode == 0, r.stderr
    assert b"1 of 1 kernels rewritten" in r.stderr
    kept = (tmp_path / "keep" / tmp_path.relative_to("/") / "k.c").read_bytes()
    _kept_outside(kept.split(b"\n", 1)[1])  # after the wrapper's first #line
    assert b"caf\xe9\0" in (tmp_path / "k.o").read_bytes()  # the string, byte for byte


GARBAGE = bytes(range(256)) * 3 + b"\n#pragma acc parallel loop\nfor (;;) ;\n\xff\n"


@needs_gcc
def test_binary_garbage_gets_gccs_own_errors(tmp_path, env):
    (tmp_path / "g.c").write_bytes(GARBAGE)
    plain = gcc(tmp_path, env, "-c", "g.c", "-o", "g.o")
    r = accsat_cc(tmp_path, env, "gcc", "-c", "g.c", "-o", "g.o")
    assert plain.returncode != 0
    assert (r.returncode, r.stdout, r.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_binary_garbage_is_one_line_from_rewrite(tmp_path, env):
    (tmp_path / "g.c").write_bytes(GARBAGE)
    r = accsat(tmp_path, env, "rewrite", "g.c")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.count(b"\n") == 1 and r.stderr.startswith(b"accsat: g.c:")
