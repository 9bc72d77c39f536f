"""The static GPU view under several register budgets, and one loads-versus-registers plot.

    python benchmarks/ptx_budgets.py --npb-root DIR [--benchmarks BT,LU,SP]
        [--variants orig,cse,cse+bulk] [--registers any,keep] [--class S] [--out ptx-budgets]

For each budget it runs ``accsat bench npb --ptx`` with ``ACCSAT_REGISTERS`` set
(its outputs in ``OUT/<budget>/``: ptx.csv, ptx.json, ptx.png), then draws
``OUT/loads_registers.png``: per benchmark, each variant's PTX loads against
its registers relative to orig, one marker per budget, with the device entries
that lost occupancy against orig. ``--from`` skips the runs and draws from
existing ``ptx.json`` files instead (``--from any=DIR1 --from keep=DIR2``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from accsat.sweep.cells import split_list
from accsat.sweep.plot import loads_registers_png
from accsat.sweep.ptxview import drops, totals
from accsat.sweep.results import Result


def run_bench(args, budget: str, out: Path) -> int:
    cmd = [
        sys.executable, "-m", "accsat.cli", "bench", "npb",
        "--npb-root", str(args.npb_root), "--benchmarks", args.benchmarks,
        "--classes", args.cls, "--variants", args.variants, "--ptx",
        "--out", str(out), "--no-progress",
    ]  # fmt: skip
    print(f"== ACCSAT_REGISTERS={budget} {' '.join(cmd[2:])}", flush=True)
    return subprocess.run(cmd, env={**os.environ, "ACCSAT_REGISTERS": budget}).returncode


def load(folder: Path) -> list[Result]:
    return [Result.from_dict(d) for d in json.loads((folder / "ptx.json").read_text())]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--npb-root", type=Path, default=os.environ.get("NPB_ROOT"))
    p.add_argument("--benchmarks", default="BT,LU,SP")
    p.add_argument("--variants", default="orig,cse,cse+bulk")
    p.add_argument("--registers", default="any,keep")
    p.add_argument("--class", dest="cls", default="S")
    p.add_argument("--out", type=Path, default=Path("ptx-budgets"))
    p.add_argument("--from", dest="sources", action="append", default=[], metavar="BUDGET=DIR")
    args = p.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    folders: dict[str, Path] = {}
    for item in args.sources:
        budget, _, folder = item.partition("=")
        folders[budget] = Path(folder)
    if not folders:
        if args.npb_root is None:
            p.error("give --npb-root (or set NPB_ROOT), or --from")
        for budget in split_list(args.registers):
            if run_bench(args, budget, out / budget) not in (0, 1):
                return 2
            folders[budget] = out / budget
    series = {}
    for budget, folder in folders.items():
        results = load(folder)
        series[budget] = (totals(results), drops(results))
    if loads_registers_png(series, out / "loads_registers.png"):
        print(f"wrote {out / 'loads_registers.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
