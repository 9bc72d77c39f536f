"""Every C literal form accsat can meet, printed inside a rewritten statement, in every
variant: the rewritten program prints exactly what gcc's build of the original prints.

Each form is one kernel ``r[i] = E + E`` (the two ``E`` become one temporary, so the
statement is rewritten and ``E`` printed by accsat); ``E`` holds the literal, and
where the variants fold it (assoc-const, fold-int, the float folds of the rule
variants) the printed literal is one accsat made (``frontend/literals.py``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

CFLAGS = ["-O1", "-fopenacc", "-foffload=disable", "-ffp-contract=off", "-w"]

# name: (element type, its printf format, initial values, E with @ for a[i])
FORMS: dict[str, tuple[str, str, str, str]] = {
    "int minimum folded": ("int", "%d", "0, 1, 1, 0", "(@ & 1) * -65536 * 32768"),
    "INT_MIN": ("int", "%d", "0, 1, -1, 7", "(@ == 7 ? INT_MIN : @) / 2"),
    "int minimum written": ("int", "%d", "0, 1, -1, 7", "@ != (-2147483647 - 1) ? @ : 3"),
    "long minimum folded": ("long", "%ld", "0, 1, 1, 0", "(@ & 1) * -4294967296L * 2147483648L"),
    "LLONG_MIN": ("long long", "%lld", "0, 1, -1, 7", "(@ == 7 ? LLONG_MIN : @) / 4"),
    "long long suffix": ("long long", "%lld", "0, 1, -1, 7", "@ * 3LL * 5LL"),
    "unsigned suffix": ("unsigned", "%u", "0, 1, 4000000000u, 7", "@ * 3u * 5u"),
    "UINT_MAX": ("unsigned", "%u", "0, 1, 4000000000u, 7", "@ + UINT_MAX + 2u"),
    "unsigned long suffix": ("unsigned long", "%lu", "0, 1, 2, 7", "@ * 2UL * 3UL + 0xffffffffUL"),
    "ULLONG_MAX": ("unsigned long long", "%llu", "0, 1, 2, 7", "@ * 7ULL + ULLONG_MAX"),
    "hex and octal": ("int", "%d", "0, 1, -5, 7", "(@ + 0x10 + 0x7f) * 010 + 0777"),
    "char constants": ("int", "%d", "0, 1, -5, 7", "@ + 'a' + '\\n' + '\\x7f' + '\\0'"),
    "signed char cast": ("int", "%d", "0, 1, 300, 7", "(signed char)(@ + 200) + (unsigned char)-1"),
    "float suffix": ("float", "%a", "0.5f, 1.0f, -3.25f, 7.0f", "@ * 1.5f + (1.0f / 3.0f)"),
    "double": ("double", "%a", "0.5, 1.0, -3.25, 7.0", "@ * 0.1 + 1e-300 * 1e-10"),
    "negative zero": ("double", "%a", "0.0, -0.0, -3.25, 7.0", "@ * -0.0 + -0.0"),
    "hex float": ("double", "%a", "0.5, 1.0, -3.25, 7.0", "@ * 0x1.8p3 + 0x1p-1074"),
    "DBL_MAX": ("double", "%a", "0.5, 1.0, -3.25, 7.0", "@ * DBL_MAX / 2.0 + DBL_MIN"),
    "FLT_MAX": ("float", "%a", "0.5f, 1.0f, -0.25f, 0.0f", "@ * FLT_MAX + FLT_MIN"),
    "INFINITY and HUGE_VAL": (
        "double",
        "%a",
        "0.5, 1.0, -3.25, 7.0",
        "fmin(@, INFINITY) * 2.0 - fmax(-HUGE_VAL, @)",
    ),
    "NAN": ("double", "%a", "0.5, 1.0, -3.25, 7.0", "fmax(@, NAN) * 2.0"),
    "long double": ("long double", "%La", "0.5L, 1.0L, -3.25L, 7.0L", "@ * 1.1L + 0.1L"),
}


def program(ty: str, fmt: str, init: str, expr: str) -> str:
    e = expr.replace("@", "a[i]")
    return f"""#include <stdio.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#define N 4
{ty} a[N] = {{ {init} }}, r[N];
int main(void)
{{
  int i;
#pragma acc parallel loop
  for (i = 0; i < N; i++) {{
    r[i] = ({e}) + ({e});
  }}
  for (i = 0; i < N; i++) printf("{fmt}\\n", r[i]);
  return 0;
}}
"""


def run(src: Path, exe: Path) -> str:
    subprocess.run(
        ["gcc", *CFLAGS, "-o", str(exe), str(src), "-lm"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=60).stdout


@pytest.mark.parametrize("form", sorted(FORMS))
def test_literal_form_prints_what_the_original_prints(tmp_path, form):
    src = tmp_path / "k.c"
    src.write_text(program(*FORMS[form]))
    expected = run(src, tmp_path / "orig")
    for variant in VARIANTS:
        result = rewrite_file(src, Options(variant=variant))
        (k,) = result.kernels
        assert k.status == "rewritten", f"{variant}: {k.reason}"
        out = tmp_path / f"{variant.replace('+', '_')}.c"
        out.write_text(result.text)
        assert run(out, tmp_path / "rw") == expected, f"{variant}:\n{result.text}"
