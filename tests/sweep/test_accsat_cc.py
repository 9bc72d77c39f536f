"""accsat.sweep.accsat_cc: a cell's CC and environment, and what accsat-cc reported."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess

import pytest

from accsat.sweep import accsat_cc
from accsat.toolchain import events

KERNEL = """\
double a[64], b[64];
void kern(int n)
{
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++) {
    double t = a[i] * b[i] + a[i] * a[i];
    b[i] = t;
  }
}
"""


def test_reports(tmp_path):
    report = tmp_path / "k.jsonl"
    k = {
        "file": "a.c",
        "line": 3,
        "function": "f",
        "status": "rewritten",
        "loads": {"before": 5, "after": 2},
        "ops": {"before": 9, "after": 7},
        "fma": 1,
    }
    report.write_text(
        json.dumps(k)
        + "\n"
        + json.dumps(k)
        + "\n"
        + json.dumps({**k, "line": 9, "status": "unchanged", "loads": {"before": 5, "after": 5}})
        + "\n"
    )
    s = accsat_cc.kernel_summary(report)
    assert (s["found"], s["rewritten"], s["loads_before"], s["loads_after"]) == (2, 1, 10, 7)
    assert accsat_cc.kernel_summary(tmp_path / "none") == {}


def test_cc_and_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCSAT_VARIANT", "accsat")  # the user's: never a cell's
    assert accsat_cc.cc_command("orig", "gcc") == "gcc"
    assert accsat_cc.cc_command("cse", "gcc").endswith(" gcc")
    report = tmp_path / "k.jsonl"
    env = accsat_cc.environment("cse", report, tmp_path, event_log=tmp_path / "e.jsonl")
    assert env["ACCSAT_VARIANT"] == "cse" and env["ACCSAT_REPORT"] == str(report)
    assert env["ACCSAT_EVENTS"] == str(tmp_path / "e.jsonl")
    assert "ACCSAT_EVENTS" not in accsat_cc.environment("cse", report, tmp_path)
    assert "ACCSAT_VARIANT" not in accsat_cc.environment("orig", report, tmp_path)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_a_cells_fallbacks_come_from_accsat_ccs_event_log(tmp_path):
    """What a harness does: CC and environment from here, the count from the event log
    (``typeof`` is a GNU extension accsat does not parse: that file is compiled as written)."""
    (tmp_path / "ok.c").write_text(KERNEL)
    (tmp_path / "gnu.c").write_text(KERNEL.replace("kern", "gnu") + "typeof(a[0]) z;\n")
    log = tmp_path / "events.jsonl"
    env = accsat_cc.environment("cse", tmp_path / "k.jsonl", tmp_path / "cache", event_log=log)
    cc = shlex.split(accsat_cc.cc_command("cse", "gcc"))
    for src in ("ok.c", "gnu.c"):
        done = subprocess.run(
            [*cc, "-c", "-fopenacc", "-foffload=disable", src],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
    assert events.fallbacks(log) == 1
    assert accsat_cc.kernel_summary(tmp_path / "k.jsonl")["rewritten"] == 1
