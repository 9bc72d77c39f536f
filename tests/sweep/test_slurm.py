"""The Slurm executor against a real Slurm (a one-node cluster started by the
``slurm_cluster`` fixture; skipped where it cannot run: not root, no slurm-wlm).

A sweep of tests/fixtures/npb_mini through ``--executor slurm`` gives the
local sweep's verified cells, with job ids that slurmctld allocated; a driver
killed mid-sweep loses nothing and no cell is done twice; a job that dies is
``job failed`` with its log named, and only it is submitted again.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from accsat.sweep.cells import grid
from accsat.sweep.engine import Sweep
from accsat.sweep.results import JOB_FAILED, OK
from accsat.sweep.slurm import SlurmExecutor, SlurmOptions, Submission, Task
from npb_harness.cli import npb

from .fake_suites import MarkerSuite

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "npb_mini"
needs_gcc = pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("make") is None, reason="needs gcc and make"
)


def bench(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        npb, ["--no-progress", "--npb-root", str(FIXTURE), *args], catch_exceptions=False
    )
    return result.exit_code, result.output


def rows(out: Path) -> dict[str, dict]:
    with open(out / "results.csv") as f:
        return {f"{r['benchmark']}.{r['size']}.{r['variant']}": r for r in csv.DictReader(f)}


def allocated(cluster) -> list[str]:
    """Every array task slurmctld started ("123_4"), from its log."""
    text = cluster.ctld_log.read_text()
    return re.findall(r"(?:Allocate|Started) JobId=(\d+_\d+)\(", text)


def outcomes(out: Path) -> dict[str, int]:
    """How many job outcomes each cell has, over every submission of the sweep."""
    count: dict[str, int] = {}
    for sub in Submission.all(out / "slurm"):
        for i, cell in enumerate(sub.cells):
            if (sub.folder / f"{i}.json").exists():
                count[cell.key] = count.get(cell.key, 0) + 1
    return count


@needs_gcc
def test_a_slurm_sweep_gives_the_local_sweeps_cells(slurm_cluster, tmp_path):
    args = ["--benchmarks", "ST,LX", "--variants", "orig,cse", "--runs", "1"]
    code, text = bench(*args, "--out", str(tmp_path / "local"))
    assert code == 0, text
    code, text = bench(
        *args, "--out", str(tmp_path / "slurm"), "--executor", "slurm", "--max-jobs", "2"
    )
    assert code == 0, text
    local, slurm = rows(tmp_path / "local"), rows(tmp_path / "slurm")
    same = ("status", "verified", "kernels_found", "kernels_rewritten", "fma", "fallbacks")
    assert {k: [r[c] for c in same] for k, r in slurm.items()} == {
        k: [r[c] for c in same] for k, r in local.items()
    }
    assert all(r["status"] == "ok" for r in slurm.values())
    assert {r["executor"] for r in local.values()} == {"local"}
    assert {r["job_id"] for r in local.values()} == {""}
    # one array job; every task went through slurmctld, once
    jobs = [r["job_id"] for r in slurm.values()]
    assert {r["executor"] for r in slurm.values()} == {"slurm"}
    assert len({j.split("_")[0] for j in jobs}) == 1, jobs
    started = allocated(slurm_cluster)
    assert sorted(j for j in started if j.split("_")[0] == jobs[0].split("_")[0]) == sorted(jobs)
    assert "4 built" in text
    assert (tmp_path / "slurm" / "speedup.png").is_file()


@needs_gcc
def test_a_killed_driver_loses_nothing_and_no_cell_is_done_twice(slurm_cluster, tmp_path):
    """SIGTERM the driver mid-sweep: its jobs go on, and the next run waits for them
    (--detach: returns with the job id); cancel the job, and the next run submits
    only the cells that had not finished."""
    out = tmp_path / "out"
    args = ["--benchmarks", "ST,LX", "--classes", "S,W", "--variants", "orig", "--runs", "1",
            "--out", str(out), "--executor", "slurm", "--max-jobs", "1"]  # fmt: skip
    driver = subprocess.Popen(
        [sys.executable, "-m", "npb_harness", "--no-progress", "--npb-root", str(FIXTURE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.time() + 600  # a loaded CI machine: the first task may wait long
    while time.time() < deadline and not list(out.glob("cells/*/result.json")):
        time.sleep(0.1)
    driver.send_signal(signal.SIGTERM)
    text, _ = driver.communicate(timeout=60)
    assert driver.returncode == 130, text
    assert list(out.glob("cells/*/result.json")), f"no cell finished in 600 s:\n{text}"
    (sub,) = Submission.all(out / "slurm")
    assert f"job(s) {sub.job_id} go on" in text
    # the next run finds the job's tasks in squeue and submits nothing
    code, text = bench(*args, "--detach")
    assert code == 0, text
    assert len(Submission.all(out / "slurm")) == 1
    if "detached" in text:  # else the job had finished meanwhile: all collected
        assert sub.job_id in text.splitlines()  # on stdout, alone on its line
        assert "not submitted again" in text
    subprocess.run(["scancel", sub.job_id], check=True)
    while any(s in ("PENDING", "RUNNING", "COMPLETING") for s in _states(sub.job_id)):
        time.sleep(0.2)
    finished = {p.parent.name for p in out.glob("cells/*/result.json")}
    before = {k: (out / "cells" / k / "result.json").stat().st_mtime_ns for k in finished}
    code, text = bench(*args)
    assert code == 0, text
    assert f"{len(finished)} from the cache" in text
    subs = Submission.all(out / "slurm")
    why = _diagnosis(text, subs)
    # only the cells that had not finished (the first submission had every cell)
    assert {c.key for s in subs[1:] for c in s.cells} == {c.key for c in sub.cells} - finished, why
    # none done twice (a task cancelled between its cache record and its outcome has none)
    assert max(outcomes(out).values()) == 1, (outcomes(out), why)
    assert {k: (out / "cells" / k / "result.json").stat().st_mtime_ns for k in finished} == before
    assert len(rows(out)) == 4, why
    assert all(r["status"] == "ok" and r["executor"] == "slurm" for r in rows(out).values()), why


def _diagnosis(text: str, subs: list[Submission]) -> str:
    """The driver's output and every task's log: what a failure message should show."""
    logs = [
        f"--- {log}\n{log.read_text(errors='replace')[-2000:]}"
        for s in subs
        for log in sorted(s.folder.glob("*.log"))
    ]
    return "\n".join([text, *logs])


def _states(job: str) -> list[str]:
    proc = subprocess.run(
        ["squeue", "--noheader", "--array", "--states=all", f"--jobs={job}", "--format=%T"],
        capture_output=True,
        text=True,
    )
    return proc.stdout.split()


def test_a_job_that_dies_is_failed_with_its_log_and_alone_submitted_again(slurm_cluster, tmp_path):
    markers = tmp_path / "markers"
    markers.mkdir()
    (markers / "die-B2").touch()
    cells = grid("npb", ["B1", "B2"], ["S"], ["gcc"], ["host"], ["orig"])
    lines: list[str] = []

    def sweep() -> list:
        executor = SlurmExecutor(
            tmp_path / "out" / "slurm", SlurmOptions(), poll=0.3, grace=1.0, say=lines.append
        )
        return Sweep(
            MarkerSuite(markers), tmp_path / "out", executor, progress=False, say=lines.append
        ).run(cells)

    first = {r.cell.benchmark: r for r in sweep()}
    assert first["B1"].status == OK and first["B1"].executor == "slurm"
    dead = first["B2"]
    assert dead.status == JOB_FAILED and dead.job_id
    log = re.search(r"see (\S+\.log)", dead.message).group(1)
    assert Path(log).is_file() and "B2.S.gcc.host.orig in job" in Path(log).read_text()
    assert any(dead.job_id in line and JOB_FAILED in line for line in lines)
    (markers / "die-B2").unlink()
    second = {r.cell.benchmark: r for r in sweep()}
    assert second["B1"].cached and second["B1"].job_id == first["B1"].job_id
    assert second["B2"].status == OK and second["B2"].job_id != dead.job_id
    subs = Submission.all(tmp_path / "out" / "slurm")
    assert [[c.benchmark for c in s.cells] for s in subs] == [["B1", "B2"], ["B2"]]


@needs_gcc
def test_build_where_local_builds_here_and_the_job_only_runs(slurm_cluster, tmp_path):
    out = tmp_path / "out"
    code, text = bench("--benchmarks", "ST", "--variants", "orig", "--runs", "1", "--executor",
                       "slurm", "--build-where", "local", "--out", str(out))  # fmt: skip
    assert code == 0, text
    (row,) = rows(out).values()
    assert row["status"] == "ok" and row["job_id"]
    (sub,) = Submission.all(out / "slurm")
    outcome = json.loads((sub.folder / "0.json").read_text())
    assert outcome["result"]["extra"]["build"] == "reused"  # built before the job
    assert "build reused" in (sub.folder / "0.log").read_text()


PROGRAM = """\
#include <stdio.h>
#define N 2000
static double a[N], c[N];
int main(void)
{
  int i;
  double s = 0;
  for (i = 0; i < N; i++) a[i] = i % 7;
#pragma acc parallel loop copyin(a) copyout(c)
  for (i = 1; i < N - 1; i++)
    c[i] = (a[i - 1] + a[i] + a[i + 1]) * 0.5 + (a[i - 1] + a[i] + a[i + 1]) * a[i];
  for (i = 0; i < N; i++) s += c[i];
  printf("checksum %.6e\\n", s);
  return 0;
}
"""


@needs_gcc
def test_a_tiny_tune_through_slurm_gives_the_local_choice(slurm_cluster, tmp_path):
    cc = f"{sys.executable} -m accsat.wrapper gcc"
    runs = {}
    for where in ("local", "slurm"):
        project = tmp_path / where
        project.mkdir()
        (project / "one.c").write_text(PROGRAM)
        (project / "Makefile").write_text("one: one.c\n\t$(CC) -O1 -o one one.c\n")
        done = subprocess.run(
            [sys.executable, "-m", "accsat.cli", "tune", "--build", f"make CC='{cc}'",
             "--run", "./one", "--check", "^checksum", "--runs", "1", "--max-runs", "1",
             "--variants", "cse",
             "--no-progress", "--executor", where],
            cwd=project, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        with open(project / "accsat-tune" / "programs.csv") as f:
            runs[where] = [(r["config"], r["verified"]) for r in csv.DictReader(f)]
        records = [json.loads(p.read_text())["result"]
                   for p in (project / "accsat-tune" / "cells").glob("*/result.json")]  # fmt: skip
        assert {(r["executor"], bool(r["job_id"])) for r in records} == {(where, where == "slurm")}
    assert runs["slurm"] == runs["local"]
    assert [c for c, _ in runs["local"]] == ["orig", "cse", "tuned"]


def test_slurm_options_need_the_slurm_executor(tmp_path):
    code, text = bench(
        "--benchmarks", "ST", "--out", str(tmp_path), "--max-jobs", "2", "--sbatch-arg=--exclusive"
    )
    assert code == 2 and "--max-jobs, --sbatch-arg: only with --executor slurm" in text


def test_no_sbatch_is_one_line(tmp_path, monkeypatch):
    gcc = shutil.which("gcc") or "/usr/bin/gcc"  # by its path: the cell is attempted
    monkeypatch.setenv("PATH", str(tmp_path))  # where there is no sbatch
    code, text = bench(
        "--benchmarks",
        "ST",
        "--compilers",
        f"gcc={gcc}",
        "--out",
        str(tmp_path / "out"),
        "--executor",
        "slurm",
    )
    assert (
        code == 1
        and text.strip().splitlines()[-1]
        == "Error: --executor slurm: sbatch and squeue are not on PATH"
    ), text


def test_a_failed_task_names_its_log_and_slurms_own_word(tmp_path):
    cells = grid("npb", ["B1"], ["S"], ["gcc"], ["host"], ["orig"])
    sub = Submission.new(tmp_path, {}, cells, ["fp"])
    sub.job_id = "37"
    (sub.folder / "0.log").write_text(
        "accsat worker: B1.S.gcc.host.orig in job 37_0 on vm\n"
        "slurmstepd: error: *** JOB 37 ON vm CANCELLED AT 12:00 DUE TO TIME LIMIT ***\n"
        "accsat worker: B1.S.gcc.host.orig stopped (no result)\n"
    )
    result = Task(sub, 0).failed("TIMEOUT")
    assert (result.status, result.job_id, result.executor) == (JOB_FAILED, "37_0", "slurm")
    assert result.message == (
        f"Slurm job 37_0 ended TIMEOUT without a result; see {sub.folder / '0.log'}: "
        "slurmstepd: error: *** JOB 37 ON vm CANCELLED AT 12:00 DUE TO TIME LIMIT ***"
    )
    assert "left the queue" in Task(sub, 0).failed(None).message


def test_submissions_are_listed_in_the_order_they_were_made(tmp_path):
    """A resumed sweep can submit within the second of the first submission: the
    listing must still put the first one first (the folder name once had only seconds
    and a random suffix, so two in one second came back in either order)."""
    cells = grid("npb", ["B1"], ["S"], ["gcc"], ["host"], ["orig"])
    made = [Submission.new(tmp_path, {"n": n}, cells, ["fp"]).folder for n in range(8)]
    assert [s.folder for s in Submission.all(tmp_path)] == made
    assert [s.work["n"] for s in Submission.all(tmp_path)] == list(range(8))
