"""const and volatile reach accsat through typedefs too: C types (``ct``) drop
qualifiers, so the symbol table records what each declarator carries."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pycparser import c_parser

from accsat.frontend.symbols import FileSymbols, quals
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

TYPEDEFS = """
typedef const double cd;
typedef volatile double vd;
typedef const double *cdp;
typedef double *dp;
"""


def _quals(decl: str):
    ast = c_parser.CParser().parse(TYPEDEFS + decl)
    table = FileSymbols()
    scope = table.scope
    for node in ast.ext[:-1]:
        table.declare(node, scope, "global")
    return quals(ast.ext[-1].type, scope)


@pytest.mark.parametrize(
    "decl, target, volatile",
    [
        ("const double *p;", True, False),
        ("double *const p;", False, False),
        ("cd *p;", True, False),
        ("cdp p;", True, False),
        ("const dp p;", False, False),
        ("dp p;", False, False),
        ("vd *p;", True, True),
        ("vd x;", False, True),
        ("cd x;", False, False),
        ("double **const *p;", True, False),  # p points to a const pointer
        ("const double **p;", True, False),
    ],
)
def test_what_a_declarator_qualifies(decl, target, volatile):
    q = _quals(decl)
    assert q.target is target
    assert ("volatile" in q.anywhere) is volatile


KERNELS = (
    TYPEDEFS
    + """
double c[64], d[64], e[8][8];
void through_typedefs(void)
{
  int k;
#pragma acc parallel loop copy(e) copyout(d)
  for (k = 0; k < 64; k++) {
    cd *r = e[k % 8];
    cdp s = e[k % 8];
    double x = r[1] * 2.0 + s[2];
    *(e[k % 8] + 1) = x + 1.0;
    *(e[k % 8] + 2) = x;
    d[k] = r[1] + s[2] + x;
  }
}
void volatile_typedef(void)
{
  int k;
#pragma acc parallel loop copyin(c) copyout(d)
  for (k = 0; k < 64; k++) {
    vd t = c[k];
    d[k] = t * 2.0 + t * 2.0;
  }
}
"""
)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_no_store_through_a_typedef_to_const_and_volatile_reads_kept(tmp_path, variant):
    src = tmp_path / "q.c"
    src.write_text(KERNELS)
    result = rewrite_file(src, Options(variant=variant))
    out = tmp_path / "out.c"
    out.write_text(result.text)
    gcc = subprocess.run(
        ["gcc", "-fsyntax-only", "-Werror=discarded-qualifiers", str(out)],
        capture_output=True,
        text=True,
    )
    assert gcc.returncode == 0, gcc.stderr
    first, second = result.kernels
    assert first.status == "rewritten"
    assert second.status == "unchanged" and "volatile" in second.reason
    assert "d[k] = t * 2.0 + t * 2.0;" in result.text
