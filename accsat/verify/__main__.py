"""``python -m accsat.verify FILE.c... [--variant V]... [--trials N] [-I DIR] [-D X]``

What ``accsat check`` does, usable before it is wired into the CLI: rewrite each
file with each variant, validate every kernel, print a table per file and
variant; exit status 1 when any kernel fails, 2 on an error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..errors import AccsatError
from ..frontend.preprocess import PreprocessOptions
from ..pipeline import VARIANTS, Options
from .validate import DEFAULT_SEED, DEFAULT_TRIALS, check_file, format_table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m accsat.verify", description=__doc__)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--variant", action="append", choices=list(VARIANTS),
                    help="variant to check (repeatable; default accsat)")
    ap.add_argument("--all-variants", action="store_true")
    ap.add_argument("--trials", type=int, default=DEFAULT_TRIALS)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--fp-exact", action="store_true")
    ap.add_argument("--no-ilp", action="store_true")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("-D", dest="defines", action="append", default=[])
    ap.add_argument("--json", type=Path, help="append one JSON object per kernel here")
    args = ap.parse_args(argv)
    variants = list(VARIANTS) if args.all_variants else (args.variant or ["accsat"])
    flags = tuple([f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines])
    failed = 0
    for path in args.files:
        for variant in variants:
            options = Options(variant=variant, fp_exact=args.fp_exact, use_ilp=not args.no_ilp,
                              preprocess=PreprocessOptions(flags))
            start = time.perf_counter()
            try:
                _result, ver = check_file(path, options, trials=args.trials, seed=args.seed)
            except AccsatError as exc:
                print(f"accsat: {exc}", file=sys.stderr)
                return 2
            seconds = time.perf_counter() - start
            print(format_table(ver.verdicts, f"== {path} --variant {variant} ({seconds:.1f}s)"))
            failed += len(ver.failed)
            if args.json:
                with open(args.json, "a") as out:
                    for v in ver.verdicts:
                        out.write(json.dumps({
                            "file": str(path), "variant": variant, "line": v.line,
                            "function": v.function, "verdict": v.verdict,
                            "states": v.states_tried, "skipped": v.skipped,
                            "max_rel_error": v.max_rel_error, "exact": v.tolerance is None,
                            "message": v.message, "skip_reasons": v.skip_reasons,
                            "seconds": v.seconds}) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
