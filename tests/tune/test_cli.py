"""``accsat tune`` end to end on the two-kernel program (seconds: tiny sizes, two runs)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from accsat.tune.db import load

from .conftest import CC, TWO, needs_gcc

pytestmark = needs_gcc


def tune(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "tune",
            "--build",
            f"make CC='{CC}'",
            "--clean",
            "make clean",
            "--run",
            "./two 2",
            "--runs",
            "2",
            "--no-progress",
            *extra,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )


def table(path: Path) -> tuple[list[str], list[dict]]:
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def test_tune_end_to_end_a_failed_check_rejects_a_configuration(project):
    # cse's build prints variant=cse, which the check refuses: cse is rejected
    done = tune(project, "--variants", "cse,cse+sat", "--check", r"^variant=(?!cse$)")
    assert done.returncode == 0, done.stderr
    out = project / "accsat-tune"
    header, programs = table(out / "programs.csv")
    assert header == ["config", "median_seconds", "min_seconds", "runs", "verified"]
    assert [(p["config"], p["verified"]) for p in programs] == [
        ("orig", "True"),
        ("cse", "False"),
        ("cse+sat", "True"),
        ("tuned", "True"),
    ]
    assert all(float(p["median_seconds"]) > 0 for p in programs if p["verified"] == "True")
    header, kernels = table(out / "kernels.csv")
    assert header == ["kernel", "file", "line", "config", "launches", "seconds"]
    assert {(k["kernel"], k["config"], k["launches"]) for k in kernels} == {
        (f"two.c:{line}", config, "2")
        for line in (12, 22)
        for config in ("orig", "cse+sat", "tuned")
    }
    header, chosen = table(out / "choice.csv")
    assert header[:8] == ["kernel", "file", "line", "hash", "construct", "config", "gain", "noise"]
    assert [c["kernel"] for c in chosen] == ["two.c:12", "two.c:22"]
    assert {c["config"] for c in chosen} <= {"orig", "cse+sat"}  # never the rejected cse
    db = load(project / "accsat-tune.json")
    assert [(e.kernel, e.config) for e in db.kernels] == [
        (c["kernel"], c["config"]) for c in chosen
    ]
    assert (out / "tune.png").stat().st_size > 0
    # the user's tree: only the database and the outputs were added
    assert (project / "two.c").read_text() == TWO
    assert sorted(p.name for p in project.iterdir()) == [
        "Makefile",
        "accsat-tune",
        "accsat-tune.json",
        "two.c",
    ]
    # re-running reuses every finished configuration
    # one build per configuration, shared by its rounds of runs
    # (a second tuned one where a uniform configuration beat the choice on this machine)
    assert {p.name.split("-")[0] for p in (out / "builds").iterdir()} == {
        "cse",
        "cse+sat",
        "orig",
        "tuned",
    }
    builds = {p: p.stat().st_mtime_ns for p in (out / "builds").rglob("build.json")}
    again = tune(project, "--variants", "cse,cse+sat", "--check", r"^variant=(?!cse$)")
    assert again.returncode == 0, again.stderr
    # the rounds (2 runs of each configuration), then the check's rounds (orig, cse+sat,
    # tuned): once, or twice where timing made a uniform configuration win (the fallback)
    summaries = [ln for ln in again.stderr.splitlines() if " cells: " in ln]
    assert summaries[0] == "6 cells: 6 from the cache, 0 built, 0 run on an earlier build; 4 ok"
    assert 2 <= len(summaries) <= 3 and set(summaries[1:]) == {
        "6 cells: 6 from the cache, 0 built, 0 run on an earlier build; 6 ok"
    }
    assert {p: p.stat().st_mtime_ns for p in builds} == builds
    assert load(project / "accsat-tune.json").kernels == db.kernels


def test_orig_failing_its_check_stops_with_one_line_and_no_database(project):
    done = tune(project, "--variants", "cse", "--check", "NEVER PRINTED")
    assert done.returncode == 1
    assert "orig did not pass (verification failed" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (project / "accsat-tune.json").exists()


def test_a_build_that_does_not_use_accsat_cc_is_told_so(project):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "tune",
            "--build",
            "make",
            "--run",
            "./two 1",
            "--runs",
            "1",
            "--variants",
            "orig",
            "--no-progress",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "does --build compile through accsat-cc" in done.stderr


def test_a_negative_timeout_is_a_usage_error(project):
    done = tune(project, "--timeout", "-5")
    assert done.returncode == 2 and "Invalid value for '--timeout'" in done.stderr
