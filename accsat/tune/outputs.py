"""What ``accsat tune`` writes into ``--out``: programs.csv, kernels.csv, choice.csv.

Every file is written whole or not at all (:mod:`accsat.toolchain.records`): an
interrupted tuning never leaves half a table.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from ..sweep.results import Result
from ..toolchain.records import write_csv
from .choose import Choice, kernel_seconds, median, per_launch, times

PROGRAM_COLUMNS = ("config", "median_seconds", "min_seconds", "kernel_seconds", "runs", "verified")
KERNEL_COLUMNS = ("kernel", "file", "line", "config", "launches", "seconds", "fastest")
CHOICE_COLUMNS = (
    "kernel",
    "file",
    "line",
    "hash",
    "construct",
    "config",
    "gain",
    "noise",
    "low",
    "high",
    "rounds",
    "kept",
    "reason",
)


def program_rows(results: list[Result]) -> list[dict]:
    """One row per configuration (and tuned): the run command's wall-clock seconds."""
    return [
        {
            "config": r.cell.variant,
            "median_seconds": _round(median(r.times)),
            "min_seconds": _round(min(r.times)) if r.times else None,
            # the kernels at their fastest launches (choose.kernel_seconds), median of rounds
            "kernel_seconds": _round(
                median([k for k in kernel_seconds(r.extra.get("kernels", [])) if k is not None])
            ),
            "runs": len(r.times),
            "verified": r.ok,
        }
        for r in results
    ]


def kernel_rows(results: list[Result]) -> list[dict]:
    """One row per construct and configuration: per run, the median launches and seconds."""
    out = []
    for r in results:
        for k in r.extra.get("kernels", []) if r.ok else []:
            launches = [n for n in k["launches"] if isinstance(n, int)]
            out.append(
                {
                    "kernel": k["kernel"],
                    "file": k["file"],
                    "line": k["line"],
                    "config": r.cell.variant,
                    "launches": round(statistics.median(launches)) if launches else None,
                    "seconds": _round(median(times(k))),
                    "fastest": _round(median([f for f in per_launch(k) if f is not None]), 9),
                }
            )
    return out


def choice_rows(choices: list[Choice]) -> list[dict]:
    """One row per construct; ``low``/``high``: the gain interval of the chosen variant
    (or of the best one where orig was kept), ``kept``: why orig was kept."""
    out = []
    for c in choices:
        shown = c.ratios.get(c.config) or (
            min(c.ratios.values(), key=lambda r: (r.rounds == 0, r.median)) if c.ratios else None
        )
        out.append(
            {
                "kernel": c.kernel,
                "file": c.file,
                "line": c.line,
                "hash": c.hash,
                "construct": c.construct,
                "config": c.config,
                "gain": _round(c.gain, 4),
                "noise": _round(c.noise, 4),
                "low": _round(1 / shown.high, 4) if shown else None,
                "high": _round(1 / shown.low, 4) if shown else None,
                "rounds": shown.rounds if shown else None,
                "kept": c.kept,
                "reason": c.reason,
            }
        )
    return out


def write_all(
    out: Path, programs: list[Result], kernels: list[Result], choices: list[Choice]
) -> list[Path]:
    """``programs``: one result per configuration and tuned (the check's rounds);
    ``kernels``: those the choice was made from, and tuned."""
    out.mkdir(parents=True, exist_ok=True)
    files = [
        (out / "programs.csv", PROGRAM_COLUMNS, program_rows(programs)),
        (out / "kernels.csv", KERNEL_COLUMNS, kernel_rows(kernels)),
        (out / "choice.csv", CHOICE_COLUMNS, choice_rows(choices)),
    ]
    for path, columns, rows in files:
        write_csv(path, columns, rows)
    return [p for p, _, _ in files]


def table(results: list[Result], choices: list[Choice]) -> str:
    """The terminal summary: programs, then how many constructs went to each config."""
    rows = program_rows(results)
    best = min(
        (r["median_seconds"] for r in rows if r["verified"] and r["median_seconds"]), default=None
    )
    lines = [
        f"{'config':<10} {'median s':>10} {'min s':>10} {'kernels s':>10} {'runs':>5}  verified"
    ]
    for row, r in zip(rows, results, strict=True):
        med = row["median_seconds"]
        mark = "  <- fastest" if med is not None and med == best else ""
        status = "yes" if r.ok else f"no: {r.status}" + (f" ({r.message})" if r.message else "")
        lines.append(
            f"{row['config']:<10} {_num(med):>10} {_num(row['min_seconds']):>10} "
            f"{_num(row['kernel_seconds']):>10} {row['runs']:>5}  {status}{mark}"
        )
    counts: dict[str, int] = {}
    for c in choices:
        counts[c.config] = counts.get(c.config, 0) + 1
    if choices:
        lines.append(
            f"{len(choices)} kernels: " + ", ".join(f"{n} {cfg}" for cfg, n in counts.items())
        )
    why: dict[str, int] = {}
    for c in choices:
        if c.kept:
            why[c.kept] = why.get(c.kept, 0) + 1
    if why:
        lines.append("orig kept: " + ", ".join(f"{n} {code}" for code, n in why.items()))
    return "\n".join(lines)


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def _round(x: float | None, digits: int = 6) -> float | None:
    return None if x is None else round(x, digits)
