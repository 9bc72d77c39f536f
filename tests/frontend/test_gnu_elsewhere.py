"""GNU C that pycparser cannot read (statement expressions, ``typeof``, ``asm``) in functions
without a kernel: the file's kernels are rewritten all the same (frontend/parse.py reads
the file again with those functions' bodies blanked); in a kernel's own function, the
file is left as written with one line (the file's first parse error)."""

from __future__ import annotations

import subprocess

from click.testing import CliRunner

from accsat.cli import main
from accsat.frontend.parse import kernel_functions

from .conftest import needs_gcc

GNU = """\
#include <stdio.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
static double a[100], b[100];
struct pair { int x, y; };
static struct pair origin = { 0, 0 };
static int biggest(const int *v, int n)
{
  int m = v[0];
  for (int i = 1; i < n; i++)
    m = MAX(m, v[i]);
  return m;
}
static inline void fence(void) { __asm__ __volatile__("" ::: "memory"); }
void kern(int n)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i] * a[i] + a[i - 1] * a[i] + a[i] * a[i];
}
int main(void)
{
  int v[4] = {3, 9, 2, 5};
  for (int i = 0; i < 100; i++) a[i] = i * 0.5 - 7;
  kern(100);
  fence();
  printf("%d %d %.17g %.17g\\n", biggest(v, 4), origin.x, b[50], b[3]);
  return 0;
}
"""


def test_bodies_without_a_directive_are_blanked_and_lines_stay():
    text = (
        'int f(void)\n{\n  char *s = "}{";\n  return 1;\n}\n'
        "struct S { int a; };\nint x[] = {1, 2};\n"
        "void g(int n)\n{\n#pragma omp parallel for\n  for (;;) ;\n}\n"
        'int h(a) int a;\n# 3 "y.c"\n{\n# 12 "x.c"\n  return a;\n}\n'
    )
    slim = kernel_functions(text)
    assert len(slim) == len(text) and slim.count("\n") == text.count("\n")
    assert "return 1" not in slim and '"}{"' not in slim  # f's body, braces in a string too
    assert "struct S { int a; };\nint x[] = {1, 2};" in slim  # not function bodies
    assert "#pragma omp parallel for\n  for (;;) ;" in slim  # g has a directive
    assert '# 12 "x.c"' in slim and "return a" not in slim  # K&R: markers kept


def test_kernels_are_rewritten_beside_gnu_extensions(tmp_path):
    src = tmp_path / "gnu.c"
    src.write_text(GNU)
    out = tmp_path / "out.c"
    done = CliRunner().invoke(main, ["rewrite", str(src), "-o", str(out)])
    assert done.exit_code == 0, done.output
    printed = out.read_text()
    assert printed != GNU and "double _v0 = a[i];" in printed
    assert printed.replace(printed[printed.index("void kern") : printed.index("int main")], "") == (
        GNU.replace(GNU[GNU.index("void kern") : GNU.index("int main")], "")
    )  # every other function byte for byte


@needs_gcc
def test_the_rewritten_program_prints_the_same(tmp_path):
    src = tmp_path / "gnu.c"
    src.write_text(GNU)
    CliRunner().invoke(main, ["rewrite", str(src), "-o", str(tmp_path / "out.c")])
    outputs = []
    for name in ("gnu.c", "out.c"):
        exe = tmp_path / name.replace(".c", "")
        subprocess.run(
            ["gcc", "-O2", "-ffp-contract=off", str(tmp_path / name), "-o", str(exe)], check=True
        )
        outputs.append(subprocess.run([str(exe)], capture_output=True, check=True).stdout)
    assert outputs[0] == outputs[1]


def test_gnu_c_in_a_kernels_own_function_is_one_line(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(GNU.replace("b[i] = a[i] * a[i]", "b[i] = MAX(a[i], 0.0) * a[i]"))
    done = CliRunner().invoke(main, ["rewrite", str(src)])
    assert done.exit_code == 2 and "Traceback" not in done.output
    # the file's first error, as pycparser reads it whole (the MAX in biggest)
    line = GNU[: GNU.index("m = MAX(m, v[i])")].count("\n") + 1
    assert done.output.strip() == f"accsat: {src}:{line}: parse error: before: _a"
