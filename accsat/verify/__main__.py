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
from ..pipeline import VARIANTS, Options, rewrite_file
from . import validate
from .validate import DEFAULT_SEED, DEFAULT_TRIALS, check_file, format_table, verify_body


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
    ap.add_argument("--time", action="store_true",
                    help="measure what verification costs: rewrite, then verify each kernel as "
                         "the pipeline would (verify_body) and the whole file (verify_file)")
    args = ap.parse_args(argv)
    variants = list(VARIANTS) if args.all_variants else (args.variant or ["accsat"])
    flags = tuple([f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines])
    if args.time:
        return _time(args, variants, flags)
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
                        out.write(json.dumps({"variant": variant, **v.as_dict()}) + "\n")
    return 1 if failed else 0


def _time(args, variants, flags) -> int:
    """Seconds to rewrite, to verify every kernel as --verify would, to verify_file."""
    totals = {v: [0.0, 0.0, 0.0, 0] for v in variants}
    failed = 0
    for variant in variants:
        for path in args.files:
            options = Options(variant=variant, fp_exact=args.fp_exact, use_ilp=not args.no_ilp,
                              preprocess=PreprocessOptions(flags))
            start = time.perf_counter()
            result = rewrite_file(path, options)
            t_rewrite = time.perf_counter() - start
            text = path.read_text()
            _ast, kernels, symbols = validate._parse_file(path, text, options.preprocess)
            defined = validate._defined(_ast)
            bodies = validate._bodies_in_place(text, result.text, kernels) or []
            start = time.perf_counter()
            for k, (body, span) in zip(kernels, bodies, strict=False):
                if span is None or body == text[k.span.start:k.span.end]:
                    continue  # the pipeline verifies only what it rewrote
                v = verify_body(k, symbols, body, options, defined=defined, trials=args.trials,
                                seed=args.seed)
                failed += v.verdict == "fail"
            t_hook = time.perf_counter() - start
            validate._PARSE_CACHE.clear()
            start = time.perf_counter()
            validate.verify_file(path, result.text, options, trials=args.trials, seed=args.seed)
            t_file = time.perf_counter() - start
            tot = totals[variant]
            tot[0] += t_rewrite
            tot[1] += t_hook
            tot[2] += t_file
            tot[3] += len(kernels)
            print(f"{variant:8s} {str(path):40s} rewrite {t_rewrite:7.2f}s  verify (per kernel) "
                  f"{t_hook:6.2f}s  verify_file {t_file:6.2f}s", flush=True)
    for variant, (rw, hook, whole, nk) in totals.items():
        print(f"TOTAL {variant}: {len(args.files)} files, {nk} kernels, rewrite {rw:.1f}s, "
              f"rewrite --verify {rw + hook:.1f}s (x{(rw + hook) / rw:.3f}), "
              f"rewrite + verify_file {rw + whole:.1f}s (x{(rw + whole) / rw:.3f}), "
              f"trials {args.trials}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
