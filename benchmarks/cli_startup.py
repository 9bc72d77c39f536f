"""How fast ``accsat`` answers what needs no work: help, usage errors, a missing file.

Runs each command ``--repeat`` times in a fresh interpreter and prints the median
wall time, with the accsat tree given (default: this one), e.g. before and after:

    python benchmarks/cli_startup.py --tree /work/before --tree .

Issue 12's target: < 0.3 s each, on a quiet machine. ``python -X importtime -m
accsat.cli ARGS`` says where the time goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KERNEL = (
    "double a[4];\nvoid f(void) {\n  int i;\n  #pragma acc parallel loop\n"
    "  for (i = 0; i < 4; i++) a[i] = a[i] * a[i];\n}\n"
)
COMMANDS = [
    ["--help"],
    ["-h"],
    ["rewrite", "-h"],
    ["check", "--help"],
    ["bench", "-h"],
    ["bench", "npb", "-h"],
    ["rewrite", "missing.c"],
    ["check", "missing.c"],
    ["rewrite", "k.c", "--bogus"],
    ["rewrite", "k.c", "--max-nodes", "-5"],
]


def median_seconds(tree: Path, args: list[str], repeat: int, cwd: str) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    times, code = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "accsat.cli", *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - start)
        code = proc.returncode
    return statistics.median(times), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        default=None,
        help="an accsat source tree (repeatable; default: this one)",
    )
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    trees = args.tree or [Path(__file__).resolve().parents[1]]
    with tempfile.TemporaryDirectory() as cwd:
        Path(cwd, "k.c").write_text(KERNEL)
        print("command".ljust(34) + "".join(str(t)[-20:].rjust(22) for t in trees))
        for command in COMMANDS:
            cells = []
            for tree in trees:
                seconds, code = median_seconds(tree, command, args.repeat, cwd)
                cells.append(f"{seconds:6.3f} s (rc {code})".rjust(22))
            print(" ".join(command).ljust(34) + "".join(cells))


if __name__ == "__main__":
    main()
