"""Does a rewrite read as a person would write it? A census over third-party C (issue 38).

    python benchmarks/style_census.py DIR [DIR...] [-I INCLUDE] [--variant accsat] [-j 2]
        [--json out.json] [--cache FILE] [--show N]

Every ``*.c`` under each DIR (public OpenACC / OpenMP test suites and mini-apps, kept
outside this repository, e.g. /work/ext/OpenACCV-V/Tests) is rewritten with ``accsat
rewrite`` (``-I`` its own folder, one process a file, a time limit each). Over the files
that accsat rewrote, against the file as written (a line diff):

* lines changed only in whitespace: a line removed whose text, spaces and tabs taken
  out, is that of a line added in the same hunk (``){`` -> ``) {``, a re-indent);
* copy-only temporaries: a new name (one the file did not have) declared or assigned
  from a bare name (``double *_v0 = devdata;``, ``int _v1 = i;``);
* named copies: a name of the user's declared from a bare new name
  (``float UHe = _v5;``);
* mixed indentation: a line added that indents with tabs where the file uses
  spaces (or the other way round), or with both;
* lines changed (removed + added), the loads the rewrite saved (the report's
  ``loads`` before - after) and the changed lines per saved load.

``--show N`` prints the first N examples of each fault. ``--cache FILE`` keeps each
file's result by content and accsat tree digest (a re-run only redoes what changed).
The numbers of the closing note of issue 38 come from this script.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
_DECL_COPY = re.compile(
    r"^\s*(?:(?:const|volatile|register|unsigned|signed|long|short|int|char|float|double|"
    r"_Bool|bool|size_t|struct\s+\w+|\w+_t|\w+)\s*[\s*]+)*?"
    r"(?P<lhs>[A-Za-z_]\w*)\s*=\s*(?P<rhs>[A-Za-z_]\w*)\s*;\s*$"
)
_IDENT = re.compile(r"[A-Za-z_]\w*")


def tree_digest(tree: Path) -> str:
    h = hashlib.sha256()
    for p in sorted((tree / "accsat").rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def rewrite(path: Path, variant: str, timeout: float, includes: tuple[str, ...] = ()) -> dict:
    """accsat's rewrite of ``path`` and its kernel reports (one process)."""
    with tempfile.TemporaryDirectory() as tmp:
        out, report = Path(tmp) / "out.c", Path(tmp) / "r.jsonl"
        env = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
        env["PYTHONPATH"] = str(TREE)
        cmd = [sys.executable, "-m", "accsat.cli", "rewrite", str(path), "-I", str(path.parent),
               *(f"-I{d}" for d in includes), "--variant", variant, "--report", str(report),
               "-o", str(out)]  # fmt: skip
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout:g} s"}
        if done.returncode != 0 or not out.exists():
            return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
        rows = [json.loads(x) for x in report.read_text().splitlines()] if report.exists() else []
        return {"text": out.read_text(errors="surrogateescape"), "kernels": rows}


def measure(original: str, rewritten: str) -> dict:
    """The style figures of one rewritten file against the file as written."""
    a, b = original.splitlines(), rewritten.splitlines()
    old_names = set(_IDENT.findall(original))
    found: dict[str, list[str]] = collections.defaultdict(list)
    removed = added = 0
    uses_tabs = any(line.startswith("\t") for line in a)
    uses_spaces = any(line.startswith("  ") for line in a)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        removed += i2 - i1
        added += j2 - j1
        squeezed = collections.Counter("".join(x.split()) for x in b[j1:j2])
        for line in a[i1:i2]:
            key = "".join(line.split())
            if key and squeezed[key] > 0:
                squeezed[key] -= 1
                found["whitespace_only"].append(line.strip())
        for line in b[j1:j2]:
            m = _DECL_COPY.match(line)
            if m:
                lhs_new, rhs_new = m["lhs"] not in old_names, m["rhs"] not in old_names
                if lhs_new:
                    found["copy_temporaries"].append(line.strip())
                elif rhs_new:
                    found["named_copies"].append(line.strip())
            indent = line[: len(line) - len(line.lstrip())]
            mixed = (
                (" " in indent and "\t" in indent)
                or (indent.startswith("\t") and uses_spaces and not uses_tabs)
                or (indent.startswith("  ") and uses_tabs and not uses_spaces)
            )
            if mixed:
                found["mixed_indent"].append(repr(indent) + line.strip())
    return {"removed": removed, "added": added, **{k: v for k, v in found.items()}}


