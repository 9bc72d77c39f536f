"""Build NPB-ACC with ``make CC="accsat-cc gcc"``: verification, kernels, build time.

For each class and variant, in private copies of NPB_ROOT (never touched):

1. plain: ``make CC=gcc`` of all 7 benchmarks, timed, each binary run;
2. cold: ``make CC="accsat-cc gcc"`` with an empty cache, timed; the binaries run
   and must print ``Verification = SUCCESSFUL``; ACCSAT_REPORT counts the kernels
   found and rewritten;
3. warm: ``make clean`` and the same build again with the cache now full, timed,
   verified again.

Times are the sums over the 7 benchmarks of the ``make`` wall time (``make clean``
and the runs not counted); CPU times are the user + system time of ``make`` and
everything it ran (``getrusage``), which a busy machine disturbs much less.  Ratios are against the plain build of the same class,
measured in the same run.  On a busy machine use ``--repeat N``: then, after the
cold build, N rounds each time a plain and a warm build of every benchmark one
after the other, and each benchmark counts with its fastest plain and fastest warm
time (the cold ratio uses the fastest plain time too).

    python benchmarks/npb_wrapper_build.py --npb-root /path/to/NPB-ACC \\
        --variants cse,accsat --classes S,W --jobs 1 --repeat 2 --json out.json

NPB_ROOT must hold the 7 benchmark folders (BT, CG, EP, FT, LU, MG, SP).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from accsat.options import VARIANTS
from accsat.toolchain.process import children_cpu
from npb_harness.tree import NPB_BENCHMARKS, source_dir

CFLAGS = "-O3 -fopenacc -foffload=disable -fgnu89-inline"
CLINKFLAGS = "-O3 -fopenacc -foffload=disable -lm"
VERIFIED = re.compile(r"Verification\s*=\s*SUCCESSFUL")


def accsat_cc() -> str:
    beside = Path(sys.executable).parent / "accsat-cc"
    return str(beside) if beside.exists() else (shutil.which("accsat-cc") or "accsat-cc")


def make(
    folder: Path, cc: str, klass: str, jobs: int, env: dict, log: Path
) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of make and everything it ran, exit status)."""
    subprocess.run(["make", "clean"], cwd=folder, capture_output=True)
    cmd = [
        "make",
        f"-j{jobs}",
        f"CC={cc}",
        "CLINK=gcc",
        f"CLASS={klass}",
        f"CFLAGS={CFLAGS}",
        f"CLINKFLAGS={CLINKFLAGS}",
    ]
    start, cpu = time.perf_counter(), children_cpu()
    with open(log, "ab") as out:
        rc = subprocess.run(
            cmd, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT
        ).returncode
    return time.perf_counter() - start, children_cpu() - cpu, rc


