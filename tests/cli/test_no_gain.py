"""A kernel left as written by choice (nothing to share: no gain) is not a warning."""

from __future__ import annotations

import json
import subprocess
import sys

NOTHING_TO_SHARE = """\
void scale(int n, double *restrict a, const double *restrict b)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    a[i] = 0.75 * b[i] + 0.25 * a[i];
}
"""


def test_no_gain_is_byte_identical_and_silent(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(NOTHING_TO_SHARE)
    report = tmp_path / "r.jsonl"
    for variant in ("cse", "cse+sat", "cse+bulk", "accsat"):
        got = subprocess.run(
            [
                sys.executable,
                "-m",
                "accsat.cli",
                "rewrite",
                str(src),
                "--variant",
                variant,
                "--report",
                str(report),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert got.returncode == 0, got.stderr
        assert got.stdout == NOTHING_TO_SHARE, variant
        assert got.stderr == "", variant
    kernels = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(k["status"], k["reason"]) for k in kernels] == [("unchanged", "no gain")] * 4
