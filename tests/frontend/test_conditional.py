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

from accsat.frontend.conditional import declared_names, find_groups
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
        # b, declared in a branch the flags leave out, is named after the group
        (
            "#ifdef X\n    c[i] = 1.0;\n#else\n    double *b = c;\n    c[i] = 2.0;\n#endif",
            "'b', declared in a conditional group, named after it",
        ),
    ],
)
def test_groups_that_jump_or_declare_leave_the_kernel_as_written(tmp_path, group, reason):
    """``continue`` in a branch the flags leave out counts too, and so does a declaration
    there: the rewrite must hold whichever branch is compiled."""
    old = "#if USE_FMA\n      c[i] = c[i] * 2.0;\n#endif" if "continue" in group else GROUP
    (kernel,) = rewrite(tmp_path, "cse", ["-DX"], PROGRAM.replace(old, group)).kernels
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
        ("#ifdef B\n#pragma omp atomic\n#endif", "puts '#pragma omp atomic' before a statement"),
    ],
)
def test_groups_that_take_an_address_or_end_with_a_pragma_are_refused(tmp_path, group, reason):
    text = PROGRAM.replace("#if USE_FMA\n      c[i] = c[i] * 2.0;\n#endif", group).replace(
        "double a[N], b[N], c[N];", "double a[N], b[N], c[N];\nvoid bump(double *);"
    )
    (kernel,) = rewrite(tmp_path, "cse", [], text).kernels
    assert kernel.status == "unchanged" and reason in kernel.reason, kernel.reason


# a declaration in a group, named only in the group (and in a later one); a group that
# only puts a directive before the inner loop after it (OpenACC builds only)
DECLARING = PROGRAM.replace(
    "#ifdef USE_FMA\n    t = t * 2.0;\n    c[i] = a[i] * b[i];\n",
    "#ifdef USE_FMA\n    double u = a[i] * b[i];\n    t = t * 2.0;\n    c[i] = u + u;\n",
).replace(
    "    if (t > 0.5) {",
    "#if defined(_OPENACC)\n#pragma acc loop seq\n#endif\n    for (int k = 0; k < 3; k++)\n"
    "      b[i] += a[i] * a[i] * k;\n#ifdef USE_FMA\n    b[i] += 0.5;\n#endif\n"
    "    if (t > 0.5) {",
)


@pytest.mark.parametrize("flags", FLAGS, ids=["plain", "fma", "other"])
def test_a_group_may_declare_and_a_group_may_hold_a_directive(tmp_path, flags):
    done = rewrite(tmp_path, "cse", flags, DECLARING)
    (kernel,) = done.kernels
    assert kernel.status == "rewritten", kernel.reason
    # the group of directives stays right before its loop; the rewrite is the same
    assert "#if defined(_OPENACC)\n#pragma acc loop seq\n#endif\n    for (int k" in done.text
    assert done.text == rewrite(tmp_path, "cse", [], DECLARING).text


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("variant", VARIANTS)
def test_declaring_and_directive_groups_print_the_same_under_every_flag(tmp_path, variant):
    new = rewrite(tmp_path, variant, ["-DUSE_FMA"], DECLARING).text
    for flags in FLAGS:
        for model in ("-fopenacc", "-fopenmp"):
            cmd = ["-O2", "-ffp-contract=off", model, "-foffload=disable", *flags]
            prints_the_same(tmp_path, DECLARING, new, cmd)


@pytest.mark.parametrize(
    "directive, why",
    [
        # (a parallel loop directive of the branch the flags select would make the inner
        # loop the kernel: the outer body is not one)
        ("#pragma acc loop seq\n#else\n#pragma omp simd", "puts '#pragma omp simd' before"),
        (
            "#pragma acc loop seq\n#elif defined(X)\n#pragma acc loop vector",
            "puts '#pragma acc loop vector' before",
        ),
        ("#pragma GCC unroll 4", None),
        ("#pragma acc loop seq\n#else\n#pragma GCC unroll 2", None),
    ],
)
def test_a_group_of_directives_is_kept_when_no_branch_parallelises(tmp_path, directive, why):
    text = DECLARING.replace("#pragma acc loop seq", directive)
    (kernel,) = rewrite(tmp_path, "cse", [], text).kernels
    if why is None:
        assert kernel.status == "rewritten", kernel.reason
    else:
        assert kernel.status == "unchanged" and why in kernel.reason, kernel.reason


def test_declared_names_reads_every_branch():
    text = (
        "#ifdef X\n double u = a[i], *w = &b[k];\n real q;\n struct P { int z; } p = {1};\n"
        " if (x) { double inner = 1; }\n c[i] = u;\n#else\n float v;\n#endif\n"
    )
    found = declared_names(tokenize(text), lambda name: name == "real")
    assert {"u", "w", "q", "p", "v"} <= found
    assert not found & {"a", "b", "k", "i", "c", "inner", "x", "real", "double"}
