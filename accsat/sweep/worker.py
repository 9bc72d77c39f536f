"""One cell of a sweep, inside a batch job: ``python -m accsat.sweep.worker FOLDER [INDEX]``.

FOLDER is a submission of slurm.py (``job.json``: the work and the cells);
INDEX the cell, by default the array task (``$SLURM_ARRAY_TASK_ID``). The work
is rebuilt from its JSON spec and does the cell as a local sweep would (its
build, runs and cache records in ``OUT/cells``); the outcome goes to
``FOLDER/INDEX.json``, atomically, as the last thing the job does. A job
stopped by Slurm (scancel, its time limit: SIGTERM first) kills what it
started and writes no outcome: the driver reports the cell ``job failed``.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from pathlib import Path

from ..toolchain.records import read_json, write_json
from . import jobspec
from .cells import Cell


def job_id(index: int) -> str:
    """``123_4`` for task 4 of array job 123 (what squeue shows); else the plain job id."""
    array = os.environ.get("SLURM_ARRAY_JOB_ID")
    if array:
        return f"{array}_{os.environ.get('SLURM_ARRAY_TASK_ID', index)}"
    return os.environ.get("SLURM_JOB_ID", "")


def _stop(signum, _frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2:
        print("usage: python -m accsat.sweep.worker SUBMISSION_FOLDER [INDEX]", file=sys.stderr)
        return 2
    folder = Path(args[0])
    index = int(args[1] if len(args) == 2 else os.environ.get("SLURM_ARRAY_TASK_ID", "-1"))
    job = read_json(folder / "job.json")
    if not isinstance(job, dict) or not 0 <= index < len(job.get("cells", [])):
        print(f"{folder / 'job.json'}: no cell {index} there", file=sys.stderr)
        return 2
    cell = Cell(**job["cells"][index])
    ran_by = ("slurm", job_id(index))
    spec = job["work"]
    work = jobspec.resolve(spec["factory"])(spec["args"], ran_by=ran_by)
    signal.signal(signal.SIGTERM, _stop)
    print(f"accsat worker: {cell.key} in job {ran_by[1]} on {socket.gethostname()}", flush=True)
    try:
        result = work.cell(cell)
    except KeyboardInterrupt:
        work.stop()
        print(f"accsat worker: {cell.key} stopped (no result)", file=sys.stderr)
        return 143
    result.executor, result.job_id = ran_by  # whatever the work stamped
    write_json(
        folder / f"{index}.json",
        {"job_id": ran_by[1], "host": socket.gethostname(), "result": result.to_dict()},
    )
    print(f"accsat worker: {cell.key}: {result.status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
