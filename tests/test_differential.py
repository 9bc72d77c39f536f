"""Differential tests: original kernel vs ``accsat rewrite`` of it.

For every kernel in tests/kernels and every variant: rewrite, compile with the
corpus flags, run, and compare standard output with the original program's.

* ``cse``, ``cse+bulk`` and any variant run with ``--fp-exact``: byte-identical.
* ``cse+sat``, ``accsat``: hex floats within the kernel's tolerance
  (default 1e-9 relative, 1e-12 absolute; a ``// tolerance:`` header line widens
  it for float kernels), integers and labels exact, same lines.
* ``cse``: the rewritten file has no more loads than the original (count_loads).

Skipped as a whole only when ``accsat.cli`` cannot be imported.
"""

from __future__ import annotations

import json

import pytest
from difftest import (
    EXACT_VARIANTS,
    KERNELS,
    accsat_import_error,
    compare_outputs,
    compile_run,
    count_loads,
    count_loads_in,
    kernel_id,
    model_of,
    rewrite,
    tolerance_of,
)

from accsat.options import VARIANTS

_SKIP_REASON = accsat_import_error()
pytestmark = pytest.mark.skipif(_SKIP_REASON is not None, reason=_SKIP_REASON or "")

# every variant, and once more with --fp-exact those whose rules may change a float result
CASES = [(name, ()) for name in VARIANTS] + [
    (name, ("--fp-exact",)) for name, v in VARIANTS.items() if v.fp_changing
]


def _case_id(case):
    variant, extra = case
    return variant + "".join(extra)


@pytest.fixture(scope="session")
def original_output(tmp_path_factory):
    """Output of each unmodified kernel at -O2, compiled once per session."""
    cache: dict = {}
    workdir = tmp_path_factory.mktemp("originals")

    def get(kernel):
        if kernel not in cache:
            cache[kernel] = compile_run(kernel, workdir, model_of(kernel))
        return cache[kernel]

    return get


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@pytest.mark.parametrize("kernel", KERNELS, ids=kernel_id)
def test_rewrite_preserves_output(kernel, case, tmp_path, original_output):
    variant, extra = case
    out = (
        tmp_path / f"{kernel.stem}.{variant.replace('+', '_')}{''.join(extra).replace('-', '_')}.c"
    )
    report = tmp_path / "report.jsonl"
    proc = rewrite(kernel, out, variant, (*extra, "--report", str(report)))
    assert proc.returncode == 0, (
        f"accsat rewrite failed (rc={proc.returncode})\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    assert out.is_file(), f"accsat rewrite wrote no {out}"

    expected = original_output(kernel)
    got = compile_run(out, tmp_path, model_of(kernel), tag=".rewritten")

    if variant in EXACT_VARIANTS or "--fp-exact" in extra:
        if got != expected:
            problems = compare_outputs(expected, got, 0.0, 0.0)
            pytest.fail(
                f"{variant}{' '.join(extra)}: output not byte-identical:\n" + "\n".join(problems)
            )
    else:
        rel, abs_ = tolerance_of(kernel)
        problems = compare_outputs(expected, got, rel, abs_)
        assert not problems, (
            f"{variant}: output differs beyond rel={rel} abs={abs_}:\n" + "\n".join(problems)
        )

    # extraction never loses to greedy, greedy never to the program as written
    for line in report.read_text().splitlines():
        k = json.loads(line)
        if k["status"] == "rewritten":
            c = k["cost"]
            assert c["extracted"] <= c["greedy"] + 1e-6 <= c["original"] + 2e-6, k

    if variant == "cse" and not extra:
        before = count_loads_in(kernel)
        after = count_loads(out.read_text(encoding="utf-8"))
        assert after <= before, f"cse rewrite has more loads ({after}) than the original ({before})"