def _big_stack() -> None:
    """BT and SP from class W on keep large arrays on the stack (8 MiB is too little)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))


def verify(folder: Path, name: str, klass: str, log: Path) -> tuple[bool, float]:
    exe = folder / f"{name.lower()}.{klass}.x"
    if not exe.exists():
        return False, 0.0
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [str(exe)],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=1800,
            preexec_fn=_big_stack,
        )
        out = proc.stdout
    except subprocess.TimeoutExpired:
        out = ""
    seconds = time.perf_counter() - start
    with open(log, "a") as f:
        f.write(out)
    return bool(VERIFIED.search(out)), seconds


def count_report(path: Path) -> tuple[int, int, int]:
    """(kernels found, rewritten, lines) in a JSON Lines report."""
    found: dict[tuple[str, int], str] = {}
    lines = 0
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                lines += 1
                r = json.loads(line)
                found[(r["file"], r["line"])] = r["status"]
    return len(found), sum(1 for s in found.values() if s == "rewritten"), lines


def build_all(
    root: Path,
    work: Path,
    names: list[str],
    tag: str,
    cc: str,
    klass: str,
    jobs: int,
    env: dict,
    run: bool,
) -> dict:
    """Build (and run) every benchmark in ``work/tag`` (a fresh copy unless it exists)."""
    copy = work / tag
    if not copy.exists():
        shutil.copytree(root, copy, symlinks=True)
    result = {
        "seconds": 0.0,
        "cpu": 0.0,
        "verified": 0,
        "failed": [],
        "kernels": 0,
        "rewritten": 0,
        "per_benchmark": {},
    }
    for name in names:
        folder = source_dir(copy / name)
        log = work / f"{tag}-{name}.log"
        report = work / f"{tag}-{name}.jsonl"
        if report.exists():
            report.unlink()
        e = dict(env, ACCSAT_REPORT=str(report))
        seconds, cpu, rc = make(folder, cc, klass, jobs, e, log)
        ok, run_s = verify(folder, name, klass, log) if (run and rc == 0) else (rc == 0, 0.0)
        found, rewritten, lines = count_report(report)
        result["seconds"] += seconds
        result["cpu"] += cpu
        result["verified"] += ok
        if not ok:
            result["failed"].append(name)
        result["kernels"] += found
        result["rewritten"] += rewritten
        result["per_benchmark"][name] = {
            "make_s": round(seconds, 2),
            "cpu_s": round(cpu, 2),
            "rc": rc,
            "verified": ok,
            "run_s": round(run_s, 2),
            "kernels": found,
            "rewritten": rewritten,
            "report_lines": lines,
        }
    result["seconds"] = round(result["seconds"], 2)
    result["cpu"] = round(result["cpu"], 2)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--classes", default="S,W")
    ap.add_argument("--jobs", type=int, default=1, help="make -jN")
    ap.add_argument("--work", default=None, help="folder for the copies (default: a new temp)")
    ap.add_argument("--json", default=None, help="append the results here (one object a line)")
    ap.add_argument("--no-run", action="store_true", help="build only, do not run the binaries")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds of plain + warm builds per variant (fastest counts)",
    )
    ap.add_argument("--keep", action="store_true", help="leave the copies in --work")
    ap.add_argument(
        "--benchmarks",
        default=",".join(NPB_BENCHMARKS),
        help="a subset of BT,CG,EP,FT,LU,MG,SP (for trying the script)",
    )
    a = ap.parse_args()
    if not a.npb_root or not Path(a.npb_root, "BT").is_dir():
        print(
            "npb_wrapper_build: give --npb-root or set NPB_ROOT (the NPB-ACC folder)",
            file=sys.stderr,
        )
        return 2
    root = Path(a.npb_root).resolve()
    work = Path(a.work or tempfile.mkdtemp(prefix="npb-wrapper-"))
    work.mkdir(parents=True, exist_ok=True)
    wrapper = accsat_cc()
    names = [b for b in NPB_BENCHMARKS if b in a.benchmarks.split(",")]
    n = len(names)
    # PYTHONDONTWRITEBYTECODE (set in some sandboxes) would make every accsat-cc call
    # compile accsat's modules again; a normal install caches their bytecode
    base_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ACCSAT_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    rows = []
    try:
        for klass in a.classes.split(","):
            plain = build_all(
                root, work, names, f"plain-{klass}", "gcc", klass, a.jobs, base_env, not a.no_run
            )
            print(
                f"[{klass}] plain gcc: {plain['seconds']} s, verified {plain['verified']}/{n}",
                flush=True,
            )
            for variant in a.variants.split(","):
                cache = work / f"cache-{variant}-{klass}"
                shutil.rmtree(cache, ignore_errors=True)
                env = dict(base_env, ACCSAT_VARIANT=variant, ACCSAT_CACHE_DIR=str(cache))
                tag = f"{variant.replace('+', '_')}-{klass}-j{a.jobs}"
                cold = build_all(
                    root, work, names, tag, f"{wrapper} gcc", klass, a.jobs, env, not a.no_run
                )
                entries = len(list(cache.rglob("*.json")))
                plain_best: dict[str, float] = {}
                warm_best: dict[str, float] = {}
                plain_cpu: dict[str, float] = {}
                warm_cpu: dict[str, float] = {}
                warm = None
                for round_ in range(a.repeat):
                    p = build_all(
                        root, work, names, f"plain-{klass}", "gcc", klass, a.jobs, base_env, False
                    )
                    w = build_all(
                        root,
                        work,
                        names,
                        tag,
                        f"{wrapper} gcc",
                        klass,
                        a.jobs,
                        env,
                        not a.no_run and round_ == 0,
                    )
                    warm = warm or w
                    for b in names:
                        for best, got, field in (
                            (plain_best, p, "make_s"),
                            (warm_best, w, "make_s"),
                            (plain_cpu, p, "cpu_s"),
                            (warm_cpu, w, "cpu_s"),
                        ):
                            t = got["per_benchmark"][b][field]
                            best[b] = min(best.get(b, t), t)
                # a warm build should add nothing to the cache (it would if accsat's code
                # changed in between: the fingerprint covers it)
                warm_misses = len(list(cache.rglob("*.json"))) - entries
                plain_now = round(sum(plain_best.values()), 2)
                warm["seconds"] = round(sum(warm_best.values()), 2)
                reference = plain_now
                row = {
                    "class": klass,
                    "variant": variant,
                    "jobs": a.jobs,
                    "plain_first_s": plain["seconds"],
                    "plain_s": plain_now,
                    "repeat": a.repeat,
                    "cold_s": cold["seconds"],
                    "warm_s": warm["seconds"],
                    "cold_ratio": round(cold["seconds"] / reference, 3),
                    "plain_cpu_s": round(sum(plain_cpu.values()), 2),
                    "cold_cpu_s": cold["cpu"],
                    "warm_cpu_s": round(sum(warm_cpu.values()), 2),
                    "cold_cpu_ratio": round(cold["cpu"] / sum(plain_cpu.values()), 3),
                    "warm_cpu_ratio": round(sum(warm_cpu.values()) / sum(plain_cpu.values()), 3),
                    "warm_ratio": round(warm["seconds"] / reference, 3),
                    "verified_cold": cold["verified"],
                    "verified_warm": warm["verified"],
                    "failed": sorted(set(cold["failed"]) | set(warm["failed"])),
                    "kernels": cold["kernels"],
                    "rewritten": cold["rewritten"],
                    "rewritten_warm": warm["rewritten"],
                    "warm_misses": warm_misses,
                    "per_benchmark": {
                        "cold": cold["per_benchmark"],
                        "warm": warm["per_benchmark"],
                        "plain_best": plain_best,
                        "warm_best": warm_best,
                    },
                }
                rows.append(row)
                print(
                    f"[{klass}] {variant} -j{a.jobs}: verified {cold['verified']}/{n} cold, "
                    f"{warm['verified']}/{n} warm; rewritten {cold['rewritten']}/"
                    f"{cold['kernels']} (warm {warm['rewritten']}); plain {reference} s, "
                    f"cold {cold['seconds']} s ({row['cold_ratio']}x), warm {warm['seconds']}"
                    f" s ({row['warm_ratio']}x); CPU plain {row['plain_cpu_s']} s, cold "
                    f"{row['cold_cpu_s']} s ({row['cold_cpu_ratio']}x), warm {row['warm_cpu_s']} s "
                    f"({row['warm_cpu_ratio']}x); warm misses {warm_misses}",
                    flush=True,
                )
                if a.json:
                    with open(a.json, "a") as f:
                        f.write(json.dumps(row) + "\n")
    finally:
        if not a.keep and a.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(
        "\n| class | variant | -j | verified | rewritten/found | plain s | cold s | warm s "
        "| cold/plain | warm/plain | CPU plain s | CPU cold s | CPU warm s | CPU cold/plain "
        "| CPU warm/plain |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['class']} | {r['variant']} | {r['jobs']} | {r['verified_cold']}/{n}, "
            f"{r['verified_warm']}/{n} | {r['rewritten']}/{r['kernels']} | "
            f"{r['plain_s']} | {r['cold_s']} | {r['warm_s']} | "
            f"{r['cold_ratio']} | {r['warm_ratio']} | {r['plain_cpu_s']} | {r['cold_cpu_s']} | "
            f"{r['warm_cpu_s']} | {r['cold_cpu_ratio']} | {r['warm_cpu_ratio']} |"
        )
    return 0 if all(r["verified_cold"] == n and r["verified_warm"] == n for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
