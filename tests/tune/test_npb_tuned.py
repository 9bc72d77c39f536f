"""``accsat bench npb --variants ...,tuned``: the tuner per benchmark and class, its cell
beside the uniform ones (on tests/fixtures/npb_mini)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from accsat.tune.db import load
from npb_harness.cli import npb

FIXTURE = Path(__file__).parent.parent / "fixtures" / "npb_mini"
pytestmark = pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("make") is None, reason="needs gcc and make"
)


def test_tuned_cell_is_tuned_built_with_its_database_and_reported(isolated):
    out = isolated / "out"
    result = CliRunner().invoke(
        npb,
        [
            "--no-progress",
            "--npb-root",
            str(FIXTURE),
            "--benchmarks",
            "ST",
            "--classes",
            "S",
            "--variants",
            "orig,cse,tuned",
            "--runs",
            "1",
            "--out",
            str(out),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    with open(out / "results.csv") as f:
        rows = {r["variant"]: r for r in csv.DictReader(f)}
    assert set(rows) == {"orig", "cse", "tuned"}
    assert rows["tuned"]["status"] == "ok" and rows["tuned"]["verified"] == "True"
    assert rows["tuned"]["speedup"]  # beside the uniform ones, over the same orig
    cell = out / "cells" / "ST.S.gcc.host.tuned"
    db = load(cell / "accsat-tune.json")
    assert {e.file for e in db.kernels} == {"ST/st.c"} and db.info["runs"] == 1
    assert (cell / "tune" / "programs.csv").is_file()  # the tuner's own outputs
    # the cell's build applied the database: each kernel as its construct's entry says
    chosen = {e.line: e.config for e in db.kernels}
    reports = [json.loads(line) for line in (cell / "kernels.jsonl").read_text().splitlines()]
    assert reports
    for k in reports:
        construct = max(line for line in chosen if line <= k["line"])
        assert k["variant"] == chosen[construct]
    assert "ST" in result.output and "tuned" in result.output  # the table has its column
