"""Choosing a config per construct from its measured times: never slower than orig.

Each verified configuration ran N times; per run, the profile gives each
construct's seconds. The candidates are the configurations that rewrote a
kernel of the construct (one that left them all as written compiled orig's
code: its difference is noise); the one with the lowest median. It replaces orig only when it is faster than orig's median by more
than the noise: the larger of the two configurations' relative spreads over
their runs ((max - min) / median), and at least ``NOISE_FLOOR`` (what one run
cannot show). A construct that was not timed (``async``/``nowait``, no timer
possible, never launched) keeps orig.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from ..options import ORIG

NOISE_FLOOR = 0.02  # 2 %: with one run there is no spread to measure
MIN_SECONDS = 1e-4  # below this (all launches of a run together) a timer measures itself


@dataclass(frozen=True)
class Choice:
    kernel: str
    file: str
    line: int
    hash: str
    construct: str
    config: str
    gain: float | None  # orig's median over the chosen config's (1.0 when orig is kept)
    noise: float | None  # the relative spread the gain had to beat
    reason: str


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def spread(values: list[float]) -> float:
    """(max - min) / median: 0 for fewer than two values."""
    m = median(values)
    if len(values) < 2 or not m:
        return 0.0
    return (max(values) - min(values)) / m


def times(row: dict) -> list[float]:
    """The seconds of one construct in each run of one configuration (runs without one:
    left out)."""
    return [s for s in row.get("seconds", []) if isinstance(s, (int, float))]


def choose(rows: dict[str, dict], about: dict) -> Choice:
    """The config of one construct; ``rows`` maps each verified config to the construct's
    row (``profile.merge`` shape); ``about`` is one such row (identity)."""
    ident = (about["kernel"], about["file"], about["line"], about["hash"], about["construct"])

    def keep(reason: str, noise: float | None = None) -> Choice:
        # orig over itself: 1 where there is something to compare, else unknown
        return Choice(*ident, ORIG, 1.0 if noise is not None else None, noise, reason)

    if not about.get("timed"):
        return keep(f"not timed ({about.get('why') or 'no timer'})")
    base = times(rows.get(ORIG, {}))
    if not base:
        return keep("no time for orig")
    m0 = statistics.median(base)
    if m0 < MIN_SECONDS:
        return keep(f"too short to time ({m0:.2g} s per run)")
    # a variant that rewrote no kernel of the construct compiled orig's code: any
    # difference in its time is noise, not a gain
    medians = {
        c: statistics.median(times(r))
        for c, r in rows.items()
        if c != ORIG and times(r) and r.get("rewritten", True)
    }
    if not medians:
        return keep(
            "no variant rewrote it" if len(rows) > 1 else "no variant has a time",
            max(spread(base), NOISE_FLOOR),
        )
    best = min(medians, key=lambda c: medians[c])
    noise = max(spread(base), spread(times(rows[best])), NOISE_FLOOR)
    gain = m0 / medians[best] if medians[best] > 0 else None
    if gain is None or medians[best] >= m0 * (1 - noise):
        saved = 0.0 if gain is None else 1 - 1 / gain
        return keep(
            f"no variant faster than the noise (best {best}: "
            f"{100 * saved:+.1f} %, noise {100 * noise:.1f} %)",
            noise,
        )
    return Choice(
        *ident,
        best,
        gain,
        noise,
        f"{100 * (1 - 1 / gain):.1f} % faster than orig (noise {100 * noise:.1f} %)",
    )
