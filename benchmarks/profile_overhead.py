"""What ACCSAT_PROFILE's timers cost: NPB-ACC profiled vs plain, same configuration.

    python benchmarks/profile_overhead.py --npb-root DIR [--benchmarks BT,CG,EP,FT,LU,MG,SP]
        [--class W] [--config orig|cse|...] [--runs 5] [--out profile-overhead]

Per benchmark, two builds through accsat-cc that differ only in ACCSAT_PROFILE
(``--config orig``: ACCSAT_DISABLE=1, nothing rewritten; a variant: that
variant), each in a private copy of the tree (the harness's build); then the
two binaries are run alternately, ``--runs`` times each, so that a drift of
the machine hits both alike. The time of a run is NPB's own timed section:
its Mop/s (the unrounded time; the operation count is the same) where it
prints one, else its "Time in seconds". The overhead is the ratio of the
median times, profiled over plain (target: at most 1.02), per benchmark and
as a geometric mean; also in ``OUT/overhead.csv`` (its ``plain`` and
``profiled`` columns are medians in 1/(Mop/s), or seconds where NPB prints no
Mop/s: only their ratio means anything). Launches per run come from
the profile, to put the ratio next to how often the timers ran.
Measure on a quiet machine.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
from pathlib import Path

from accsat.options import ORIG
from accsat.sweep.cells import Cell, split_list
from accsat.sweep.results import geomean
from accsat.toolchain.compilers import Compiler, flags_for
from npb_harness.build import build_cell
from npb_harness.run import run_cell
from npb_harness.tree import NPB_BENCHMARKS


def build(
    root: Path,
    bench: str,
    cls: str,
    compiler: Compiler,
    config: str,
    folder: Path,
    profile: Path | None,
    make_jobs: int,
) -> Path:
    flags = flags_for(compiler, "openacc", "host")
    assert not isinstance(flags, str), flags
    # a variant cell gets CC=accsat-cc; orig through accsat-cc is ACCSAT_DISABLE=1
    cell = Cell("npb", bench, cls, compiler.name, "host", "cse" if config == ORIG else config)
    env = {"ACCSAT_DISABLE": "1"} if config == ORIG else {}
    if profile is not None:
        env["ACCSAT_PROFILE"] = str(profile)
    record = build_cell(
        cell, root, compiler, flags, folder, folder.parent / "accsat-cache", make_jobs, 3600.0, env
    )
    if not record["ok"]:
        raise SystemExit(f"{bench}: build failed: {record['message']}")
    return Path(record["artifact"])


def one_run(bench: str, cls: str, exe: Path, folder: Path, env: dict[str, str]) -> float:
    cell = Cell("npb", bench, cls, "gcc", "host", "run")
    r = run_cell(cell, exe, folder, 1, 3600.0, env)
    if not r.ok:
        raise SystemExit(f"{bench}: {r.status}: {r.message}")
    # Mop/s carries the unrounded timed section: time = operations / rate
    return 1.0 / r.mops if r.mops else float(r.seconds or r.wall_seconds)


def launches(profile: Path) -> int:
    total = 0
    for line in profile.read_text().splitlines():
        n = json.loads(line).get("launches")
        total += n if isinstance(n, int) else 0
    return total


def measure(args, bench: str, out: Path) -> dict:
    compiler = Compiler.parse(args.compiler)
    prof = out / bench / "profile.jsonl"
    plain = build(
        args.npb_root,
        bench,
        args.cls,
        compiler,
        args.config,
        out / bench / "plain",
        None,
        args.make_jobs,
    )
    timed = build(
        args.npb_root,
        bench,
        args.cls,
        compiler,
        args.config,
        out / bench / "timed",
        prof,
        args.make_jobs,
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    a, b = [], []
    for _ in range(args.runs):
        a.append(one_run(bench, args.cls, plain, out / bench / "plain", base))
        prof.unlink(missing_ok=True)
        b.append(
            one_run(
                bench, args.cls, timed, out / bench / "timed", {**base, "ACCSAT_PROFILE": str(prof)}
            )
        )
    ratio = statistics.median(b) / statistics.median(a)
    row = {
        "benchmark": bench,
        "class": args.cls,
        "config": args.config,
        "plain": statistics.median(a),
        "profiled": statistics.median(b),
        "ratio": round(ratio, 4),
        "launches": launches(prof),
        "runs": args.runs,
    }
    print(f"{bench}: profiled/plain = {ratio:.4f} ({row['launches']} launches per run)", flush=True)
    return row


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--npb-root", type=Path, default=os.environ.get("NPB_ROOT"))
    p.add_argument("--benchmarks", default=",".join(NPB_BENCHMARKS))
    p.add_argument("--class", dest="cls", default="W")
    p.add_argument("--config", default=ORIG, help="orig or an accsat variant")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--compiler", default="gcc")
    p.add_argument("--make-jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=Path("profile-overhead"))
    args = p.parse_args()
    if args.npb_root is None:
        p.error("give --npb-root or set NPB_ROOT")
    args.npb_root = args.npb_root.resolve()
    out = args.out.resolve()
    rows = [measure(args, b, out) for b in split_list(args.benchmarks)]
    with open(out / "overhead.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    g = geomean([r["ratio"] for r in rows])
    print(
        f"geomean profiled/plain {g:.4f}; max {max(r['ratio'] for r in rows):.4f} "
        f"({max(rows, key=lambda r: r['ratio'])['benchmark']})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
