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

from ..toolchain import process
from . import jobspec
from .cache import CellStore, fingerprint
from .cells import Cell
from .executor import Detached, Executor, LocalExecutor
from .results import BUILD_FAILED, ERROR, NOT_ATTEMPTED, Result, line


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
    # (executor, job id) stamped on the results this process makes: a batch job's
    # worker says which job it is
    ran_by: tuple[str, str] = ("local", "")

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
            if pre is not None and not self._defers(pre):
                results[cell] = pre
                continue
            if self.force:
                self.store.forget(cell)
            cached = None if self.rerun else self.store.result(cell, self.fingerprint(cell))
            if cached is not None and (cached.ok or not self.retry_failed):
                results[cell] = cached
            else:
                to_do.append(cell)
        bar = tqdm(
            total=len(cells),
            initial=len(results),
            unit="cell",
            file=sys.stderr,
            desc=f"{self.suite.name} cells",
            disable=not self.progress or not _terminal(),  # never into a log file
            mininterval=1.0,
            dynamic_ncols=True,
        )

        def done(cell: Cell, result: Result) -> None:
            results[cell] = result
            if result.executor != self.ran_by[0]:
                self._count_build(cell, result)  # built by a job, not in this process
            bar.update()

        self._bar = bar
        try:
            self.executor.execute(to_do, self, done)
        except KeyboardInterrupt:
            self.stop()  # the executor's job too; twice does no harm
            raise Interrupted([results[c] for c in cells if c in results]) from None
        except Detached as detached:  # handed to a batch system: what is done so far
            detached.results = [results[c] for c in cells if c in results]
            raise
        finally:
            self._bar = None
            bar.close()
        return [results[c] for c in cells]

    def _defers(self, pre: Result) -> bool:
        """Whether the executor leaves this verdict on the machine (no GPU here...) to the
        machine the cell will run on: a batch job checks again there."""
        defers = getattr(self.executor, "defers", None)
        return defers is not None and defers(pre.status)

    # -- what an executor calls (executor.CellWork) ---------------------------------
    def show(self, cell: Cell) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(cell.key, refresh=True)

    def stop(self) -> None:
        self._stopping.set()
        process.kill_all()

    def cell(self, cell: Cell) -> Result:
        """Build (unless cached) and run one cell; record and announce its result."""
        if self.ran_by[0] != "local":  # in a job: this node's verdict (no GPU...), not cached
            pre = self.suite.precheck(cell)
            if pre is not None:
                self._stamp(pre)
                self.say(line(pre))
                return pre
        result = self._recorded(cell, lambda: self._run_built(cell, self._build(cell)))
        assert result is not None  # a run always has one
        return result

    def build(self, cell: Cell) -> Result | None:
        """Only build (unless cached): None when the cell is ready to run; else the
        cell's result, recorded (its build failed)."""

        def step() -> Result | None:
            record = self._build(cell)
            return None if record.get("ok") else self._run_built(cell, record)

        return self._recorded(cell, step)

    def _recorded(self, cell: Cell, step: Callable[[], Result | None]) -> Result | None:
        try:
            result = step()
        except (KeyboardInterrupt, _Stopped):
            raise
        except Exception as exc:  # the sweep goes on; the cell says what happened
            detail = traceback.format_exc(limit=3)
            result = Result(cell, ERROR, f"{type(exc).__name__}: {exc}")
            self._stamp(result)
            self.say(f"{cell.key}: {ERROR}\n{detail}")
            return result
        if self._stopping.is_set():
            raise _Stopped
        if result is not None:
            self._stamp(result)
            self.store.save_result(cell, self.fingerprint(cell), result)
            self.say(line(result))
        return result

    def _stamp(self, result: Result) -> None:
        result.executor, result.job_id = self.ran_by

    def _count_build(self, cell: Cell, result: Result) -> None:
        how = result.extra.get("build")
        if how and cell not in self.built and cell not in self.reused:
            (self.built if how == "built" else self.reused).append(cell)

    # -- running in a batch job (executor.JobWork) ------------------------------
    def job_spec(self) -> dict:
        """How a batch job rebuilds this sweep on its node (JSON; see jobspec.py)."""
        return {
            "factory": jobspec.name_of(Sweep.from_job),
            "args": {
                "suite": jobspec.encode(self.suite),
                "out": str(self.out),
                "retry_failed": self.retry_failed,
            },
        }

    @staticmethod
    def from_job(args: dict, ran_by: tuple[str, str]) -> Sweep:
        """The sweep a job's worker runs one cell of (no lock: the driver holds it)."""
        suite = jobspec.decode(args["suite"])
        if hasattr(suite, "make_jobs"):
            # make -j with what the batch system gave this task, not the login node's count
            suite.make_jobs = (
                len(os.sched_getaffinity(0))
                if hasattr(os, "sched_getaffinity")
                else (os.cpu_count() or 1)
            )
        return Sweep(
            suite,
            Path(args["out"]),
            retry_failed=args.get("retry_failed", False),
            progress=False,
            ran_by=ran_by,
        )

    def _build(self, cell: Cell) -> dict:
        """The cell's build record: cached, or built now."""
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
            record = {**record, "how": "built"}
        else:
            self.reused.append(cell)
            record = {**record, "how": "reused"}
        return record

    def _run_built(self, cell: Cell, record: dict) -> Result:
        """Run a built cell; a failed build's record is the cell's result."""
        if not record.get("ok"):
            return Result(
                cell,
                record.get("status", BUILD_FAILED),
                record.get("message", ""),
                build_seconds=record.get("seconds"),
                kernels=record.get("kernels", {}),
                fallbacks=record.get("fallbacks", 0),
                # where the failure is told in full (a suite's build log)
                extra={
                    "build": record["how"],
                    **({"log": record["log"]} if "log" in record else {}),
                },
            )
        folder = self.store.folder(cell)
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
        result.extra["build"] = record["how"]
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


def attempted(results: list[Result]) -> list[Result]:
    return [r for r in results if r.status not in NOT_ATTEMPTED]


def _terminal() -> bool:
    return sys.stderr is not None and sys.stderr.isatty()
