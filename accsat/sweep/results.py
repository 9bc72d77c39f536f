"""What a cell came to, and the machine-readable outputs (results.csv, results.json).

Failures are results: a cell that did not build, did not verify, timed out,
or could not even be attempted (compiler not found, unsupported, no GPU) has
a status and a message like any other, and the sweep goes on.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..options import ORIG
from ..toolchain import records
from .cells import Cell

OK = "ok"
VERIFICATION_FAILED = "verification failed"
BUILD_FAILED = "build failed"
RUN_FAILED = "run failed"
TIMEOUT = "timeout"
COMPILER_NOT_FOUND = "compiler not found"
UNSUPPORTED = "unsupported"
NO_GPU = "no gpu"
ERROR = "harness error"  # a bug of ours or of the machine: reported, never cached
# a batch job ended without a result (killed, timed out, node lost): never cached,
# so that the next sweep submits the cell again
JOB_FAILED = "job failed"
# decided before anything is built; they depend on this machine, so they are
# re-checked on every sweep rather than cached
NOT_ATTEMPTED = (COMPILER_NOT_FOUND, UNSUPPORTED, NO_GPU)


@dataclass
class Result:
    cell: Cell
    status: str
    message: str = ""
    verified: bool | None = None
    seconds: float | None = None  # best run, as the benchmark itself reports it
    times: list[float] = field(default_factory=list)  # every run
    mops: float | None = None  # of the best run
    wall_seconds: float | None = None  # best run, measured by the harness
    cpu_seconds: float | None = None  # best run's user+system time (whole process)
    build_seconds: float | None = None
    kernels: dict[str, int] = field(default_factory=dict)  # from accsat's kernel reports
    fallbacks: int = 0  # files accsat-cc compiled as written (its warnings)
    extra: dict = field(default_factory=dict)  # suite-specific (PTX entries...)
    executor: str = "local"  # where the cell ran: "local" or "slurm"
    job_id: str = ""  # the batch job that ran it ("123_4": array job 123, task 4)
    cached: bool = False  # not stored: whether this sweep took it from the cache

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("cached")
        d["cell"] = self.cell.as_dict()
        return d

    @staticmethod
    def from_dict(d: dict) -> Result:
        known = {f.name for f in fields(Result)}
        d = {k: v for k, v in d.items() if k in known}
        d["cell"] = Cell(**d["cell"])
        return Result(**d)


COARSE = 0.1  # seconds: below this, a two-decimal time is 10 % resolution or worse


def speedup_basis(results: list[Result]) -> dict[Cell, str]:
    """How each speedup is computed: "Mop/s", "time", or "coarse time" (under 0.1 s)."""
    base = {r.cell.group: r for r in results if r.cell.variant == ORIG and r.ok}
    out: dict[Cell, str] = {}
    for r in results:
        b = base.get(r.cell.group)
        if b is None or not r.ok:
            continue
        if r.mops and b.mops:
            out[r.cell] = "Mop/s"
        elif r.seconds and b.seconds:
            out[r.cell] = "coarse time" if min(r.seconds, b.seconds) < COARSE else "time"
    return out


def speedups(results: list[Result]) -> dict[Cell, float]:
    """orig's time over the variant's, for every verified cell whose orig verified too.

    Where both report a rate (NPB's Mop/s: the same operation count over the
    unrounded timed section) the ratio of rates is used: NPB prints its time
    with two decimals, which at class S is a resolution of 10 to 50 %.
    """
    base = {r.cell.group: r for r in results if r.cell.variant == ORIG and r.ok}
    by_cell = {r.cell: r for r in results}
    out: dict[Cell, float] = {}
    for cell, basis in speedup_basis(results).items():
        r, b = by_cell[cell], base[cell.group]
        num, den = (r.mops, b.mops) if basis == "Mop/s" else (b.seconds, r.seconds)
        assert num is not None and den is not None  # speedup_basis: both were measured
        out[cell] = num / den
    return out


def cpu_speedups(results: list[Result]) -> dict[Cell, float]:
    """The same by the best run's process CPU time (initialisation included):
    what to look at when other work shared the machine during the runs."""
    base = {r.cell.group: r for r in results if r.cell.variant == ORIG and r.ok}
    out: dict[Cell, float] = {}
    for r in results:
        b = base.get(r.cell.group)
        if b is not None and r.ok and r.cpu_seconds and b.cpu_seconds:
            out[r.cell] = b.cpu_seconds / r.cpu_seconds
    return out


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


CSV_COLUMNS = (
    "suite",
    "benchmark",
    "size",
    "compiler",
    "target",
    "variant",
    "status",
    "verified",
    "seconds",
    "speedup",
    "speedup_basis",
    "cpu_speedup",
    "times",
    "mops",
    "wall_seconds",
    "cpu_seconds",
    "build_seconds",
    "kernels_found",
    "kernels_rewritten",
    "loads_before",
    "loads_after",
    "fma",
    "fallbacks",
    "accsat",
    "load",
    "executor",
    "job_id",
    "message",
)


def rows(results: list[Result]) -> list[dict]:
    """One flat dict per cell, the CSV's columns."""
    sp = speedups(results)
    cpu = cpu_speedups(results)
    basis = speedup_basis(results)
    out = []
    for r in results:
        k = r.kernels
        out.append(
            {
                **r.cell.as_dict(),
                "status": r.status,
                "verified": r.verified,
                "seconds": r.seconds,
                "speedup": _round(sp.get(r.cell), 4),
                "speedup_basis": basis.get(r.cell, ""),
                "cpu_speedup": _round(cpu.get(r.cell), 4),
                "times": " ".join(f"{t:g}" for t in r.times),
                "mops": r.mops,
                "wall_seconds": _round(r.wall_seconds, 4),
                "cpu_seconds": r.cpu_seconds,
                "build_seconds": _round(r.build_seconds, 2),
                "kernels_found": k.get("found"),
                "kernels_rewritten": k.get("rewritten"),
                "loads_before": k.get("loads_before"),
                "loads_after": k.get("loads_after"),
                "fma": k.get("fma"),
                "fallbacks": r.fallbacks,
                "accsat": (r.extra.get("accsat_code") or "")[:12],
                "load": " ".join(f"{x:g}" for x in r.extra.get("load", []) if x is not None),
                "executor": r.executor,
                "job_id": r.job_id,
                "message": r.message,
            }
        )
    return out


def line(r: Result) -> str:
    """The line announcing a finished cell (its status, time, how it was built, its job)."""
    build = r.extra.get("build")
    how = (
        "build reused"
        if build == "reused"
        else (f"built in {r.build_seconds:.1f} s" if r.build_seconds is not None else "")
    )
    t = f" {r.seconds:g} s" if r.seconds is not None else ""
    msg = f" ({r.message})" if r.message and not r.ok else ""
    job = f" [job {r.job_id}]" if r.job_id else ""
    return f"  {r.cell.key}: {r.status}{t}{msg}; {how}".rstrip("; ") + job


def write_csv(results: list[Result], path: Path) -> None:
    records.write_csv(path, CSV_COLUMNS, rows(results))


def write_json(results: list[Result], path: Path) -> None:
    sp, cpu = speedups(results), cpu_speedups(results)
    data = [
        {**r.to_dict(), "speedup": sp.get(r.cell), "cpu_speedup": cpu.get(r.cell)} for r in results
    ]
    records.write_json(path, data)


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
