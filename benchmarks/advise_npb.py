"""``accsat advise`` over NPB-ACC: counts per benchmark, run time, findings to check by hand.

    python benchmarks/advise_npb.py --npb-root DIR [--class B] [--benchmarks BT,CG,...]
        [--no-rewrite] [--sample 20] [--seed 1] [--out DIR]

Each benchmark is configured in a private copy (``make config CLASS=...``), then
every source file is advised (as written and, unless ``--no-rewrite``, as accsat
rewrites it). Prints, per benchmark and stage, accesses by class, neighbour groups
and the seconds ``advise`` took (configuring not counted), the total, and a sample
of findings spread over benchmarks and classes, each with its source line, for
checking against the code. Writes ``OUT/advise.json`` (everything) and
``OUT/sample.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from accsat.advise.files import AdviseOptions
from accsat.advise.report import document
from accsat.advise.strides import CLASSES
from npb_harness.advise import advise_benchmark, configure, summary, summary_table
from npb_harness.tree import NPB_BENCHMARKS


def sample(results, k: int, seed: int) -> list[dict]:
    """``k`` findings as written, round-robin over (benchmark, class) and neighbour
    groups, random within each."""
    rng = random.Random(seed)
    buckets: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        doc = document(r.files)
        for a in doc["accesses"]:
            if a["stage"] == "written":
                buckets[(r.benchmark, a["class"])].append({"benchmark": r.benchmark, **a})
        for g in doc["neighbours"]:
            if g["stage"] == "written":
                buckets[(r.benchmark, "group:" + g["along"])].append(
                    {"benchmark": r.benchmark, **g}
                )
    order = sorted(buckets)
    rng.shuffle(order)
    picked: list[dict] = []
    while len(picked) < k and any(buckets[b] for b in order):
        for b in order:
            if buckets[b] and len(picked) < k:
                picked.append(buckets[b].pop(rng.randrange(len(buckets[b]))))
    return picked


def describe(f: dict) -> str:
    path = Path(f["file"])
    line = f["line"]
    text = path.read_text().splitlines()[line - 1].strip() if path.exists() else "?"
    if "class" in f:
        what = (
            f"{f['access']} {f['array']}{f['index']}: {f['class']}, stride "
            f"{f['thread_stride']} along {f['thread_index']}, {f['lines_per_warp']} lines"
        )
    else:
        what = (
            f"group {f['array']} offsets {f['offsets']} along {f['along']} {f['index']}: "
            f"{f['loads']} loads -> {f['loads_shared']}"
        )
    return f"{f['benchmark']} {path.name}:{line} (kernel {f['kernel_line']}): {what}\n    | {text}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--class", dest="cls", default="S")
    ap.add_argument("--benchmarks", default=",".join(NPB_BENCHMARKS))
    ap.add_argument("--no-rewrite", action="store_true")
    ap.add_argument("--compiler", choices=("nvc", "gcc"), default="nvc")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    # outside the source tree by default: OUT/trees holds copies of NPB (never commit them)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "accsat-advise-npb"))
    args = ap.parse_args(argv)
    if not args.npb_root:
        ap.error("give --npb-root or set NPB_ROOT")
    out = Path(args.out).resolve()
    options = AdviseOptions(convention=args.compiler, rewritten=not args.no_rewrite, pressure=False)
    results = []
    for bench in args.benchmarks.split(","):
        src = configure(Path(args.npb_root), bench, args.cls, out / "trees")
        results.append(advise_benchmark(src, bench, options))
        for e in results[-1].errors:
            print(f"{bench}: {e}", file=sys.stderr)
    rows = summary(results)
    print(f"class {args.cls}, thread index rules: {args.compiler}")
    print(summary_table(rows))
    total = sum(r.seconds for r in results)
    files = sum(len(r.files) for r in results)
    print(
        f"advise over {files} files: {total:.1f} s"
        f"{' (as written only)' if args.no_rewrite else ' (with the rewritten stage)'}"
    )
    picked = sample(results, args.sample, args.seed)
    print(f"\n{len(picked)} sampled findings (seed {args.seed}):")
    for n, f in enumerate(picked, 1):
        print(f"{n:2d}. {describe(f)}")
    data = {
        "class": args.cls,
        "seconds": round(total, 2),
        "summary": rows,
        "classes": list(CLASSES),
        "benchmarks": {r.benchmark: document(r.files) for r in results},
    }
    (out / "advise.json").write_text(json.dumps(data, indent=1) + "\n")
    (out / "sample.json").write_text(json.dumps(picked, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
