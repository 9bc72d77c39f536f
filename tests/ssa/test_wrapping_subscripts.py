"""Subscripts that wrap (signed arithmetic under -fwrapv, unsigned narrower than an
address) are places by their value: one that equals its leaf (``a[j * 1]``) is ``a[j]``
(expressions.identity_of), two whose operations are all in their type and whose
polynomials agree modulo its width (``a[(i + 5) - 3]``, ``a[i + 2]``) are one place
(expressions.wrapped_place), also where a leaf cancels out of the polynomial
(``a[j + 0 * big]``, ``a[j + (big - big)]`` are ``a[j]``); anything through a
conversion stays a place of its own. The
re-read reads the printed text the same way; gcc's builds print the same."""

from __future__ import annotations

import shutil

import pytest
from difftest import prints_the_same

from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

WRAPPING = """\
#include <stdio.h>
#include <limits.h>
double a[64], b[64];
int idx[64];
void k(int n, int big)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    int j = idx[i];
    unsigned u = (unsigned)j;
    short s = (short)j;
    double x = a[j * 1];
    a[j + big - big] = x * 2.0 + 1.0;
    b[i] = a[j] + a[(j + INT_MAX) - INT_MAX] + x;
    a[u * 1u + 0u] += 1.0;
    b[i] += a[u] + a[s * 1] + a[s];
    a[(int)(unsigned short)(s * 1)] += 0.5;
    b[i] += a[s] * a[(j * 3 - j * 2)] + a[-(-j)];
    a[(j + 5) - 3] = b[i] * 0.25;
    b[i] += a[j + 2] + a[j + 3];
    a[j + 0 * big] = b[i] * 0.5;
    b[i] += a[j + (big - big)] + a[1 * j + 0 * n];
  }
}
int main(void)
{
  for (int i = 0; i < 64; i++) { a[i] = i * 0.5; idx[i] = (i * 7) % 60; }
  k(64, INT_MAX);
  for (int i = 0; i < 64; i++) printf("%a %a\\n", a[i], b[i]);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_wrapping_subscripts_are_places_by_their_value(tmp_path, variant):
    path = tmp_path / "w.c"
    path.write_text(WRAPPING)
    flags = ("-fwrapv",)
    options = Options(variant=variant, preprocess=PreprocessOptions(flags=flags))
    done = rewrite_file(path, options)
    (kernel,) = done.kernels
    assert kernel.status == "rewritten", kernel.reason
    prints_the_same(tmp_path, WRAPPING, done.text, ["-O1", "-ffp-contract=off", *flags])
