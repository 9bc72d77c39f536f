"""The table printed at the end of a sweep: orig's time, each variant's speedup, geomeans."""

from __future__ import annotations

import os

from ..options import ORIG
from .results import (
    BUILD_FAILED,
    COARSE,
    COMPILER_NOT_FOUND,
    ERROR,
    NO_GPU,
    RUN_FAILED,
    TIMEOUT,
    UNSUPPORTED,
    VERIFICATION_FAILED,
    Result,
    cpu_speedups,
    geomean,
    speedup_basis,
    speedups,
)

_SHORT = {
    VERIFICATION_FAILED: "VERIFY",
    BUILD_FAILED: "BUILD",
    RUN_FAILED: "RUN",
    TIMEOUT: "TIMEOUT",
    COMPILER_NOT_FOUND: "no cc",
    UNSUPPORTED: "unsup.",
    NO_GPU: "no gpu",
    ERROR: "ERROR",
}


def speedup_table(results: list[Result], size_label: str = "class") -> str:
    """One block per (compiler, target, size); rows benchmarks, columns variants.

    When the load average around the runs exceeded the core count, the same
    blocks follow by process CPU time, which other work disturbs far less.
    """
    loads = [x for r in results for x in r.extra.get("load", []) if x is not None]
    cores = os.cpu_count() or 1
    blocks = _blocks(results, size_label, speedups(results), by_cpu=False)
    if loads and max(loads) > cores:
        blocks += _blocks(results, size_label, cpu_speedups(results), by_cpu=True)
    if any(b == "coarse time" for b in speedup_basis(results).values()):
        blocks.append(
            f"~: from times under {COARSE:g} s printed with two decimals (no Mop/s "
            "to use): 10 % resolution or worse"
        )
    if loads:
        note = (
            " (above the core count: other work shared the machine)" if max(loads) > cores else ""
        )
        blocks.append(
            f"1-minute load average around the runs: {min(loads):g} to "
            f"{max(loads):g} on {cores} cores{note}"
        )
    failures = [r for r in results if not r.ok]
    if failures:
        lines = [f"{len(failures)} cell(s) without a verified time:"]
        lines += [
            f"  {r.cell.key}: {r.status}" + (f": {r.message}" if r.message else "")
            for r in failures
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _blocks(results: list[Result], size_label: str, sp: dict, by_cpu: bool) -> list[str]:
    coarse = (
        set() if by_cpu else {c for c, b in speedup_basis(results).items() if b == "coarse time"}
    )
    blocks = []
    groups: dict[tuple[str, str, str], list[Result]] = {}
    r: Result | None  # below: the cell of a benchmark and variant, if any
    for r in results:
        groups.setdefault((r.cell.compiler, r.cell.target, r.cell.size), []).append(r)
    for (compiler, target, size), rs in groups.items():
        variants = list(dict.fromkeys(r.cell.variant for r in rs))
        benches = list(dict.fromkeys(r.cell.benchmark for r in rs))
        at = {(r.cell.benchmark, r.cell.variant): r for r in rs}
        width = max(9, *(len(v) + 1 for v in variants))
        what = "process CPU seconds (user+sys)" if by_cpu else "time in seconds"
        title = (
            f"{compiler} {target}, {size_label} {size}: orig = best {what}, "
            f"variants = speedup over orig (higher is faster)"
        )
        head = f"{'benchmark':14}" + "".join(f"{v:>{width}}" for v in variants)
        lines = [title, head, "-" * len(head)]
        for b in benches:
            cells = []
            for v in variants:
                r = at.get((b, v))
                if r is None:
                    cells.append("")
                elif not r.ok:
                    cells.append(_SHORT.get(r.status, r.status[:8]))
                elif v == ORIG:
                    t = r.cpu_seconds if by_cpu else r.seconds
                    cells.append(f"{t:.3g}" if t is not None else "?")
                else:
                    s = sp.get(r.cell)
                    mark = "~" if r.cell in coarse else ""
                    cells.append(f"{mark}{s:.3f}" if s is not None else "n/a")
            lines.append(f"{b:14}" + "".join(f"{c:>{width}}" for c in cells))
        gm = []
        for v in variants:
            if v == ORIG:
                gm.append("")
                continue
            g = geomean([sp[r.cell] for r in rs if r.cell.variant == v and r.cell in sp])
            gm.append(f"{g:.3f}" if g is not None else "n/a")
        lines.append(f"{'geomean':14}" + "".join(f"{c:>{width}}" for c in gm))
        blocks.append("\n".join(lines))
    return blocks
