"""accsat.sweep.worker: one cell of a submission, as a Slurm array task runs it
(here in this process, with the job's environment variables set by hand)."""

from __future__ import annotations

import json
import os

from accsat.sweep.cache import CellStore
from accsat.sweep.cells import grid
from accsat.sweep.engine import Sweep
from accsat.sweep.results import NO_GPU
from accsat.sweep.slurm import Queue, SlurmExecutor, Submission, Task
from accsat.sweep.worker import main

from .fake_suites import MarkerSuite


def submission(tmp_path):
    cells = grid("npb", ["B1", "B2"], ["S"], ["gcc"], ["host"], ["orig"])
    sweep = Sweep(MarkerSuite(tmp_path / "markers"), tmp_path / "out", progress=False)
    sub = Submission.new(
        tmp_path / "out" / "slurm", sweep.job_spec(), cells, [sweep.fingerprint(c) for c in cells]
    )
    return sweep, sub


def test_the_worker_does_its_cell_and_records_it_with_its_job(tmp_path, monkeypatch):
    sweep, sub = submission(tmp_path)
    monkeypatch.setenv("SLURM_ARRAY_JOB_ID", "41")
    monkeypatch.setenv("SLURM_ARRAY_TASK_ID", "1")
    assert main([str(sub.folder)]) == 0
    result = Task(sub, 1).outcome()
    assert result is not None and result.ok
    assert (result.cell, result.executor, result.job_id) == (sub.cells[1], "slurm", "41_1")
    assert json.loads((sub.folder / "1.json").read_text())["job_id"] == "41_1"
    # the cell cache has it as a local sweep would, stamped with the job
    cached = CellStore(tmp_path / "out").result(sub.cells[1], sweep.fingerprint(sub.cells[1]))
    assert cached is not None and cached.job_id == "41_1"
    assert Task(sub, 0).outcome() is None  # task 0's cell was not done


def test_the_jobs_node_checks_what_the_driver_left_to_it(tmp_path, monkeypatch):
    """A cell the driver could not check (no GPU on a login node) is checked on the node:
    there too no GPU, so its outcome says so, and nothing is cached."""
    cells = grid("npb", ["GPU"], ["S"], ["gcc"], ["nvptx"], ["orig"])
    sweep = Sweep(MarkerSuite(tmp_path / "markers"), tmp_path / "out", progress=False)
    sub = Submission.new(
        tmp_path / "out" / "slurm", sweep.job_spec(), cells, [sweep.fingerprint(c) for c in cells]
    )
    monkeypatch.setenv("SLURM_ARRAY_JOB_ID", "5")
    assert main([str(sub.folder), "0"]) == 0
    result = Task(sub, 0).outcome()
    assert (result.status, result.job_id) == (NO_GPU, "5_0")
    assert CellStore(tmp_path / "out").result(cells[0], sweep.fingerprint(cells[0])) is None


def test_a_bad_index_is_one_line(tmp_path, capsys):
    _, sub = submission(tmp_path)
    assert main([str(sub.folder), "7"]) == 2
    assert "no cell 7 there" in capsys.readouterr().err


def test_a_task_that_finished_after_the_cache_was_read_is_collected_not_resubmitted(
    tmp_path, monkeypatch
):
    """The race of a resume: the sweep finds the cell missing in its cache, then the
    task ends (outcome written, gone from squeue) before the executor asks squeue."""
    sweep, sub = submission(tmp_path)
    sub.job_id = "41"
    sub.save()
    executor = SlurmExecutor(tmp_path / "out" / "slurm", say=lambda line: None)
    monkeypatch.setenv("SLURM_ARRAY_JOB_ID", "41")
    for index in ("0", "1"):
        monkeypatch.setenv("SLURM_ARRAY_TASK_ID", index)
        assert main([str(sub.folder)]) == 0
    old = executor._since - 60  # task 0 ended before this sweep began: not collected
    os.utime(Task(sub, 0).outcome_path, (old, old))
    collected = []
    waiting = executor._earlier(sub.cells, sweep, Queue(), lambda c, r: collected.append((c, r)))
    assert waiting == {}
    assert [(c, r.job_id) for c, r in collected] == [(sub.cells[1], "41_1")]
    assert executor._collected == {sub.cells[1]}
