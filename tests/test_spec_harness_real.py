"""spec_harness on a real SPEC ACCEL installation (needs SPEC_ROOT; skipped without it).

Nothing of SPEC is in this repository; with a licensed installation this
checks that direct mode builds, runs and validates 303.ostencil and
503.postencil on the test input set. Not run here: no SPEC installation.
"""

from __future__ import annotations

import csv
import os
import shutil

import pytest
from click.testing import CliRunner

from spec_harness.cli import spec

pytestmark = [
    pytest.mark.skipif(not os.environ.get("SPEC_ROOT"), reason="SPEC_ROOT is not set"),
    pytest.mark.skipif(
        shutil.which("gcc") is None or shutil.which("perl") is None, reason="needs gcc and perl"
    ),
]


@pytest.mark.parametrize("mode", ["direct", "runspec"])
def test_real_spec_accel_test_size(mode, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        spec,
        [
            "--spec-root",
            os.environ["SPEC_ROOT"],
            "--benchmarks",
            "303,503",
            "--size",
            "test",
            "--variants",
            "orig,cse",
            "--runs",
            "1",
            "--mode",
            mode,
            "--out",
            str(out),
            "--no-progress",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["status"] == "ok" for r in rows), rows
