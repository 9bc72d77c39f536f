"""Kernels in headers (issue 37): a compute construct in a static inline function of a
header the file includes is found and rewritten for the file's compile, its header
untouched; reported with the header's name and the file compiled; a header whose rewritten
copy would not be read in its place keeps its kernels as written, with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from accsat.frontend.headers import spelling, user_headers
from accsat.frontend.includes import search
from accsat.frontend.load import load
from accsat.frontend.preprocess import PreprocessOptions, preprocess
from accsat.options import Options
from accsat.pipeline import HEADER_NOT_QUOTED, rewrite_file

from .conftest import accsat, needs_gcc

HEADER = """\
#ifndef K_H
#define K_H
#include "util.h"

static inline void scale(int n, double *restrict b, const double *restrict a, double s)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * a[i] + s;
    b[i] = t * a[i] + a[i] * a[i] + TWICE(s);
  }
}
#endif
"""
UTIL = "#define TWICE(x) (2.0 * (x))\n"
MAIN = """\
#include <stdio.h>
#include {include}

double a[64], b[64];

int main(void)
{{
  for (int i = 0; i < 64; i++) a[i] = i * 0.25;
  scale(64, b, a, 0.5);
  printf("%a\\n", b[3] + b[60]);
  return 0;
}}
"""


def project(root: Path, include: str = '"inc/k.h"', util_beside: bool = True) -> Path:
    (root / "inc").mkdir(parents=True, exist_ok=True)
    (root / "inc" / "k.h").write_text(HEADER)
    (root / ("inc" if util_beside else ".") / "util.h").write_text(UTIL)
    (root / "main.c").write_text(MAIN.format(include=include))
    return root / "main.c"


def test_a_header_s_kernel_is_found_with_its_spelling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project(tmp_path)
    loaded = load(Path("main.c"))
    (kernel,) = loaded.kernels
    assert (kernel.header, kernel.function, kernel.line) == ("inc/k.h", "scale", 8)
    assert loaded.headers["inc/k.h"].spelling == "inc/k.h"
    assert loaded.text_of(kernel) == HEADER
    assert user_headers(preprocess(Path("main.c")), "main.c") == ["inc/k.h", "inc/util.h"]


def test_spelling_is_a_quoted_include_naming_the_very_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project(tmp_path)
    text = '#include "k.h"\n#include "inc/k.h"\n#include "../x/k.h"\n'
    assert spelling("main.c", text, "inc/k.h") == "inc/k.h"
    assert spelling("main.c", "#include <inc/k.h>\n", "inc/k.h") is None
    assert spelling("main.c", text, "inc/k.h", ("-I", "inc")) == "k.h"  # found through -I
    assert search("main.c", ["inc/k.h", "k2.h"]) == ["-iquote", ".", "-iquote", "inc"]


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_the_header_is_rewritten_for_the_file_s_compile(tmp_path, monkeypatch, variant):
    monkeypatch.chdir(tmp_path)
    project(tmp_path)
    done = rewrite_file(Path("main.c"), Options(variant=variant))
    (kernel,) = done.kernels
    assert kernel.status == "rewritten", kernel.reason
    assert (kernel.file, kernel.line, kernel.compiled) == ("inc/k.h", 8, "main.c")
    assert done.text == MAIN.format(include='"inc/k.h"')  # the file itself is as written
    (header,) = done.headers
    assert (header.name, header.spelling) == ("inc/k.h", "inc/k.h")
    assert header.text != HEADER and "_v0" in header.text
    assert (tmp_path / "inc" / "k.h").read_text() == HEADER  # never touched


@pytest.mark.parametrize(
    "include, flags, why",
    [
        ("<k.h>", ("-Iinc",), HEADER_NOT_QUOTED),
        # util.h beside the file too: the copy would find the file's, not the header's
        ('"inc/k.h"', (), "would not be read in its place"),
    ],
    ids=["angle-brackets", "shadowed"],
)
def test_a_header_whose_copy_cannot_stand_in_keeps_its_kernels(
    tmp_path, monkeypatch, include, flags, why
):
    monkeypatch.chdir(tmp_path)
    project(tmp_path, include)
    if why != HEADER_NOT_QUOTED:
        (tmp_path / "util.h").write_text("#define TWICE(x) (3.0 * (x))\n")
    options = Options(variant="cse", preprocess=PreprocessOptions(flags=flags))
    done = rewrite_file(Path("main.c"), options)
    (kernel,) = done.kernels
    assert kernel.status == "unchanged" and why in kernel.reason, kernel.reason
    assert done.headers == []


@needs_gcc
def test_accsat_rewrite_prints_the_header_s_rewrite(tmp_path, env):
    project(tmp_path)
    r = accsat(tmp_path, env, "rewrite", "main.c", "--header", "inc/k.h", "--diff", "--variant=cse")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert out.startswith("--- inc/k.h\n+++ inc/k.h (accsat cse)\n")
    assert "+    double _v0 = a[i];" in out
    r = accsat(tmp_path, env, "rewrite", "main.c", "--header", "nosuch.h")
    assert r.returncode != 0 and b"includes no header nosuch.h" in r.stderr


@needs_gcc
def test_check_and_advise_read_a_file_with_header_kernels(tmp_path, env):
    """They cover the file's own kernels; ``accsat rewrite --verify`` covers a header's."""
    project(tmp_path)
    (tmp_path / "main.c").write_text(
        MAIN.format(include='"inc/k.h"').replace(
            "int main(void)",
            "void own(int n)\n{\n#pragma acc parallel loop\n"
            "  for (int i = 0; i < n; i++) b[i] = a[i] * a[i] + a[i] * a[i];\n}\n\nint main(void)",
        )
    )
    r = accsat(tmp_path, env, "check", "main.c", "--variant", "cse", "--trials", "8")
    assert r.returncode == 0, r.stdout + r.stderr
    table = r.stdout.decode()
    assert "main.c:" in table and "pass" in table and "k.h" not in table
    r = accsat(tmp_path, env, "advise", "main.c")
    assert r.returncode == 0, r.stderr
    r = accsat(tmp_path, env, "rewrite", "main.c", "--verify", "--variant=cse", "--report", "r")
    rows = [line for line in (tmp_path / "r").read_text().splitlines() if '"inc/k.h"' in line]
    assert len(rows) == 1 and '"verdict": "pass"' in rows[0]
