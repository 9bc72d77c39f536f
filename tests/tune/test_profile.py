"""ACCSAT_PROFILE: the timers accsat-cc puts in, what the program writes, and reading it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from accsat.tune import profile

from .conftest import SCALE_LINE, STENCIL_LINE, TWO, compile_with, needs_gcc

FIELDS = {
    "kernel",
    "file",
    "line",
    "hash",
    "construct",
    "rewritten",
    "timed",
    "launches",
    "seconds",
    "fastest",
    "pid",
}


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@needs_gcc
def test_orig_build_writes_one_line_per_construct_and_run(project):
    prof = project / "p.jsonl"
    done = compile_with(project, {"ACCSAT_DISABLE": "1", "ACCSAT_PROFILE": str(prof)})
    assert done.returncode == 0, done.stderr
    assert (project / "two.c").read_text() == TWO  # the user's file is never touched
    subprocess.run(["./two", "5"], cwd=project, check=True, capture_output=True)
    subprocess.run(["./two", "2"], cwd=project, check=True, capture_output=True)
    got = lines_of(prof)  # repeated runs append
    assert [(g["kernel"], g["launches"]) for g in got] == [
        (f"two.c:{STENCIL_LINE}", 5),
        (f"two.c:{SCALE_LINE}", 5),
        (f"two.c:{STENCIL_LINE}", 2),
        (f"two.c:{SCALE_LINE}", 2),
    ]
    for g in got:
        assert set(g) == FIELDS and g["timed"] is True and g["seconds"] >= 0
        # the shortest launch: at most the mean one
        assert 0 <= g["fastest"] * g["launches"] <= g["seconds"] + 1e-9
        assert g["rewritten"] is False  # orig: accsat off
    assert got[0]["construct"] == "acc parallel loop"
    assert got[1]["construct"] == "omp parallel for"


@needs_gcc
def test_runtime_override_and_concurrent_processes_append_whole_lines(project):
    done = compile_with(
        project, {"ACCSAT_DISABLE": "1", "ACCSAT_PROFILE": str(project / "build.jsonl")}
    )
    assert done.returncode == 0, done.stderr
    prof = project / "shared.jsonl"
    procs = [
        subprocess.Popen(
            ["./two", "1"],
            cwd=project,
            stdout=subprocess.DEVNULL,
            env={"ACCSAT_PROFILE": str(prof)},
        )
        for _ in range(12)
    ]
    assert all(p.wait() == 0 for p in procs)
    got = lines_of(prof)  # each line parses: no line was cut by another process's
    assert len(got) == 24 and len({g["pid"] for g in got}) == 12
    assert not (project / "build.jsonl").exists()  # the run's setting won
    runs, bad = profile.read(prof)
    assert bad == 0
    assert sorted(k.launches for k in runs.values()) == [12, 12]  # summed over processes


@needs_gcc
def test_a_rewritten_build_is_timed_and_keeps_the_users_line_numbers(project):
    probe = TWO.replace(
        '  printf("checksum', '  printf("line %d\\n", __LINE__);\n  printf("checksum'
    )
    probe = probe.replace(
        "    c[i] = (a[i - 1]",
        '    if (i == 1) printf("in %d\\n", __LINE__);\n    c[i] = (a[i - 1]',
    )
    (project / "probe.c").write_text(probe)
    plain = subprocess.run(
        ["gcc", "-O1", "-Wno-unknown-pragmas", "-o", "plain", "probe.c"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0, plain.stderr
    prof = project / "p.jsonl"
    done = compile_with(
        project,
        {
            "ACCSAT_VARIANT": "cse",
            "ACCSAT_PROFILE": str(prof),
            "ACCSAT_KEEP": str(project / "kept"),
        },
        source="probe.c",
        out="timed",
    )
    assert done.returncode == 0, done.stderr
    kept = next((project / "kept").rglob("probe.c")).read_text()
    assert "_v0" in kept  # rewritten by accsat, and the kernel is in the timed copy
    want = subprocess.run(["./plain", "1"], cwd=project, capture_output=True, text=True).stdout
    got = subprocess.run(["./timed", "1"], cwd=project, capture_output=True, text=True).stdout
    assert [ln for ln in got.splitlines() if "in " in ln or "line" in ln] == [
        ln for ln in want.splitlines() if "in " in ln or "line" in ln
    ]
    got = lines_of(prof)
    assert [g["line"] for g in got] == [STENCIL_LINE, SCALE_LINE + 1]
    assert got[1]["rewritten"] is True  # scale's body is rewritten by cse


def test_instrumented_text_keeps_each_directive_before_its_statement():
    text, warning = profile.instrument(
        '#line 1 "two.c"\n' + TWO, TWO, "two.c", "two.c", "/tmp/p.jsonl"
    )
    assert warning is None
    lines = text.splitlines()
    at = lines.index("#pragma acc parallel loop copyin(a, b) copyout(c)")
    assert lines[at - 1] == '#line 12 "two.c"'
    assert lines[at - 2] == "{ double __accsat_t0 = __accsat_now();"
    assert lines[at + 1].startswith("  for (i = 1;")
    assert "__accsat_record(1, __accsat_t0); }" in text


def test_untimed_and_uninstrumented_constructs_are_listed_not_guessed(isolated):
    src = """int main(void) {
  double a[8];
#pragma acc parallel loop async(1)
  for (int i = 0; i < 8; i++) a[i] = i;
#ifdef X
#pragma acc parallel loop
#endif
  for (int i = 0; i < 8; i++) a[i] += i;
  return (int)a[3] - 6;
}
"""
    text, _ = profile.instrument(
        '#line 1 "u.c"\n' + src, src, "u.c", "u.c", str(isolated / "u.jsonl")
    )
    (isolated / "u.c").write_text(text)
    subprocess.run(
        ["gcc", "-O1", "-Wno-unknown-pragmas", "-o", "u", "u.c"], cwd=isolated, check=True
    )
    subprocess.run(["./u"], cwd=isolated, check=True)
    got = lines_of(isolated / "u.jsonl")
    assert [(g["line"], g["timed"], g["launches"], g["seconds"]) for g in got] == [
        (3, False, 1, None),
        (6, False, None, None),
    ]
    assert got[0]["why"] == "async" and "conditional" in got[1]["why"]


def test_reading_sums_processes_and_counts_bad_lines(tmp_path):
    row = {
        "kernel": "a.c:3",
        "file": "a.c",
        "line": 3,
        "hash": "h",
        "construct": "acc parallel",
        "timed": True,
    }
    text = (
        "".join(
            json.dumps({**row, "launches": n, "seconds": 0.5, "fastest": 0.3 / n, "pid": n}) + "\n"
            for n in (1, 2)
        )
        + json.dumps({**row, "launches": 0, "seconds": 0, "fastest": None, "pid": 3})
        + "\nnot json\n"
    )
    (tmp_path / "p.jsonl").write_text(text)
    runs, bad = profile.read(tmp_path / "p.jsonl")
    assert bad == 1
    k = runs[("a.c", 3, "h")]
    # summed over processes; the shortest launch of any (one that never launched: none)
    assert (k.launches, k.seconds, k.fastest) == (3, 1.0, 0.15)
    one = profile.rows(runs)
    assert one[0]["launches"] == [3] and one[0]["rewritten"] is True  # not said: assumed
    rounds = profile.concat([one, [], one])  # a run without the construct: None there
    assert rounds[0]["launches"] == [3, None, 3] and rounds[0]["seconds"] == [1.0, None, 1.0]
    assert rounds[0]["fastest"] == [0.15, None, 0.15]
    # tables of several rounds each, one without the construct: its rounds None, in order
    later = [{**one[0], "launches": [4, 5], "seconds": [2.0, 2.5], "fastest": [0.1, 0.2]}]
    joined = profile.concat([rounds, [], later], [3, 2, 2])
    assert joined[0]["launches"] == [3, None, 3, None, None, 4, 5]
    assert joined[0]["fastest"] == [0.15, None, 0.15, None, None, 0.1, 0.2]
    with pytest.raises(ValueError, match="2 launches, 3 rounds"):  # never cut nor padded
        profile.concat([later], [3])


@needs_gcc
def test_one_compile_of_several_sources_times_each(project):
    # a loop over the sources once reused the name of its dict of outcomes: the
    # second source crashed accsat-cc
    (project / "main.c").write_text(
        "void f(double *a, int n);\nint main(void) {\n  double a[8];\n  f(a, 8);\n"
        "#pragma omp parallel for\n  for (int i = 0; i < 8; i++) a[i] += 1;\n"
        "  return 0;\n}\n"
    )
    (project / "f.c").write_text(
        "void f(double *a, int n) {\n#pragma omp parallel for\n"
        "  for (int i = 0; i < n; i++) a[i] = a[i] * a[i] + a[i] * a[i];\n}\n"
    )
    prof = project / "p.jsonl"
    done = compile_with(project, {"ACCSAT_PROFILE": str(prof)}, "f.c", out="m", source="main.c")
    assert done.returncode == 0, done.stderr
    subprocess.run(["./m"], cwd=project, check=True)
    assert sorted((g["file"], g["line"], g["launches"]) for g in lines_of(prof)) == [
        ("f.c", 2, 1),
        ("main.c", 5, 1),
    ]
