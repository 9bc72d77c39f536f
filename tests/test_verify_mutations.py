"""Checks that the checks work: break correct rewrites on purpose (tests/fuzz/mutate.py)
and show that both the interpreter (accsat.verify) and the compiled differential test
(gcc, tests/difftest.py) notice.

For each mutation class (a load hoisted above an aliasing store, a store dropped, a
constant changed, a float temporary declared double) and a few corpus kernels, every
mutant of the class is checked both ways. The tests require that

* each class has mutants that both checks catch, and
* the interpreter catches every mutant the compiled test catches (a mutant neither
  catches is one that does not change the program's meaning: a store overwritten
  later, a load moved above a store to another element).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from difftest import accsat_import_error, compare_outputs, compile_run, model_of, tolerance_of

_SKIP = accsat_import_error()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")

from fuzz.mutate import mutants  # noqa: E402

from accsat.options import EXACT_VARIANTS, Options  # noqa: E402
from accsat.pipeline import rewrite_file  # noqa: E402
from accsat.verify import verify_file  # noqa: E402

KERNELS = Path(__file__).parent / "kernels"
CASES = {
    # mutation class: [(corpus kernel, variant)]
    "hoist-load": [("omp_alias.c", "cse"), ("omp_alias.c", "accsat"), ("raw_war_acc.c", "cse")],
    "drop-store": [("raw_war_acc.c", "cse"), ("impure_call_omp.c", "cse+bulk")],
    "constant": [("raw_war_acc.c", "accsat"), ("cg_spmv_acc.c", "cse")],
    "temp-double": [
        ("mixed_types_acc.c", "cse"),
        ("fma_simd_omp.c", "cse"),
        ("math_calls_acc.c", "cse"),
    ],
}
EXACT = EXACT_VARIANTS


def _compiled_differs(
    kernel: Path, text: str, variant: str, workdir: Path, n: int, expected: bytes
) -> bool:
    src = workdir / f"mutant{n}_{kernel.name}"
    src.write_text(text)
    try:
        got = compile_run(src, workdir, model_of(kernel), opt="-O1", tag=f".m{n}")
    except Exception:  # a mutant that crashes is caught too
        return True
    tol = (0.0, 0.0) if variant in EXACT else tolerance_of(kernel)
    return bool(compare_outputs(expected, got, *tol))


@pytest.mark.parametrize("kind", list(CASES))
def test_mutants_are_caught(kind, tmp_path):
    both = only_compiled = only_interp = neither = 0
    missed = []
    for name, variant in CASES[kind]:
        kernel = KERNELS / name
        options = Options(variant=variant, extract_seconds=5)
        rewritten = rewrite_file(kernel, options).text
        expected = compile_run(kernel, tmp_path, model_of(kernel), opt="-O1", tag=".orig")
        assert not compare_outputs(
            expected,
            compile_run(
                _write(tmp_path / f"ok_{name}", rewritten),
                tmp_path,
                model_of(kernel),
                opt="-O1",
                tag=".ok",
            ),
            *((0.0, 0.0) if variant in EXACT else tolerance_of(kernel)),
        )
        for n, m in enumerate(mutants(kernel, rewritten, options)):
            if m.kind != kind:
                continue
            ver = verify_file(kernel, m.text, options)
            by_interp = any(v.verdict == "fail" for v in ver.verdicts)
            by_gcc = _compiled_differs(kernel, m.text, variant, tmp_path, n, expected)
            if by_interp and by_gcc:
                both += 1
            elif by_gcc:
                only_compiled += 1
                missed.append(f"{name} {variant} line {m.kernel_line}: {m.description}")
            elif by_interp:
                only_interp += 1
            else:
                neither += 1
    print(
        f"{kind}: both {both}, interpreter only {only_interp}, compiled only "
        f"{only_compiled}, neither {neither}"
    )
    assert both > 0, f"no {kind} mutant caught by both checks"
    assert not missed, "caught by the compiled test, not by the interpreter:\n" + "\n".join(missed)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_mutations_apply():
    """Every class has sites in the corpus rewrites the tests above use."""
    for kind, cases in CASES.items():
        found = 0
        for name, variant in cases:
            options = Options(variant=variant, extract_seconds=5)
            kernel = KERNELS / name
            found += sum(
                m.kind == kind for m in mutants(kernel, rewrite_file(kernel, options).text, options)
            )
        assert found > 0, kind
