"""Where a sweep's cells run: the one place that takes a list of cells and hands
back their results.

The sweep decides which cells need work (prechecks, the cache) and records
what comes back; an executor decides where and how many at once:
:class:`LocalExecutor` (this machine) and ``slurm.SlurmExecutor`` (a job
array whose worker calls ``work.cell`` on its own node; the work must then
be a :class:`JobWork`, one a job can rebuild from JSON).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Protocol

from .cells import Cell
from .results import Result

Done = Callable[[Cell, Result], None]


class CellWork(Protocol):
    """What an executor is given to do (the sweep)."""

    def cell(self, cell: Cell) -> Result:
        """Build (unless its build is cached) and run one cell; record its result."""

    def show(self, cell: Cell) -> None:
        """Name the cell now being worked on (the progress bar)."""

    def stop(self) -> None:
        """Stop: cells under way end without a result, processes started are killed."""


class JobWork(CellWork, Protocol):
    """Work a batch job can do: rebuilt on the node from a JSON spec."""

    def job_spec(self) -> dict:
        """``{"factory": "module:callable", "args": {...}}`` (JSON): on the node,
        ``factory(args, ran_by=(executor, job_id))`` is the work, whose results
        carry ``ran_by`` as their ``executor`` and ``job_id``."""

    def fingerprint(self, cell: Cell) -> str:
        """What the cell's result depends on: a job still running for the cell with the
        same fingerprint is waited for, not submitted again."""

    def build(self, cell: Cell) -> Result | None:
        """Only build (``--build-where local``): None when the cell is ready to run
        in a job; else its result, recorded (the build failed)."""


class Detached(Exception):
    """The cells are with a batch system and the sweep returns now (``--detach``)."""

    def __init__(self, jobs: list[str], waiting: int):
        super().__init__(f"{waiting} cells in job(s) {', '.join(jobs)}")
        self.jobs = jobs
        self.waiting = waiting
        self.results: list[Result] = []  # those finished so far (the engine fills it in)


class ExecutorError(Exception):
    """The executor cannot do its work here (one line for the user: no sbatch...)."""


class Executor(Protocol):
    """May also have ``defers(status) -> bool``: whether a precheck's verdict of this
    machine (``no gpu``...) is left to the machine the cell runs on (a batch job's node)."""

    def execute(self, cells: list[Cell], work: CellWork, done: Done) -> None:
        """Do ``work.cell`` for every cell and call ``done(cell, result)`` as each
        finishes (any order, in the calling thread). On any exception, the
        KeyboardInterrupt of a Ctrl-C included, call ``work.stop()`` and re-raise."""


@dataclass
class LocalExecutor:
    """This machine: ``jobs`` cells at once (one: one after another).

    Whatever ``jobs`` is, the sweep's own lock keeps every run alone: builds
    share the machine, runs never do (timings stay fair).
    """

    jobs: int = 1

    def execute(self, cells: list[Cell], work: CellWork, done: Done) -> None:
        if self.jobs > 1:
            self._parallel(cells, work, done)
            return
        try:
            for cell in cells:
                work.show(cell)
                done(cell, work.cell(cell))
        except BaseException:
            work.stop()
            raise

    def _parallel(self, cells: list[Cell], work: CellWork, done: Done) -> None:
        pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="cell")
        try:
            pending = {pool.submit(work.cell, c): c for c in cells}
            while pending:
                # a timeout, so that Ctrl-C reaches this thread while cells run
                finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for fut in finished:
                    done(pending.pop(fut), fut.result())
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            work.stop()
            raise
        pool.shutdown(wait=True)