def one(path: Path, variant: str, timeout: float, includes: tuple[str, ...] = ()) -> dict:
    original = path.read_text(errors="surrogateescape")
    got = rewrite(path, variant, timeout, includes)
    row: dict = {"file": str(path)}
    if "error" in got:
        return {**row, "error": got["error"]}
    kernels = got["kernels"]
    done = [k for k in kernels if k.get("status") == "rewritten"]
    row.update(kernels=len(kernels), rewritten=len(done))
    row["loads_saved"] = sum(k["loads"]["before"] - k["loads"]["after"] for k in done)
    if done:
        row.update(measure(original, got["text"]))
    return row


FAULTS = ("whitespace_only", "copy_temporaries", "named_copies", "mixed_indent")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--variant", default="accsat")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("-I", dest="includes", action="append", default=[], help="include folder")
    args = ap.parse_args()
    files = sorted(p for d in args.dirs for p in d.rglob("*.c"))
    if args.limit:
        files = files[: args.limit]
    digest = tree_digest(TREE)
    cache: dict = {}
    if args.cache and args.cache.exists():
        cache = json.loads(args.cache.read_text())

    def key(p: Path) -> str:
        return hashlib.sha256(p.read_bytes() + f"{digest}{args.variant}".encode()).hexdigest()

    rows: list[dict] = []
    todo = [p for p in files if key(p) not in cache]
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        jobs = {
            pool.submit(one, p, args.variant, args.timeout, tuple(args.includes)): p for p in todo
        }
        for n, fut in enumerate(concurrent.futures.as_completed(jobs), 1):
            cache[key(jobs[fut])] = fut.result()
            if sys.stderr.isatty():
                print(f"\r{n}/{len(todo)}", end="", file=sys.stderr)
            if args.cache and n % 20 == 0:
                args.cache.write_text(json.dumps(cache))
    if args.cache:
        args.cache.write_text(json.dumps(cache))
    rows = [cache[key(p)] for p in files]
    print(report(rows, args.show, args.variant))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


def report(rows: list[dict], show: int, variant: str) -> str:
    errors = [r for r in rows if "error" in r]
    changed = [r for r in rows if r.get("rewritten")]
    total = collections.Counter()
    files_with = collections.Counter()
    for r in changed:
        for k in ("removed", "added", "loads_saved", "kernels", "rewritten"):
            total[k] += r.get(k, 0)
        for f in FAULTS:
            total[f] += len(r.get(f, ()))
            files_with[f] += bool(r.get(f))
    out = [
        f"variant {variant}: {len(rows)} files, {len(errors)} not read, {len(changed)} rewritten "
        f"({total['rewritten']} of {total['kernels']} kernels in them)",
        f"lines changed: {total['removed']} removed, {total['added']} added; loads saved "
        f"{total['loads_saved']}; changed lines per saved load: "
        + (
            f"{(total['removed'] + total['added']) / total['loads_saved']:.2f}"
            if total["loads_saved"]
            else "n/a"
        ),
    ]
    for f in FAULTS:
        out.append(f"{f.replace('_', ' ')}: {total[f]} lines in {files_with[f]} files")
        shown = [(r["file"], x) for r in changed for x in r.get(f, ())][:show]
        out += [f"    {Path(p).name}: {x}" for p, x in shown]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
