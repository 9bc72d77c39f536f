"""The sweep engine every harness shares: cells in, results out, resumable.

A suite (NPB, SPEC direct, SPEC runspec, the PTX view) says how to check,
build and run one cell; an executor (executor.py) where the cells run; the
engine does the rest: the on-disk cache, the progress bar, runs one at a time
and never beside a build (timings stay fair) however many cells build at
once, failures as results, and an interrupt that leaves every finished cell
finished and nothing half-recorded.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tqdm import tqdm

from . import procs
from .cache import CellStore, fingerprint
from .cells import Cell
from .executor import Executor, LocalExecutor
from .results import BUILD_FAILED, ERROR, NOT_ATTEMPTED, Result


class Suite(Protocol):
    name: str

    def precheck(self, cell: Cell) -> Result | None:
        """A result when the cell cannot be attempted here (compiler missing...)."""

    def build_key(self, cell: Cell) -> dict:
        """Everything the build depends on (its cache fingerprint)."""

    def run_key(self, cell: Cell) -> dict:
        """What the runs depend on beyond the build (number of runs, timeout...)."""

    def build(self, cell: Cell, folder: Path) -> dict:
        """Build into ``folder``: ``{"ok", "seconds", "message", "artifact", ...}``."""

    def run(self, cell: Cell, build: dict, folder: Path) -> Result:
        """Run the built cell (only called when the build is ok)."""


class Interrupted(Exception):
    """The sweep was stopped (Ctrl-C); what finished is cached."""

    def __init__(self, results: list[Result]):
        super().__init__("interrupted")
        self.results = results


class _BuildsOrOneRun:
    """Builds share the machine; a run has it to itself (a readers-writer lock)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._builds = 0
        self._run = False
        self._run_waiting = 0

    @contextmanager
    def build(self):
        with self._cond:
            # a waiting run goes first, so runs are not starved by a queue of builds
            self._cond.wait_for(lambda: not self._run and not self._run_waiting)
            self._builds += 1
        try:
            yield
        finally:
            with self._cond:
                self._builds -= 1
                self._cond.notify_all()

    @contextmanager
    def run(self):
        with self._cond:
            self._run_waiting += 1
            self._cond.wait_for(lambda: not self._run and not self._builds)
            self._run_waiting -= 1
            self._run = True
        try:
            yield
        finally:
            with self._cond:
                self._run = False
                self._cond.notify_all()


