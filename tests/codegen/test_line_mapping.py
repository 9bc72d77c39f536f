"""Diagnostics inside rewritten bodies name the user's lines (issue 12).

Through ``accsat-cc`` every line gcc reports is the line of the user's file where
that statement is: a statement printed anew gets a ``#line`` of its own source
line, a temporary (a bulk load hoisted to the top included) the line of the first
statement that needs it. ``accsat rewrite`` prints no ``#line`` at all.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from accsat.options import Options
from accsat.pipeline import rewrite_file

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

SOURCE = """\
double tab[4];
void k(int n, double *restrict a, const double *restrict b)
{
  int unused_before;
  n == 3;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    int unused_inside;
    double t = b[i] * 2.0;
    a[i] = t + b[i] * 2.0;
    a[i + n] = b[i] * 2.0 - 1.0;
    a[i + 2 * n] = tab[5] * b[i] + tab[5];
  }
  int unused_after;
  n == 5;
}
void k2(int n, double *restrict a, const double *restrict b)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) { int u2; a[i] = b[i] * b[i] + b[i] * b[i] + tab[7]; }
  int unused_end;
}
"""
FLAGS = ["-O2", "-Wall", "-fopenacc", "-foffload=disable", "-c", "k.c", "-o", "k.o"]
# (line, what): every one must be reported there, through accsat-cc as by gcc itself
EXPECTED = {
    (4, "unused variable 'unused_before'"),
    (5, "statement with no effect"),
    (8, "unused variable 'unused_inside'"),
    (12, "array subscript 5 is above array bounds"),
    (14, "unused variable 'unused_after'"),
    (15, "statement with no effect"),
    (20, "unused variable 'u2'"),
    (20, "array subscript 7 is above array bounds"),
    (21, "unused variable 'unused_end'"),
}
_WARNING = re.compile(r"^k\.c:(\d+)(?::\d+)?: warning: (.*?)(?: \[-W[\w-]+\])?$")


def _warnings(stderr: bytes) -> set[tuple[int, str]]:
    found = set()
    for line in stderr.decode().splitlines():
        m = _WARNING.match(line)
        if m:
            found.add((int(m[1]), m[2]))
    return found


def _has(found: set[tuple[int, str]], line: int, what: str) -> bool:
    return any(n == line and text.startswith(what) for n, text in found)


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_every_warning_names_the_users_line(tmp_path, variant):
    (tmp_path / "k.c").write_text(SOURCE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    env.update(
        LC_ALL="C",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ACCSAT_VARIANT=variant,
        ACCSAT_CACHE_DIR=str(tmp_path / "cache"),
        ACCSAT_VERBOSE="1",
    )
    env.pop("GCC_COLORS", None)
    plain = subprocess.run(["gcc", *FLAGS], cwd=tmp_path, env=env, capture_output=True, check=False)
    ours = subprocess.run(
        [sys.executable, "-m", "accsat.wrapper", "gcc", *FLAGS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=False,
    )
    assert plain.returncode == ours.returncode == 0
    assert b"2 of 2 kernels rewritten" in ours.stderr, ours.stderr
    gcc_says, we_say = _warnings(plain.stderr), _warnings(ours.stderr)
    for line, what in EXPECTED:
        assert _has(gcc_says, line, what), (line, what, gcc_says)
        assert _has(we_say, line, what), (line, what, we_say)
    # nothing else, and nothing elsewhere: a subset of gcc's own (rewriting may drop a
    # statement with no effect, never move a warning)
    assert we_say <= gcc_says


def test_rewrite_prints_no_line_directives(tmp_path):
    path = tmp_path / "k.c"
    path.write_text(SOURCE)
    out = rewrite_file(path, Options(variant="accsat", use_ilp=False)).text
    assert "_v0" in out and "#line" not in out


def test_next_line_counts_from_the_last_directive():
    from accsat.codegen.lines import next_line, without_shadowed  # new in issue 12

    lines = ['#line 7 "k.c"', "  x = 1;", "  s = f(a,\nb);"]
    assert next_line(lines) == 10
    assert next_line(["  x = 1;"]) == 0
    assert without_shadowed(['#line 3 "k.c"', '#line 4 "k.c"', "y;"]) == ['#line 4 "k.c"', "y;"]
