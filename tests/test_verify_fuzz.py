"""The fuzzer in CI: generated kernels, every variant, compiled and interpreted.

* ``test_generated_kernels_N`` (three shards): hypothesis draws programs of a few generated
  kernels (tests/fuzz/gen.py); each is rewritten with cse, cse+bulk, cse+sat and
  accsat, compiled and run against the original (gcc -O1 -ffp-contract=off) and
  validated by the interpreter; any disagreement fails, shrunk by hypothesis.
  ``ACCSAT_FUZZ_EXAMPLES`` sets the number of programs (default 60, about 220
  kernels, so about 880 kernel x variant checks); ``benchmarks/fuzz.py`` runs thousands.
* ``test_regression``: every program saved in tests/fuzz/regressions/. A file
  whose header says ``// status: open`` reproduces an accsat bug not fixed yet:
  it is expected to fail (strictly: once fixed, change its status line); its
  ``// finding: KIND`` line, if any, names the finding a kernel accsat keeps as written
  gives (``typecheck``, ``reread``). A file with a ``// memory: MB`` line checks
  instead that ``accsat rewrite --variant V`` (``// variant: V``) finishes within that
  much address space.
* the generator's own guarantees: programs compile, run, and the interpreter
  finds no undefined behaviour in the first trial; gcc's UB sanitizer finds none;
  every constant spelling has the type and value the generator assumes, with plain
  char signed and unsigned; a thousand kernels write every edge form of issue 21
  (INT_MIN spellings, suffixes, casts, ...). The type forms of issue 35 and the
  programs' flags: tests/test_fuzz_forms.py.
* ``test_fuzzer_catches_a_minimum_printed_without_its_sign``: with accsat's old
  printing of INT_MIN (``(2147483647 - 1)``) put back in a test double, the harness
  finds wrong output on the generator's edge kernels (``EDGE_SEEDS``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from difftest import accsat_import_error

_SKIP = accsat_import_error()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")

from fuzz.gen import KNOWN_BUGS, program_from_seeds, program_strategy  # noqa: E402
from fuzz.harness import VARIANTS, check_program, compile_all, model_flag, run  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

REGRESSIONS = sorted((Path(__file__).parent / "fuzz" / "regressions").glob("*.c"))
EXAMPLES = int(os.environ.get("ACCSAT_FUZZ_EXAMPLES", "60"))


# Three shards of the same size with fixed seeds: the same programs on every run, and
# pytest-xdist can spread them over the cores (one 60-program test held a worker for a minute).
SHARDS = 3


def _shard(n: int):
    @seed(20261123 + n)
    @settings(
        max_examples=-(-EXAMPLES // SHARDS),
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )
    @given(program_strategy(max_kernels=6))
    def test(tmp_path, text):
        findings = check_program(text, tmp_path / "p", VARIANTS, trials=8, extract_seconds=2.0)
        assert not findings, "\n".join(str(f) for f in findings) + "\n\n" + text

    test.__name__ = f"test_generated_kernels_{n}"
    return test


test_generated_kernels_0 = _shard(0)
test_generated_kernels_1 = _shard(1)
test_generated_kernels_2 = _shard(2)


def _status(path: Path) -> str:
    m = re.search(r"^// status: (\w+)", path.read_text(), re.M)
    return m.group(1) if m else "fixed"


def _header(path: Path, key: str, default: str = "") -> str:
    m = re.search(rf"^// {key}: (.*)$", path.read_text(), re.M)
    return m.group(1).strip() if m else default


def _rewrite_within_memory(path: Path, variant: str, megabytes: int, tmp_path: Path):
    """``accsat rewrite`` in a child process that may use ``megabytes`` of address space."""
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    return subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "rewrite",
            str(path),
            "--variant",
            variant,
            "-o",
            str(tmp_path / "out.c"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=limit,
    )


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            marks=[pytest.mark.xfail(strict=True, reason="open accsat bug")]
            if _status(p) == "open"
            else [],
            id=p.stem,
        )
        for p in REGRESSIONS
    ],
)
def test_regression(path, tmp_path):
    memory = _header(path, "memory")
    if memory:  # accsat must rewrite it within that much memory (MB), for the variant given
        proc = _rewrite_within_memory(
            path, _header(path, "variant", "accsat"), int(memory), tmp_path
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return
    findings = check_program(path.read_text(), tmp_path, VARIANTS, trials=24)
    assert not findings, "\n".join(str(f) for f in findings)


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_open_regressions_are_caught_by_both_checks(path, tmp_path):
    """For a bug that makes a wrong program (not a crash), both checks must see it; one
    that keeps a kernel as written is seen as its ``// finding:`` line says."""
    if _status(path) != "open" or _header(path, "memory"):
        pytest.skip("fixed, or a resource bug")
    findings = check_program(path.read_text(), tmp_path, VARIANTS, trials=24)
    kinds = {f.kind for f in findings}
    kept = _header(path, "finding")
    if kept:  # a kernel kept as written for accsat's fault: no wrong program to see
        assert kinds == {kept}, findings
    elif "rewrite" in kinds:
        assert kinds == {"rewrite"}  # accsat crashes: there is no program to check
    else:
        assert "interp" in kinds, findings
        assert kinds & {"compiled", "compile-rewritten", "run-rewritten"}, findings


