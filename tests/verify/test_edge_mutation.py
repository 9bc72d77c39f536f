"""The mutation acceptance test of issue 21 for ``accsat check`` alone: with the old
printing of a signed type's minimum put back (``INT_MIN`` as ``(2147483647 - 1)``, a
different constant) and the pipeline's re-read check switched off, translation
validation must report ``fail``: its edge rounds try the kernel's own constants.

Also: a kernel whose states mostly hit undefined behaviour is ``weak``, not ``pass``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import accsat.pipeline
from accsat.check import check_file
from accsat.egraph import saturate
from accsat.frontend import fold, literals
from accsat.options import Options
from accsat.verify import format_table

# the kernel; the minimum is folded (``| 0``) so that it is printed by format_int:
# the minimum as written, ``INT_MIN``, keeps its spelling
GUARDED_DIVISION = """#include <limits.h>
int num[8], den[8], q[8];
void f(void)
{
#pragma acc parallel loop
  for (int i = 0; i < 8; i++) {
    if (den[i] != 0 && num[i] != (INT_MIN | 0)) q[i] = num[i] / den[i] + num[i] / den[i]; else q[i] = 0;
  }
}
"""

# shaped like ../shared/checks/edges.c: minima of long and int in guards
MINIMA = """#include <limits.h>
void g(int *a, int *b, long *l, long *d, int *r, long *lr, int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    if (l[i] != (LONG_MIN | 0) && d[i] > 0) lr[i] = l[i] / d[i] - l[i] / d[i] % 3; else lr[i] = -1;
    if (a[i] == (INT_MIN | 0)) r[i] = b[i]; else r[i] = (b[i] & 7) + (b[i] & 7);
  }
}
"""
LOST_MINUS = re.compile(r"\((\d+)[uUlL]* - 1\)")


def _old_format_int(value, t):
    """format_int as it was: the minimum of a signed type lost its minus sign."""
    text = literals.format_int(value, t)
    return "(" + text[2:] if text.startswith("(-") and text.endswith(" - 1)") else text


@pytest.fixture
def old_minimum(monkeypatch):
    monkeypatch.setattr(fold, "format_int", _old_format_int)
    monkeypatch.setattr(saturate, "format_int", _old_format_int)
    # the pipeline's own re-read check would catch it too: leave it to accsat check
    monkeypatch.setattr(
        accsat.pipeline,
        "reread_check",
        lambda loaded, results, options: results,
        raising=False,
    )


def _check(tmp_path: Path, src: str, variant: str):
    path = tmp_path / "k.c"
    path.write_text(src)
    return check_file(path, Options(variant=variant))


@pytest.mark.parametrize("src", [GUARDED_DIVISION, MINIMA], ids=["guarded-division", "minima"])
@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_old_minimum_printing_fails_the_check(src, variant, tmp_path, old_minimum):
    result, ver = _check(tmp_path, src, variant)
    assert LOST_MINUS.search(result.text)  # the mutation is in the rewrite
    assert [v.verdict for v in ver.verdicts] == ["fail"], format_table(ver.verdicts)
    assert "edge round" in ver.verdicts[0].message
    assert not LOST_MINUS.search(ver.text)  # put back as written


@pytest.mark.parametrize("src", [GUARDED_DIVISION, MINIMA], ids=["guarded-division", "minima"])
def test_right_minimum_printing_passes(src, tmp_path):
    result, ver = _check(tmp_path, src, "cse")
    assert not LOST_MINUS.search(result.text) and result.text != src
    assert [v.verdict for v in ver.verdicts] == ["pass"], format_table(ver.verdicts)
