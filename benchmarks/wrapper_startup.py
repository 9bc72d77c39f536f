"""How fast ``accsat-cc`` answers what needs no rewrite: its own commands, errors,
pass-throughs and a cache hit, each against the plain compile where there is one.

Runs each call ``--repeat`` times in a fresh interpreter and prints the median wall
time, for each accsat tree given (default: this one), e.g. before and after:

    python benchmarks/wrapper_startup.py --tree /work/before --tree .

Issue 12's target: < 0.3 s each, and a cache hit < 0.3 s over plain ``gcc -c``, on a
quiet machine. ``python -X importtime -m accsat.wrapper ARGS`` says where the time
goes. Commands a tree does not know (``--stats`` before issue 12) show their exit
status instead of failing the run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KERNEL = (
    "double a[64], b[64];\nvoid kern(int n)\n{\n#pragma acc parallel loop\n"
    "  for (int i = 1; i < n - 1; i++) {\n    double t = a[i] * b[i] + a[i] * a[i];\n"
    "    b[i] = t * 2.0 + a[i] * b[i];\n  }\n}\n"
)
ACC = ["-fopenacc", "-foffload=disable"]
CALLS = {
    "-h": ["-h"],
    "--version": ["--version"],
    "--stats": ["--stats"],
    "--show-config": ["--show-config"],
    "usage error": [],
    "missing compiler": ["no-such-cc", "-c", *ACC, "k.c"],
    "pass-through (link)": ["gcc", "k.o", "-shared", "-o", "k.so"],
    "cache hit": ["gcc", "-c", *ACC, "k.c"],
}


def median(cmd: list[str], env: dict, cwd: str, repeat: int) -> tuple[float, int]:
    times, code = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        code = subprocess.run(
            cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="an accsat source tree (repeatable; default: this one)",
    )
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    trees = args.tree or [Path(__file__).resolve().parent.parent]
    with tempfile.TemporaryDirectory() as work:
        Path(work, "k.c").write_text(KERNEL)
        plain_env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
        plain, _ = median(["gcc", "-c", *ACC, "k.c"], plain_env, work, args.repeat)
        print(f"{'plain gcc -c k.c':<24} {plain:7.3f} s")
        for tree in trees:
            cache = Path(work, "cache")
            shutil.rmtree(cache, ignore_errors=True)
            env = dict(
                plain_env,
                PYTHONPATH=str(tree.resolve()),
                ACCSAT_CACHE_DIR=str(cache),
                XDG_CONFIG_HOME=str(Path(work, "config")),
            )
            wrapper = [sys.executable, "-m", "accsat.wrapper"]
            subprocess.run([*wrapper, *CALLS["cache hit"]], cwd=work, env=env, check=True)
            print(f"-- {tree}")
            for name, call in CALLS.items():
                seconds, code = median([*wrapper, *call], env, work, args.repeat)
                extra = f"  (+{seconds - plain:.3f} s over plain)" if name == "cache hit" else ""
                print(f"{name:<24} {seconds:7.3f} s  exit {code}{extra}")


if __name__ == "__main__":
    main()
