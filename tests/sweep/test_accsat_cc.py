"""accsat.sweep.accsat_cc: a cell's CC and environment, and what accsat-cc reported."""

from __future__ import annotations

import json

from accsat.sweep import accsat_cc


def test_reports_and_fallbacks(tmp_path):
    log = ("accsat-cc: bt.c:12: statement expression; compiling the original\n"
           "gcc: warning: something\n"
           "accsat-cc: x.c: the rewritten source did not compile; compiled the original\n")
    assert accsat_cc.count_fallbacks(log) == 2
    report = tmp_path / "k.jsonl"
    k = {"file": "a.c", "line": 3, "function": "f", "status": "rewritten",
         "loads": {"before": 5, "after": 2}, "ops": {"before": 9, "after": 7}, "fma": 1}
    report.write_text(json.dumps(k) + "\n" + json.dumps(k) + "\n"
                      + json.dumps({**k, "line": 9, "status": "unchanged",
                                  "loads": {"before": 5, "after": 5}}) + "\n")
    s = accsat_cc.kernel_summary(report)
    assert (s["found"], s["rewritten"], s["loads_before"], s["loads_after"]) == (2, 1, 10, 7)
    assert accsat_cc.kernel_summary(tmp_path / "none") == {}


def test_cc_and_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCSAT_VARIANT", "accsat")  # the user's: never a cell's
    assert accsat_cc.cc_command("orig", "gcc") == "gcc"
    assert accsat_cc.cc_command("cse", "gcc").endswith(" gcc")
    report = tmp_path / "k.jsonl"
    env = accsat_cc.environment("cse", report, tmp_path)
    assert env["ACCSAT_VARIANT"] == "cse" and env["ACCSAT_REPORT"] == str(report)
    assert "ACCSAT_VARIANT" not in accsat_cc.environment("orig", report, tmp_path)
