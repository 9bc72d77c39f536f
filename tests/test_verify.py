"""Translation validation (accsat.verify): the interpreter, the checks, the API.

* C semantics of the interpreter against gcc on the same inputs;
* hand-written rewrites, right and wrong, of small kernels: what passes, what
  fails and why (aliasing, speculative loads, UB only in the rewrite, calls...);
* the file-level API: kernel matching, putting failed bodies back, the table,
  ``accsat check``; every corpus kernel checked for every variant.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from difftest import CC, KERNELS, kernel_id

from accsat.check import check_file
from accsat.frontend.kernels import find_kernels
from accsat.frontend.parse import parse
from accsat.frontend.preprocess import PreprocessOptions, preprocess
from accsat.frontend.source_map import SourceMap
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from accsat.verify import (
    Tolerance,
    format_table,
    tolerance_for,
    verify_body,
    verify_file,
)
from accsat.verify.interp import compile_body, execute
from accsat.verify.states import TrialState

ROOT = Path(__file__).resolve().parent.parent


def kernels_of(src: str, tmp_path: Path, name: str = "k.c"):
    path = tmp_path / name
    path.write_text(src)
    ast = parse(preprocess(path, PreprocessOptions()), str(path))
    kernels, symbols = find_kernels(ast, SourceMap(src), str(path))
    return kernels, symbols, path


def check(
    decls: str,
    body: str,
    new_body: str,
    tmp_path: Path,
    tolerance=None,
    trials: int = 24,
    params: str = "int n, int k, double s",
):
    """verify_body of ``new_body`` against a kernel whose body is ``body``."""
    src = (
        f"#include <math.h>\n{decls}\nvoid f({params})\n{{\n  int i;\n"
        f"#pragma acc parallel loop\n  for (i = 0; i < n; i++)\n  {body}\n}}\n"
    )
    kernels, symbols, _ = kernels_of(src, tmp_path)
    assert len(kernels) == 1
    return verify_body(
        kernels[0],
        symbols,
        new_body,
        None,
        defined=frozenset({"f"}),
        trials=trials,
        tolerance=tolerance,
    )


# ------------------------------------------------------------------------------------------
# C semantics: the interpreter against gcc

SEMANTICS = [
    # (type of the result, expression over the parameters below)
    ("unsigned", "u * 4294967295u + 7u"),
    ("unsigned", "(unsigned)(c + 200)"),
    ("int", "c + sh"),  # promotions of char and short
    ("int", "-7 / 2"),
    ("int", "-7 % 3"),
    ("int", "x >> 3"),  # right shift of a negative int: arithmetic in gcc
    ("unsigned", "u >> 31"),
    ("unsigned", "u << 7"),
    ("int", "(signed char)(x * 37)"),
    ("int", "(short)(u)"),
    ("int", "x < u"),  # x converted to unsigned
    ("int", "l < u"),
    ("long", "l * 3 - u"),
    ("unsigned", "(unsigned)(-x)"),
    ("double", "(double)x / 3"),
    ("float", "f * f + 0.1f"),
    ("float", "(float)(d * 3.0)"),
    ("float", "(float)16777217"),  # int -> float rounds to even
    ("float", "(float)bigl"),  # long -> float: one rounding
    ("double", "(double)bigl"),
    ("double", "d / 0.0"),
    ("double", "-d * 0.0"),
    ("float", "f / 3.0f - f * 0.3333333f"),
    ("double", "f + d"),  # float promoted to double
    ("int", "(int)(d * 100.7)"),
    ("unsigned", "(unsigned)(d * 1e9)"),
    ("double", "sqrt(d)"),
    ("float", "sqrtf(f)"),
    ("double", "round(2.5) + round(-2.5) + round(d)"),
    ("double", "rint(2.5) + rint(3.5)"),
    ("double", "floor(-d) + ceil(-d) + trunc(-d)"),
    ("double", "fmod(d * 7.0, 2.5)"),
    ("double", "fma(d, d, -1.0)"),
    ("float", "fmaf(f, f, -1.0f)"),
    ("double", "fmin(d, f) + fmax(d, -d) + copysign(d, -1.0) + fdim(d, 1.0)"),
    ("double", "fabs(-d)"),
    ("int", "abs(x)"),
    ("double", "x ? d : f"),
    ("double", "(x > 0 && d > 1.0) || !u ? 1.5 : -2.5"),
    ("int", "sizeof(long) + sizeof x + sizeof(short)"),
]
PARAMS = "unsigned u, int x, char c, short sh, long l, double d, float f, long bigl"
ARGS = "3000000000u, -1234567, (char)-5, (short)-300, -40000L, 1.375, 2.3f, 9007199254740993L"
VALUES = {
    "u": 3000000000,
    "x": -1234567,
    "c": -5,
    "sh": -300,
    "l": -40000,
    "d": 1.375,
    "f": None,
    "bigl": 9007199254740993,
}
_OUT = {
    "unsigned": ("ou", "%u"),
    "int": ("oi", "%d"),
    "long": ("ol", "%ld"),
    "double": ("od", "%a"),
    "float": ("of", "%a"),
}


def test_interpreter_matches_gcc(tmp_path):
    import numpy as np

    lines = [f"    {_OUT[t][0]}[{n}] = {e};" for n, (t, e) in enumerate(SEMANTICS)]
    src = (
        "#include <stdio.h>\n#include <math.h>\n#include <stdlib.h>\n"
        "unsigned ou[64]; int oi[64]; long ol[64]; double od[64]; float of[64];\n"
        f"void f(int n, {PARAMS})\n{{\n  int i;\n#pragma acc parallel loop\n"
        "  for (i = 0; i < n; i++) {\n" + "\n".join(lines) + "\n  }\n}\n"
        f"int main(void)\n{{\n  f(1, {ARGS});\n"
    )
    for n, (t, _e) in enumerate(SEMANTICS):
        name, fmt = _OUT[t]
        cast = "(double)" if t == "float" else ""
        src += f'  printf("{fmt}\\n", {cast}{name}[{n}]);\n'
    src += "  return 0;\n}\n"
    path = tmp_path / "sem.c"
    path.write_text(src)
    exe = tmp_path / "sem.x"
    subprocess.run(
        [
            CC,
            "-O0",
            "-fopenacc",
            "-foffload=disable",
            "-ffp-contract=off",
            str(path),
            "-o",
            str(exe),
            "-lm",
        ],
        check=True,
    )
    expected = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()

    kernels, symbols, _ = kernels_of(src, tmp_path, "sem2.c")
    prog = compile_body(kernels[0].loop.stmt, kernels[0].scope, symbols, frozenset({"f", "main"}))
    values = dict(VALUES, f=np.float32(2.3), i=0, n=1)
    state = TrialState(1, 0, 0, scalars={k: v for k, v in values.items() if k in prog.outer_vars})
    state.sizes.update({o: s for o, _t, s in prog.outer_objects.values()})
    run = execute(prog, state)
    for n, (t, e) in enumerate(SEMANTICS):
        name, _fmt = _OUT[t]
        size = {"ou": 4, "oi": 4, "ol": 8, "od": 8, "of": 4}[name]
        got = run.mem["g:" + name][n * size][1]
        want = expected[n]
        if t in ("double", "float"):
            w = float(want) if want.lstrip("-") in ("nan", "inf") else float.fromhex(want)
            g = float(got)
            same = (g != g and w != w) or (g == w and np.signbit(g) == np.signbit(w))
            assert same, f"{e}: gcc {want}, interpreter {g.hex()}"
        else:
            assert str(got) == want, f"{e}: gcc {want}, interpreter {got}"


# ------------------------------------------------------------------------------------------
# right and wrong rewrites of small kernels

DECLS = "double a[64], b[64], c[64]; float fa[64], fb[64]; int ia[64];"


def test_equivalent_rewrite_passes(tmp_path):
    v = check(
        DECLS,
        "{ a[i] = b[i] * 2.0 + b[i]; c[i] = b[i] - a[i]; }",
        "{ double _v0 = b[i]; double _v1 = _v0 * 2.0 + _v0; a[i] = _v1; c[i] = _v0 - _v1; }",
        tmp_path,
    )
    assert v.verdict == "pass", v.message
    assert v.states_tried >= 24 and v.max_rel_error == 0 and v.tolerance is None


def test_changed_constant_fails(tmp_path):
    v = check(DECLS, "{ a[i] = b[i] * 2.0; }", "{ a[i] = b[i] * 2.5; }", tmp_path)
    assert v.verdict == "fail"
    assert "a at byte" in v.message and "trial" in v.message


def test_dropped_store_fails(tmp_path):
    v = check(DECLS, "{ a[i] = 1.0; c[i] = b[i]; }", "{ c[i] = b[i]; }", tmp_path)
    assert v.verdict == "fail"


def test_forwarding_a_store_to_the_same_array(tmp_path):
    # a[i] then a[i + k]: a load of a[i + k] may not reuse b[i]'s value... unless k == 0
    body = "{ a[i] = b[i]; c[i] = a[i + k]; }"
    assert (
        check(DECLS, body, "{ double _v0 = b[i]; a[i] = _v0; c[i] = a[i + k]; }", tmp_path).verdict
        == "pass"
    )
    v = check(DECLS, body, "{ double _v0 = a[i + k]; a[i] = b[i]; c[i] = _v0; }", tmp_path)
    assert v.verdict == "fail"  # k == 0 in some trial


def test_load_above_aliasing_pointer_store_fails(tmp_path):
    params = "int n, double *p, double *q, double *r"
    body = "{ p[i] = 1.0; r[i] = q[i]; }"
    v = check("", body, "{ double _v0 = q[i]; p[i] = 1.0; r[i] = _v0; }", tmp_path, params=params)
    assert v.verdict == "fail", "p and q may alias"
    assert "aliasing" in v.message


def test_restrict_pointers_are_not_aliased(tmp_path):
    params = "int n, double *restrict p, double *restrict q, double *restrict r"
    body = "{ p[i] = 1.0; r[i] = q[i]; }"
    v = check("", body, "{ double _v0 = q[i]; p[i] = 1.0; r[i] = _v0; }", tmp_path, params=params)
    assert v.verdict == "pass", v.message


def test_pointer_into_a_global_array(tmp_path):
    params = "int n, double *p"
    body = "{ p[i] = 2.0; c[i] = a[i] + 1.0; }"
    v = check(
        DECLS, body, "{ double _v0 = a[i]; p[i] = 2.0; c[i] = _v0 + 1.0; }", tmp_path, params=params
    )
    assert v.verdict == "fail", "p may point into a"


def test_float_temporary_as_double_fails(tmp_path):
    body = "{ float t = fa[i] * fb[i]; fa[i] = t * t * t + fb[i]; }"
    ok = "{ float _v0 = fa[i] * fb[i]; fa[i] = _v0 * _v0 * _v0 + fb[i]; }"
    assert check(DECLS, body, ok, tmp_path).verdict == "pass"
    bad = "{ double _v0 = fa[i] * fb[i]; fa[i] = _v0 * _v0 * _v0 + fb[i]; }"
    assert check(DECLS, body, bad, tmp_path).verdict == "fail"


def test_original_ub_states_are_skipped(tmp_path):
    v = check(DECLS, "{ ia[i] = k / (n - 3); }", "{ int _v0 = n - 3; ia[i] = k / _v0; }", tmp_path)
    assert v.verdict == "pass"
    assert v.skipped > 0 and any("division by zero" in r for r in v.skip_reasons)


def test_ub_only_in_the_rewrite_fails(tmp_path):
    v = check(
        DECLS,
        "{ if (k != 0) ia[i] = n / k; }",
        "{ int _v0 = n / k; if (k != 0) ia[i] = _v0; }",
        tmp_path,
    )
    assert v.verdict == "fail"
    assert "undefined behaviour" in v.message and "division by zero" in v.message


def test_signed_overflow_only_in_the_rewrite_fails(tmp_path):
    # (k + n) - n is k; k + (n - n) is k too, but k * 65536 * 65536 overflows
    body = "{ ia[i] = (k * 65536) / 65536; }"
    v = check(DECLS, body, "{ ia[i] = k; }", tmp_path)
    assert v.verdict == "pass"  # the original overflows only where the rewrite may do anything
    v = check(DECLS, "{ ia[i] = k; }", "{ ia[i] = (k * 65536) / 65536; }", tmp_path)
    assert v.verdict == "fail" and "signed overflow" in v.message


def test_unsigned_wraps(tmp_path):
    decls = "unsigned ua[64];"
    v = check(decls, "{ ua[i] = ua[i] * 4294967295u; }", "{ ua[i] = -ua[i]; }", tmp_path)
    assert v.verdict == "pass", v.message


def test_speculative_load_fails(tmp_path):
    params = "int n, int k, double *p"
    body = "{ if (k > 2) c[i] = p[i + 100]; }"
    v = check(
        DECLS, body, "{ double _v0 = p[i + 100]; if (k > 2) c[i] = _v0; }", tmp_path, params=params
    )
    assert v.verdict == "fail" and "speculative" in v.message


def test_out_of_bounds_only_in_the_rewrite_fails(tmp_path):
    v = check(
        DECLS,
        "{ if (k < 0) c[i] = a[i - 100]; }",
        "{ double _v0 = a[i - 100]; if (k < 0) c[i] = _v0; }",
        tmp_path,
    )
    assert v.verdict == "fail" and "outside" in v.message


def test_load_moved_across_an_opaque_call_fails(tmp_path):
    decls = DECLS + " void poke(double *x);"
    body = "{ poke(&a[i]); c[i] = a[i]; }"
    assert (
        check(decls, body, "{ poke(&a[i]); double _v0 = a[i]; c[i] = _v0; }", tmp_path).verdict
        == "pass"
    )
    v = check(decls, body, "{ double _v0 = a[i]; poke(&a[i]); c[i] = _v0; }", tmp_path)
    assert v.verdict == "fail"


def test_store_moved_across_an_opaque_call_fails(tmp_path):
    decls = DECLS + " double peek(int j);"
    body = "{ a[i] = 3.0; c[i] = peek(i); }"
    v = check(decls, body, "{ double _v0 = peek(i); a[i] = 3.0; c[i] = _v0; }", tmp_path)
    assert v.verdict == "fail" and "seen by call" in v.message


def test_guarded_call_made_unconditional_fails(tmp_path):
    decls = DECLS + " int probe(int j);"
    body = "{ if (k > 1 && probe(i)) c[i] = 1.0; }"
    v = check(decls, body, "{ int _v0 = probe(i); if (k > 1 && _v0) c[i] = 1.0; }", tmp_path)
    assert v.verdict == "fail" and "calls differ" in v.message


def test_live_out_scalar_is_compared(tmp_path):
    src_body = "{ t = a[i] * 2.0; c[i] = t; }"
    params = "int n, double t"
    v = check(DECLS, src_body, "{ double _v0 = a[i] * 2.0; c[i] = _v0; }", tmp_path, params=params)
    assert v.verdict == "fail" and "variable 't'" in v.message


def test_inner_loop_and_step_limit(tmp_path):
    body = "{ double s = 0.0; int m; for (m = 0; m < k; m++) s += a[m]; c[i] = s; }"
    v = check(
        DECLS,
        body,
        "{ double s = 0.0; int m; for (m = 0; m < k; m++) s = s + a[m]; c[i] = s; }",
        tmp_path,
    )
    assert v.verdict == "pass"
    # k odd: the original never stops; those states are skipped
    v = check(
        DECLS,
        "{ int m = 0; while (m != k) m += 2; c[i] = m; }",
        "{ int _v0 = 0; while (_v0 != k) _v0 += 2; c[i] = _v0; }",
        tmp_path,
    )
    assert v.verdict == "pass" and any("step limit" in r for r in v.skip_reasons)


def test_reassociation_needs_a_tolerance(tmp_path):
    body = "{ c[i] = (a[i] + b[i]) + s; }"
    new = "{ c[i] = a[i] + (b[i] + s); }"
    v = check(DECLS, body, new, tmp_path)
    assert v.verdict == "fail"  # not bit-exact in some state
    v = check(DECLS, body, new, tmp_path, tolerance=Tolerance())
    assert v.verdict == "pass" and 0 < v.max_rel_error < 1e-9


def test_negative_zero_is_not_zero(tmp_path):
    v = check(DECLS, "{ c[i] = a[i] + 0.0; }", "{ c[i] = a[i]; }", tmp_path, trials=48)
    assert v.verdict == "fail" and "-0x0.0p+0" in v.message


def test_unsupported_body(tmp_path):
    v = check(DECLS, "{ switch (k) { case 1: c[i] = 1.0; } }", "{ c[i] = 1.0; }", tmp_path)
    assert v.verdict == "unsupported" and "switch" in v.message


def test_unparsable_rewrite_fails(tmp_path):
    v = check(DECLS, "{ c[i] = 1.0; }", "{ c[i] = ; }", tmp_path)
    assert v.verdict == "fail" and "parse" in v.message


# ------------------------------------------------------------------------------------------
# files


def test_tolerance_for_options():
    assert tolerance_for(Options(variant="cse")) is None
    assert tolerance_for(Options(variant="cse+bulk")) is None
    assert tolerance_for(Options(variant="accsat", fp_exact=True)) is None
    assert tolerance_for(Options(variant="cse+sat")) == Tolerance()


def test_failed_kernel_is_put_back(tmp_path):
    path = ROOT / "tests/kernels/raw_war_acc.c"
    options = Options(variant="cse")
    text = rewrite_file(path, options).text
    broken = text.replace("b[i] = _v1;", "b[i] = _v1 + 1.0;", 1)
    assert broken != text
    ver = verify_file(path, broken, options)
    assert [v.verdict for v in ver.verdicts] == ["fail", "pass"]
    assert ver.reverted == [0]
    good = verify_file(path, ver.text, options)
    assert [v.verdict for v in good.verdicts] == ["unchanged", "pass"]
    # the second kernel keeps its rewrite
    assert "_v" in ver.text.split("two_spellings")[1]
    # the same through a full re-parse
    ver2 = verify_file(path, broken, options, reparse=True)
    assert [v.verdict for v in ver2.verdicts] == ["fail", "pass"] and ver2.text == ver.text


def test_cannot_match_kernels(tmp_path):
    path = ROOT / "tests/kernels/raw_war_acc.c"
    options = Options(variant="cse")
    text = rewrite_file(path, options).text
    fewer = text.replace("#pragma acc parallel loop copy(e) copyin(b)", "", 1)
    ver = verify_file(path, fewer, options)
    assert all(v.verdict == "fail" and "cannot match kernels" in v.message for v in ver.verdicts)
    assert ver.text == path.read_text()


def test_verify_body_is_the_pipeline_hook(tmp_path):
    from accsat.verify.validate import _bodies_in_place

    path = ROOT / "tests/kernels/omp_alias.c"
    options = Options(variant="accsat")
    text = rewrite_file(path, options).text
    src = path.read_text()
    ast = parse(preprocess(path, options.preprocess), str(path))
    kernels, symbols = find_kernels(ast, SourceMap(src), str(path))
    bodies = _bodies_in_place(src, text, kernels)
    verdicts = []
    for k, (body, _span) in zip(kernels, bodies, strict=True):
        v = verify_body(k, symbols, body, options, defined=frozenset({"main"}))
        assert v.verdict in ("pass", "unchanged"), v.message
        assert v.tolerance == Tolerance()
        verdicts.append(v.verdict)
    assert "pass" in verdicts
    wrong = bodies[0][0].replace("2.0", "2.5", 1)
    assert wrong != bodies[0][0]
    assert verify_body(kernels[0], symbols, wrong, options).verdict == "fail"


def test_check_file_and_table(tmp_path):
    result, ver = check_file(ROOT / "tests/kernels/cg_spmv_acc.c", Options(variant="cse"))
    assert len(result.kernels) == len(ver.verdicts) == 3 and ver.ok
    table = format_table(ver.verdicts)
    assert "states" in table and "skipped" in table and "max rel err" in table
    assert [line.split()[-1] for line in table.splitlines()[1:4]] == [
        v.verdict for v in ver.verdicts
    ]
    assert all(v.verdict in ("pass", "unchanged") for v in ver.verdicts)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("kernel", KERNELS, ids=kernel_id)
def test_corpus_rewrites_validate(kernel, variant):
    options = Options(variant=variant, extract_seconds=5)
    ver = verify_file(kernel, rewrite_file(kernel, options).text, options, trials=16)
    bad = [v for v in ver.verdicts if v.verdict in ("fail", "unsupported")]
    assert not bad, format_table(ver.verdicts)


def test_line_directives_as_accsat_cc_writes_them():
    """accsat-cc's rewrites carry #line directives: matched by a full re-parse."""
    path = ROOT / "tests/kernels/raw_war_acc.c"
    options = Options(variant="cse", line_directives=str(path))
    text = rewrite_file(path, options).text
    assert "#line" in text
    ver = verify_file(path, text, options)
    assert [v.verdict for v in ver.verdicts] == ["pass", "pass"]
    broken = text.replace("b[i] = _v1;", "b[i] = _v1 + 1.0;", 1)
    assert [v.verdict for v in verify_file(path, broken, options).verdicts] == ["fail", "pass"]


def test_fused_multiply_add_past_the_range_of_double():
    """fma(1e300, 1e300, 1) overflows to inf as in C, not a Python OverflowError
    (found by benchmarks/fuzz.py: the checker called such a kernel unsupported)."""
    from fractions import Fraction

    from accsat.verify.cvalues import fma32, fma64, round_f32

    assert fma64(1e300, 1e300, 1.0) == float("inf")
    assert fma64(-1e300, 1e300, 1.0) == float("-inf")
    assert round_f32(Fraction(10) ** 400) == float("inf")
    assert round_f32(-(Fraction(10) ** 400)) == float("-inf")
    assert fma32(3e38, 3e38, 1.0) == float("inf")
