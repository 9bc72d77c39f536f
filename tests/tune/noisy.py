"""A synthetic noisy timer: what a program's profile says on a busy machine.

Each kernel has a true time per launch under each configuration. A run
launches the kernels in turn, LAUNCHES times each, on a machine that is busy
BUSY_SECONDS on / QUIET_SECONDS off (two busy loops on a two-core machine:
each launch in a busy phase takes SLOWDOWN times as long), with a random phase
per run and up to JITTER more on every launch (noise only ever lengthens a
launch). The profile rows it returns have the shape ``profile.rows`` gives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from accsat.sweep.cells import Cell
from accsat.sweep.results import OK, Result

BUSY_SECONDS, QUIET_SECONDS = 3.0, 3.0
SLOWDOWN = (1.6, 3.0)  # a launch in a busy phase: this much longer, drawn per phase
JITTER = 0.03
LAUNCHES = 200


@dataclass(frozen=True)
class Kernel:
    line: int
    seconds: dict[str, float]  # per launch, per configuration (orig included)

    def best(self, floor: float) -> str:
        """The noise-free choice: the fastest configuration that beats orig by ``floor``."""
        orig = self.seconds["orig"]
        c = min(self.seconds, key=lambda k: self.seconds[k])
        return c if self.seconds[c] < orig * (1 - floor) else "orig"


def run(
    kernels: list[Kernel], config: str, rng: random.Random, choice: dict[int, str] | None = None
) -> list[dict]:
    """One run's profile rows; ``choice`` (line -> config) for the tuned build."""
    period = BUSY_SECONDS + QUIET_SECONDS
    t = rng.uniform(0, period)  # where in the machine's cycle the run starts
    slow = {n: rng.uniform(*SLOWDOWN) for n in range(10_000)}
    rows = {k.line: {"seconds": 0.0, "fastest": None} for k in kernels}
    for _ in range(LAUNCHES):
        for k in kernels:
            own = (choice or {}).get(k.line, config)
            cycle = int(t // period)
            busy = (t % period) < BUSY_SECONDS
            dt = k.seconds[own] * (slow[cycle] if busy else 1.0) * (1 + rng.uniform(0, JITTER))
            t += dt
            row = rows[k.line]
            row["seconds"] += dt
            row["fastest"] = dt if row["fastest"] is None else min(row["fastest"], dt)
    return [
        {
            "kernel": f"k.c:{k.line}",
            "file": "k.c",
            "line": k.line,
            "hash": f"h{k.line}",
            "construct": "acc parallel loop",
            "timed": True,
            "why": "",
            "rewritten": True,
            "launches": [LAUNCHES],
            "seconds": [rows[k.line]["seconds"]],
            "fastest": [rows[k.line]["fastest"]],
        }
        for k in kernels
    ]


def result(config: str, round_: str, rows: list[dict]) -> Result:
    seconds = sum(r["seconds"][0] for r in rows)
    return Result(
        Cell("tune", "k", round_, "cc", "host", config),
        OK,
        verified=True,
        seconds=seconds,
        times=[seconds],
        extra={"kernels": rows},
    )


def measure(kernels: list[Kernel], seed: int, calls: list[tuple[str, int]], tuned=None):
    """A ``measure`` for ``accsat.tune.cli._rounds``: synthetic runs, seeded per round and
    configuration; ``calls`` collects (configuration, round) of the rounds as they are
    asked for (orig's probe, tag "p", is not a round)."""

    def measure(tag: str, names: list[str], first: int, last: int) -> list[Result]:
        out = []
        for n in range(first, last + 1):
            for c in names:
                if tag != "p":
                    calls.append((c, n))
                rng = random.Random(f"{seed}-{tag}-{n}-{c}")
                choice = tuned if c == "tuned" else None
                out.append(result(c, f"{tag}{n}", run(kernels, c, rng, choice)))
        return out

    return measure
