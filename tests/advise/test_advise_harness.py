"""``accsat bench npb --advise`` on our NPB-shaped fixture (tests/fixtures/npb_mini)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from npb_harness.cli import npb

FIXTURE = Path(__file__).parent.parent / "fixtures" / "npb_mini"


def test_counts_per_benchmark_and_advise_json(tmp_path):
    out = tmp_path / "advise"
    res = CliRunner().invoke(
        npb,
        ["--npb-root", str(FIXTURE), "--benchmarks", "LX", "--advise", "--out", str(out)],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    assert "LX     written" in res.output and "LX     rewritten" in res.output
    data = json.loads((out / "advise.json").read_text())
    assert (out / "trees" / "LX").is_dir()  # configured in a private copy
    written = next(r for r in data["summary"] if r["stage"] == "written")
    # relax.c: the 5-point stencils along j (the inner acc loop) are coalesced
    assert written["kernels"] == 3 and written["not_analysed"] == 0
    assert written["coalesced"] > 0 and written["groups_thread"] >= 2
    groups = data["benchmarks"]["LX"]["neighbours"]
    assert {tuple(g["offsets"]) for g in groups if g["along"] == "thread"} == {(-1, 0, 1)}
