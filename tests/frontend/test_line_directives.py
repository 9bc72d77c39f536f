"""Generated code (issue 37): ``#line`` directives in the user's file name other files and
lines. Kernels under them are rewritten, reports name the file and line the directives
name, and accsat's own ``#line`` directives (accsat-cc's, and those after a rewritten body)
name them too, so the compiler's diagnostics read as for the original."""

from __future__ import annotations

import json
import subprocess

import pytest

from accsat.frontend.linemap import blanked, line_map
from accsat.options import Options
from accsat.pipeline import rewrite_file

from .conftest import accsat_cc, gcc, needs_gcc

ACC = ("-Wall", "-O1", "-ffp-contract=off", "-fopenacc", "-foffload=disable")

KERNEL = """\
void k(int n)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = a[i] * b[i] + a[i] * a[i];
    b[i] = t * 2.0 + a[i] * b[i];
  }
}
"""
MAIN = """\
int main(void)
{
  for (int i = 0; i < 64; i++) { a[i] = i * 0.5; b[i] = 1.0 / (i + 1); c[i] = 0.0; }
  k(64);
  double s = 0.0;
  for (int i = 0; i < 64; i++) s += b[i] + 3.0 * c[i];
  printf("%a\\n", s);
  return 0;
}
"""
HEAD = "#include <stdio.h>\ndouble a[64], b[64], c[64];\n"
# a generator's output: its kernel named by the model it came from, a #line before each
# statement of the body, the rest back on the file's own lines
GENERATED = f"""{HEAD}#line 1 "model.dsl"
void g(int n)
{{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {{
#line 10 "model.dsl"
    double t = a[i] * b[i] + a[i] * a[i];
#line 11 "model.dsl"
    int unused;
# 12 "model.dsl"
    b[i] = t * 2.0 + a[i] * b[i];
#line 20
    c[i] = t * b[i] + a[i] * b[i];
  }}
}}
#line 19 "gen.c"
{MAIN.replace("k(64)", "g(64)")}"""


def test_the_map_names_each_line_as_the_directives_do():
    text = (
        'int a;\n#line 10 "gen.src"\nint b;\nint c;\n# 3 "x.h" 2\nint d;\n#line 7\n'
        'int e;\n#if X\n#line 1 "q"\n#endif\nint f;\n#line 20 \\\n "z"\nint g;\n'
    )
    m = line_map(text, "k.c")
    assert m is not None
    named = [m.presumed(line) for line in range(1, 16)]
    assert named[:9] == [
        ("k.c", 1),
        ("k.c", 2),
        ("gen.src", 10),
        ("gen.src", 11),
        ("gen.src", 12),
        ("x.h", 3),
        ("x.h", 4),
        ("x.h", 7),
        ("x.h", 8),
    ]
    # a directive inside a conditional group is not read: unknown until one names a file
    assert named[10:13] == [None, None, None]
    assert named[14] == ("z", 20)
    assert line_map("int a;\n#include <x.h>\n#pragma omp simd\n", "k.c") is None
    out = blanked(text)
    assert len(out) == len(text) and out.count("\n") == text.count("\n")
    assert "line" not in out and "# 3" not in out and "#if X" in out


@pytest.mark.parametrize("where", ["other", "own"])
def test_a_kernel_under_a_line_directive_is_rewritten_and_named_by_it(tmp_path, where):
    name = "kernels.src" if where == "other" else "k.c"
    text = f'{HEAD}#line 100 "{name}"\n{KERNEL}#line 12 "k.c"\n{MAIN}'
    (tmp_path / "k.c").write_text(text)
    done = rewrite_file(tmp_path / "k.c", Options(variant="cse"))
    (kernel,) = done.kernels
    assert kernel.status == "rewritten", kernel.reason
    # named as the directive spells it ("k.c": not the path accsat was given)
    assert (kernel.file, kernel.line, kernel.compiled) == (name, 103, str(tmp_path / "k.c"))
    # the lines after the body keep the names the file gives them
    assert done.text.count(f'#line 107 "{name}"\n}}\n#line 12 "k.c"\n') == 1


def test_a_directive_accsat_cannot_read_keeps_the_kernels_after_it(tmp_path):
    text = f"{HEAD}#define L 100\n#line L\n{KERNEL}{MAIN}"
    (tmp_path / "k.c").write_text(text)
    (kernel,) = rewrite_file(tmp_path / "k.c", Options(variant="cse")).kernels
    assert kernel.status == "unchanged"
    assert "#line directive whose operands accsat cannot read" in kernel.reason


def test_accsat_rewrite_keeps_the_generated_lines_of_a_body(tmp_path):
    (tmp_path / "gen.c").write_text(GENERATED)
    done = rewrite_file(tmp_path / "gen.c", Options(variant="cse"))
    (kernel,) = done.kernels
    assert (kernel.status, kernel.file, kernel.line) == ("rewritten", "model.dsl", 4)
    body = done.text[done.text.index("for (int i") : done.text.index("int main")]
    assert '#line 11 "model.dsl"\n    int unused;' in body
    assert body.endswith('#line 22 "model.dsl"\n}\n#line 19 "gen.c"\n')


@needs_gcc
def test_accsat_cc_diagnostics_and_output_as_gcc_s(tmp_path, env):
    (tmp_path / "gen.c").write_text(GENERATED)
    report = tmp_path / "report.jsonl"
    plain = gcc(tmp_path, env, *ACC, "gen.c", "-o", "plain")
    r = accsat_cc(tmp_path, env, "gcc", *ACC, "gen.c", "-o", "new", ACCSAT_REPORT=str(report))
    assert r.returncode == plain.returncode == 0, r.stderr
    (row,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert (row["status"], row["file"], row["line"], row["compiled"]) == (
        "rewritten",
        "model.dsl",
        4,
        "gen.c",
    )
    warned = [line for line in r.stderr.decode().split("\n") if "warning:" in line]
    assert warned == [line for line in plain.stderr.decode().split("\n") if "warning:" in line]
    assert warned and warned[0].startswith("model.dsl:11:")
    runs = [subprocess.run([str(tmp_path / x)], capture_output=True) for x in ("plain", "new")]
    assert runs[0].stdout == runs[1].stdout and runs[0].returncode == 0
