"""No gain, no change; statements whose computation did not change print as written
(accsat/codegen/keep.py, layout.py; docs/rewrites.md)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file

GCC = shutil.which("gcc")

NOTHING_TO_SHARE = """\
#define N 64
typedef double real;
real a[N], b[N], c[N];
void k(int n, real s)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    c[i] = a[i] * s + b[i];  /* one load each */
  }
#pragma acc parallel loop
  for (i = 0; i < n; i++)
    c[i] += a[i] * s;
}
"""


def _rewrite(tmp_path, text: str, variant: str, **kw):
    path = tmp_path / "k.c"
    path.write_text(text)
    return rewrite_file(path, Options(variant=variant, **kw))


def _compiles(tmp_path, text: str) -> None:
    if GCC is None:
        pytest.skip("gcc not found")
    path = tmp_path / "out.c"
    path.write_text(text)
    proc = subprocess.run(
        [GCC, "-fsyntax-only", "-Wno-unknown-pragmas", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr + text


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_nothing_to_share_is_byte_identical(tmp_path, variant):
    """Nothing shared, no identity, no load that could move above a store: every
    variant leaves the file as written (an FMA printed as a + b * c is no gain)."""
    result = _rewrite(tmp_path, NOTHING_TO_SHARE, variant)
    assert result.text == NOTHING_TO_SHARE
    assert [(k.status, k.reason) for k in result.kernels] == [("unchanged", "no gain")] * 2


def test_a_rewritten_kernel_keeps_the_statements_that_did_not_change(tmp_path):
    text = NOTHING_TO_SHARE.replace(
        "    c[i] = a[i] * s + b[i];  /* one load each */\n",
        "    c[i] = b[i] * s + N;  /* one load each */\n    // shared\n    b[i] = a[i] * a[i];\n",
    )
    result = _rewrite(tmp_path, text, "cse")
    assert [k.status for k in result.kernels] == ["rewritten", "unchanged"]
    out = result.text
    assert (
        "    c[i] = b[i] * s + N;  /* one load each */\n"
        "    real _v0 = a[i];\n    // shared\n    b[i] = _v0 * _v0;\n" in out
    ), out
    _compiles(tmp_path, out)


def test_a_declaration_of_several_declarators_is_printed_once(tmp_path):
    """Two parser nodes, one text: kept once (it was printed twice)."""
    text = NOTHING_TO_SHARE.replace(
        "    c[i] = a[i] * s + b[i];  /* one load each */\n",
        "    double u1[4], u2[4];\n    u1[0] = a[i]; u2[0] = a[i] * a[i];\n"
        "    c[i] = u1[0] + u2[0];\n",
    )
    for variant in VARIANTS:
        out = _rewrite(tmp_path, text, variant).text
        assert out.count("double u1[4], u2[4];") == 1, out
        _compiles(tmp_path, out)


def test_unbraced_branches_stay_unbraced(tmp_path):
    text = NOTHING_TO_SHARE.replace(
        "    c[i] = a[i] * s + b[i];  /* one load each */\n",
        "    if (a[i] > 0.0)\n      c[i] = b[i] * 2;\n    else\n      c[i] = a[i] * a[i];\n",
    )
    out = _rewrite(tmp_path, text, "cse").text
    assert (
        "    if (_v0 > 0.0)\n      c[i] = b[i] * 2;\n    else\n      c[i] = _v0 * _v0;\n" in out
    ), out
    _compiles(tmp_path, out)


def test_report_prices_the_printed_body(tmp_path):
    text = NOTHING_TO_SHARE.replace("a[i] * s + b[i]", "a[i] * a[i] + b[i]")
    (k, _) = _rewrite(tmp_path, text, "cse").kernels
    assert k.status == "rewritten"
    assert k.cost["printed"] < k.cost["original"]
    assert k.loads["after"] < k.loads["before"]


EDGES = """\
#include <stdio.h>
#define TWO(x) a[i] = x; b[i] = x * 2
#define ONE(x) c[i] = (x)
#define NOTHING
double a[64], b[64], c[64], d[64];
int main(void)
{
  int i;
  for (i = 0; i < 64; i++) { a[i] = i; b[i] = 2 * i; c[i] = 0; d[i] = 1 + i % 3; }
#pragma acc parallel loop
  for (i = 0; i < 60; i++) {
    ONE(a[i + 1] * 3.0); NOTHING;
    d[i] = a[i] + d[i] * d[i];   d[i+1] += 1.0;
    { double t = b[i]; c[i] += t * t; }
    if (a[i] > 3) { c[i] = 1; } else if (a[i] > 1) c[i] = 2; else c[i] = d[i] * d[i];
    do { c[i] += 1.0; } while (c[i] < 3.0);
  }
#pragma acc parallel loop
  for (i = 0; i < 60; i++) {
    TWO(d[i] * d[i]);
    c[i] = c[i] * 1 + a[i] * a[i];
  }
  for (i = 0; i < 64; i++) printf("%a %a %a %a\\n", a[i], b[i], c[i], d[i]);
  return 0;
}
"""


def _run(tmp_path, text: str, name: str) -> str:
    src = tmp_path / f"{name}.c"
    src.write_text(text)
    exe = tmp_path / name
    subprocess.run([GCC, "-O1", "-ffp-contract=off", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_statements_on_one_line_macros_and_else_if(tmp_path, variant):
    """Statements sharing a line, a macro that is several statements (that block is
    not matched with the text: printed as before), a braced block, an else-if chain, a
    do-while: the output runs as the original (bit for bit for the exact variants)."""
    if GCC is None:
        pytest.skip("gcc not found")
    result = _rewrite(tmp_path, EDGES, variant)
    assert all(k.status == "rewritten" for k in result.kernels), result.kernels
    out = result.text
    assert "(double)1" not in out and "(double)2" not in out  # constants are never temporaries
    assert "} else if (" in out
    expected, got = _run(tmp_path, EDGES, "orig"), _run(tmp_path, out, "new")
    if not VARIANTS[variant].fp_changing:
        assert got == expected
    else:
        pairs = zip(got.split(), expected.split(), strict=True)
        assert all(
            abs(float.fromhex(x) - float.fromhex(y)) <= 1e-9 * abs(float.fromhex(y))
            for x, y in pairs
        )


MACROS = """\
#define NX 16
#define U(i, c) u[(i) + NX * (c)]
typedef double real;
real u[NX * 4], w[NX];
void k(int n, real s)
{
  int i;
#pragma acc parallel loop
  for (i = 0; i < n; i++) {
    w[i] = U(i, 1) * s;  // as written
    U(i, 2) = U(i, 0) * U(i, 0);
  }
}
"""


@pytest.mark.parametrize("variant", ["cse", "accsat"])
def test_statements_with_macros_and_comments_verify(tmp_path, variant):
    """A statement kept as written may use the user's macros and comments: the
    checker preprocesses such a body instead of failing it (--verify, accsat check)."""
    from accsat.verify import verify_file

    result = _rewrite(tmp_path, MACROS, variant, verify=True)
    (k,) = result.kernels
    assert k.status == "rewritten" and k.verification["verdict"] == "pass", k
    assert "    w[i] = U(i, 1) * s;  // as written\n" in result.text
    ver = verify_file(tmp_path / "k.c", result.text, Options(variant=variant))
    assert [v.verdict for v in ver.verdicts] == ["pass"]
