"""The Slurm executor: the cells of a sweep as one job array on a cluster.

    OUT/slurm/<submission>/   one folder per sbatch
        job.json              the work (jobspec.py), the cells (cell i = array task i), the job id
        job.sh, submit.sh     the job script, and the sbatch line that submitted it
        <i>.log               array task i's output (sbatch --output)
        <i>.json              its outcome, written atomically by the worker as it ends

The driver submits the cells that need work as one array (``--max-jobs`` is
its ``%N``), then polls the outcome files and ``squeue`` until every cell has
come back: no ``sacct``, since many clusters (and the test cluster) have no
accounting storage. The worker records each cell in the cell cache as a local
sweep does, so interrupting the driver loses nothing: the jobs go on, and the
next run takes the finished cells from the cache, waits for the tasks still
queued or running (found by their job name in ``squeue``) and submits only
the rest. A task that leaves the queue without an outcome (failed, timed out,
cancelled, node lost) is a ``job failed`` result naming its log; it is not
cached, so the next run submits the cell again.
"""

from __future__ import annotations

import getpass
import json
import secrets
import shlex
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import cast

from tqdm import tqdm

from ..toolchain import process
from ..toolchain.records import read_json, write_json
from . import jobspec
from .cells import Cell
from .executor import (
    CellWork,
    Detached,
    Done,
    Executor,
    ExecutorError,
    JobWork,
    LocalExecutor,
)
from .results import COMPILER_NOT_FOUND, JOB_FAILED, NO_GPU, Result, line

# squeue's states of a job that is over (the rest: still queued, running or held)
ENDED = frozenset(
    {
        "COMPLETED",
        "FAILED",
        "TIMEOUT",
        "CANCELLED",
        "OUT_OF_MEMORY",
        "NODE_FAIL",
        "BOOT_FAIL",
        "DEADLINE",
        "PREEMPTED",
    }
)
WORKER = "accsat.sweep.worker"


@dataclass(frozen=True)
class SlurmOptions:
    """The ``accsat bench``/``tune`` options for ``--executor slurm``."""

    partition: str | None = None
    account: str | None = None
    time_limit: str | None = None  # sbatch --time, per cell
    gpus_per_task: int | None = None
    constraint: str | None = None
    max_jobs: int | None = None  # array tasks at once: --array=...%N
    sbatch_args: tuple[str, ...] = ()
    build_where: str = "job"  # "job" | "local" (the submitting host, before submitting)
    detach: bool = False

    def sbatch_options(self) -> list[str]:
        named = {
            "--partition": self.partition,
            "--account": self.account,
            "--time": self.time_limit,
            "--constraint": self.constraint,
            "--gpus-per-task": self.gpus_per_task,
        }
        return [f"{k}={v}" for k, v in named.items() if v is not None] + list(self.sbatch_args)

    def given(self) -> list[str]:
        """The options set away from their defaults (an error with ``--executor local``)."""
        default = SlurmOptions()
        return [
            _FLAGS.get(f.name, "--" + f.name.replace("_", "-"))
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        ]


_FLAGS = {"time_limit": "--time", "sbatch_args": "--sbatch-arg"}


def executor_for(kind: str, options: SlurmOptions, out: Path, jobs: int) -> Executor:
    """The executor ``--executor`` names; ``jobs``: builds at once on this machine."""
    if kind == "slurm":
        return SlurmExecutor(out / "slurm", options, jobs)
    return LocalExecutor(jobs)


# -- the queue ---------------------------------------------------------------------------
@dataclass
class Queue:
    """What ``squeue`` says of this user's jobs (finished ones stay a few minutes)."""

    states: dict[str, str] = field(default_factory=dict)  # "123_4" -> "RUNNING"
    by_name: dict[str, str] = field(default_factory=dict)  # job name -> job id

    def active(self, task: str) -> bool:
        state = self.states.get(task)
        return state is not None and state not in ENDED

    @staticmethod
    def read() -> Queue | None:
        """None when squeue does not answer (slurmctld restarting...): ask again later."""
        cmd = [
            "squeue",
            "--noheader",
            "--array",
            "--states=all",
            f"--user={getpass.getuser()}",
            "--format=%i|%T|%j",
        ]
        try:
            done = process.capture(cmd, timeout=60)
        except OSError:
            return None
        if not done.ok:
            return None
        queue = Queue()
        for row in done.out.splitlines():
            task, _, rest = row.strip().partition("|")
            state, _, name = rest.partition("|")
            queue.states[task] = state.split()[0] if state else ""
            queue.by_name.setdefault(name, task.partition("_")[0])
        return queue