def test_generated_programs_are_well_defined(tmp_path):
    """Programs from the generator compile, run, and show no UB to the interpreter."""
    from fuzz.harness import INTERP_GAPS

    from accsat.frontend.kernels import LOOP_BODY, find_kernels
    from accsat.frontend.parse import parse
    from accsat.frontend.preprocess import PreprocessOptions, preprocess
    from accsat.frontend.source_map import SourceMap
    from accsat.verify.cvalues import NotModelled, Trap
    from accsat.verify.interp import compile_body, execute
    from accsat.verify.states import make_state

    text, _ = program_from_seeds(list(range(42, 54)), "acc")
    src = tmp_path / "gen.c"
    src.write_text(text)
    status = compile_all([(src, tmp_path / "gen.x")], model_flag(text))
    assert status[src] is None, status[src]
    rc, out = run(tmp_path / "gen.x")
    assert rc == 0 and out.count(b"\n") > 12 * 32
    ast = parse(preprocess(src, PreprocessOptions()), str(src))
    kernels, symbols = find_kernels(ast, SourceMap(text), str(src))
    kernels = [k for k in kernels if k.kind == LOOP_BODY]  # not the functions they call
    assert len(kernels) == 12
    ran = 0
    for k in kernels:
        try:
            prog = compile_body(k.loop.stmt, k.scope, symbols, frozenset())
        except NotModelled as exc:  # a form the interpreter does not model yet
            assert any(gap.match(f"original: {exc}") for gap in INTERP_GAPS), exc
            continue
        state = make_state(
            1,
            0,
            {n: t for n, (_s, t) in prog.outer_vars.items()},
            prog.outer_objects,
            prog.restrict,
        )
        ran += 1
        try:
            execute(prog, state)
        except Trap as exc:  # tiny inputs: only out-of-range subscripts of n - 1 - i
            assert "outside" in exc.reason, exc.reason
    assert ran >= 8


def test_shrinker_reduces_a_failing_choice_sequence():
    from fuzz.gen import RandomChooser, gen_kernel
    from fuzz.shrink import replay, shrink

    # "fails" while the kernel stores to a float array: shrinks to a tiny kernel that does
    def fails(choices):
        kn, _ = replay(choices)
        return any(t == "float" for t in kn.arrays.values())

    start = next(s for s in range(100) if fails(_gen(s)))
    c = RandomChooser(start)
    gen_kernel(c, "k0")
    best = shrink(c.choices, fails, budget=300)
    kn, _ = replay(best)
    assert fails(best) and len(best) <= len(c.choices)
    assert len("\n".join(kn.body)) <= len("\n".join(replay(c.choices)[0].body))


def _gen(seed):
    from fuzz.gen import RandomChooser, gen_kernel

    c = RandomChooser(seed)
    gen_kernel(c, "k0")
    return c.choices


# ----------------------------------------------------------------------------------------------
# the edges of C's types (tests/fuzz/consts.py, tests/fuzz/edges.py)

_KIND = {"int": 1, "unsigned": 2, "long": 3, "ulong": 4, "double": 5, "float": 6}


def _c_value(v: int) -> str:
    """``v`` as a C long long or unsigned long long constant expression."""
    if v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    return f"{v}ULL" if v > (1 << 63) - 1 else f"{v}LL"


