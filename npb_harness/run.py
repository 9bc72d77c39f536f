"""Running an NPB binary and reading its own report.

Every NPB benchmark ends with the same block (print_results)::

     Class           =                        S
     Time in seconds =                     0.08
     Mop/s total     =                  2774.23
     Verification    =               SUCCESSFUL

The harness trusts that block: the time is the benchmark's timed section
(initialisation excluded) and the verification its own comparison against
the reference values of the class.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass
from pathlib import Path

from accsat.sweep.cells import Cell
from accsat.sweep.results import OK, RUN_FAILED, TIMEOUT, VERIFICATION_FAILED, Result
from accsat.toolchain import process

_VERIFIED = re.compile(r"^\s*Verification\s*=\s*(.+?)\s*$", re.M)
_SECONDS = re.compile(r"^\s*Time in seconds\s*=\s*([-+0-9.eE]+)", re.M)
_MOPS = re.compile(r"^\s*Mop/s total\s*=\s*([-+0-9.eE]+)", re.M)
_CLASS = re.compile(r"^\s*Class\s*=\s*(\S+)", re.M)


@dataclass
class NPBOutput:
    verification: str | None  # "SUCCESSFUL", "UNSUCCESSFUL", "NOT PERFORMED"...
    seconds: float | None
    mops: float | None
    cls: str | None

    @property
    def verified(self) -> bool:
        return self.verification == "SUCCESSFUL"


def parse(text: str) -> NPBOutput:
    def number(rx: re.Pattern) -> float | None:
        m = rx.search(text)
        try:
            return float(m.group(1)) if m else None
        except ValueError:
            return None

    v = _VERIFIED.search(text)
    c = _CLASS.search(text)
    mops = number(_MOPS)
    # NPB-ACC's SP prints "Mop/s total = 0.00": not computed, not a rate
    return NPBOutput(
        v.group(1) if v else None,
        number(_SECONDS),
        mops if mops else None,
        c.group(1) if c else None,
    )


def run_cell(
    cell: Cell, exe: Path, folder: Path, runs: int, timeout: float, env: dict[str, str]
) -> Result:
    """Run ``exe`` ``runs`` times (stopping at the first failure); keep the best time."""
    times: list[float] = []
    walls: list[float] = []
    cpus: list[float] = []
    best: NPBOutput | None = None
    for i in range(1, runs + 1):
        log = folder / f"run-{i}.out"
        done = process.run(
            [str(exe.resolve())],
            cwd=exe.parent,
            env=env,
            timeout=timeout,
            stdout=log,
            big_stack=True,
            timed=True,
        )
        text = log.read_text(errors="replace")
        out = parse(text)
        base = Result(cell, OK, times=times, verified=out.verified if out.verification else None)
        if done.timed_out:
            base.status, base.message = TIMEOUT, f"run {i} passed {timeout:g} s"
            return base
        if done.returncode != 0:
            base.status, base.message = RUN_FAILED, f"run {i}: {_exit(done.returncode)}"
            return base
        if out.verification is None:
            base.status, base.message = RUN_FAILED, f"run {i}: no Verification line ({log.name})"
            return base
        if not out.verified:
            base.status = VERIFICATION_FAILED
            base.message = f"run {i}: Verification = {out.verification}"
            return base
        if out.cls is not None and out.cls != cell.size:
            base.status = RUN_FAILED
            base.message = f"run {i}: the binary is class {out.cls}, not {cell.size}"
            return base
        if out.seconds is not None:
            times.append(out.seconds)
            if best is None or _faster(out, best):
                best = out
        walls.append(done.seconds)
        if done.cpu_seconds is not None:
            cpus.append(done.cpu_seconds)
    return Result(
        cell,
        OK,
        verified=True,
        seconds=best.seconds if best else None,
        times=times,
        mops=best.mops if best else None,
        wall_seconds=min(walls) if walls else None,
        cpu_seconds=min(cpus) if cpus else None,
    )


def _faster(a: NPBOutput, b: NPBOutput) -> bool:
    """By Mop/s where both have it (it carries the unrounded time), else by seconds."""
    if a.mops is not None and b.mops is not None:
        return a.mops > b.mops
    return (a.seconds or 0.0) < (b.seconds or float("inf"))


def _exit(returncode: int | None) -> str:
    if returncode is not None and returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"
