"""Offline fuzzing campaign: thousands of generated kernels x every variant.

    python benchmarks/fuzz.py --kernels 5000 --batch 1 --jobs 2 --seed 35000000 \
        --avoid-known-bugs --out /tmp/accsat-fuzz

Kernels are generated from seeds (tests/fuzz/gen.py), ``--batch`` of them per
program, and each program goes through tests/fuzz/harness.py: rewritten with
cse, cse+bulk, cse+sat and accsat (``--fp-exact-variants`` adds cse+sat and
accsat with --fp-exact), compiled and run against the original, and validated
by the interpreter. Each program has its own compile flags (``batch_flags``:
-funsigned-char and -fwrapv each in about one program in four, -fshort-enums in
one in seven), given to gcc and to accsat alike. A kernel accsat keeps as written
for a fault of its own is a finding too, counted apart from wrong output
(``kept_as_written`` in the summary): its printed C does not re-read as the
extracted program ("reread"), the compiler's type check disagrees with accsat's
types ("typecheck"); so is one a check could not confirm (``unchecked``:
"typecheck-unavailable", "interp-unsupported"). The generator writes C's edges as
well (tests/fuzz/edges.py: INT_MIN and friends in every spelling, casts, mixed
signedness, -0.0, infinities; issue 21's acceptance is ``--kernels 5000`` clean)
and its type forms (tests/fuzz/forms.py: enums, mode typedefs, bit-fields, chars;
issue 35). Seeds: a campaign for issue N starts at ``--seed N*1000000`` (the
default 1000000 is issue 1's); docs/fuzzing.md lists the campaigns run.

Findings go to OUT/findings.jsonl, each program with findings and its rewrites to
OUT/cases/bN/ (a finding that depends on timing may not come back on a replay);
with ``--shrink``, each distinct (kernel, variant, check) is re-run alone and
shrunk, and the minimal program is written to OUT/shrunk/ (copy it to
tests/fuzz/regressions/ to keep it). The summary (OUT/summary.json) has the counts.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzz import harness  # noqa: E402
from fuzz.forms import NO_FLAGS, Flags, draw_flags  # noqa: E402
from fuzz.gen import KNOWN_BUGS, RandomChooser, gen_kernel, program_from_seeds, render  # noqa: E402
from fuzz.harness import FP_EXACT_VARIANTS, KEPT, VARIANTS, WRONG, Finding, check_program  # noqa: E402
from fuzz.shrink import replay, shrink  # noqa: E402

from accsat.report import CALLEE, ROUTINE  # noqa: E402
from accsat.settings import Registers  # noqa: E402


def batch_seeds(base: int, b: int, size: int) -> list[int]:
    return [base + b * size + j for j in range(size)]


def batch_model(b: int) -> str:
    return "omp" if b % 4 == 3 else "acc"


def batch_flags(seeds: list[int]) -> Flags:
    """The compile flags of the program of these seeds (from a chooser of its own)."""
    return draw_flags(RandomChooser(f"flags {seeds[0]}"))


def work(job):
    b, base, size, variants, compiled, trials, extract, avoid, cases = job
    seeds = batch_seeds(base, b, size)
    flags = batch_flags(seeds)
    text, _ = program_from_seeds(seeds, batch_model(b), avoid, flags)
    stats: dict = {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="accsat-fuzz-") as tmp:
        try:
            findings = check_program(
                text,
                Path(tmp),
                variants,
                compiled=compiled,
                trials=trials,
                extract_seconds=extract,
                stats=stats,
            )
            error = None
        except MemoryError:
            findings, error = [Finding("memory", "", "", "MemoryError")], None
        except Exception as exc:  # the generated program itself failed: a generator bug
            findings, error = [], f"{type(exc).__name__}: {exc}"
        # a finding about the whole program (accsat crashed, the rewrite does not compile):
        # find the kernels responsible, one program per kernel
        whole = {(f.kind, f.variant) for f in findings if not f.kernel}
        if whole:
            findings = [f for f in findings if f.kernel]
            vs = [
                v
                for v in variants
                if (v[0] + (" --fp-exact" if v[1] else "")) in {w[1] for w in whole}
            ]
            for n, seed in enumerate(seeds):
                text1, _ = program_from_seeds([seed], batch_model(b), avoid, flags)
                try:
                    found = check_program(
                        text1,
                        Path(tmp) / f"k{n}",
                        vs or variants,
                        interp=("memory", "") in whole,
                        extract_seconds=extract,
                    )
                except MemoryError:
                    found = [
                        Finding(
                            "memory",
                            "",
                            "",
                            "MemoryError (accsat or the checks "
                            "ran out of memory on this kernel alone)",
                        )
                    ]
                except Exception:
                    continue
                for f in found:
                    if (f.kind, f.variant) in whole:
                        f.kernel = f"k{n}"
                        findings.append(f)
        if findings and cases is not None:
            keep_case(Path(tmp), cases / f"b{b}")
    return {
        "batch": b,
        "seeds": seeds,
        "model": batch_model(b),
        "flags": list(flags.cflags()),
        "kernels": size,
        "seconds": time.perf_counter() - start,
        "stats": stats,
        "error": error,
        "findings": [f.__dict__ for f in findings],
    }


def keep_case(tmp: Path, to: Path) -> None:
    """The program and every rewrite of it that was checked: a finding that depends on
    timing (a saturation or ILP stopped by the clock) does not come back on a replay,
    its rewritten text does."""
    to.mkdir(parents=True, exist_ok=True)
    for src in tmp.glob("*.c"):
        shutil.copy(src, to / src.name)


def single_fails(
    choices, model, variant, kind, variants_all, trials, extract, avoid=frozenset(), flags=NO_FLAGS
) -> bool:
    kn, _ = replay(choices, "k0", model, avoid, flags)
    text = render([kn])
    variants = [v for v in variants_all if (v[0] + (" --fp-exact" if v[1] else "")) == variant]
    compiled = kind in ("compiled", "compile-rewritten", "run-rewritten")
    with tempfile.TemporaryDirectory(prefix="accsat-shrink-") as tmp:
        try:
            found = check_program(
                text,
                Path(tmp),
                variants,
                compiled=compiled,
                interp=kind in ("interp", "interp-unsupported"),
                trials=trials,
                extract_seconds=extract,
            )
        except Exception:
            return False  # the shrunk program is broken: not a reproduction
    return any(f.kind == kind for f in found)


def run_shard(args, variants, avoid, shard: int, nshards: int) -> None:
    """Batches b with b % nshards == shard, one after the other, in this process.

    Each finished batch is appended to OUT/batches{shard}.jsonl and skipped when the
    shard is started again (the parent restarts a shard that died, e.g. killed for
    memory); OUT/current{shard} names the batch under way."""
    nbatches = -(-args.kernels // args.batch)
    log = args.out / f"batches{shard}.jsonl"
    done = (
        {json.loads(line)["batch"] for line in log.read_text().splitlines()}
        if log.exists()
        else set()
    )
    start = time.time()
    count = 0
    for b in range(shard, nbatches, nshards):
        if b in done:
            continue
        (args.out / f"current{shard}").write_text(str(b))
        try:
            res = work(
                (
                    b,
                    args.seed,
                    args.batch,
                    variants,
                    not args.no_compiled,
                    args.trials,
                    args.extract_seconds,
                    avoid,
                    args.out / "cases",
                )
            )
        except MemoryError:
            res = killed_batch(b, args, "MemoryError")
        with open(args.out / "findings.jsonl", "a") as out:
            for f in res["findings"]:
                out.write(
                    json.dumps(
                        {
                            **f,
                            "batch": res["batch"],
                            "seeds": res["seeds"],
                            "model": res["model"],
                            "flags": res["flags"],
                        }
                    )
                    + "\n"
                )
        with open(log, "a") as out:
            out.write(json.dumps(res) + "\n")
        count += 1
        if count % 5 == 0:
            print(
                f"shard {shard}: {count} batches this run, {time.time() - start:.0f}s", flush=True
            )
    (args.out / f"current{shard}").unlink(missing_ok=True)


def killed_batch(b: int, args, why: str) -> dict:
    seeds = batch_seeds(args.seed, b, args.batch)
    return {
        "batch": b,
        "seeds": seeds,
        "model": batch_model(b),
        "flags": list(batch_flags(seeds).cflags()),
        "kernels": args.batch,
        "seconds": 0.0,
        "stats": {},
        "error": None,
        "findings": [
            {
                "kind": "killed",
                "variant": "",
                "kernel": "",
                "detail": f"the checking process died on this batch ({why}): "
                "accsat used too much memory or time",
            }
        ],
    }


_FUNCTION_UNIT = re.compile(rf" ({ROUTINE}|{CALLEE}) (rewritten|unchanged|internal)$")


def merge(results: list[dict], variants) -> dict:
    stats: Counter = Counter()
    kinds: Counter = Counter()
    wrong: Counter = Counter()
    kept: Counter = Counter()
    unchecked: Counter = Counter()
    programs_by_flags: Counter = Counter()
    distinct: dict = {}
    errors: list = []
    for res in results:
        stats["kernels"] += res["kernels"]
        stats.update(res["stats"])
        programs_by_flags[" ".join(res.get("flags", ())) or "(none)"] += 1
        if res["error"]:
            errors.append((res["batch"], res["error"][:500]))
        for f in res["findings"]:
            kinds[f"{f['kind']} {f['variant']}".strip()] += 1
            group = wrong if f["kind"] in WRONG else kept if f["kind"] in KEPT else unchecked
            group[f["kind"]] += 1
            k = f["kernel"]
            if k.startswith("k") and k[1:].isdigit():
                seed = res["seeds"][int(k[1:])]
                distinct.setdefault(
                    f"{seed}|{f['variant']}|{f['kind']}",
                    {
                        "model": res["model"],
                        "flags": res.get("flags", []),
                        "detail": f["detail"],
                    },
                )
    names = [v[0] + (" --fp-exact" if v[1] else "") for v in variants]
    return {
        "kernels": stats["kernels"],
        "variants": names,
        "kernel_variant_checks": stats["kernels"] * len(names),
        "batches": len(results),
        "programs_by_flags": dict(programs_by_flags),
        "stats": dict(stats),
        "findings": dict(kinds),
        "wrong": dict(wrong),  # wrong output, crashes (by finding kind)
        "kept_as_written": dict(kept),  # kernels kept as written for accsat's fault
        "unchecked": dict(unchecked),  # a check could not run (interp-unsupported, ...)
        # the helpers the kernels call (tests/fuzz/callees.py), per variant and unit kind
        "function_units": {k: n for k, n in stats.items() if _FUNCTION_UNIT.search(k)},
        "distinct": distinct,
        "generator_errors": errors,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--kernels", type=int, default=600)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2, help="processes (shards) to run")
    ap.add_argument("--shard", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--trials", type=int, default=8, help="interpreter states per kernel")
    ap.add_argument("--extract-seconds", type=float, default=5.0)
    ap.add_argument("--fp-exact-variants", action="store_true")
    ap.add_argument("--no-compiled", action="store_true", help="interpreter only")
    ap.add_argument("--shrink", action="store_true")
    ap.add_argument("--shrink-budget", type=int, default=150)
    ap.add_argument("--out", type=Path, default=Path("fuzz-out"))
    ap.add_argument(
        "--memory-gb", type=float, default=6.0, help="address-space limit of each checking process"
    )
    ap.add_argument(
        "--registers",
        default="any",
        help="register budget of every rewrite (any, keep, N: issue 26's 'fuzz with keep')",
    )
    ap.add_argument(
        "--avoid-known-bugs",
        action="store_true",
        help="do not generate the shapes of the open accsat bugs (gen.KNOWN_BUGS)",
    )
    args = ap.parse_args(argv)
    harness.REGISTERS = Registers()(args.registers)
    variants = VARIANTS + (FP_EXACT_VARIANTS if args.fp_exact_variants else ())
    avoid = KNOWN_BUGS if args.avoid_known_bugs else frozenset()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.shard is not None:  # a child: run one shard
        import resource

        limit = int(args.memory_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        i, n = (int(x) for x in args.shard.split("/"))
        run_shard(args, variants, avoid, i, n)
        return 0
    # the parent: one child process per shard, restarted until every batch is done; a batch
    # that kills its shard twice is recorded as a "killed" finding
    own = list(argv if argv is not None else sys.argv[1:])
    started = time.time()
    deaths: Counter = Counter()

    def launch(i: int):
        return subprocess.Popen([sys.executable, __file__, *own, "--shard", f"{i}/{args.jobs}"])

    running = {i: launch(i) for i in range(args.jobs)}
    while running:  # a shard that dies is started again at once; it resumes where it was
        time.sleep(2)
        for i, ch in list(running.items()):
            rc = ch.poll()
            if rc is None:
                continue
            del running[i]
            cur = args.out / f"current{i}"
            if rc != 0 and cur.exists():
                b = int(cur.read_text())
                deaths[b] += 1
                print(f"shard {i} died on batch {b} (exit {rc})", flush=True)
                if deaths[b] >= 2:
                    with open(args.out / f"batches{i}.jsonl", "a") as out:
                        out.write(json.dumps(killed_batch(b, args, f"exit {rc}")) + "\n")
                if sum(deaths.values()) < 50:
                    running[i] = launch(i)
    results = _results(args.out, args.jobs)
    summary = merge(results, variants)
    summary["seconds"] = time.time() - started
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k != "distinct"}, indent=1))
    print(f"{len(summary['distinct'])} distinct (kernel, variant, check) findings")
    if args.shrink and summary["distinct"]:
        shrunk = args.out / "shrunk"
        shrunk.mkdir(exist_ok=True)
        for key, info in sorted(summary["distinct"].items()):
            seed_s, variant, kind = key.split("|")
            seed, model = int(seed_s), info["model"]
            flags = Flags.parse(info["flags"])
            if kind in ("memory", "killed"):
                continue
            c = RandomChooser(seed)
            gen_kernel(c, "k0", avoid, flags)
            choices = c.choices
            if not single_fails(
                choices,
                model,
                variant,
                kind,
                variants,
                args.trials,
                args.extract_seconds,
                avoid,
                flags,
            ):
                print(f"seed {seed} {variant} {kind}: does not fail alone")
                continue
            best = shrink(
                choices,
                lambda ch, m=model, v=variant, k=kind, f=flags: single_fails(
                    ch, m, v, k, variants, args.trials, args.extract_seconds, avoid, f
                ),
                budget=args.shrink_budget,
                log=print,
            )
            kn, _ = replay(best, "k0", model, avoid, flags)
            name = f"seed{seed}_{variant.replace('+', '_').replace(' --', '_')}_{kind}.c"
            text = render([kn])
            header = (
                f"// fuzz regression: seed {seed}, variant {variant}, check {kind}\n"
                f"// found: {info['detail'][:300]}\n"
            )
            (shrunk / name).write_text(
                text.replace("// generated by tests/fuzz/gen.py\n", header, 1)
            )
            print(f"wrote {shrunk / name}")
    return 0


def _results(out: Path, jobs: int) -> list[dict]:
    seen: dict[int, dict] = {}
    for i in range(jobs):
        log = out / f"batches{i}.jsonl"
        if log.exists():
            for line in log.read_text().splitlines():
                if line.strip():
                    res = json.loads(line)
                    seen[res["batch"]] = res
    return list(seen.values())


if __name__ == "__main__":
    sys.exit(main())
