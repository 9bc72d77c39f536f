"""What ``accsat-cc`` costs a build (issue 12): a small file, and NPB-ACC built cold.

1. Small file: ``accsat-cc gcc -c small.c`` (one kernel) against ``gcc -c small.c``,
   each with a cold cache (no entries; accsat's fingerprint kept, as after any
   earlier build): the compile server cold (none running: it starts
   during the call), warm (running, its children ready) and disabled
   (``ACCSAT_SERVER=0``: the rewrite imports the pipeline in-process); the median
   of ``--repeat`` calls (at least 5) and its overhead over gcc's median
   (target: at most 0.3 s).
2. NPB-ACC: ``make -j1 CLASS=S`` of BT CG EP FT LU MG SP with plain gcc, then with
   ``accsat-cc gcc`` (an empty cache, no server running at the start), each
   benchmark plain then wrapped (so that a drift of the machine hits both alike),
   ``--rounds`` times; the sums of the fastest times and their ratio (target: at
   most 1.3), with ``ACCSAT_SERVER=0`` too when ``--no-server`` is given.
3. Where the rest goes: the kernel reports' seconds per stage (frontend, ssa,
   saturate, extract, codegen), how each ILP ended, and what is left for process
   start, imports, preprocessing and the compiler's second look.

The load average is printed before and after each part: measure on a quiet machine.

    python benchmarks/wrapper_cost.py --npb-root DIR [--benchmarks BT,CG,...] \\
        [--repeat 7] [--rounds 1] [--no-server] [--json out.json] [--skip-npb]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from npb_wrapper_build import accsat_cc, make  # noqa: E402

from accsat.wrapper import client  # noqa: E402
from accsat.wrapper.cache import FORMAT  # noqa: E402
from npb_harness.tree import NPB_BENCHMARKS, source_dir  # noqa: E402

SMALL = """\
void saxpy(int n, float a, float *restrict y, const float *restrict x)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i] * y[i] + a * x[i] * y[i];
}
"""
STAGES = ("frontend", "ssa", "saturate", "extract", "codegen")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def base_env() -> dict[str, str]:
    # PYTHONDONTWRITEBYTECODE (set in some sandboxes) would make every call compile
    # accsat's modules again; a normal install caches their bytecode
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ACCSAT_") and k != "PYTHONDONTWRITEBYTECODE"
    }


def timed(cmd: list[str], cwd: Path, env: dict) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"wrapper_cost: {' '.join(cmd)} failed:\n{proc.stderr.decode(errors='replace')}")
    return seconds


def stop_servers(runtime: Path) -> None:
    where = runtime / "accsat"
    if where.is_dir():
        client.stop_servers(where)


def small_file(work: Path, repeat: int) -> dict:
    """Median seconds of gcc and of accsat-cc (server cold, warm, off) on one kernel."""
    folder = work / "small"
    folder.mkdir()
    (folder / "small.c").write_text(SMALL)
    gcc = ["gcc", "-O2", "-fopenacc", "-foffload=disable", "-c", "small.c"]
    wrapper = [accsat_cc(), *gcc]
    cache = work / "small-cache"
    env = dict(base_env(), ACCSAT_CACHE_DIR=str(cache))
    timed(wrapper, folder, dict(env, ACCSAT_SERVER="0"))  # accsat's fingerprint, kept

    def cold_cache_call(e: dict) -> float:
        shutil.rmtree(cache / FORMAT, ignore_errors=True)  # the entries only
        return timed(wrapper, folder, e)

    plain = [timed(gcc, folder, env) for _ in range(repeat)]
    times: dict[str, list[float]] = {"cold": [], "warm": [], "off": []}
    for _ in range(repeat):  # a fresh runtime folder: no server, it starts in the call
        runtime = Path(tempfile.mkdtemp(prefix="as-", dir="/tmp"))
        times["cold"].append(cold_cache_call(dict(env, XDG_RUNTIME_DIR=str(runtime))))
        stop_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
    runtime = Path(tempfile.mkdtemp(prefix="as-", dir="/tmp"))
    e = dict(env, XDG_RUNTIME_DIR=str(runtime))
    cold_cache_call(e)  # start it
    for _ in range(repeat):
        time.sleep(1.0)  # as a compile between two files would: its children get ready
        times["warm"].append(cold_cache_call(e))
    stop_servers(runtime)
    shutil.rmtree(runtime, ignore_errors=True)
    for _ in range(repeat):
        times["off"].append(cold_cache_call(dict(env, ACCSAT_SERVER="0")))
    gcc_s = statistics.median(plain)
    out = {"gcc_s": round(gcc_s, 3), "repeat": repeat}
    for mode, ts in times.items():
        out[f"{mode}_s"] = round(statistics.median(ts), 3)
        out[f"{mode}_overhead_s"] = round(statistics.median(ts) - gcc_s, 3)
    return out


def reports(paths: list[Path]) -> dict:
    """Seconds per stage and ILP outcomes summed over the kernel reports."""
    seconds: Counter = Counter()
    ilp: Counter = Counter()
    kernels = files = 0
    for path in paths:
        if not path.exists():
            continue
        seen = set()
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                kernels += 1
                seen.add(r["file"])
                for stage, s in r.get("seconds", {}).items():
                    seconds[stage] += s
                ilp[r.get("ilp") or r.get("extraction") or "?"] += 1
        files += len(seen)
    return {
        "kernels": kernels,
        "files_with_kernels": files,
        "stage_s": {k: round(v, 2) for k, v in seconds.items()},
        "ilp": dict(ilp),
    }


def npb(root: Path, work: Path, names: list[str], rounds: int, modes: list[str]) -> dict:
    """Sum over the benchmarks of the fastest make -j1 time of each mode."""
    env = base_env()
    copies = {mode: work / f"npb-{mode}" for mode in ["plain", *modes]}
    for copy in copies.values():
        shutil.copytree(root, copy, symlinks=True)
    best: dict[str, dict[str, float]] = {mode: {} for mode in copies}
    report_paths: dict[str, list[Path]] = {mode: [] for mode in modes}
    wrapper = f"{accsat_cc()} gcc"
    runtime = Path(tempfile.mkdtemp(prefix="as-", dir="/tmp"))  # no server at the start
    try:
        for r in range(rounds):
            caches = {mode: work / f"cache-{mode}-{r}" for mode in modes}  # empty: cold
            for name in names:
                for mode, copy in copies.items():
                    log = work / f"{mode}-{name}.log"
                    if mode == "plain":
                        cc, e = "gcc", env
                    else:
                        report = work / f"{mode}-{name}-{r}.jsonl"
                        report_paths[mode].append(report)
                        cc = wrapper
                        e = dict(
                            env,
                            XDG_RUNTIME_DIR=str(runtime),
                            ACCSAT_REPORT=str(report),
                            ACCSAT_CACHE_DIR=str(caches[mode]),
                            ACCSAT_SERVER="0" if mode == "noserver" else "1",
                        )
                    seconds, _cpu, rc = make(source_dir(copy / name), cc, "S", 1, e, log)
                    if rc != 0:
                        sys.exit(f"wrapper_cost: {mode} build of {name} failed, see {log}")
                    best[mode][name] = min(best[mode].get(name, seconds), seconds)
                    print(
                        f"  round {r + 1} {name} {mode}: {seconds:.2f} s (load {load()})",
                        flush=True,
                    )
    finally:
        stop_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
    plain = sum(best["plain"].values())
    out = {"benchmarks": names, "rounds": rounds, "plain_s": round(plain, 2), "per_benchmark": best}
    for mode in modes:
        total = sum(best[mode].values())
        out[f"{mode}_s"] = round(total, 2)
        out[f"{mode}_ratio"] = round(total / plain, 3)
        profile = reports(report_paths[mode][-len(names) :])  # the last round's
        staged = sum(profile["stage_s"].get(s, 0.0) for s in STAGES)
        # what the stages do not account for: starting processes, the compiler, waiting
        profile["other_s"] = round(sum(best[mode].values()) - plain - staged, 2)
        out[f"{mode}_profile"] = profile
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--benchmarks", default=",".join(NPB_BENCHMARKS))
    ap.add_argument("--repeat", type=int, default=7, help="calls per small-file median (>= 5)")
    ap.add_argument("--rounds", type=int, default=1, help="NPB builds per mode (fastest counts)")
    ap.add_argument("--no-server", action="store_true", help="also build NPB with ACCSAT_SERVER=0")
    ap.add_argument("--skip-npb", action="store_true", help="the small file only")
    ap.add_argument("--json", default=None, help="append the results here (one object)")
    a = ap.parse_args()
    if a.repeat < 5:
        ap.error("--repeat must be at least 5")
    names = [n for n in a.benchmarks.split(",") if n]
    if not a.skip_npb and (not a.npb_root or not Path(a.npb_root, "BT").is_dir()):
        print(
            "wrapper_cost: give --npb-root or set NPB_ROOT (the NPB-ACC folder), or --skip-npb",
            file=sys.stderr,
        )
        return 2
    if unknown := [n for n in names if n not in NPB_BENCHMARKS]:
        ap.error(f"unknown benchmarks {unknown} (of {', '.join(NPB_BENCHMARKS)})")
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="wrapper-cost-") as tmp:
        work = Path(tmp)
        print(f"small file ({a.repeat} calls each), load {load()}", flush=True)
        s = result["small"] = small_file(work, a.repeat)
        print(
            f"  gcc {s['gcc_s']} s; accsat-cc server cold {s['cold_s']} s "
            f"(+{s['cold_overhead_s']}), warm {s['warm_s']} s (+{s['warm_overhead_s']}), "
            f"off {s['off_s']} s (+{s['off_overhead_s']}); load {load()}",
            flush=True,
        )
        if not a.skip_npb:
            modes = ["server", "noserver"] if a.no_server else ["server"]
            print(f"NPB class S, make -j1: {', '.join(names)}; load {load()}", flush=True)
            n = result["npb"] = npb(Path(a.npb_root).resolve(), work, names, a.rounds, modes)
            for mode in modes:
                p = n[f"{mode}_profile"]
                print(
                    f"  plain {n['plain_s']} s, accsat-cc ({mode}) {n[f'{mode}_s']} s: "
                    f"ratio {n[f'{mode}_ratio']}; load {load()}"
                )
                print(
                    f"    {p['kernels']} kernels in {p['files_with_kernels']} files; stage "
                    f"seconds {p['stage_s']}; other {p['other_s']} s; ILP {p['ilp']}"
                )
    result["load_end"] = load()
    if a.json:
        with open(a.json, "a") as f:
            f.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
