"""accsat-cc on NPB-ACC: ``make CC="accsat-cc gcc"`` builds, the binaries verify.

Needs NPB_ROOT (the NPB-ACC folder, outside this repository); skipped without
it.  The benchmarks are built in a private copy.  The full sweep (7 benchmarks,
every variant, classes S and W, timings) is benchmarks/npb_wrapper_build.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from accsat.report import NO_GAIN

pytestmark = [
    pytest.mark.npb,
    pytest.mark.skipif(not os.environ.get("NPB_ROOT"), reason="NPB_ROOT is not set"),
    pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed"),
]

CFLAGS = "-O3 -fopenacc -foffload=disable -fgnu89-inline"
CLINKFLAGS = "-O3 -fopenacc -foffload=disable -lm"


@pytest.mark.parametrize("bench", ["CG/CG", "MG/MG"])
def test_npb_builds_and_verifies_through_the_wrapper(bench, tmp_path):
    root = Path(os.environ["NPB_ROOT"])
    top = bench.split("/")[0]
    shutil.copytree(root / top, tmp_path / top, symlinks=True)
    folder = tmp_path / bench
    report = tmp_path / "report.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    env.update(
        ACCSAT_VARIANT="cse", ACCSAT_REPORT=str(report), ACCSAT_CACHE_DIR=str(tmp_path / "cache")
    )
    subprocess.run(["make", "clean"], cwd=folder, capture_output=True)
    wrapper = f"{sys.executable} -m accsat.wrapper gcc"
    r = subprocess.run(
        [
            "make",
            "-j2",
            f"CC={wrapper}",
            "CLINK=gcc",
            "CLASS=S",
            f"CFLAGS={CFLAGS}",
            f"CLINKFLAGS={CLINKFLAGS}",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "accsat-cc:" not in r.stderr
    exe = next(folder.glob("*.S.x"))
    out = subprocess.run([str(exe)], cwd=folder, capture_output=True, text=True, timeout=600)
    assert re.search(r"Verification\s*=\s*SUCCESSFUL", out.stdout), out.stdout[-2000:]
    kernels = [json.loads(line) for line in report.read_text().splitlines()]
    # rewritten, or left as written because a rewrite would not pay
    handled = sum(k["status"] == "rewritten" or k["reason"] == NO_GAIN for k in kernels)
    assert kernels and handled >= len(kernels) * 0.9
