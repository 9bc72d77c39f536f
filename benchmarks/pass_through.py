"""What accsat-cc costs on a file with no compute construct (issue 23: at most 10 ms over
the compiler).

Times, interleaved, ``--repeat`` rounds of: the plain compile of a small C file with no
directive; the same through the installed ``accsat-cc`` (the shell launcher, found on
the PATH or given with ``--accsat-cc``; a pyenv shim adds its own start-up, so give the
version's own script); and through ``python -m accsat.wrapper`` (accsat-cc's Python
side, where the launcher hands what it cannot decide). Prints medians, the overhead of
each over the plain compile, and the load average; ``--json`` writes them.

    python benchmarks/pass_through.py [--repeat 31] [--compiler gcc] [--json out.json]
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
from pathlib import Path

SOURCE = "int add(int x, int y) { return x + y; }\nint twice(int x) { return add(x, x); }\n"


def timed(cmd: list[str], cwd: str, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=31)
    p.add_argument("--compiler", default="gcc")
    p.add_argument("--accsat-cc", default=None, help="the launcher (default: on the PATH)")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    launcher = args.accsat_cc or shutil.which("accsat-cc")
    if launcher is None:
        p.error("accsat-cc is not on the PATH: give --accsat-cc")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    with tempfile.TemporaryDirectory() as work:
        env["XDG_CONFIG_HOME"] = str(Path(work, "config"))  # no config file: no setting
        Path(work, "plain.c").write_text(SOURCE)
        compile_ = [args.compiler, "-O2", "-c", "plain.c", "-o", "plain.o"]
        ways = {
            "plain": compile_,
            "accsat-cc": [launcher, *compile_],
            "python -m accsat.wrapper": [sys.executable, "-m", "accsat.wrapper", *compile_],
        }
        times: dict[str, list[float]] = {name: [] for name in ways}
        load = [os.getloadavg()[0]]
        for _ in range(args.repeat):
            for name, cmd in ways.items():
                times[name].append(timed(cmd, work, env))
        load.append(os.getloadavg()[0])
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"{args.repeat} interleaved rounds; load average {load[0]:.2f} -> {load[1]:.2f}")
    for name, m in medians.items():
        over = "" if name == "plain" else f"  +{1000 * (m - medians['plain']):6.1f} ms"
        print(f"{name:<26} {1000 * m:7.1f} ms{over}")
    if args.json:
        out = {"repeat": args.repeat, "load": load, "launcher": launcher}
        out["median_ms"] = {k: round(1000 * v, 2) for k, v in medians.items()}
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