@pytest.mark.parametrize("char_signed", [True, False], ids=["signed-char", "unsigned-char"])
def test_constant_spellings_have_their_type_and_value(tmp_path, char_signed):
    """Every spelling the generator writes has the C type and the value it assumes (gcc's
    _Generic and ==, after the integer promotions), plain char signed and unsigned
    (-funsigned-char: '\\xff' is 255, CHAR_MAX too): the generator's own oracle."""
    from fuzz import consts as K

    with K.plain_char(char_signed):
        cases = [
            (text, t, v)
            for t, values in K.EDGES.items()
            for v in values
            for text in K.spellings(v, t)
        ]
    cases += [(text, t, v) for text, t, v in K.FLOAT_TO_INT]
    cases += [(text, "ulong", v) for text, v in K.WIDE]
    for table, value in ((K.ONES, 1), (K.ZEROS, 0), (K.ALL_ONES, -1)):
        cases += [
            (text, t, value % (1 << 32) if t == "unsigned" else value)
            for t, texts in table.items()
            for text in texts
        ]
    lines = [
        "#include <stdio.h>",
        "#include <limits.h>",
        "#include <float.h>",
        "#include <math.h>",
        "#define KIND(x) _Generic(+(x), int: 1, unsigned: 2, long: 3, long long: 3, "
        "unsigned long: 4, unsigned long long: 4, double: 5, float: 6, default: 0)",
        "int main(void)",
        "{",
    ]
    for n, (text, t, v) in enumerate(cases):
        cmp = (
            f"(unsigned long long)({text}) != {_c_value(v)}"
            if t in ("unsigned", "ulong")
            else f"(long long)({text}) != {_c_value(v)}"
        )
        lines.append(f'  if (KIND({text}) != {_KIND[t]} || {cmp}) printf("%d\\n", {n});')
    floats = [
        (
            text,
            t,
            "(X) == 0"
            if text in K.FLOAT_ZEROS
            else "fabs((double)(X)) <= 1024.0 && fabs((double)(X)) >= 0x1p-10",
        )
        for t, texts in K.FLOAT_SPELLINGS.items()
        for text in texts
    ]
    floats += [
        (text, t, "fabs((double)(X)) <= 1024.0 && fabs((double)(X)) >= 0x1p-10")
        for text, t in K.INT_AS_FLOAT
    ]
    for test, table in (
        ("(X) > 1e30", K.POS_HUGE),
        ("(X) < -1e30", K.NEG_HUGE),
        ("isnan(X)", K.NANS),
        ("fabs((double)(X)) < 1e-6", K.TINY),
    ):
        floats += [(text, t, test) for t, texts in table.items() for text in texts]
    for n, (text, t, test) in enumerate(floats, len(cases)):
        # INFINITY and NAN are floats in a double context: of a floating type is all we ask
        generic = (
            f"KIND({text}) < 5" if test[:3] in ("(X)", "isn") else f"KIND({text}) != {_KIND[t]}"
        )
        lines.append(f'  if ({generic} || !({test.replace("X", text)})) printf("%d\\n", {n});')
    lines += ['  printf("done\\n");', "  return 0;", "}"]
    src = tmp_path / "consts.c"
    src.write_text("\n".join(lines) + "\n")
    flags = () if char_signed else ("-funsigned-char",)
    status = compile_all([(src, tmp_path / "consts.x")], "-fopenacc", flags)
    assert status[src] is None, status[src]
    rc, out = run(tmp_path / "consts.x")
    wrong = [int(x) for x in out.split()[:-1]]
    assert rc == 0 and out.endswith(b"done\n"), out
    assert not wrong, [(cases + floats)[n] for n in wrong]


# kernels of the generator whose output depends on a signed minimum that accsat prints
# (INT_MIN in a double expression; INT_MIN stored to an int edge array)
EDGE_SEEDS = [169, 324]


def _old_format_int(value: int, t) -> str:
    """A test double of accsat's literal printer as it was before issue 21: the minimum of
    a signed type printed without its minus sign, ``(2147483647 - 1)``."""
    from accsat.frontend.ctypes import INT
    from accsat.frontend.literals import _INT_SUFFIX, int_range

    if t.name not in _INT_SUFFIX:
        return f"({t.name}){_old_format_int(value, INT)}"
    if value < 0:
        lo, _ = int_range(t)
        if value == lo:
            return f"({-(value + 1)}{_INT_SUFFIX[t.name]} - 1)"
        return f"-{-value}{_INT_SUFFIX[t.name]}"
    return f"{value}{_INT_SUFFIX[t.name]}"


