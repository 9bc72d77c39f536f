"""Static GPU view of accsat's variants on NPB-ACC, without a GPU.

    python benchmarks/ptx_view.py --npb-root DIR [--benchmarks BT,SP,LU] [--out DIR]

For each benchmark and version (the original, then each variant rewritten by
accsat) it builds the benchmark with gcc's nvptx offloading (-save-temps),
counts PTX loads, stores, FMAs and instructions per device entry, and runs
``ptxas -arch=sm_80 -v`` for registers and spills. Prints per-benchmark sums
and writes ptx.csv / ptx.json with one row per entry.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from npb_variants import configure  # benchmarks/ is on sys.path when run as a script

from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import CONFIGS, ORIG, Options
from accsat.pipeline import rewrite_file
from accsat.toolchain.compilers import OFFLOAD_FLAGS, OFFLOAD_LINK_FLAGS
from accsat.toolchain.ptx import analyse, find_ptx


def prepare(npb_root: Path, bench: str, version: str, work: Path, cls: str) -> Path:
    tree = work / f"{bench}-{version.replace('+', '_')}"
    shutil.copytree(npb_root / bench, tree, symlinks=True)
    for f in list(tree.rglob("*.o")) + list(tree.rglob("*.x")):
        f.unlink()
    src = configure(tree, bench, cls)
    if version != ORIG:
        opts = Options(variant=version, preprocess=PreprocessOptions((f"-I{tree / 'common'}",)))
        for f in sorted(src.glob("*.c")):
            f.write_text(rewrite_file(f, opts).text)
    return src


def build(src: Path, cls: str) -> None:
    flags = " ".join(("-O3", "-fopenacc", *OFFLOAD_FLAGS, "-fgnu89-inline", "-save-temps"))
    link = " ".join(("-O3", "-fopenacc", *OFFLOAD_LINK_FLAGS, "-save-temps", "-lm"))
    for x in src.glob("*.x"):
        x.unlink()
    proc = subprocess.run(
        ["make", "CC=gcc", "CLINK=gcc", f"CLASS={cls}", f"CFLAGS={flags}", f"CLINKFLAGS={link}"],
        cwd=src,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"build failed in {src}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--benchmarks", default="BT,SP,LU")
    ap.add_argument("--versions", default=",".join(CONFIGS))
    ap.add_argument("--class", dest="cls", default="S")
    ap.add_argument("--out", type=Path, default=Path("out/ptx"))
    args = ap.parse_args()
    if not args.npb_root:
        print("ptx_view: give --npb-root or set NPB_ROOT", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for bench in args.benchmarks.split(","):
            for version in args.versions.split(","):
                src = prepare(Path(args.npb_root), bench, version, work, args.cls)
                build(src, args.cls)
                raw = find_ptx(src)
                if raw is None:
                    raise RuntimeError(f"no device code in {src}")
                for e in analyse(raw, work).values():
                    rows.append(
                        {
                            "benchmark": bench,
                            "version": version,
                            "entry": e.name,
                            "loads": e.loads,
                            "stores": e.stores,
                            "fma": e.fma,
                            "instructions": e.instructions,
                            "registers": e.registers,
                            "spill_stores": e.spill_stores,
                            "spill_loads": e.spill_loads,
                        }
                    )
                shutil.rmtree(src.parent)
                print(f"  built {bench} {version}", file=sys.stderr)
    keys = ("loads", "stores", "fma", "instructions", "registers", "spill_stores", "spill_loads")
    print(f"{'bench':6s} {'version':9s} {'entries':>7s} " + " ".join(f"{k:>12s}" for k in keys))
    for bench in args.benchmarks.split(","):
        for version in args.versions.split(","):
            sel = [r for r in rows if r["benchmark"] == bench and r["version"] == version]
            sums = [sum(r[k] or 0 for r in sel) for k in keys]
            print(f"{bench:6s} {version:9s} {len(sel):7d} " + " ".join(f"{s:12d}" for s in sums))
    with open(args.out / "ptx.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (args.out / "ptx.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
