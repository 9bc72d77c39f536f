"""What ``accsat rewrite --verify`` costs on NPB-ACC, and what it finds.

    python benchmarks/verify_cost.py --npb-root DIR [--variants cse,accsat] [--json out.json]

For each variant and each NPB source file, in one process and one after the
other: ``rewrite_file`` without verification, then with it (``--verify``: every
rewritten kernel run before and after on ``--trials`` random states). Prints
the total seconds of both, their ratio, and the verdicts (pass / fail /
unsupported) of the verified kernels. NPB_ROOT must hold built benchmarks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from accsat.frontend.load import clear_cache
from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import VARIANTS, Options
from accsat.pipeline import rewrite_file
from npb_harness.tree import sources


def measure(files, variant: str, trials: int) -> dict:
    plain_s = verify_s = 0.0
    verdicts: Counter = Counter()
    problems = []
    for bench, f, common in files:
        opts = Options(variant=variant, preprocess=PreprocessOptions((f"-I{common}",)))
        t = time.perf_counter()
        plain = rewrite_file(f, opts)
        plain_s += time.perf_counter() - t
        clear_cache()  # parse again, as a --verify run on its own would
        t = time.perf_counter()
        checked = rewrite_file(f, replace(opts, verify=True, verify_trials=trials))
        verify_s += time.perf_counter() - t
        for r in checked.kernels:
            v = r.verification
            verdicts[v["verdict"] if v else r.status] += 1
            if v and v["verdict"] in ("fail", "unsupported"):
                problems.append(f"{bench}/{f.name}:{r.line}: {v['verdict']}: {v['message']}")
        if plain.text != checked.text and not any(
            (r.verification or {}).get("verdict") == "fail" for r in checked.kernels
        ):
            problems.append(f"{bench}/{f.name}: --verify changed the output with no failure")
    return {
        "variant": variant,
        "files": len(files),
        "rewrite_s": plain_s,
        "rewrite_verify_s": verify_s,
        "ratio": verify_s / plain_s,
        "verdicts": dict(verdicts),
        "problems": problems,
        "trials": trials,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--trials", type=int, default=Options.verify_trials)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not args.npb_root:
        print("verify_cost: give --npb-root or set NPB_ROOT", file=sys.stderr)
        return 2
    files = list(sources(Path(args.npb_root)))
    results = []
    for variant in args.variants.split(","):
        r = measure(files, variant, args.trials)
        results.append(r)
        print(
            f"{variant:9s} {r['files']} files: rewrite {r['rewrite_s']:.1f} s, rewrite --verify "
            f"{r['rewrite_verify_s']:.1f} s, ratio {r['ratio']:.2f}; verdicts {r['verdicts']}",
            flush=True,
        )
        for p in r["problems"]:
            print(f"  {p}")
    plain = sum(r["rewrite_s"] for r in results)
    checked = sum(r["rewrite_verify_s"] for r in results)
    print(
        f"all variants: rewrite {plain:.1f} s, rewrite --verify {checked:.1f} s, "
        f"ratio {checked / plain:.2f}"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 1 if any(r["verdicts"].get("fail") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
