"""``accsat tune`` on NPB-ACC: per benchmark, every configuration, the tuned one, a table.

    python benchmarks/tune_npb.py --npb-root DIR [--benchmarks BT,CG,EP,FT,LU,MG,SP]
        [--class W] [--variants orig,cse,cse+sat,cse+bulk,accsat] [--runs 3]
        [--out tune-npb] [--compiler gcc] [--make-jobs N]

For each benchmark it runs exactly what ``accsat bench npb --variants ...,tuned``
runs for its tuned cell (``npb_harness.tuned.tune_command``): ``accsat tune``
with the harness's make line through accsat-cc, the benchmark's binary as
``--run`` and NPB's ``Verification = SUCCESSFUL`` as ``--check``, its outputs
in ``OUT/<BENCH>/`` (programs.csv, kernels.csv, choice.csv, tune.png) and its
database in ``OUT/<BENCH>/accsat-tune.json``. Re-running resumes (finished
configurations come from each tuner's cache).

Then one table: per benchmark the median wall-clock seconds of every
configuration (orig, the variants, tuned: all built with the timers in), whether
tuned verified, and tuned's median over the best uniform configuration's
(orig included; the acceptance asks <= 1.03); the geometric means over the
benchmarks of tuned's speedup over orig and of that ratio. Also written to
``OUT/summary.csv``. Timings are only meaningful on a quiet machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from pathlib import Path

from accsat.options import CONFIGS, TUNED
from accsat.sweep.cells import split_list
from accsat.sweep.results import geomean
from accsat.toolchain.compilers import Compiler, flags_for
from npb_harness.tree import NPB_BENCHMARKS
from npb_harness.tuned import tune_command

LIMIT = 1.03  # tuned median <= LIMIT x the best uniform configuration's


def tune_one(args, bench: str, out: Path) -> int:
    compiler = Compiler.parse(args.compiler)
    flags = flags_for(compiler, "openacc", "host")
    assert not isinstance(flags, str), flags
    cmd = tune_command(
        args.npb_root.resolve(),
        bench,
        args.cls,
        compiler,
        flags,
        args.make_jobs,
        split_list(args.variants),
        args.runs,
        out,
        out / "accsat-tune.json",
        args.timeout,
        args.build_timeout,
    )
    print(f"== {bench} class {args.cls}: accsat tune (log: {out / 'tune.log'})", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "tune.log", "w") as log:
        return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode


def programs(out: Path) -> dict[str, dict]:
    try:
        with open(out / "programs.csv", newline="") as f:
            return {r["config"]: r for r in csv.DictReader(f)}
    except OSError:
        return {}


def median_of(row: dict | None) -> float | None:
    if not row or row.get("verified") != "True" or not row.get("median_seconds"):
        return None
    return float(row["median_seconds"])


def summarise(benches: list[str], root: Path, configs: list[str]) -> list[dict]:
    rows = []
    for bench in benches:
        progs = programs(root / bench)
        medians = {c: median_of(progs.get(c)) for c in configs}
        uniform = {c: m for c, m in medians.items() if c != TUNED and m is not None}
        best = min(uniform, key=lambda c: uniform[c]) if uniform else None
        tuned = medians.get(TUNED)
        rows.append(
            {
                "benchmark": bench,
                **{c: medians[c] for c in configs},
                "tuned_verified": progs.get(TUNED, {}).get("verified") == "True",
                "best_uniform": best,
                "tuned_over_best": tuned / uniform[best] if tuned and best else None,
                "tuned_speedup": (
                    medians["orig"] / tuned if tuned and medians.get("orig") else None
                ),
            }
        )
    return rows


def show(rows: list[dict], configs: list[str]) -> str:
    head = (
        f"{'bench':<6}"
        + "".join(f"{c:>10}" for c in configs)
        + f"  {'verified':>8} {'best':>9} {'tuned/best':>10}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        cells = "".join(f"{r[c]:>10.4g}" if r[c] is not None else f"{'-':>10}" for c in configs)
        ratio = r["tuned_over_best"]
        mark = "" if ratio is None or ratio <= LIMIT else "  > limit"
        lines.append(
            f"{r['benchmark']:<6}{cells}  {str(r['tuned_verified']):>8} "
            f"{r['best_uniform'] or '-':>9} "
            f"{(f'{ratio:.3f}' if ratio else '-'):>10}{mark}"
        )
    ok = sum(r["tuned_verified"] for r in rows)
    g_speed = geomean([r["tuned_speedup"] for r in rows if r["tuned_speedup"]])
    g_ratio = geomean([r["tuned_over_best"] for r in rows if r["tuned_over_best"]])
    within = sum(1 for r in rows if r["tuned_over_best"] and r["tuned_over_best"] <= LIMIT)
    lines.append(
        f"tuned verified {ok}/{len(rows)}; tuned <= {LIMIT} x best uniform: "
        f"{within}/{len(rows)}; geomean tuned speedup over orig "
        f"{g_speed and f'{g_speed:.3f}'}; geomean tuned/best {g_ratio and f'{g_ratio:.3f}'}"
    )
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--npb-root", type=Path, default=os.environ.get("NPB_ROOT"))
    p.add_argument("--benchmarks", default=",".join(NPB_BENCHMARKS))
    p.add_argument("--class", dest="cls", default="W")
    p.add_argument("--variants", default=",".join(CONFIGS))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--out", type=Path, default=Path("tune-npb"))
    p.add_argument("--compiler", default="gcc")
    p.add_argument("--make-jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    p.add_argument("--build-timeout", type=float, default=3600.0)
    args = p.parse_args()
    if args.npb_root is None:
        p.error("give --npb-root or set NPB_ROOT")
    benches = split_list(args.benchmarks)
    out = args.out.resolve()
    failed = [b for b in benches if tune_one(args, b, out / b) != 0]
    configs = [c for c in dict.fromkeys(["orig", *split_list(args.variants)]) if c != TUNED]
    configs.append(TUNED)
    rows = summarise(benches, out, configs)
    with open(out / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(show(rows, configs))
    if failed:
        print(
            f"accsat tune failed on {', '.join(failed)}: see OUT/<BENCH>/tune.log", file=sys.stderr
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
