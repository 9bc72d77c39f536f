"""What accsat-cc costs on a file with no compute construct (issue 23: at most 10 ms over
the compiler).

Times, interleaved, ``--repeat`` rounds of: the plain compile of a small C file with no
directive; the same through the installed ``accsat-cc`` (the shell launcher, found on
the PATH or given with ``--accsat-cc``, which may be given several times to compare
launchers, e.g. another checkout's ``accsat/wrapper/bin/accsat-cc``; a pyenv shim adds
its own start-up, so give the version's own script); and through ``python -m
accsat.wrapper`` (accsat-cc's Python side, where the launcher hands what it cannot
decide). Each for two sources: the small file alone, and with quoted includes of two
headers without directives (the launcher reads those too, issue 37). Prints medians, the
overhead of each over the plain compile, and the load average; ``--json`` writes them.

    python benchmarks/pass_through.py [--repeat 31] [--compiler gcc] [--json out.json]
        [--accsat-cc LAUNCHER ...]
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
# the same with quoted includes of headers that hold no directive (one includes the other)
HEADERS = {
    "util.h": '#pragma once\n#include "types.h"\nint add(int x, int y);\n',
    "types.h": "#pragma once\ntypedef double real;\n#define N 64\n",
}
INCLUDING = '#include "util.h"\n#include "types.h"\n#include <stdio.h>\n' + SOURCE


def timed(cmd: list[str], cwd: str, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=31)
    p.add_argument("--compiler", default="gcc")
    p.add_argument(
        "--accsat-cc",
        action="append",
        default=None,
        help="a launcher (default: accsat-cc on the PATH); repeat to compare several",
    )
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    launchers = args.accsat_cc or [shutil.which("accsat-cc")]
    if None in launchers:
        p.error("accsat-cc is not on the PATH: give --accsat-cc")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    with tempfile.TemporaryDirectory() as work:
        env["XDG_CONFIG_HOME"] = str(Path(work, "config"))  # no config file: no setting
        Path(work, "plain.c").write_text(SOURCE)
        Path(work, "including.c").write_text(INCLUDING)
        for name, text in HEADERS.items():
            Path(work, name).write_text(text)
        ways = {}
        for source in ("plain.c", "including.c"):
            compile_ = [args.compiler, "-O2", "-c", source, "-o", "out.o"]
            ways[f"{source} plain"] = compile_
            for k, launcher in enumerate(launchers):
                name = "accsat-cc" if len(launchers) == 1 else f"accsat-cc {k + 1}"
                ways[f"{source} {name}"] = [launcher, *compile_]
            python = [sys.executable, "-m", "accsat.wrapper", *compile_]
            ways[f"{source} python -m accsat.wrapper"] = python
        times: dict[str, list[float]] = {name: [] for name in ways}
        load = [os.getloadavg()[0]]
        for _ in range(args.repeat):
            for name, cmd in ways.items():
                times[name].append(timed(cmd, work, env))
        load.append(os.getloadavg()[0])
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"{args.repeat} interleaved rounds; load average {load[0]:.2f} -> {load[1]:.2f}")
    for k, launcher in enumerate(launchers):
        print(f"accsat-cc {k + 1}: {launcher}" if len(launchers) > 1 else f"accsat-cc: {launcher}")
    for name, m in medians.items():
        plain = medians[name.split()[0] + " plain"]
        over = "" if name.endswith(" plain") else f"  +{1000 * (m - plain):6.1f} ms"
        print(f"{name:<40} {1000 * m:7.1f} ms{over}")
    if args.json:
        out = {"repeat": args.repeat, "load": load, "launchers": launchers}
        out["median_ms"] = {k: round(1000 * v, 2) for k, v in medians.items()}
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
