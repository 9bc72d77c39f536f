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
    def __init__(self, low=float("-inf"), high=float("inf"), nodes=0):
        self.interrupted = False
        self.data_out = types.SimpleNamespace(
            mip_dual_bound=low, mip_primal_bound=high, mip_node_count=nodes
        )

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


def _watched(monkeypatch):
    """Hand-moved clocks, a model, and the stall flag of a 1 s stall on it."""
    clocks = _Clocks()
    monkeypatch.setattr(ilp, "time", clocks.module())
    model = _model()
    return clocks, model, ilp._stop_on_stall(model, 1.0)


def test_wall_time_without_cpu_time_never_stalls(monkeypatch):
    clocks, model, stopped = _watched(monkeypatch)
    clocks.wall += 60.0  # other processes had the cores for a minute
    clocks.cpu += 0.5
    event = _Event()
    model.cbMipInterrupt(event)
    assert not event.interrupted and stopped == [False]


def test_cpu_seconds_without_a_better_solution_stall(monkeypatch):
    clocks, model, stopped = _watched(monkeypatch)
    clocks.cpu += 0.9
    model.cbMipImprovingSolution(_Event())  # a better solution: the count starts again
    clocks.cpu += 0.9
    event = _Event()
    model.cbMipInterrupt(event)
    assert not event.interrupted
    clocks.cpu += 0.2
    model.cbMipInterrupt(event)
    assert event.interrupted and stopped == [True]


def test_a_root_whose_bound_stands_still_stops_sooner(monkeypatch):
    """At the root, rounds of cuts that close under 1 % of the gap and no better choice
    for 0.3 of the stall: stopped (NPB's MG mg.c:1187 separated cuts for 1.2 s that
    moved its bound by 0.00005 of 40 units, then stalled anyway)."""
    clocks, model, stopped = _watched(monkeypatch)
    model.cbMipInterrupt(_Event(1302.0, 1342.0))
    clocks.cpu += 0.25
    event = _Event(1302.00005, 1342.0)
    model.cbMipInterrupt(event)
    assert not event.interrupted
    clocks.cpu += 0.1
    model.cbMipInterrupt(event)
    assert event.interrupted and stopped == [True]


def test_the_root_lp_bound_starts_no_quiet_time(monkeypatch):
    """MG mg.c:1187's own timeline: a better choice at 0.325 s, the root LP's bound at
    0.389 s, a round of cuts that moved nothing at 0.652 s: stopped there (the quiet time
    runs from the better choice, not from the root LP's bound)."""
    clocks, model, stopped = _watched(monkeypatch)
    clocks.cpu += 0.325
    model.cbMipImprovingSolution(_Event())
    clocks.cpu += 0.064
    first = _Event(1302.0003, 1342.0001)
    model.cbMipInterrupt(first)
    assert not first.interrupted
    clocks.cpu += 0.263
    event = _Event(1302.0003, 1342.0001)
    model.cbMipInterrupt(event)
    assert event.interrupted and stopped == [True]


def test_a_callback_straight_after_the_root_lp_is_no_round_of_cuts(monkeypatch):
    clocks, model, _ = _watched(monkeypatch)
    clocks.cpu += 0.5  # a long root LP, no better choice yet
    model.cbMipInterrupt(_Event(5972.0, 8685.0))
    clocks.cpu += 0.01
    event = _Event(5972.0, 8685.0)
    model.cbMipInterrupt(event)
    assert not event.interrupted
    clocks.cpu += 0.2  # a round of cuts that moved nothing
    model.cbMipInterrupt(event)
    assert event.interrupted


def test_a_root_whose_bound_closes_the_gap_goes_on(monkeypatch):
    clocks, model, _ = _watched(monkeypatch)
    low = 5971.0
    for _ in range(3):  # each round closes 10 % of the gap to 8685
        clocks.cpu += 0.25
        low += 0.1 * (8685.0 - low)
        event = _Event(low, 8685.0)
        model.cbMipInterrupt(event)
        assert not event.interrupted


def test_past_the_root_only_the_stall_counts(monkeypatch):
    clocks, model, _ = _watched(monkeypatch)
    model.cbMipInterrupt(_Event(1302.0, 1342.0, nodes=5))
    clocks.cpu += 0.9
    event = _Event(1302.0, 1342.0, nodes=9)
    model.cbMipInterrupt(event)
    assert not event.interrupted