def test_fuzzer_catches_a_minimum_printed_without_its_sign(tmp_path, monkeypatch):
    """With the old INT_MIN printing put back (and the round-trip check that would now keep
    such a kernel as written turned off), the generator's edge kernels show wrong output."""
    import accsat.egraph.saturate as saturate
    import accsat.frontend.fold as fold
    import accsat.pipeline as pipeline

    text, _ = program_from_seeds(EDGE_SEEDS, "acc", KNOWN_BUGS)
    cse = [("cse", False)]
    assert not check_program(text, tmp_path / "real", cse, interp=False, extract_seconds=2.0)
    monkeypatch.setattr(fold, "format_int", _old_format_int)
    monkeypatch.setattr(saturate, "format_int", _old_format_int)
    monkeypatch.setattr(
        fold,
        "_MIN_FORM",
        re.compile(r"^\((\d+)[uUlL]* - 1\)$"),  # as it was
        raising=False,
    )
    monkeypatch.setattr(
        pipeline,
        "reread_check",
        lambda loaded, results, options: results,
        raising=False,
    )
    findings = check_program(text, tmp_path / "old", cse, interp=False, extract_seconds=2.0)
    # clean with the real printer above: the old one's (2147483647 - 1) made the difference
    assert any(f.kind == "compiled" for f in findings), findings


# what the generator must write somewhere in a thousand kernels (issue 21)
EDGE_FORMS = {
    "INT_MIN": r"\bINT_MIN\b",
    "INT_MAX": r"\bINT_MAX\b",
    "LLONG_MIN or LONG_MIN": r"\bL?LONG_MIN\b",
    "LLONG_MAX": r"\bLLONG_MAX\b",
    "UINT_MAX": r"\bUINT_MAX\b",
    "ULLONG_MAX": r"\bULLONG_MAX\b",
    "(-2147483647 - 1)": r"\(-2147483647 - 1\)",
    "(-9223372036854775807L - 1)": r"-9223372036854775807",
    "0x7fffffff": r"\b0x7fffffff\b",
    "-0x80000000": r"-0x80000000\b",
    "octal": r"(?<![\w.])0[0-7]+[uUlL]*\b",
    "U": r"\d[uU]\b",
    "L": r"\d[lL]\b",
    "LL": r"\d(LL|ll)\b",
    "UL": r"\d(UL|ul|Ul|lu)\b",
    "ULL": r"\d(ULL|ull|LLU|uLL)\b",
    "'a'": r"'[a-z]'",
    "'\\n'": r"'\\n'",
    "'\\x7f'": r"'\\x[0-9a-f]{2}'",
    "-0.0": r"-0\.0\b",
    "hex float": r"0x[\d.]+p",
    "f": r"\d[fF]\b",
    "L on long double": r"\.\d*L\b",
    "INFINITY": r"\bINFINITY\b",
    "NAN": r"\bNAN\b",
    "HUGE_VAL": r"\bHUGE_VAL\b",
    "- -x": r"- -",
    "-(-x)": r"-\(-",
    "(unsigned char)": r"\(unsigned char\)",
    "(signed char)": r"\(signed char\)",
    "(long double)": r"\(long double\)",
    "(float)": r"\(float\)",
    "(unsigned long long)": r"\(unsigned long long\)",
    "int op unsigned": r"\bk\d_e\[[^]]*\] [-+*^&|] ",
    "guard against the minimum": r"!= (INT_MIN|LONG_MIN|LLONG_MIN|\(-\d+L* - 1\))",
}


def test_generator_writes_every_edge_form():
    text, _ = program_from_seeds(list(range(1000)), "acc")
    missing = [name for name, form in EDGE_FORMS.items() if not re.search(form, text)]
    assert not missing, missing


def test_generated_programs_pass_ubsan(tmp_path):
    """gcc's undefined-behaviour sanitizer (float-to-integer overflow included) finds
    nothing in the generator's programs on the driver's data, edge arrays included."""
    import subprocess

    from fuzz.harness import CC

    text, _ = program_from_seeds(list(range(1000, 1060)), "acc")
    src = tmp_path / "ub.c"
    src.write_text(text)
    flags = [
        "-O0",
        "-fopenmp",  # not -fopenacc: it refuses the sanitizer's data in an acc routine
        "-foffload=disable",
        "-w",
        "-fsanitize=undefined,float-cast-overflow",
        "-fno-sanitize-recover=all",
    ]
    proc = subprocess.run(
        [CC, *flags, str(src), "-o", str(tmp_path / "ub.x"), "-lm"], capture_output=True, text=True
    )
    if proc.returncode and "sanitize" in proc.stderr and "cannot find" in proc.stderr:
        pytest.skip(f"no libubsan: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    proc = subprocess.run([str(tmp_path / "ub.x")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "runtime error" not in proc.stderr, proc.stderr[-3000:]
