"""npb_harness on the real NPB-ACC: a small sweep (CG and EP, class S, orig and cse).

Needs NPB_ROOT (the NPB-ACC folder holding BT, CG, ...; only read); skipped
without it. The full acceptance sweep is `accsat bench npb --classes S,W`
(docs/harness.md).
"""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from npb_harness.cli import npb

pytestmark = [
    pytest.mark.npb,
    pytest.mark.skipif(not os.environ.get("NPB_ROOT"), reason="NPB_ROOT is not set"),
    pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed"),
]


def test_real_npb_cells_verify(tmp_path):
    root = Path(os.environ["NPB_ROOT"])
    out = tmp_path / "out"
    result = CliRunner().invoke(
        npb,
        [
            "--npb-root",
            str(root),
            "--benchmarks",
            "CG,EP",
            "--classes",
            "S",
            "--variants",
            "orig,cse",
            "--runs",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4
    for r in rows:
        assert r["status"] == "ok", r
    cse = {r["benchmark"]: r for r in rows if r["variant"] == "cse"}
    assert all(int(r["kernels_found"]) > 0 for r in cse.values())
    # EP's kernels share nothing worth a temporary: left as written (no gain)
    assert int(cse["CG"]["kernels_rewritten"]) > 0
