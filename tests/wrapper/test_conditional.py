"""A kernel with conditional compilation in its body, built through accsat-cc (whose
copy carries #line directives around every statement): rewritten, and the program
prints what gcc's build of the original prints."""

from __future__ import annotations

import json
import subprocess

from tests.frontend.test_conditional import PROGRAM

from .conftest import ACC, needs_gcc, wrap


@needs_gcc
def test_accsat_cc_rewrites_around_a_group(tmp_path, env):
    (tmp_path / "k.c").write_text(PROGRAM)
    flags = ["-O2", "-ffp-contract=off", *ACC, "-DUSE_FMA", "k.c"]
    report = tmp_path / "report.jsonl"
    r = wrap(tmp_path, env, "gcc", *flags, "-o", "new", ACCSAT_REPORT=str(report))
    assert r.returncode == 0, r.stderr
    (row,) = [json.loads(line) for line in report.read_text().splitlines()]
    assert row["status"] == "rewritten", row["reason"]
    subprocess.run(["gcc", *flags, "-o", "orig"], cwd=tmp_path, check=True)
    runs = [
        subprocess.run([str(tmp_path / x)], capture_output=True, check=True)
        for x in ("orig", "new")
    ]
    assert runs[0].stdout == runs[1].stdout
