"""accsat-cc reads C89 from the compiler's flags (``-std=c89``, ``-ansi``,
``-Werror=declaration-after-statement``...) and declares temporaries first, so a C89
build of a rewritten kernel neither fails nor warns."""

from __future__ import annotations

import pytest

from accsat.wrapper.args import c89_because

from .conftest import ACC, lines, needs_gcc, wrap

PROGRAM = """\
double a[64], b[64], c[64];
void k(int n)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    double x = a[i] * a[i];
    b[i] = x + a[i] * c[i];
    c[i] = b[i] * b[i] + x;
    a[i] = b[i] * b[i] * c[i];
  }
}
"""


@pytest.mark.parametrize(
    ("args", "because"),
    [
        (["-O2"], None),
        (["-std=c99"], None),
        (["-std=c89"], "-std=c89"),
        (["-std=gnu90", "-O2"], "-std=gnu90"),
        (["-std=iso9899:199409"], "-std=iso9899:199409"),
        (["-ansi"], "-ansi"),
        (["-ansi", "-std=c11"], None),
        (["-std=c11", "-ansi"], "-ansi"),
        (["-Wdeclaration-after-statement"], "-Wdeclaration-after-statement"),
        (["-Werror=declaration-after-statement", "-Wno-declaration-after-statement"], None),
        (
            ["-Wdeclaration-after-statement", "-Wno-error=declaration-after-statement"],
            "-Wdeclaration-after-statement",
        ),  # fmt: skip
        (["-std=c89", "-Werror=declaration-after-statement"], "-std=c89"),
    ],
)
def test_which_flags_ask_for_declarations_first(args, because):
    assert c89_because(args) == because


@needs_gcc
@pytest.mark.parametrize(
    "flags", [["-std=c89", "-pedantic-errors"], ["-Werror=declaration-after-statement"]]
)
def test_a_c89_build_through_accsat_cc_rewrites_and_builds(tmp_path, env, flags):
    (tmp_path / "k.c").write_text(PROGRAM)
    r = wrap(tmp_path, env, "gcc", *flags, *ACC, "-c", "k.c", "-o", "k.o", ACCSAT_VERBOSE="1")
    assert r.returncode == 0, r.stderr
    assert "accsat-cc: k.c: 1 of 1 kernels rewritten" in "\n".join(lines(r.stderr))
    assert "warning" not in r.stderr
    # turned off, the rewrite does not compile and accsat-cc builds the original
    r = wrap(tmp_path, env, "gcc", *flags, *ACC, "-c", "k.c", "-o", "k.o",
             ACCSAT_DECLARATIONS_FIRST="0")  # fmt: skip
    assert r.returncode == 0
    assert "accsat-cc: k.c: the rewritten source did not compile" in r.stderr
