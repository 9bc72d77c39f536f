"""``accsat tune`` end to end on the two-kernel program (seconds: tiny sizes, two runs)."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

from accsat.tune.db import load

from .conftest import CC, TWO, needs_gcc

pytestmark = needs_gcc


def tune(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    """The two-kernel program tuned in two rounds, cleaned before each build."""
    return _tune_in(folder, f"make CC='{CC}'", "--clean", "make clean", *extra, rounds="2")


def _summaries(done: subprocess.CompletedProcess) -> list[str]:
    """The sweep's one line per step (``N cells: ...``)."""
    return [ln for ln in done.stderr.splitlines() if re.match(r"\d+ cells?: ", ln)]


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
    assert header == [
        "config",
        "median_seconds",
        "min_seconds",
        "kernel_seconds",
        "runs",
        "verified",
    ]
    assert [(p["config"], p["verified"]) for p in programs] == [
        ("orig", "True"),
        ("cse", "False"),
        ("cse+sat", "True"),
        ("tuned", "True"),
    ]
    assert all(float(p["median_seconds"]) > 0 for p in programs if p["verified"] == "True")
    header, kernels = table(out / "kernels.csv")
    assert header == ["kernel", "file", "line", "config", "launches", "seconds", "fastest"]
    assert {(k["kernel"], k["config"], k["launches"]) for k in kernels} == {
        (f"two.c:{line}", config, "2")
        for line in (12, 22)
        for config in ("orig", "cse+sat", "tuned")
    }
    header, chosen = table(out / "choice.csv")
    assert header == [
        "kernel",
        "file",
        "line",
        "hash",
        "construct",
        "config",
        "gain",
        "noise",
        "low",
        "high",
        "rounds",
        "kept",
        "reason",
    ]
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
    # orig's probe alone, the first round (cse fails its check there and runs no more),
    # the second round, then the check's rounds (orig, cse+sat, tuned): once, or up to
    # three times where timing made a uniform configuration win
    summaries = _summaries(again)
    assert summaries[:3] == [
        "1 cell: 1 from the cache, 0 built, 0 run on an earlier build; 1 ok",  # orig's probe
        # round 1: cse's failed run is tried again, on its build (a busy machine's failure
        # is not kept for good); it fails again
        "3 cells: 2 from the cache, 0 built, 1 run on an earlier build; 2 ok",
        "2 cells: 2 from the cache, 0 built, 0 run on an earlier build; 2 ok",
    ]
    assert 4 <= len(summaries) <= 6 and set(summaries[3:]) == {
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


def _tune_in(
    folder: Path, build: str, *extra: str, rounds: str = "1"
) -> subprocess.CompletedProcess:
    """``accsat tune`` in ``folder`` with ``build``, ``./two 2`` as the run, ``rounds``
    rounds exactly; ``extra`` last (a repeated option: the last one counts)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "tune",
            "--build",
            build,
            "--run",
            "./two 2",
            "--runs",
            rounds,
            "--max-runs",
            rounds,
            "--no-progress",
            *extra,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )


def _split_project(top: Path) -> Path:
    """The two-kernel program as a project whose build directory reaches ``../``: the
    Makefile in app/ includes ../config.mk and compiles ../src/two.c."""
    (top / "src").mkdir(parents=True)
    (top / "app").mkdir()
    (top / "src" / "two.c").write_text(TWO)
    (top / "config.mk").write_text("CFLAGS = -O1 -Wno-unknown-pragmas\n")
    (top / "app" / "Makefile").write_text(
        "include ../config.mk\ntwo: ../src/two.c\n\t$(CC) $(CFLAGS) -o two ../src/two.c\n"
    )
    return top / "app"


def test_tune_typed_in_a_build_directory_that_reaches_up(isolated):
    app = _split_project(isolated / "proj")
    build = f"make CC='{CC}'"
    # only app/ copied: its Makefile cannot find ../config.mk; orig fails at once, with
    # the end of its log and the way out
    alone = _tune_in(app, build, "--variants", "cse")
    assert alone.returncode == 1 and "Traceback" not in alone.stderr
    assert "orig did not pass (build failed" in alone.stderr
    assert "config.mk" in alone.stderr and "--root" in alone.stderr
    assert _summaries(alone) == [  # orig's first run, and nothing else
        "1 cell: 0 from the cache, 1 built, 0 run on an earlier build; 0 ok"
    ]
    # --root: the project is copied and the commands run in its app/
    done = _tune_in(app, build, "--variants", "cse", "--root", str(isolated / "proj"))
    assert done.returncode == 0, done.stderr
    db = load(app / "accsat-tune.json")
    assert [e.file for e in db.kernels] == ["../src/two.c", "../src/two.c"]
    # the git top level is the default root
    git = subprocess.run(["git", "init", "-q", str(isolated / "proj")], capture_output=True)
    if git.returncode == 0:
        (app / "accsat-tune.json").unlink()
        done = _tune_in(app, build, "--variants", "cse")
        assert done.returncode == 0, done.stderr
        assert [e.file for e in load(app / "accsat-tune.json").kernels] == [
            "../src/two.c",
            "../src/two.c",
        ]
    assert sorted(p.name for p in (isolated / "proj" / "src").iterdir()) == ["two.c"]


def test_a_configuration_that_fails_its_first_build_is_not_built_or_run_again(project):
    # cse's build fails; orig and cse+sat go on through every round
    build = f"test \"$$ACCSAT_VARIANT\" != cse && make CC='{CC}'"
    done = _tune_in(
        project,
        build.replace("$$", "$"),
        "--variants",
        "cse,cse+sat",
        "--runs",
        "2",
        "--max-runs",
        "2",
    )
    assert done.returncode == 0, done.stderr
    summaries = _summaries(done)
    assert summaries[1].startswith("3 cells:") and summaries[1].endswith("; 2 ok")  # round 1
    assert summaries[2].startswith("2 cells:")  # the second round: orig and cse+sat
    builds = [p.name.split("-")[0] for p in (project / "accsat-tune" / "builds").iterdir()]
    assert sorted(builds).count("cse") == 1


def test_an_edited_kernel_is_tuned_again(project):
    build = f"make CC='{CC}'"
    first = _tune_in(project, build, "--variants", "cse")
    assert first.returncode == 0, first.stderr
    before = {e.line: e.hash for e in load(project / "accsat-tune.json").kernels}
    # the second kernel changes: its hash is new, and every configuration is measured
    # again (nothing from the cache)
    (project / "two.c").write_text(TWO.replace("a[i] * a[i] - a[i] * a[i]", "a[i] * 3.0"))
    again = _tune_in(project, build, "--variants", "cse")
    assert again.returncode == 0, again.stderr
    after = {e.line: e.hash for e in load(project / "accsat-tune.json").kernels}
    assert after[12] == before[12] and after[22] != before[22]
    assert _summaries(again)[:2] == [
        "1 cell: 0 from the cache, 1 built, 0 run on an earlier build; 1 ok",
        "2 cells: 0 from the cache, 2 built, 0 run on an earlier build; 2 ok",
    ]
