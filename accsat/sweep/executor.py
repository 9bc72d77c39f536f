"""Where a sweep's cells run: the one place that takes a list of cells and hands
back their results.

The sweep decides which cells need work (prechecks, the cache) and records
what comes back; an executor decides where and how many at once. Today there
is one, :class:`LocalExecutor` (this machine); a batch-system executor would
submit each cell as a job whose worker calls ``work.cell`` on its own node
and hand the results back the same way.
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


class Executor(Protocol):
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
