"""What real kernels hold (issue 25), on our own collection of their shapes.

``benchmarks/corpus/*.c`` are small files written here in the shapes public OpenACC and
OpenMP codes use: atomics, short-circuit chains and conditional loads, data and
standalone directives, K&R definitions and GNU C elsewhere in a file, conditional
compilation in a body, the address of a local, CRLF line ends. Each names the kernels a
correct reading finds (``/* kernels: N */`` on its first line).

For each accsat tree given (``--tree DIR``, repeatable, e.g. an older checkout for
"before"; default: this one) the script runs ``accsat rewrite --report`` on every file
with each variant and prints, per file: kernels expected, found, rewritten, and the
reasons of those left as written; then the reasons over the whole corpus. A file that
accsat cannot read at all counts its kernels as left, with the error line as reason.
``--json`` writes every row.

    python benchmarks/corpus.py [--tree /path/to/old/accsat] [--tree .] [--variants cse,accsat]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
_EXPECTED = re.compile(r"kernels:\s*(\d+)")


def expected(path: Path) -> int:
    m = _EXPECTED.search(path.read_text(errors="replace").splitlines()[0])
    return int(m.group(1)) if m else 0


def run(tree: Path, path: Path, variant: str) -> dict:
    """One file under one variant with the accsat of ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "r.jsonl"
        env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
        env["PYTHONPATH"] = str(tree)
        done = subprocess.run(
            [sys.executable, "-m", "accsat.cli", "rewrite", str(path), "--variant", variant,
             "--report", str(report), "-o", os.devnull],
            capture_output=True, text=True, env=env, cwd=tmp,
        )  # fmt: skip
        rows = (
            [json.loads(line) for line in report.read_text().splitlines()]
            if report.exists()
            else []
        )
    want = expected(path)
    if not rows and done.returncode != 0:
        error = (done.stderr.strip().splitlines() or ["no output"])[-1]
        reasons = {f"file left as written: {_general(error)}": want}
        return {"file": path.name, "variant": variant, "expected": want, "found": 0,
                "rewritten": 0, "reasons": reasons}  # fmt: skip
    reasons = collections.Counter(
        _general(k.get("reason") or "") for k in rows if k.get("status") != "rewritten"
    )
    return {
        "file": path.name,
        "variant": variant,
        "expected": want,
        "found": len(rows),
        "rewritten": sum(k.get("status") == "rewritten" for k in rows),
        "reasons": dict(reasons),
    }


def _general(reason: str) -> str:
    """A reason without its line numbers and names of temporaries (to count alike ones)."""
    reason = re.sub(r"^.*?:\d+: ", "", reason)
    reason = re.sub(r" \(line \d+\)", "", reason)
    return re.sub(r"\bk\d+\b", "k", reason)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", action="append", type=Path, help="an accsat source tree")
    p.add_argument("--variants", default="cse,accsat")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    trees = [t.resolve() for t in (args.tree or [HERE.parent])]
    files = sorted(CORPUS.glob("*.c"))
    everything = []
    for tree in trees:
        print(f"== {tree}")
        for variant in args.variants.split(","):
            rows = [run(tree, f, variant) for f in files]
            everything += [{"tree": str(tree), **r} for r in rows]
            print(f"-- {variant}")
            print(f"{'file':<16} {'expected':>8} {'found':>6} {'rewritten':>9}  left as written")
            total: collections.Counter = collections.Counter()
            for r in rows:
                total.update(r["reasons"])
                left = "; ".join(f"{n} {why}" for why, n in r["reasons"].items())
                print(
                    f"{r['file']:<16} {r['expected']:>8} {r['found']:>6} {r['rewritten']:>9}  {left}"
                )
            print(
                f"{'all':<16} {sum(r['expected'] for r in rows):>8} "
                f"{sum(r['found'] for r in rows):>6} {sum(r['rewritten'] for r in rows):>9}"
            )
            for why, n in total.most_common():
                print(f"    {n:3d}  {why}")
            internal = sum(n for why, n in total.items() if why.startswith("internal"))
            print(f"    internal reasons: {internal}")
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1) + "\n")


if __name__ == "__main__":
    main()
