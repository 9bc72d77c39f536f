"""The round-trip check (accsat/verify/reread.py) over every NPB-ACC kernel and every
test kernel: how many rewritten kernels re-read as the extracted program, and what
the check costs.

    python benchmarks/reread_npb.py --npb-root DIR [--variants cse,cse+sat,cse+bulk,accsat]
                                    [--tests] [--json out.json]

For each variant: kernels, kernels rewritten, mismatches (a kernel the check kept as
written; each listed with its reason), and seconds: the check's against the whole
rewrite's (every stage, from the reports). NPB_ROOT must hold built benchmarks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from npb_harness.tree import NPB_BENCHMARKS, sources

ROOT = Path(__file__).resolve().parent.parent
MARK = "does not re-read as the extracted program"


def files(npb_root: Path | None, tests: bool) -> Iterator[tuple[str, Path, tuple[str, ...]]]:
    if npb_root is not None:
        for bench, f, common in sources(npb_root, list(NPB_BENCHMARKS)):
            yield bench, f, (f"-I{common}",)
    if tests:
        for f in sorted((ROOT / "tests" / "kernels").glob("*.c")):
            yield "tests", f, ()


def run(variant: str, npb_root: Path | None, tests: bool) -> dict:
    out = {
        "kernels": 0,
        "rewritten": 0,
        "mismatches": [],
        "reread_s": 0.0,
        "stages_s": 0.0,
        "wall_s": 0.0,
    }
    for bench, f, flags in files(npb_root, tests):
        opts = Options(variant=variant, preprocess=PreprocessOptions(flags))
        start = time.perf_counter()
        result = rewrite_file(f, opts)
        out["wall_s"] += time.perf_counter() - start
        for k in result.kernels:
            out["kernels"] += 1
            out["rewritten"] += k.status == "rewritten"
            out["reread_s"] += k.seconds.get("reread", 0.0)
            out["stages_s"] += sum(k.seconds.values())
            if MARK in k.reason:
                out["mismatches"].append(f"{bench}/{f.name}:{k.line}: {k.reason}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npb-root", type=Path, default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--tests", action="store_true", help="the test kernels too")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.npb_root is None and not args.tests:
        ap.error("give --npb-root (or NPB_ROOT) or --tests")
    report = {}
    print(
        f"{'variant':10} {'kernels':>7} {'rewritten':>9} {'mismatch':>8} {'check s':>8} "
        f"{'all s':>8} {'share':>6}  load {os.getloadavg()[0]:.2f}"
    )
    for v in args.variants.split(","):
        r = report[v] = run(v, args.npb_root, args.tests)
        share = r["reread_s"] / r["stages_s"] if r["stages_s"] else 0.0
        print(
            f"{v:10} {r['kernels']:7d} {r['rewritten']:9d} {len(r['mismatches']):8d} "
            f"{r['reread_s']:8.2f} {r['stages_s']:8.2f} {share:6.1%}"
        )
        for m in r["mismatches"]:
            print("   ", m)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 1 if any(r["mismatches"] for r in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