def _slurm(*cmd: str) -> process.Captured:
    try:
        done = process.capture(cmd, timeout=120)
    except OSError as exc:
        raise ExecutorError(f"{cmd[0]}: {exc}") from None
    if done.timed_out:
        raise ExecutorError(f"{cmd[0]}: no answer in 120 s")
    return done


# -- submissions on disk -----------------------------------------------------------------
@dataclass
class Submission:
    folder: Path
    work: dict  # the work's job_spec()
    cells: list[Cell]
    fingerprints: list[str]  # what each cell's result depends on (work.fingerprint)
    job_id: str = ""  # known once sbatch answered

    @property
    def name(self) -> str:
        """The job's name: how squeue finds it should the driver die before saving its id."""
        return f"accsat-{self.folder.name}"

    def save(self) -> None:
        write_json(
            self.folder / "job.json",
            {
                "work": self.work,
                "job_id": self.job_id,
                "cells": [c.as_dict() for c in self.cells],
                "fingerprints": self.fingerprints,
            },
        )

    @staticmethod
    def new(root: Path, work: dict, cells: list[Cell], fingerprints: list[str]) -> Submission:
        # microseconds in the name: all() lists submissions in the order they were made,
        # also two made within one second (a resumed sweep)
        now = time.time_ns() // 1000
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now // 10**6))
        folder = root / f"{stamp}.{now % 10**6:06d}-{secrets.token_hex(3)}"
        folder.mkdir(parents=True)
        sub = Submission(folder, work, cells, fingerprints)
        sub.save()  # before sbatch: a job always has its spec
        return sub

    @staticmethod
    def all(root: Path) -> list[Submission]:
        """Every submission under root, oldest first."""
        subs = []
        for path in sorted(root.glob("*/job.json")):
            data = read_json(path)
            try:
                subs.append(
                    Submission(
                        path.parent,
                        data["work"],
                        [Cell(**c) for c in data["cells"]],
                        data["fingerprints"],
                        data["job_id"],
                    )
                )
            except (KeyError, TypeError):
                continue  # not ours, or half-made by hand: ignored
        return subs


@dataclass(frozen=True)
class Task:
    sub: Submission = field(compare=False)
    index: int

    @property
    def cell(self) -> Cell:
        return self.sub.cells[self.index]

    @property
    def id(self) -> str:
        return f"{self.sub.job_id}_{self.index}"

    @property
    def log(self) -> Path:
        return self.sub.folder / f"{self.index}.log"

    @property
    def outcome_path(self) -> Path:
        return self.sub.folder / f"{self.index}.json"

    def outcome(self) -> Result | None:
        data = read_json(self.outcome_path)
        try:
            return Result.from_dict(data["result"])
        except (KeyError, TypeError):
            return None

    def failed(self, state: str | None) -> Result:
        how = f"ended {state}" if state else "left the queue"
        lines = [s.strip() for s in process.tail(self.log).splitlines() if s.strip()]
        # Slurm's own word on it ("*** JOB 12 ... DUE TO TIME LIMIT ***") else the last line
        said = [s for s in lines if "***" in s][-1:] or lines[-1:]
        return Result(
            self.cell,
            JOB_FAILED,
            f"Slurm job {self.id} {how} without a result; see {self.log}"
            + (f": {said[0][:200]}" if said else ""),
            executor="slurm",
            job_id=self.id,
        )


