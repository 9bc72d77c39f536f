"""NPB-ACC on a GPU: build offloaded binaries here (gcc nvptx), time them on a GPU machine.

    python benchmarks/gpu_npb.py build --npb-root DIR --out gpu_bins \\
        [--benchmarks BT,LU,SP] [--class W] [--configs orig,accsat@any,accsat@keep]
    python3 benchmarks/gpu_npb.py run --dir gpu_bins [--runs 3]

``build`` needs accsat, gcc-12-offload-nvptx and NPB-ACC; it makes one binary per
benchmark and configuration (``orig``: plain gcc; ``VARIANT@REGISTERS``: through
accsat-cc with ``ACCSAT_VARIANT`` and ``ACCSAT_REGISTERS``) and copies libgomp and its
nvptx plugin beside them. ``run`` needs only Python 3 and the NVIDIA driver (a GPU
machine with no compiler): the binaries run round-robin (every configuration once a
round, in an order turned each round, ``--runs`` rounds, after a round not counted in
which the driver compiles the PTX for the GPU at hand), each round's NPB "Time in
seconds" and verification are printed as they come, and the table ends it: per binary,
over its verified runs, its median time and its speedup over ``orig`` paired round by
round (``results.json``, written after every round, adds whether every run verified).
It exits 1 when a run did not verify (NPB LU on an H200: in every configuration, orig
too). ``summary LOG...`` prints that table for the logs of several calls together.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

OFFLOAD = (
    "-O3 -fopenacc -foffload=nvptx-none "
    '-foffload-options=nvptx-none="-misa=sm_80 -Wa,--no-verify{}" -fgnu89-inline'
)
COMPILE, LINK = OFFLOAD.format(""), OFFLOAD.format(" -lm") + " -lm"  # the device needs libm too
LIBS = ("libgomp.so.1", "libgomp-plugin-nvptx.so.1")
TIME = re.compile(r"Time in seconds\s*=\s*([0-9.eE+-]+)")
VERIFIED = re.compile(r"Verification\s*=\s*SUCCESSFUL")


def build(args: argparse.Namespace) -> int:
    # imported here: `run` goes to a GPU machine that has Python but not accsat
    from accsat.options import ORIG
    from accsat.sweep.accsat_cc import config_environment

    out = args.out.resolve()
    (out / "bin").mkdir(parents=True, exist_ok=True)
    (out / "lib").mkdir(exist_ok=True)
    for lib in LIBS:
        shutil.copy2(Path("/usr/lib/x86_64-linux-gnu") / lib, out / "lib" / lib)
    failed = 0
    for bench in args.benchmarks.split(","):
        for config in args.configs.split(","):
            name = f"{bench}.{args.cls}.{config.replace('@', '-').replace('+', '_')}"
            tree = out / "trees" / name
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(
                args.npb_root / bench, tree, ignore=shutil.ignore_patterns("*.o", "*.x")
            )
            env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
            cc = "gcc"
            if config != ORIG:
                cc = "accsat-cc gcc"
                env["ACCSAT_REGISTERS"] = "any"  # unless the config names a budget
                env.update(config_environment(config))
                env["ACCSAT_REPORT"] = str(out / f"{name}.kernels.jsonl")
            make = [
                "make",
                f"CC={cc}",
                "CLINK=gcc",
                f"CLASS={args.cls}",
                f"CFLAGS={COMPILE} {args.cflags}",
                f"CLINKFLAGS={LINK} {args.cflags}",
                "UCC=gcc",
            ]
            src = next(
                p
                for p in tree.iterdir()
                if p.is_dir()
                and (p / "Makefile").exists()
                and p.name not in ("common", "config", "sys")
            )
            start = time.perf_counter()
            log = out / f"{name}.build.log"
            with log.open("w") as f:
                ok = all(
                    subprocess.run(
                        cmd, cwd=src, env=env, stdout=f, stderr=subprocess.STDOUT, timeout=3600
                    ).returncode
                    == 0
                    for cmd in (make[:1] + ["config"] + make[1:], make)
                )
            binary = next(src.glob(f"*.{args.cls}.x"), None)
            if ok and binary is not None:
                shutil.copy2(binary, out / "bin" / f"{name}.x")
            else:
                failed += 1
            print(
                f"{name}: {'built' if ok else 'FAILED, see ' + str(log)} "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
        shutil.rmtree(out / "trees", ignore_errors=True)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    folder = args.dir.resolve()
    binaries = sorted((folder / "bin").glob("*.x"))
    if not binaries:
        print(f"gpu_npb: no binaries in {folder / 'bin'}", file=sys.stderr)
        return 2
    env = dict(os.environ, LD_LIBRARY_PATH=str(folder / "lib"), ACC_DEVICE_TYPE="nvidia")
    rounds: dict[tuple[int, int], dict[str, float]] = {}
    verified: dict[str, bool] = {b.stem: True for b in binaries}
    out = Path(os.environ.get("OUT", folder)) / "results.json"
    for b in binaries if args.warmup else ():  # the driver's first JIT of the PTX, cached after
        seconds, ok, _ = _one(b, env, args.timeout)
        print(f"warm-up {b.stem}: {seconds or '?'} s {'ok' if ok else 'FAILED'}", flush=True)
    for r in range(args.runs):
        for b in binaries[r % len(binaries) :] + binaries[: r % len(binaries)]:
            seconds, ok, why = _one(b, env, args.timeout)
            verified[b.stem] &= ok
            if ok:
                rounds.setdefault((0, r + 1), {})[b.stem] = seconds
            print(f"round {r + 1} {b.stem}: {seconds or '?'} s {why}", flush=True)
        rows = table(rounds, quiet=r + 1 < args.runs)  # written each round: a call cut
        for stem, ok in verified.items():  # short keeps what it measured
            rows.setdefault(stem, {})["verified"] = ok
        out.write_text(json.dumps(rows, indent=1))
    return 0 if all(verified.values()) else 1


def _one(binary: Path, env: dict[str, str], timeout: float) -> tuple[float, bool, str]:
    """One run: NPB's "Time in seconds" (0.0 when it printed none), whether it verified,
    and what to print after the time (the end of its output when it failed)."""
    try:
        proc = subprocess.run(
            [str(binary)], env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return 0.0, False, f"NOT VERIFIED: timed out after {timeout:.0f} s"
    m = TIME.search(proc.stdout)
    if proc.returncode == 0 and m and VERIFIED.search(proc.stdout):
        return float(m.group(1)), True, "verified"
    tail = "" if m else "\n" + proc.stdout[-800:] + "\n" + proc.stderr[-800:]
    return float(m.group(1)) if m else 0.0, False, f"NOT VERIFIED rc={proc.returncode}{tail}"


ROUND = re.compile(r"^round (\d+) (\S+): ([0-9.]+) s verified", re.M)


def summary(args: argparse.Namespace) -> int:
    """The table of ``run``'s logs together (several calls on the device: each call's
    rounds stay paired within that call)."""
    rounds: dict[tuple[int, int], dict[str, float]] = {}
    for k, log in enumerate(args.logs):
        for m in ROUND.finditer(log.read_text()):
            rounds.setdefault((k, int(m[1])), {})[m[2]] = float(m[3])
    if not rounds:
        print("gpu_npb: no verified rounds in those logs", file=sys.stderr)
        return 1
    rows = table(rounds)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


def table(rounds: dict[tuple[int, int], dict[str, float]], quiet: bool = False) -> dict[str, dict]:
    """Per binary, over its verified runs: its median time, and its speedup over orig
    paired round by round (orig's time over its own in the same round: a machine that
    drifts over the rounds moves both), with the rounds it was faster in; printed
    (unless ``quiet``) and returned."""
    stems = sorted({s for r in rounds.values() for s in r})
    rows = {}
    for stem in stems:
        bench, cls, config = stem.split(".", 2)
        ts = [r[stem] for r in rounds.values() if stem in r]
        base = f"{bench}.{cls}.orig"
        paired = [r[base] / r[stem] for r in rounds.values() if r.get(stem) and base in r]
        rows[stem] = {
            "median_s": statistics.median(ts),
            "runs": ts,
            "speedup_vs_orig_paired": statistics.median(paired) if paired else None,
            "faster_rounds": sum(x > 1 for x in paired),
            "paired_rounds": len(paired),
        }
        if not quiet:
            print(
                f"{stem:28} median {rows[stem]['median_s']:7.3f} s  "
                + _against(rows[stem], paired, config)
            )
    return rows


def _against(row: dict, paired: list[float], config: str) -> str:
    """``row``'s paired speedup as the table prints it (none for orig itself)."""
    if not paired or config == "orig":
        return ""
    return (
        f"x{row['speedup_vs_orig_paired']:.3f} vs orig (paired, range {min(paired):.3f}-"
        f"{max(paired):.3f}; faster in {row['faster_rounds']}/{row['paired_rounds']} rounds)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--npb-root", type=Path, default=os.environ.get("NPB_ROOT"), required=False)
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--benchmarks", default="BT,LU,SP")
    b.add_argument("--class", dest="cls", default="W")
    b.add_argument("--configs", default="orig,accsat@any,accsat@keep")
    b.add_argument(
        "--cflags",
        default="",
        help="more flags for every configuration (e.g. -fopenacc-dim=...; it does not "
        "change NPB LU's rhs, whose num_workers clause asks gcc 12 for more threads than "
        "an H200 can launch with its registers: LU fails there, orig too)",
    )
    r = sub.add_parser("run")
    r.add_argument("--dir", type=Path, required=True)
    r.add_argument("--runs", type=int, default=3)
    r.add_argument("--timeout", type=float, default=300.0)
    r.add_argument("--warmup", action=argparse.BooleanOptionalAction, default=True)
    t = sub.add_parser("summary")
    t.add_argument("logs", type=Path, nargs="+", help="what run printed, one log per call")
    t.add_argument("--json", type=Path)
    args = ap.parse_args()
    return {"build": build, "run": run, "summary": summary}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
