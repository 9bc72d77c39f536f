"""File names with ``"``, ``\\``, spaces, a newline or a byte that is not UTF-8: the
line markers of ``gcc -E`` escape them, accsat reads them back, its own ``#line``
directives escape them again, and no kernel is skipped (issue 12)."""

from __future__ import annotations

import os

import pytest

from accsat.codegen.splice import line_directive
from accsat.options import Options
from accsat.pipeline import rewrite_file

from .conftest import accsat_cc, gcc, needs_gcc

NAMES = ['a"b.c', "a\\b.c", "sp ace.c", "nl\nx.c", os.fsdecode(b"lat\xe9.c"), "t\tab.c"]
ACC = ("-Wall", "-fopenacc", "-foffload=disable")
IDS = ["quote", "backslash", "space", "newline", "latin1", "tab"]

SOURCE = """\
void k(int n, double *restrict a, const double *restrict b)
{
  int unused_before;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    int unused_inside;
    a[i] = b[i] * 2.0 + b[i] * 2.0;
  }
}
"""


def test_marker_file_reads_cpps_escapes():
    from accsat.frontend.preprocess import marker_file  # inside: new in issue 12

    assert marker_file('a\\"b.c') == 'a"b.c'
    assert marker_file("a\\\\b.c") == "a\\b.c"
    assert marker_file("nl\\nx.c") == "nl\nx.c"
    assert marker_file("lat\\351.c") == os.fsdecode(b"lat\xe9.c")  # clang's octal
    assert marker_file("plain.c") == "plain.c"


def test_line_directive_escapes_as_cpp_does():
    assert line_directive(3, 'a"b\\c\nd.c') == '#line 3 "a\\"b\\\\c\\nd.c"\n'


@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_no_kernel_is_skipped(tmp_path, name):
    path = tmp_path / name
    path.write_text(SOURCE)
    result = rewrite_file(path, Options(variant="cse", use_ilp=False))
    assert [k.status for k in result.kernels] == ["rewritten"]


@needs_gcc
@pytest.mark.parametrize("name", NAMES, ids=IDS)
def test_accsat_cc_diagnostics_name_the_file_as_gcc_does(tmp_path, env, name):
    (tmp_path / name).write_text(SOURCE)
    plain = gcc(tmp_path, env, *ACC, "-c", name, "-o", "plain.o")
    r = accsat_cc(tmp_path, env, "gcc", *ACC, "-c", name, "-o", "k.o", ACCSAT_VERBOSE="1")
    assert r.returncode == plain.returncode == 0
    assert r.stderr.count(b": 1 of 1 kernels rewritten (cse)\n") == 1
    ours = r.stderr.decode("utf-8", "surrogateescape").split("\n")
    warnings = [line for line in ours if ": warning: " in line]
    expected = plain.stderr.decode("utf-8", "surrogateescape").split("\n")
    assert warnings == [line for line in expected if ": warning: " in line]
    assert len(warnings) == 2  # unused_before, unused_inside: same file, same lines