# -- the executor --------------------------------------------------------------------------
@dataclass
class SlurmExecutor:
    folder: Path  # OUT/slurm: on a file system the compute nodes share
    options: SlurmOptions = field(default_factory=SlurmOptions)
    jobs: int = 1  # builds at once here (--build-where local)
    poll: float = 2.0  # seconds between looks at the files and squeue
    # how long a task may be out of the queue before its missing outcome counts as a
    # failure: a network file system can show a file some seconds after it was written
    grace: float = 10.0
    every: float = 30.0  # seconds between lines on the queue's state
    say: Callable[[str], None] = field(default=lambda s: tqdm.write(s, file=sys.stderr))
    _jobs: set[str] = field(default_factory=set, init=False)  # those this sweep waits for
    # made before the sweep looked in its cache: an outcome written since is of this sweep
    _since: float = field(default_factory=time.time, init=False)
    _collected: set[Cell] = field(default_factory=set, init=False)  # finished since, not cached

    def defers(self, status: str) -> bool:
        """The login node has no GPU, or not the compiler: the job's node decides."""
        return status == NO_GPU or (
            status == COMPILER_NOT_FOUND and self.options.build_where == "job"
        )

    def execute(self, cells: list[Cell], work: CellWork, done: Done) -> None:
        if not cells:
            return
        try:
            self._execute(cells, work, done)
        except KeyboardInterrupt:
            work.stop()  # builds of --build-where local; the jobs go on
            self.say(self._still_running_note())
            raise
        except Detached:
            raise
        except BaseException:
            work.stop()
            raise

    def _execute(self, cells: list[Cell], work: CellWork, done: Done) -> None:
        if shutil.which("sbatch") is None or shutil.which("squeue") is None:
            raise ExecutorError("--executor slurm: sbatch and squeue are not on PATH")
        spec = self._spec(work)
        job = cast(JobWork, work)  # _spec checked that it is one
        queue = Queue.read()
        if queue is None:
            raise ExecutorError("--executor slurm: squeue does not answer (is Slurm up?)")
        waiting = self._earlier(cells, job, queue, done)
        if waiting:
            self.say(
                f"slurm: {len(waiting)} cells still queued or running in job(s) "
                f"{', '.join(sorted({t.sub.job_id for t in waiting.values()}))}: "
                "waiting for them (not submitted again)"
            )
        left = [c for c in cells if c not in waiting and c not in self._collected]
        if left and self.options.build_where == "local":
            left = self._build_here(left, job, done)
        if left:
            fps = [job.fingerprint(c) for c in left]
            sub = self._submit(Submission.new(self.folder, spec, left, fps))
            waiting.update({t.cell: t for t in (Task(sub, i) for i in range(len(left)))})
        self._jobs = {t.sub.job_id for t in waiting.values()}
        if waiting and self.options.detach:
            raise Detached(sorted(self._jobs), len(waiting))
        self._wait(waiting, done)

    def _spec(self, work: CellWork) -> dict:
        job_spec = getattr(work, "job_spec", None)
        if job_spec is None or not hasattr(work, "fingerprint"):
            raise ExecutorError("--executor slurm: this command's work cannot run in a job")
        try:
            return json.loads(json.dumps(job_spec()))  # as it will read back from job.json
        except (jobspec.NotSendable, TypeError, ValueError) as exc:
            raise ExecutorError(f"--executor slurm: {exc}") from None

    def _earlier(
        self, cells: list[Cell], work: JobWork, queue: Queue, done: Done
    ) -> dict[Cell, Task]:
        """Tasks of earlier submissions still queued or running for these cells: waited
        for, not submitted again; one for other settings is cancelled (it would write
        into the same cell folder as the new one). A task that finished after the sweep
        looked in its cache (its outcome is newer than this executor) is collected now,
        not done twice."""
        wanted = set(cells)
        adopted: dict[Cell, Task] = {}
        self._collected = set()
        for sub in Submission.all(self.folder):
            if not sub.job_id:  # the driver died between sbatch and saving the id
                sub.job_id = queue.by_name.get(sub.name, "")
                if not sub.job_id:
                    continue
                sub.save()
            for task in (Task(sub, i) for i in range(len(sub.cells))):
                if self._finished_since(task, work) and task.cell in wanted:
                    result = task.outcome()
                    if result is not None and task.cell not in self._collected:
                        self._collected.add(task.cell)
                        done(task.cell, result)
                    continue
                if (
                    task.cell not in wanted
                    or not queue.active(task.id)
                    or task.outcome_path.exists()
                ):
                    continue
                if (
                    sub.fingerprints[task.index] == work.fingerprint(task.cell)
                    and task.cell not in adopted
                ):
                    adopted[task.cell] = task
                else:
                    self.say(f"slurm: cancelling {task.id} ({task.cell.key}, other settings)")
                    _slurm("scancel", task.id)
        return adopted

    def _finished_since(self, task: Task, work: JobWork) -> bool:
        try:
            written = task.outcome_path.stat().st_mtime
        except FileNotFoundError:
            return False
        return written >= self._since and task.sub.fingerprints[task.index] == work.fingerprint(
            task.cell
        )

    def _build_here(self, cells: list[Cell], work: JobWork, done: Done) -> list[Cell]:
        """``--build-where local``: build here first; the jobs then only run."""
        if getattr(work, "build", None) is None:
            raise ExecutorError("--build-where local: this command's work has no build step")
        ready: set[Cell] = set()

        def built(cell: Cell, result: Result | None) -> None:
            if result is None:
                ready.add(cell)
            else:  # the build failed: that is the cell's result
                done(cell, result)

        # a build step's result is None when the cell is ready to run: built() takes it
        LocalExecutor(self.jobs).execute(cells, _BuildStep(work), built)  # type: ignore[arg-type]
        return [c for c in cells if c in ready]

    def _submit(self, sub: Submission) -> Submission:
        script = sub.folder / "job.sh"
        script.write_text(
            "#!/bin/sh\n# accsat: array task i does cell i of job.json\n"
            f"exec {shlex.quote(sys.executable)} -m {WORKER} "
            f"{shlex.quote(str(sub.folder))}\n"
        )
        array = f"0-{len(sub.cells) - 1}"
        if self.options.max_jobs:
            array += f"%{self.options.max_jobs}"
        cmd = [
            "sbatch",
            "--parsable",
            f"--job-name={sub.name}",
            f"--array={array}",
            f"--output={sub.folder}/%a.log",
            *self.options.sbatch_options(),
            str(script),
        ]
        (sub.folder / "submit.sh").write_text(shlex.join(cmd) + "\n")
        proc = _slurm(*cmd)
        if not proc.ok:
            why = (proc.err.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            raise ExecutorError(f"sbatch: {why} (the command is in {sub.folder / 'submit.sh'})")
        sub.job_id = proc.out.strip().split(";")[0]
        sub.save()
        self.say(
            f"slurm: submitted job {sub.job_id}: {len(sub.cells)} cells (logs in {sub.folder})"
        )
        return sub

    def _wait(self, waiting: dict[Cell, Task], done: Done) -> None:
        """Until every task has come back: its outcome file, or out of the queue without."""
        gone_since: dict[Cell, float] = {}
        shown = ("", -self.every)
        while waiting:
            queue = Queue.read()  # before the files: a task that ended has written its own
            now = time.monotonic()
            for cell, task in list(waiting.items()):
                result = task.outcome()
                if result is None:
                    if queue is None or queue.active(task.id):
                        gone_since.pop(cell, None)
                        continue
                    if now - gone_since.setdefault(cell, now) < self.grace:
                        continue
                    result = task.failed(queue.states.get(task.id))
                del waiting[cell]
                self.say(line(result))
                done(cell, result)
            shown = self._progress(queue, waiting, shown)
            if waiting:
                time.sleep(self.poll)

    def _progress(
        self, queue: Queue | None, waiting: dict[Cell, Task], shown: tuple[str, float]
    ) -> tuple[str, float]:
        """The queue's view of the cells still out, when it changed (at most every ``every`` s)."""
        if queue is None:
            text = "slurm: squeue does not answer; waiting"
        else:
            states = Counter(queue.states.get(t.id, "?").lower() for t in waiting.values())
            text = f"slurm: cells still out: {len(waiting)}" + "".join(
                f", {n} {s}" for s, n in sorted(states.items())
            )
        now = time.monotonic()
        if not waiting or text == shown[0] or now - shown[1] < self.every:
            return shown
        self.say(text)
        return text, now

    def _still_running_note(self) -> str:
        jobs = " ".join(sorted(self._jobs))
        if not jobs:
            return "slurm: nothing was submitted"
        return (
            f"slurm: job(s) {jobs} go on (scancel {jobs} stops them); "
            "run the same command again to collect their cells"
        )


@dataclass
class _BuildStep:
    """A work whose ``cell`` only builds (for a LocalExecutor): None when ready to run."""

    work: JobWork

    def cell(self, cell: Cell) -> Result | None:
        return self.work.build(cell)

    def show(self, cell: Cell) -> None:
        self.work.show(cell)

    def stop(self) -> None:
        self.work.stop()
