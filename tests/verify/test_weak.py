"""The ``weak`` verdict: no difference found, but more than half the states tried were
skipped for undefined behaviour in the original. Not a failure: ``accsat check`` prints
it and exits 0, ``--verify`` keeps the rewrite."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from accsat.check import check_file
from accsat.cli import main
from accsat.frontend.load import load
from accsat.options import Options
from accsat.verify import format_table, verify_body

# a[i] * 2^31 overflows unless a[i] is 0: most states are undefined behaviour
MOSTLY_UB = """void h(int *a, int *c, int n)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    c[i] = a[i] * 65536 * 32768 + a[i] * 65536 * 32768;
}
"""
# the same kernel, its values always defined
DEFINED = MOSTLY_UB.replace("65536 * 32768", "3")


def _kernel(tmp_path: Path, src: str):
    path = tmp_path / "w.c"
    path.write_text(src)
    loaded = load(path, Options().preprocess)
    return path, loaded


def test_mostly_undefined_is_weak(tmp_path):
    _path, loaded = _kernel(tmp_path, MOSTLY_UB)
    k = loaded.kernels[0]
    v = verify_body(
        k,
        loaded.symbols,
        "{ int _v0 = a[i] * 65536 * 32768; c[i] = _v0 + _v0; }",
        None,
        defined=loaded.defined,
    )
    assert v.verdict == "weak" and not v.failed, v.message
    assert 2 * v.skipped > v.states_tried
    assert "undefined behaviour" in v.message and "signed overflow" in v.message
    # the trials asked for still ran (more attempts while some states run)
    assert v.states_tried - v.skipped >= 24
    table = format_table([v])
    assert "weak" in table and v.message in table
    # a wrong rewrite of it still fails
    bad = verify_body(
        k,
        loaded.symbols,
        "{ int _v0 = a[i] * 65536 * 32768; c[i] = _v0 + 1; }",
        None,
        defined=loaded.defined,
    )
    assert bad.verdict == "fail"


def test_defined_is_a_plain_pass(tmp_path):
    _path, loaded = _kernel(tmp_path, DEFINED)
    k = loaded.kernels[0]
    v = verify_body(
        k, loaded.symbols, "{ int _v0 = a[i] * 3; c[i] = _v0 + _v0; }", None, defined=loaded.defined
    )
    assert v.verdict == "pass" and 2 * v.skipped <= v.states_tried


def test_check_prints_weak_and_exits_0(tmp_path):
    path, _ = _kernel(tmp_path, MOSTLY_UB)
    result, ver = check_file(path, Options(variant="cse"))
    assert result.text != MOSTLY_UB  # rewritten: the check ran on a change
    assert [v.verdict for v in ver.verdicts] == ["weak"] and ver.ok
    assert ver.text == result.text  # a weak kernel keeps its rewrite
    r = CliRunner().invoke(main, ["check", str(path), "--variant", "cse"])
    assert r.exit_code == 0, r.output
    assert "weak" in r.output and "states skipped for undefined behaviour" in r.output
