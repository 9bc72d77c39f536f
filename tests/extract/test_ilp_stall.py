"""The ILP's stall limit counts this process's CPU seconds, not the clock's: a loaded
machine (``make -jN``) gets the same search, so the same code, as a quiet one."""

from __future__ import annotations

import types

from accsat.extract import ilp


class _Callback:
    def __init__(self):
        self.subscribers = []

    def subscribe(self, fn):
        self.subscribers.append(fn)

    def __call__(self, event):
        for fn in self.subscribers:
            fn(event)


class _Event:
    def __init__(self):
        self.interrupted = False

    def interrupt(self):
        self.interrupted = True


class _Clocks:
    """CPU and wall clocks the test moves by hand."""

    def __init__(self):
        self.cpu, self.wall = 100.0, 5000.0

    def module(self):
        return types.SimpleNamespace(process_time=lambda: self.cpu, perf_counter=lambda: self.wall)


def _model():
    return types.SimpleNamespace(cbMipImprovingSolution=_Callback(), cbMipInterrupt=_Callback())


def test_wall_time_without_cpu_time_never_stalls(monkeypatch):
    clocks = _Clocks()
    monkeypatch.setattr(ilp, "time", clocks.module())
    model = _model()
    stopped = ilp._stop_on_stall(model, 1.0)
    clocks.wall += 60.0  # other processes had the cores for a minute
    clocks.cpu += 0.5
    event = _Event()
    model.cbMipInterrupt(event)
    assert not event.interrupted and stopped == [False]


def test_cpu_seconds_without_a_better_solution_stall(monkeypatch):
    clocks = _Clocks()
    monkeypatch.setattr(ilp, "time", clocks.module())
    model = _model()
    stopped = ilp._stop_on_stall(model, 1.0)
    clocks.cpu += 0.9
    model.cbMipImprovingSolution(_Event())  # a better solution: the count starts again
    clocks.cpu += 0.9
    event = _Event()
    model.cbMipInterrupt(event)
    assert not event.interrupted
    clocks.cpu += 0.2
    model.cbMipInterrupt(event)
    assert event.interrupted and stopped == [True]
