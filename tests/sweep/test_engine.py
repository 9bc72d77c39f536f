"""accsat.sweep.engine and executor: scheduling, caching and the executor seam,
with a fake suite (nothing is built)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import pytest

from accsat.sweep.cells import grid
from accsat.sweep.engine import Interrupted, Sweep
from accsat.sweep.executor import LocalExecutor
from accsat.sweep.results import ERROR, OK, UNSUPPORTED, Result


@dataclass
class FakeSuite:
    name: str = "fake"
    events: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    broken: str = ""

    def precheck(self, c):
        return Result(c, UNSUPPORTED, "no") if c.benchmark == "XX" else None

    def build_key(self, c):
        return {"c": c.key}

    def run_key(self, c):
        return {}

    def _log(self, what):
        with self.lock:
            self.events.append((time.perf_counter(), what))

    def build(self, c, folder):
        self._log(("build+", c.key))
        time.sleep(0.05)
        self._log(("build-", c.key))
        return {"ok": True, "seconds": 0.05}

    def run(self, c, build, folder):
        if c.benchmark == self.broken:
            raise RuntimeError("boom")
        self._log(("run+", c.key))
        time.sleep(0.02)
        self._log(("run-", c.key))
        return Result(c, OK, seconds=1.0)


def quiet(suite, out, executor) -> Sweep:
    return Sweep(suite, out, executor, progress=False, say=lambda line: None)


def test_engine_runs_alone_builds_in_parallel_and_caches(tmp_path):
    suite = FakeSuite(broken="B3")
    cells = grid("npb", ["B1", "B2", "B3", "XX"], ["S"], ["gcc"], ["host"], ["cse"])
    results = quiet(suite, tmp_path, LocalExecutor(jobs=3)).run(cells)
    status = {r.cell.key: r.status for r in results}
    assert status["XX.S.gcc.host.orig"] == UNSUPPORTED
    assert status["B3.S.gcc.host.cse"] == ERROR  # a harness error is a result
    assert sum(s == OK for s in status.values()) == 4
    # a run never overlaps another run or a build
    active: dict[str, int] = {"build": 0, "run": 0}
    overlap_builds = False
    for _, (what, _key) in sorted(suite.events):
        kind, sign = what[:-1], what[-1]
        active[kind] += 1 if sign == "+" else -1
        assert not (active["run"] and active["build"]), suite.events
        assert active["run"] <= 1
        overlap_builds |= active["build"] > 1
    assert overlap_builds  # --jobs 3: builds did run side by side
    # the second sweep: the ok cells come from the cache; errors and prechecks are redone
    suite2 = FakeSuite(broken="B3")
    sweep2 = quiet(suite2, tmp_path, LocalExecutor())
    again = sweep2.run(cells)
    assert sum(r.cached for r in again) == 4
    assert [e for e in suite2.events if e[1][0] == "build+"] == []  # B3's build was kept
    assert sweep2.reused == [c for c in cells if c.benchmark == "B3"]


@dataclass
class Backwards:
    """An executor of our own: records what the seam hands it, works backwards."""

    given: list = field(default_factory=list)
    stop_after: int | None = None

    def execute(self, cells, work, done):
        self.given.append(list(cells))
        for n, c in enumerate(reversed(cells)):
            if n == self.stop_after:
                work.stop()
                raise KeyboardInterrupt
            done(c, work.cell(c))


def test_the_executor_gets_only_the_cells_that_need_work(tmp_path):
    cells = grid("npb", ["B1", "XX", "B2"], ["S"], ["gcc"], ["host"], ["cse"])
    ex = Backwards()
    results = quiet(FakeSuite(), tmp_path, ex).run(cells)
    assert [r.cell for r in results] == cells  # the order given, whatever the executor's
    assert ex.given == [[c for c in cells if c.benchmark != "XX"]]
    quiet(FakeSuite(), tmp_path, ex).run(cells)
    assert ex.given[1] == []  # all cached


def test_an_interrupted_executor_leaves_the_finished_cells(tmp_path):
    cells = grid("npb", ["B1", "B2"], ["S"], ["gcc"], ["host"], ["cse"])
    sweep = quiet(FakeSuite(), tmp_path, Backwards(stop_after=1))
    with pytest.raises(Interrupted) as stop:
        sweep.run(cells)
    assert [r.cell for r in stop.value.results] == [cells[-1]]
    again = quiet(FakeSuite(), tmp_path, LocalExecutor()).run(cells)
    assert [r.cached for r in again] == [False, False, False, True]


@dataclass
class Elsewhere(Backwards):
    """An executor whose cells run on other machines: it leaves "no gpu" to them."""

    def defers(self, status):
        return status == UNSUPPORTED  # FakeSuite's verdict of this machine, for the test


def test_an_executor_may_leave_a_verdict_of_this_machine_to_its_own(tmp_path):
    cells = grid("npb", ["B1", "XX"], ["S"], ["gcc"], ["host"], ["orig"])
    ex = Elsewhere()
    results = quiet(FakeSuite(), tmp_path, ex).run(cells)
    assert ex.given == [cells]  # XX too: its precheck is the other machine's to make
    assert [r.status for r in results] == [OK, OK]


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path, capsys):
    """A sweep whose stderr is a log file (CI, nohup, Slurm) writes no bar into it."""
    cells = grid("npb", ["B1"], ["S"], ["gcc"], ["host"], ["cse"])
    Sweep(FakeSuite(), tmp_path, LocalExecutor(), say=lambda line: None).run(cells)
    assert "cells" not in capsys.readouterr().err
