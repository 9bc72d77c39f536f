"""Choosing a config per construct from its measured times: never slower than orig.

The evidence is paired: in every round each configuration ran once, back to
back, and the profile gives each construct's shortest launch in that run
(``fastest``: a busy machine lengthens launches, it never shortens one; rows
without it fall back to the mean launch). A round whose shortest launch is
more than ``QUIET`` above the configuration's fastest round was busy all
through (a run shorter than the machine's busy spells): it is left out. Per
round quiet for both, a variant's time over orig's is one ratio; their median
is the estimate and a distribution-free interval of that median (order
statistics, ``order_bounds``) its uncertainty; a decision needs ``PAIRS`` such
rounds. A construct whose launches differ in size (``alike``) is compared by its
mean launch; one compared by its shortest must not be slower by its mean launch
either. After ``SETTLED`` times ``PAIRS`` quiet rounds, a median gain under half
the floor is no gain.

A variant is **faster** when the whole interval lies below ``1 - NOISE_FLOOR``,
**not faster** when the whole interval lies at or above it, and **open**
otherwise. A construct is decided when some variant is faster (the one with
the lowest median wins) or when none can be; an open one asks for another
round (the tuner adds rounds up to its cap) and, still open at the cap,
keeps orig. Candidates are the variants that rewrote a kernel of the
construct (one that left them all as written compiled orig's code: its
difference is noise). A construct that was not timed (``async``/``nowait``,
no timer possible, never launched) keeps orig.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from ..options import ORIG

NOISE_FLOOR = 0.02  # 2 %: a smaller gain is not worth a changed kernel
MIN_SECONDS = 1e-6  # a shortest launch below this measures the timer (tens of ns) too much
CONFIDENCE = 0.05  # one-sided error of an interval's bound (when rounds allow it)
# a round this close to a configuration's fastest one was not slowed down all through: a
# busy spell over a whole run costs far more; a machine's drift over the rounds (a few %
# on NPB) less
QUIET = 0.10
PAIRS = 3  # quiet rounds (for both) a decision needs, where that many rounds ran
SAME_SIZE = 1.5  # mean launch over the shortest, at most: the launches are alike
SETTLED = 2  # times PAIRS quiet rounds: a median gain under half the floor is no gain
NO_GAIN = 1 - NOISE_FLOOR / 2  # a median ratio at or above it: no gain (half the floor)
# rounds a whole program's comparison needs (where that many may run): the fewest whose
# sign test can err under 5 % per configuration and measure (5 rounds one way by chance:
# 1/32; looked at after every round from 5 to 10, about 5 %); two builds of the same code
# came out 0.3-5.8 % apart in each of 3 rounds on a busy machine. (A uniform configuration
# against orig in the check also counts the tuning's rounds, tune.cli._pooled: the verdict
# at the check's last round decides.)
PROGRAM_PAIRS = 5

# why orig was kept: short codes for the plot and the table (the reason says more)
NOT_TIMED, NO_ORIG, TOO_SHORT, NOT_REWRITTEN, NOT_FASTER, UNDECIDED, UNIFORM = (
    "not timed",
    "orig not timed",
    "too short",
    "not rewritten",
    "not faster",
    "undecided",
    # orig for every kernel after the check: faster than the choice, or the retreat from
    # a uniform fallback that was beaten in turn
    "whole program",
)


@dataclass(frozen=True)
class Ratios:
    """Paired per-round time ratios (a variant's over orig's, or one program's over
    another's), summarised."""

    low: float
    median: float
    high: float
    rounds: int  # the rounds the ratios come from (a construct's: the quiet ones)
    needed: int = 1  # rounds a decision needs
    # what was compared: a construct's shortest or mean launch; a program's kernels or wall
    # time (tune.cli.KERNELS_AT_FASTEST ...)
    by: str = "shortest launch"
    mean: float | None = None  # by the shortest launch: the median ratio of mean launches

    @property
    def slower_on_average(self) -> bool:
        """Compared by its shortest launch, slower by its mean launch by the floor: its
        other launches (alike within SAME_SIZE, not equal) lost more than it won."""
        return self.mean is not None and self.mean >= 1 + NOISE_FLOOR

    @property
    def verdict(self) -> str:
        line = 1 - NOISE_FLOOR
        if self.rounds < self.needed:
            return "open"
        if self.rounds >= SETTLED * self.needed and self.median >= NO_GAIN:
            return "not faster"  # many rounds, and their median is not even half the floor
        if self.high < line:
            return "not faster" if self.slower_on_average else "faster"
        return "not faster" if self.low >= line else "open"

    def text(self) -> str:
        if self.rounds == 0:
            return "no round quiet for both"
        mean = "" if self.mean is None else f" (x{self.mean:.3f} by mean launch)"
        return (
            f"time x{self.median:.3f} [{self.low:.3f}, {self.high:.3f}] over {self.rounds} "
            f"rounds, {self.by}{mean}"
        )


def program_verdict(q: Ratios) -> str:
    """A whole program's kernels (a sum over many constructs, paired by round with
    ``every_round``: ``q`` its time over another configuration's): **faster** when the
    whole interval is below 1 (the sign of the difference known: every round one way
    while rounds are few, the sign test at 5 % from 8 on) over ``q.needed`` rounds and the
    median gains more than half the floor; **not faster** when the median gains less
    (under half the floor a construct's many rounds call it no gain, ``SETTLED``; said
    at once, before ``q.needed`` rounds: a check adds no round for it); **open**
    otherwise (another round may tell). Not the floor itself: a program's gain is the sum
    of its constructs' gains, each of which may be under the floor that one construct's
    time needs to show through a busy machine's noise (NPB LU on one core: 4-5 % for the
    program, 1-3 % for each of its large constructs)."""
    if q.rounds and q.median >= NO_GAIN:
        return "not faster"
    if q.rounds >= q.needed and q.high < 1:
        return "faster"
    return "open"


@dataclass(frozen=True)
class Choice:
    kernel: str
    file: str
    line: int
    hash: str
    construct: str
    config: str
    gain: float | None  # orig's time over the chosen config's (1.0 when orig is kept)
    noise: float | None  # half the width of the chosen (or best) variant's ratio interval
    reason: str
    kept: str = ""  # why orig was kept (one of the codes above); "" when a variant won
    open: bool = False  # no decision yet: another round would help
    ratios: dict[str, Ratios] = field(default_factory=dict, compare=False)  # per variant


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
    return [s for s in row.get("seconds", []) if _number(s)]


def per_launch(row: dict) -> list[float | None]:
    """Per run (round), the construct's shortest launch; the mean launch where the
    profile has no shortest; None where the run has neither."""
    fastest, mean = row.get("fastest") or [], mean_launch(row)
    out: list[float | None] = []
    for n in range(max(len(fastest), len(mean))):
        f = fastest[n] if n < len(fastest) else None
        out.append(f if _number(f) else mean[n] if n < len(mean) else None)
    return out


def order_bounds(n: int) -> int:
    """k (1-based) such that the k-th smallest and the k-th largest of n paired ratios
    bound their median, each with error at most ``CONFIDENCE`` (the sign test's binomial
    tail); 1, the extremes, while n rounds are too few for more."""
    k = 1
    while k < (n + 1) // 2 and sum(math.comb(n, j) for j in range(k + 1)) / 2**n <= CONFIDENCE:
        k += 1
    return k


def summarise(
    ratios: list[float],
    needed: int = 1,
    by: str = "shortest launch",
    means: list[float] | None = None,
) -> Ratios:
    """The interval of ``ratios``' median (none, when no round was quiet for both: open);
    ``means``: the paired ratios of mean launches, whose median is kept beside when there
    are ``needed`` of them."""
    mean = statistics.median(means) if means and len(means) >= needed else None
    if not ratios:
        return Ratios(math.nan, math.nan, math.nan, 0, max(needed, 1), by, mean)
    q = sorted(ratios)
    k = order_bounds(len(q))
    return Ratios(q[k - 1], statistics.median(q), q[-k], len(q), needed, by, mean)


def alike(row: dict) -> bool:
    """Whether a construct's launches are of one size: its mean launch within
    ``SAME_SIZE`` of its shortest in its quietest round (then the shortest stands for
    every launch; else it is the smallest one, and the mean launch is compared)."""
    sizes = [
        m / f
        for m, f in zip(mean_launch(row), row.get("fastest") or [], strict=False)
        if m and _number(f) and f > 0
    ]
    return bool(sizes) and min(sizes) <= SAME_SIZE


def launch_times(row: dict, same: bool) -> list[float | None]:
    """The per-round times compared: the shortest launch (``same``) or the mean one."""
    return per_launch(row) if same else mean_launch(row)


def mean_launch(row: dict) -> list[float | None]:
    """Per run, the construct's seconds over its launches (None without)."""
    seconds, launches = row.get("seconds") or [], row.get("launches") or []
    return [
        s / k if _number(s) and _number(k) and k > 0 else None
        for s, k in zip(seconds, launches, strict=False)
    ]


def quiet(values: Sequence[float | None]) -> list[float | None]:
    """The rounds the machine let run (the others None): those within ``QUIET`` of the
    configuration's fastest round. Noise only lengthens a launch; a round whose shortest
    launch is far above the fastest round's was busy all through."""
    known = [v for v in values if v is not None]
    if not known:
        return list(values)
    least = min(known)
    return [v if v is not None and v <= least * (1 + QUIET) else None for v in values]


def paired(base: Sequence[float | None], other: Sequence[float | None]) -> list[float]:
    """The ratios other / base of the rounds quiet for both."""
    return every_round(quiet(base), quiet(other))


def every_round(base: Sequence[float | None], other: Sequence[float | None]) -> list[float]:
    """The ratios other / base of every round both have, busy or not: what a whole
    program's comparison pairs (``program_verdict``). Its sign test needs only that a
    round's noise favour neither configuration (they run back to back, in an order turned
    by one place a round: tune.cli.turned), not quiet rounds; and a program's kernel time
    drifts with the machine more than one construct's shortest launch: a quiet round,
    within ``QUIET`` of the fastest one, was 1-2 in 10 for NPB BT W where cse+sat was
    faster than the choice in all 10."""
    return [
        o / b
        for b, o in zip(base, other, strict=False)
        if b is not None and o is not None and b > 0
    ]


def choose(rows: dict[str, dict], about: dict, final: bool = True) -> Choice:
    """The config of one construct; ``rows`` maps each verified config to the construct's
    row (``profile.concat`` shape: one entry per round); ``about`` is one such row
    (identity). ``final``: no more rounds will come, so an open decision keeps orig."""
    ident = (about["kernel"], about["file"], about["line"], about["hash"], about["construct"])

    def keep(code: str, reason: str, noise: float | None = None, **more) -> Choice:
        # orig over itself: 1 where there is something to compare, else unknown
        gain = 1.0 if noise is not None else None
        return Choice(*ident, ORIG, gain, noise, reason, kept=code, **more)

    if not about.get("timed"):
        return keep(NOT_TIMED, f"not timed ({about.get('why') or 'no timer'})")
    orig = rows.get(ORIG, {})
    same = alike(orig) or not orig.get("fastest")
    by = "shortest launch" if same else "mean launch (launches of several sizes)"
    base = launch_times(orig, same)
    known = [b for b in base if b is not None]
    if not known:
        return keep(NO_ORIG, "no time for orig")
    typical = statistics.median([m for m in mean_launch(orig) if m is not None] or known)
    if typical < MIN_SECONDS:
        return keep(TOO_SHORT, f"too short to time ({typical:.2g} s a launch)")
    needed = min(PAIRS, len(base))
    base_mean = mean_launch(orig)
    ratios = {
        c: summarise(
            paired(base, launch_times(r, same)),
            needed,
            by,
            paired(base_mean, mean_launch(r)) if same else None,
        )
        for c, r in rows.items()
        if c != ORIG and r.get("rewritten", True) and any(t is not None for t in per_launch(r))
    }
    if not ratios:
        why = "no variant rewrote it" if len(rows) > 1 else "no variant has a time"
        return keep(NOT_REWRITTEN, why)
    faster = {c: q for c, q in ratios.items() if q.verdict == "faster"}
    unsure = {c: q for c, q in ratios.items() if q.verdict == "open"}
    if faster:
        win = min(faster, key=lambda c: faster[c].median)
        w = faster[win]
        # an open variant that may still beat the winner keeps the choice open
        rivals = [c for c, q in unsure.items() if q.rounds < q.needed or q.low < w.median]
        if rivals and not final:
            return keep(UNDECIDED, "open", (w.high - w.low) / 2, open=True, ratios=ratios)
        return Choice(
            *ident,
            win,
            1 / w.median,
            (w.high - w.low) / 2,
            f"faster than orig: {w.text()}",
            ratios=ratios,
        )
    if unsure:
        c = min(unsure, key=lambda c: (unsure[c].rounds == 0, unsure[c].median))
        q = unsure[c]
        noise = None if q.rounds == 0 else (q.high - q.low) / 2
        if not final:
            return keep(UNDECIDED, "open", noise, open=True, ratios=ratios)
        why = (
            f"{q.rounds} round(s) quiet for it and orig, {q.needed} needed"
            if q.rounds < q.needed
            else f"its interval holds the {100 * NOISE_FLOOR:g} % line"
        )
        return keep(UNDECIDED, f"undecided: {c} {q.text()}; {why}", noise, ratios=ratios)
    best = min(ratios, key=lambda c: ratios[c].median)
    q = ratios[best]
    return keep(
        NOT_FASTER,
        f"no variant {100 * NOISE_FLOOR:g} % faster (best {best}: {q.text()})",
        (q.high - q.low) / 2,
        ratios=ratios,
    )


Key = tuple[str, int, str]  # a construct: file, line, hash


def construct_times(
    kernels: list[dict], mean: bool = False, alike_in: frozenset[Key] | None = None
) -> list[dict[Key, float]]:
    """Per round, each timed construct that launched: its shortest launch times its
    launches, where its launches are alike (``alike``; or where it is in ``alike_in``);
    its seconds, every launch as it came, where they are not, or with ``mean``."""
    rounds = max((len(k.get("launches") or []) for k in kernels), default=0)
    out: list[dict[Key, float]] = [{} for _ in range(rounds)]
    for k in kernels:
        if not k.get("timed"):
            continue
        key = (k["file"], k["line"], k["hash"])
        launches, seconds, each = k.get("launches") or [], k.get("seconds") or [], per_launch(k)
        # launches of several sizes: their shortest stands for none; their seconds count
        as_came = mean or not (alike(k) if alike_in is None else key in alike_in)
        for n in range(min(rounds, len(launches))):
            count = launches[n]
            if not _number(count) or count <= 0:
                continue  # never launched in that run: no time, and none missing
            if as_came:
                if n < len(seconds) and _number(seconds[n]):
                    out[n][key] = seconds[n]
            elif n < len(each) and each[n] is not None:
                out[n][key] = (each[n] or 0.0) * count
    return out


def kernel_seconds(kernels: list[dict]) -> list[float | None]:
    """Per round, a program's kernels at their fastest: each timed construct's shortest
    launch times its launches (its seconds where its launches differ in size), summed
    (what the machine's noise leaves alone; the code around the kernels is the same in
    every configuration). None for a round without."""
    return [sum(t.values()) or None for t in construct_times(kernels)]


def common_totals(
    a: list[dict], b: list[dict], mean: bool = False
) -> tuple[list[float | None], list[float | None]]:
    """Per round, two configurations' kernel time (``construct_times``) summed over the
    constructs both timed in that round: a construct one build could not time (its
    file compiled as written, without timers) counts for neither."""
    # by the shortest launch only where the launches are alike in both: never one
    # configuration's estimate against the other's seconds
    both_alike = _alike_keys(a) & _alike_keys(b)
    ta, tb = construct_times(a, mean, both_alike), construct_times(b, mean, both_alike)
    out_a: list[float | None] = []
    out_b: list[float | None] = []
    for n in range(min(len(ta), len(tb))):
        both = ta[n].keys() & tb[n].keys()
        out_a.append(sum(ta[n][k] for k in both) or None)
        out_b.append(sum(tb[n][k] for k in both) or None)
    return out_a, out_b


def _alike_keys(kernels: list[dict]) -> frozenset[Key]:
    return frozenset((k["file"], k["line"], k["hash"]) for k in kernels if alike(k))


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
