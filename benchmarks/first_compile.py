"""The first compile of a build: a one-kernel file, a cold cache, no compile server yet.

    python benchmarks/first_compile.py [--repeat 5]

Times, each in a fresh process, the median of ``--repeat``: ``gcc -O2 -c`` of the file;
``accsat-cc gcc -O2 -c`` of it with a new cache folder each time (so a new compile
server starts, as at the first call of a build); and, to say where that call's time
goes, a bare interpreter, the imports of the wrapper (what accsat-cc's own process
loads) and of the pipeline (what the server loads before it can rewrite), and the
rewrite as the call's event log times it (``ACCSAT_EVENTS``: the request to the
server, its start included). Prints the ratio to gcc (issue 36's target: 5x). The
servers started stop by themselves once idle (``accsat-cc --stop-server`` now).
"""

from __future__ import annotations

import argparse
import json
import os
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
FLAGS = ["-O2", "-fopenacc", "-foffload=disable", "-c", "k.c", "-o", "k.o"]


def timed(cmd: list[str], cwd: str, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def accsat_cc() -> str:
    beside = Path(sys.executable).parent / "accsat-cc"
    return str(beside) if beside.exists() else "accsat-cc"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    py = sys.executable
    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as work:
        Path(work, "k.c").write_text(KERNEL)
        for n in range(args.repeat):  # interleaved: a busy spell hits every row alike
            events = Path(work, f"events{n}.jsonl")
            first = dict(env, ACCSAT_CACHE_DIR=str(Path(work, f"cache{n}")))
            calls = {
                "gcc -O2 -c": (["gcc", *FLAGS], env),
                "accsat-cc, first call": (
                    [accsat_cc(), "gcc", *FLAGS],
                    dict(first, ACCSAT_EVENTS=str(events)),
                ),
                "python -c pass": ([py, "-c", "pass"], env),
                "import the wrapper": ([py, "-c", "import accsat.wrapper.driver"], env),
                "import the pipeline": ([py, "-c", "import accsat.pipeline"], env),
            }
            for name, (cmd, e) in calls.items():
                rows.setdefault(name, []).append(timed(cmd, work, e))
            for line in events.read_text().splitlines():
                event = json.loads(line)
                if event["event"] == "rewrite":  # "... (0.269 s)"
                    seconds = float(event["details"].rsplit("(", 1)[1].split()[0])
                    rows.setdefault("  of which the rewrite (server)", []).append(seconds)
        subprocess.run([accsat_cc(), "--stop-server"], env=env, capture_output=True)
    gcc = statistics.median(rows["gcc -O2 -c"])
    print(f"load {os.getloadavg()[0]:.2f}; medians of {args.repeat}:")
    for name, values in rows.items():
        m = statistics.median(values)
        print(f"  {name:<34} {m:7.3f} s  {m / gcc:6.1f}x gcc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
