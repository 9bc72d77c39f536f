"""Rewrite speed on a file of many small kernels (issue 23), against gcc on the same file.

    python benchmarks/many_kernels.py [--kernels 100] [--seed 1] [--variant accsat]
        [--out DIR] [--wrapper] [--json out.json]

Writes a C file of ``--kernels`` small OpenACC kernels (4-5 statements each) of several
shapes seen in stencil codes: 1-D and 2-D stencils with shared neighbours, a
coefficient-weighted update with repeated loads, a guarded update and a short inner
loop. Then, in one run, interleaved: ``gcc -O3 -fopenacc -foffload=disable -c`` on the
file, and ``accsat rewrite`` of it as a user types it (with its helper process when
two cores are idle) and with ``--no-helper`` (one process); the medians of ``--runs``:
the ratios of wall time (``ratio``, ``ratio_one_process``) and of CPU time (the helper's
included: ``ratio_cpu``), the per-stage seconds (both processes' kernels), and the total
extracted cost (to compare extraction settings: run it twice). ``--wrapper`` compiles
through ``accsat-cc`` with a fresh cache instead, within its default time budget
(issue 23: a 500-kernel file rewrites completely there).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from accsat.toolchain.process import children_cpu

SHAPES = ("stencil1", "stencil2", "weighted", "guarded", "inner")

HEADER = """\
#define N 256
double a[N], b[N], c[N], d[N], e[N][N], f[N][N];
"""


def kernel(n: int, rng: random.Random) -> str:
    shape = SHAPES[n % len(SHAPES)]
    k = [rng.choice((0.25, 0.5, 1.5, 2.0, 3.0)) for _ in range(4)]
    body = {
        "stencil1": f"""\
    double l = a[i - 1], r = a[i + 1];
    b[i] = {k[0]} * (l + r) - {k[1]} * a[i];
    c[i] = b[i] * a[i] + {k[2]} * (a[i - 1] - a[i + 1]);
    d[i] = (a[i - 1] + a[i] + a[i + 1]) * {k[3]};""",
        "stencil2": f"""\
    f[j][i] = {k[0]} * (e[j][i - 1] + e[j][i + 1] + e[j - 1][i] + e[j + 1][i]) - e[j][i];
    b[i] = e[j][i - 1] * {k[1]} + e[j][i + 1] * {k[1]};
    c[i] = (e[j - 1][i] - e[j + 1][i]) * {k[2]} + f[j][i];
    d[i] = e[j][i] * e[j][i] + {k[3]};""",
        "weighted": f"""\
    double w = {k[0]} * a[i] + {k[1]} * b[i];
    c[i] = w * a[i] + w * b[i];
    d[i] = a[i] * b[i] + w;
    b[i] = {k[2]} * a[i] * a[i] + {k[3]} * b[i] * b[i];""",
        "guarded": f"""\
    double t = a[i] * {k[0]};
    if (t > b[i]) c[i] = t - b[i];
    else c[i] = b[i] - t + a[i] * {k[1]};
    d[i] = c[i] * {k[2]} + a[i] * {k[3]};""",
        "inner": f"""\
    double s = 0.0;
    for (int m = 0; m < 4; m++) s += e[m][i] * a[i] + e[m][i] * {k[0]};
    c[i] = s * a[i] + {k[1]};
    d[i] = s * {k[2]} + a[i] * a[i];""",
    }[shape]
    outer = "  for (int j = 1; j < N - 1; j++)\n" if shape == "stencil2" else ""
    return f"""\
void k{n}(void)
{{
{outer}#pragma acc parallel loop
  for (int i = 1; i < N - 1; i++) {{
{body}
  }}
}}
"""


def source(kernels: int, seed: int) -> str:
    rng = random.Random(seed)
    return HEADER + "\n".join(kernel(n, rng) for n in range(kernels))


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, standard output) of one run of ``cmd``; the CPU of
    the processes it waited for included (accsat rewrite's helper, gcc's cc1)."""
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=7200)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return seconds, children_cpu() - cpu, done.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default=None, help="accsat's default when not given")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--wrapper", action="store_true", help="through accsat-cc, fresh cache")
    ap.add_argument("--out", type=Path, default=None, help="keep the file and outputs here")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("extra", nargs="*", help="more options for accsat rewrite")
    args = ap.parse_args(argv)
    work = args.out or Path(tempfile.mkdtemp(prefix="accsat-many-"))
    work.mkdir(parents=True, exist_ok=True)
    src = work / "many.c"
    src.write_text(source(args.kernels, args.seed))
    gcc = ["gcc", "-O3", "-fopenacc", "-foffload=disable", "-c", "many.c", "-o", "many.o"]
    variant = ["--variant", args.variant] if args.variant else []
    print(
        f"{args.kernels} kernels, {len(src.read_text().splitlines())} lines; load "
        f"{os.getloadavg()[0]:.2f}",
        file=sys.stderr,
    )
    gcc_s: list[tuple[float, float, str]] = []
    accsat_s: list[tuple[float, float, str]] = []
    alone_s: list[tuple[float, float, str]] = []  # accsat rewrite --no-helper
    report: list[dict] = []
    for run in range(args.runs):  # interleaved: a drift of the machine hits both alike
        gcc_s.append(timed(gcc, work))
        if args.wrapper:
            reported = work / f"report{run}.jsonl"  # what the wrapper did with each kernel
            env = dict(
                os.environ, ACCSAT_CACHE_DIR=str(work / f"cache{run}"), ACCSAT_REPORT=str(reported)
            )
            env.update({"ACCSAT_VARIANT": args.variant} if args.variant else {})
            accsat_s.append(timed(["accsat-cc", *gcc], work, env))
            lines = reported.read_text().splitlines() if reported.exists() else []
            report = [json.loads(line) for line in lines if line.strip()]
        else:
            (work / "report.jsonl").unlink(missing_ok=True)
            cmd = ["accsat", "rewrite", "many.c", "-o", "out.c", *variant, *args.extra]
            alone_s.append(timed([*cmd, "--no-helper"], work))
            accsat_s.append(timed([*cmd, "--report", "report.jsonl"], work))
            lines = (work / "report.jsonl").read_text().splitlines()
            report = [json.loads(line) for line in lines if line.strip()]
    g, a = (statistics.median(t[0] for t in runs) for runs in (gcc_s, accsat_s))
    gc, ac = (statistics.median(t[1] for t in runs) for runs in (gcc_s, accsat_s))
    summary: dict = {
        "kernels": args.kernels,
        "gcc_seconds": g,
        "accsat_seconds": a,
        "ratio": a / g,
        "ratio_cpu": ac / gc,
        "load": os.getloadavg()[0],
    }
    if alone_s:  # one process (no helper however idle the cores): its wall time
        alone = statistics.median(t[0] for t in alone_s)
        summary.update(accsat_one_process_seconds=alone, ratio_one_process=alone / g)
    if report:
        kernels = report
        summary["rewritten"] = sum(k["status"] == "rewritten" for k in kernels)
        summary["extracted_cost"] = sum(
            (k.get("cost") or {}).get("extracted") or 0 for k in kernels
        )
        stages: dict[str, float] = {}
        for k in kernels:
            for stage, s in (k.get("seconds") or {}).items():
                stages[stage] = stages.get(stage, 0.0) + s
        summary["stages"] = {s: round(v, 3) for s, v in stages.items()}
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
