"""Deep or huge expressions never crash ``rewrite``/``check``/``accsat-cc``: a kernel too
deep for our recursive stages is left as written with the reason, the rest of the file
is rewritten, and a file too deep for the parser is left as written with one line
(issue 12)."""

from __future__ import annotations

import sys

import pytest

from accsat.options import Options
from accsat.pipeline import rewrite_file

from .conftest import accsat, accsat_cc, needs_gcc

FILE = """void k(int n, double *restrict a, const double *restrict b)
{{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {{
    a[i] = {expr};
  }}
}}
void k2(int n, double *restrict a, const double *restrict b)
{{
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {{
    a[i] = b[i] * 2.0 + b[i] * 2.0;
  }}
}}
"""


def _sum(terms: int) -> str:
    return " + ".join(f"b[i + {j % 7}] * {j}.0" for j in range(terms))


def _statuses(result) -> list[tuple[str, str]]:
    return [(k.status, k.reason or "") for k in result.kernels]


OPTIONS = Options(variant="cse", use_ilp=False)


def test_5000_term_sum_is_left_with_the_reason(tmp_path):
    from accsat.frontend import depth  # inside: the suite also runs against older code

    path = tmp_path / "sum.c"
    path.write_text(FILE.format(expr=_sum(5000)))
    (k, why), (k2, _) = _statuses(rewrite_file(path, OPTIONS))
    assert k == "unchanged" and why.startswith("expression too deep: depth 500")
    assert why.endswith(f"> limit {depth.MAX_DEPTH}")
    assert k2 == "rewritten"


def test_a_sum_within_the_limit_is_rewritten(tmp_path):
    from accsat.frontend import depth

    path = tmp_path / "sum.c"
    path.write_text(FILE.format(expr=_sum(depth.MAX_DEPTH // 2) + " + b[i] * 0.5 + b[i] * 0.5"))
    assert [s for s, _ in _statuses(rewrite_file(path, OPTIONS))] == ["rewritten"] * 2


@pytest.mark.skipif(sys.version_info < (3, 11), reason="3.10 parses ~1,270 levels (depth.py)")
def test_2000_deep_parentheses_parse_and_rewrite(tmp_path):
    path = tmp_path / "paren.c"
    inner = "(" * 2000 + "b[i] * 2.0" + ")" * 2000
    path.write_text(FILE.format(expr=f"{inner} + b[i] * 2.0"))
    assert [s for s, _ in _statuses(rewrite_file(path, OPTIONS))] == ["rewritten"] * 2


def test_too_deep_for_the_parser_is_one_line_naming_the_line(tmp_path, env):
    deep = "(" * 100_000 + "b[i]" + ")" * 100_000
    (tmp_path / "p.c").write_text(FILE.format(expr=deep))
    r = accsat(tmp_path, env, "rewrite", "p.c")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr == b"accsat: p.c:5: parse error: nested too deeply for the parser\n"


def test_recursion_error_in_a_stage_is_that_kernels_reason(tmp_path, monkeypatch):
    """Past a measured limit that proved too generous: the kernel's reason, not a crash."""
    from accsat.frontend import depth

    monkeypatch.setattr(depth, "MAX_DEPTH", 10**9)
    monkeypatch.setattr(depth, "_frames", lambda: 1000)
    path = tmp_path / "sum.c"
    path.write_text(FILE.format(expr=_sum(3000)))
    (k, why), (k2, _) = _statuses(rewrite_file(path, OPTIONS))
    assert (k, why) == ("unchanged", "expression too deep: Python's recursion limit reached in ssa")
    assert k2 == "rewritten"


def test_commands_on_a_5000_term_sum(tmp_path, env):
    (tmp_path / "sum.c").write_text(FILE.format(expr=_sum(5000)))
    r = accsat(tmp_path, env, "rewrite", "--variant", "cse", "sum.c")
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    assert b"sum.c:4: kernel unchanged: expression too deep: depth" in r.stderr
    assert b"_v0" in r.stdout
    r = accsat(tmp_path, env, "check", "--variant", "cse", "sum.c")
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    assert b"unchanged" in r.stdout and b"pass" in r.stdout


@needs_gcc
def test_accsat_cc_on_a_5000_term_sum(tmp_path, env):
    (tmp_path / "sum.c").write_text(FILE.format(expr=_sum(5000)))
    r = accsat_cc(tmp_path, env, "gcc", "-c", "sum.c", "-o", "sum.o", ACCSAT_VERBOSE="1")
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr
    assert b"1 of 2 kernels rewritten" in r.stderr
