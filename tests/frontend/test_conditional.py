"""Conditional compilation inside a kernel body (issue 25): each outermost
``#if``/``#ifdef`` group of whole statements is kept exactly as written, all its
branches, as one statement ordered like a call; the rest of the body is rewritten
around it, and the rewrite prints what the original prints under every choice of
flags."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from difftest import prints_the_same

from accsat.frontend.conditional import find_groups
from accsat.frontend.preprocess import PreprocessOptions
from accsat.frontend.source_map import tokenize
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

PROGRAM = """\
#include <stdio.h>
#define N 64
double a[N], b[N], c[N];

void portable(int n, double s)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] * a[i] + s;
    b[i] = t * a[i] + a[i] * a[i];
#ifdef USE_FMA
    t = t * 2.0;
    c[i] = a[i] * b[i];
#elif defined(OTHER)
    c[i] = 0.0;
#else
    c[i] = a[i] + b[i];
#endif
    b[i] = b[i] * t + a[i] * a[i] + c[i];
    if (t > 0.5) {
#if USE_FMA
      c[i] = c[i] * 2.0;
#endif
      c[i] = c[i] * a[i] + a[i] * a[i];
    }
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = (i % 7) * 0.25 - 0.5; c[i] = i; }
  portable(N, 0.25);
  double sum = 0.0;
  for (int i = 0; i < N; i++) sum += b[i] + 3.0 * c[i];
  printf("%a\\n", sum);
  return 0;
}
"""
GROUP = PROGRAM[PROGRAM.index("#ifdef USE_FMA") : PROGRAM.index("#endif") + len("#endif")]
FLAGS = [[], ["-DUSE_FMA"], ["-DOTHER"]]


def rewrite(tmp_path: Path, variant: str, flags: list[str], text: str = PROGRAM):
    path = tmp_path / "k.c"
    path.write_text(text)
    options = Options(variant=variant, preprocess=PreprocessOptions(flags=tuple(flags)))
    return rewrite_file(path, options)


@pytest.mark.parametrize("flags", FLAGS, ids=["plain", "fma", "other"])
def test_the_body_is_rewritten_around_its_groups(tmp_path, flags):
    done = rewrite(tmp_path, "cse", flags)
    (kernel,) = done.kernels
    assert kernel.status == "rewritten", kernel.reason
    assert GROUP in done.text and "#if USE_FMA\n      c[i] = c[i] * 2.0;\n#endif" in done.text
    # a[i] is loaded again after each group: a group may write any location
    body = done.text[done.text.index("for (int i") : done.text.index("int main")]
    assert body.count("= a[i];") == 3


def test_the_rewrite_does_not_depend_on_the_flags(tmp_path):
    """Every branch's assignments count, so one rewrite serves every configuration."""
    texts = {rewrite(tmp_path, "accsat", flags).text for flags in FLAGS}
    assert len(texts) == 1


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rewritten_program_prints_the_same_under_every_flag(tmp_path, variant):
    new = rewrite(tmp_path, variant, []).text
    for flags in FLAGS:
        cmd = ["-O2", "-ffp-contract=off", "-fopenacc", "-foffload=disable", *flags]
        prints_the_same(tmp_path, PROGRAM, new, cmd)


@pytest.mark.parametrize(
    "body, reason",
    [
        ("{\n  x = a +\n#ifdef F\n  b;\n#else\n  c;\n#endif\n}", "inside a statement"),
        ("{\n  if (p)\n#ifdef F\n    x = 1;\n#endif\n}", "inside a statement"),
        ("{\n  if (p) x = 1;\n#ifdef F\n  else x = 2;\n#endif\n}", "begins with 'else'"),
        ("{\n#ifdef F\n  if (p) x = 1;\n#endif\n  else x = 2;\n}", "before the 'else'"),
        ("{\n#ifdef F\n  for (;;) {\n#else\n  while (1) {\n#endif\n  }\n}", "not whole"),
        ("{\n#pragma omp simd\n#ifdef F\n  x = 1;\n#endif\n}", "after a '#pragma'"),
        ("{\n#define Y 2\n  x = Y;\n}", "directive '#define'"),
        ("{\n#ifdef F\n  x = 1;\n}", "without its '#endif'"),
    ],
)
def test_groups_that_are_not_whole_statements_are_refused(body, reason):
    tokens = tokenize(body)
    found = find_groups(body, tokens, 0, len(tokens))
    assert isinstance(found, str) and reason in found, found


def test_groups_of_whole_statements_are_found():
    body = "{\n  x = 1;\n#if A\n  y = 2;\n#elif B\n  { y = 3; }\n#else\n#endif\n  z = 4;\n}"
    tokens = tokenize(body)
    (group,) = find_groups(body, tokens, 0, len(tokens))
    assert (group.first_line, group.last_line) == (3, 8)
    assert group.text == "#if A\n  y = 2;\n#elif B\n  { y = 3; }\n#else\n#endif"


@pytest.mark.parametrize(
    "group, reason",
    [
        ("#ifdef SKIP\n    continue;\n#endif", "'continue' inside a conditional group"),
        ("#ifdef X\n    double u = a[i];\n    b[i] = u;\n#endif", "a declaration inside"),
    ],
)
def test_groups_that_jump_or_declare_leave_the_kernel_as_written(tmp_path, group, reason):
    """``continue`` in a branch the flags leave out counts too: the rewrite must hold
    whichever branch is compiled."""
    text = PROGRAM.replace("#if USE_FMA\n      c[i] = c[i] * 2.0;\n#endif", group)
    flags = ["-DX"] if "double u" in group else []
    (kernel,) = rewrite(tmp_path, "cse", flags, text).kernels
    assert kernel.status == "unchanged" and reason in kernel.reason, kernel.reason


MACRO_BUMP = """\
#include <stdio.h>
#define N 16
#define BUMP(v) v += 1.0
double a[N], b[N], c[N];

void k(int n, double s)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    double t = a[i] + 1.0;
    b[i] = t * s + a[i];
#ifndef NOBUMP
    BUMP(t);
#endif
    c[i] = t * s + b[i];
  }
}

int main(void)
{
  for (int i = 0; i < N; i++) a[i] = i * 0.5;
  k(N, 0.25);
  double sum = 0.0;
  for (int i = 0; i < N; i++) sum += b[i] + 3.0 * c[i];
  printf("%a\\n", sum);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_an_assignment_through_a_macro_in_a_group_counts(tmp_path):
    """``BUMP(t)`` assigns t: its value after the group is a new one (review finding:
    t * s was shared across the group)."""
    new = rewrite(tmp_path, "cse", [], MACRO_BUMP).text
    for flags in ([], ["-DNOBUMP"]):
        cmd = ["-O1", "-ffp-contract=off", "-fopenacc", "-foffload=disable", *flags]
        prints_the_same(tmp_path, MACRO_BUMP, new, cmd)


@pytest.mark.parametrize(
    "group, reason",
    [
        ("#ifdef B\n      bump(&t);\n#endif", "the address of 't' taken inside"),
        ("#ifdef B\n#pragma omp atomic\n#endif", "ends with a directive"),
    ],
)
def test_groups_that_take_an_address_or_end_with_a_pragma_are_refused(tmp_path, group, reason):
    text = PROGRAM.replace("#if USE_FMA\n      c[i] = c[i] * 2.0;\n#endif", group).replace(
        "double a[N], b[N], c[N];", "double a[N], b[N], c[N];\nvoid bump(double *);"
    )
    (kernel,) = rewrite(tmp_path, "cse", [], text).kernels
    assert kernel.status == "unchanged" and reason in kernel.reason, kernel.reason