@dataclass
class Sweep:
    suite: Suite
    out: Path
    executor: Executor = field(default_factory=LocalExecutor)
    force: bool = False  # redo every cell
    retry_failed: bool = False  # redo cached cells that did not verify
    rerun: bool = False  # run every cell again, on its cached build (re-time a quiet machine)
    progress: bool = True
    say: Callable[[str], None] = field(default=lambda line: tqdm.write(line, file=sys.stderr))
    built: list[Cell] = field(default_factory=list)  # cells this sweep (re)built
    reused: list[Cell] = field(default_factory=list)  # builds taken from an earlier sweep

    def __post_init__(self) -> None:
        self.store = CellStore(self.out)
        self._lock = _BuildsOrOneRun()
        self._stopping = threading.Event()
        self._bar: tqdm | None = None

    def fingerprint(self, cell: Cell) -> str:
        return fingerprint({"build": self.suite.build_key(cell), "run": self.suite.run_key(cell)})

    def run(self, cells: list[Cell]) -> list[Result]:
        """A result for every cell, in the order given (raises cache.Busy if the
        output folder is another sweep's right now)."""
        self.store.lock()
        try:
            return self._run(cells)
        finally:
            self.store.release()

    def _run(self, cells: list[Cell]) -> list[Result]:
        results: dict[Cell, Result] = {}
        to_do: list[Cell] = []
        for cell in cells:
            pre = self.suite.precheck(cell)
            if pre is not None:
                results[cell] = pre
                continue
            if self.force:
                self.store.forget(cell)
            cached = None if self.rerun else self.store.result(cell, self.fingerprint(cell))
            if cached is not None and (cached.ok or not self.retry_failed):
                results[cell] = cached
            else:
                to_do.append(cell)
        bar = tqdm(total=len(cells), initial=len(results), unit="cell", file=sys.stderr,
                   desc=f"{self.suite.name} cells", disable=not self.progress, mininterval=1.0,
                   dynamic_ncols=True)

        def done(cell: Cell, result: Result) -> None:
            results[cell] = result
            bar.update()

        self._bar = bar
        try:
            self.executor.execute(to_do, self, done)
        except KeyboardInterrupt:
            self.stop()  # the executor's job too; twice does no harm
            raise Interrupted([results[c] for c in cells if c in results]) from None
        finally:
            self._bar = None
            bar.close()
        return [results[c] for c in cells]

    # -- what an executor calls (executor.CellWork) ---------------------------------
    def show(self, cell: Cell) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(cell.key, refresh=True)

    def stop(self) -> None:
        self._stopping.set()
        procs.kill_all()

    def cell(self, cell: Cell) -> Result:
        """Build (unless cached) and run one cell; record and announce its result."""
        try:
            result = self._build_and_run(cell)
        except (KeyboardInterrupt, _Stopped):
            raise
        except Exception as exc:  # the sweep goes on; the cell says what happened
            detail = traceback.format_exc(limit=3)
            result = Result(cell, ERROR, f"{type(exc).__name__}: {exc}")
            self.say(f"{cell.key}: {ERROR}\n{detail}")
            return result
        if self._stopping.is_set():
            raise _Stopped
        self.store.save_result(cell, self.fingerprint(cell), result)
        self.say(_line(result, cell in self.reused))
        return result

    def _build_and_run(self, cell: Cell) -> Result:
        folder = self.store.prepare(cell)
        key = self.suite.build_key(cell)
        bfp = fingerprint(key)
        record = self.store.build_record(cell, bfp)
        if record is not None and record.get("ok") and not _artifact_present(record):
            record = None  # the tree was deleted since: build again
        if record is not None and not record.get("ok") and self.retry_failed:
            record = None
        if record is None:
            with self._lock.build():
                if self._stopping.is_set():
                    raise _Stopped
                record = self.suite.build(cell, folder)
            if self._stopping.is_set():
                raise _Stopped  # a build we killed is no result
            record["fingerprint"] = bfp
            if key.get("accsat_code"):
                record["accsat_code"] = key["accsat_code"]
            self.store.save_build(cell, record)
            self.built.append(cell)
        else:
            self.reused.append(cell)
        if not record.get("ok"):
            return Result(cell, record.get("status", BUILD_FAILED), record.get("message", ""),
                          build_seconds=record.get("seconds"), kernels=record.get("kernels", {}),
                          fallbacks=record.get("fallbacks", 0))
        with self._lock.run():
            if self._stopping.is_set():
                raise _Stopped
            # other work on the machine skews timings: keep the evidence with them
            load_before = _load()
            result = self.suite.run(cell, record, folder)
            result.extra["load"] = [load_before, _load()]
        if record.get("accsat_code"):
            result.extra["accsat_code"] = record["accsat_code"]
        result.build_seconds = record.get("seconds")
        result.kernels = record.get("kernels", {})
        result.fallbacks = record.get("fallbacks", 0)
        return result


class _Stopped(BaseException):
    """Raised in a worker once the sweep is being interrupted."""


def _load() -> float | None:
    """The 1-minute load average (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _artifact_present(record: dict) -> bool:
    artifact = record.get("artifact")
    return artifact is None or Path(artifact).exists()


def _line(r: Result, reused: bool) -> str:
    how = "build reused" if reused else (f"built in {r.build_seconds:.1f} s"
                                         if r.build_seconds is not None else "")
    t = f" {r.seconds:g} s" if r.seconds is not None else ""
    msg = f" ({r.message})" if r.message and not r.ok else ""
    return f"  {r.cell.key}: {r.status}{t}{msg}; {how}".rstrip("; ")


def attempted(results: list[Result]) -> list[Result]:
    return [r for r in results if r.status not in NOT_ATTEMPTED]
