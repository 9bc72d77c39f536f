"""NPB-ACC built with remarks and records on, and read as a user would (issue 38).

    python benchmarks/npb_remarks.py --npb-root /path/to/NPB-ACC [--class S] [--html out.html]
        [--plain-cc /path/to/other/accsat-cc] [--json out.json]

In a private copy of NPB_ROOT (never touched) every benchmark is built with
``make CC="accsat-cc gcc"`` and ``ACCSAT_REMARKS=all``, ``ACCSAT_RECORD``; then:

* remarks: how many (one per kernel: as many as the records), each in the format
  ``file:line:col: remark: accsat: ...`` (the pattern CI log parsers use), none naming
  an internal class (pycparser's node names, ``__name__``), and each pointing at the
  kernel's ``for`` (the text at that line and column, tabs expanded as gcc counts);
* ``accsat report`` of the records: the table's lines, and the HTML page's size and
  outline (every kernel listed in every order, each order sorted by its saving, both
  bodies and the figures of each kernel, no script, nothing fetched);
* the same build with remarks off: what make printed, compared with what the same
  build prints through ``--plain-cc`` (another accsat-cc, e.g. main's; default: this
  one with ACCSAT_REMARKS unset), after the build folder's name is taken out.

Prints a summary and, with ``--json``, every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from accsat.records import read
from accsat.records.page import outline, page
from accsat.records.table import table
from npb_harness.tree import NPB_BENCHMARKS, source_dir

CFLAGS = "-O3 -fopenacc -foffload=disable -fgnu89-inline"
CLINKFLAGS = "-O3 -fopenacc -foffload=disable -lm"
REMARK = re.compile(r"^(.*):(\d+):(\d+):\s+(warning|error|note|remark):\s+(.*)$")
INTERNAL = re.compile(
    r"\b(Compound|Typename|FuncCall|ArrayRef|StructRef|UnaryOp|BinaryOp|TernaryOp|"
    r"InitList|CompoundLiteral|ExprList|NamedInitializer|IdentifierType|TypeDecl|"
    r"PtrDecl|ArrayDecl|FuncDecl|DeclList)\b|__name__|c_ast"
)


def accsat_cc() -> str:
    beside = Path(sys.executable).parent / "accsat-cc"
    return str(beside) if beside.exists() else (shutil.which("accsat-cc") or "accsat-cc")


def build(tree: Path, cc: str, klass: str, env: dict) -> list[tuple[Path, str, str]]:
    """make of every benchmark: (its source folder, what it printed on stdout, on
    stderr), in order."""
    out = []
    for name in NPB_BENCHMARKS:
        folder = source_dir(tree / name)
        subprocess.run(["make", "clean"], cwd=folder, capture_output=True)
        done = subprocess.run(
            ["make", f"CC={cc}", "CLINK=gcc", f"CLASS={klass}", f"CFLAGS={CFLAGS}",
             f"CLINKFLAGS={CLINKFLAGS}"],
            cwd=folder, env=env, capture_output=True, text=True,
        )  # fmt: skip
        out.append((folder, done.stdout, done.stderr))
    return out


def check_remarks(built: list[tuple[Path, str, str]]) -> dict:
    remarks = [
        (folder, line)
        for folder, _, err in built
        for line in err.splitlines()
        if ": remark: accsat: " in line
    ]
    parsed = [(folder, REMARK.match(line)) for folder, line in remarks]
    bad_format = [r for (_, r), (_, m) in zip(remarks, parsed, strict=True) if m is None]
    internal = [r for _, r in remarks if INTERNAL.search(r)]
    misplaced = []
    for folder, m in parsed:
        if m is None:
            continue
        found = folder / m[1]
        lines = found.read_text(errors="replace").splitlines() if found.exists() else []
        line, column = int(m[2]), int(m[3])
        text = lines[line - 1].expandtabs(8) if 0 < line <= len(lines) else ""
        if not text[column - 1 :].startswith("for"):
            misplaced.append(m[0])
    said = [r.split(": remark: accsat: ", 1)[1] for _, r in remarks]
    return {
        "remarks": len(remarks),
        "applied": sum(x.startswith("rewritten") for x in said),
        "missed": sum(x.startswith("left as written") for x in said),
        "bad_format": bad_format,
        "internal_names": internal,
        "not_at_the_for": misplaced,
        "reasons": sorted({x.split(":")[1].strip() for x in said if x.startswith("left")}),
    }


def check_page(records: Path, html_path: Path) -> dict:
    kernels, bad = read([records])
    text = page(kernels)
    html_path.write_text(text)
    found = outline(text)
    ids = [f"k{n}" for n in range(len(kernels))]
    orders_ok = all(
        sorted(r["data-kernel"] for r in rows) == sorted(ids) for rows in found.orders.values()
    )
    sorted_ok = all(
        [float(r[a]) for r in found.orders[o]] == sorted((float(r[a]) for r in found.orders[o]),
                                                           reverse=True)
        for o, a in (("loads", "data-loads-saved"), ("cost", "data-cost-saved"),
                     ("ops", "data-ops-saved"))
    )  # fmt: skip
    both = sum(1 for s in found.sections.values() if any(s["left"]) and any(s["right"]))
    figures = sum(1 for s in found.sections.values() if len(s["figures"]) >= 4)
    return {
        "records": len(kernels),
        "bad_lines": bad,
        "page_bytes": len(text.encode()),
        "orders": sorted(found.orders),
        "every_kernel_in_every_order": orders_ok,
        "orders_sorted": sorted_ok,
        "sections": len(found.sections),
        "sections_with_both_bodies": both,
        "sections_with_figures": figures,
        "scripts": found.scripts,
        "fetched": found.external,
        "table_lines": len(table(kernels).splitlines()),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    ap.add_argument("--class", dest="klass", default="S")
    ap.add_argument("--html", type=Path, default=None, help="keep the page here")
    ap.add_argument("--plain-cc", default=None, help="the accsat-cc to compare remarks off with")
    ap.add_argument("--only-off", action="store_true", help="only the builds with remarks off")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not args.npb_root:
        ap.error("--npb-root (or NPB_ROOT) is needed")
    base = {k: v for k, v in os.environ.items() if not k.startswith("ACCSAT_")}
    cc = f"{accsat_cc()} gcc"
    plain_cc = f"{args.plain_cc} gcc" if args.plain_cc else cc
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="npb-remarks-") as tmp:
        work = Path(tmp)
        tree = work / "tree"
        shutil.copytree(args.npb_root, tree, symlinks=True)
        if not args.only_off:
            records = work / "records.jsonl"
            env = dict(base, ACCSAT_REMARKS="all", ACCSAT_RECORD=str(records),
                       ACCSAT_CACHE_DIR=str(work / "cache"))  # fmt: skip
            result["remarks"] = check_remarks(build(tree, cc, args.klass, env))
            result["page"] = check_page(records, args.html or work / "page.html")
        quiet = dict(base, ACCSAT_CACHE_DIR=str(work / "cache"))
        ours = build(tree, cc, args.klass, quiet)
        theirs = build(tree, plain_cc, args.klass, dict(quiet, ACCSAT_CACHE_DIR=str(work / "c2")))
    # make echoes each command with the compiler's name in it: that apart, the same bytes
    printed = [(o.replace(cc, "CC"), e) for _, o, e in ours]
    other = [(o.replace(plain_cc, "CC"), e) for _, o, e in theirs]
    differ = sorted(
        {
            line
            for a, b in zip(printed, other, strict=True)
            for x, y in zip(a, b, strict=True)
            for line in set(x.splitlines()) ^ set(y.splitlines())
        }
    )
    result["remarks_off"] = {
        "same_output": printed == other,
        "lines_that_differ": differ[:20],
        "stderr_lines": sum(len(e.splitlines()) for _, e in printed),
        "compared_with": plain_cc,
    }
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


def report(result: dict) -> None:
    if "remarks" in result:
        r, p = result["remarks"], result["page"]
        print(
            f"remarks: {r['remarks']} ({r['applied']} applied, {r['missed']} missed); records: "
            f"{p['records']}; bad format: {len(r['bad_format'])}; internal names: "
            f"{len(r['internal_names'])}; not at the kernel's for: {len(r['not_at_the_for'])}"
        )
        print(f"reasons: {r['reasons']}")
        print(
            f"page: {p['page_bytes']} bytes, {p['sections']} kernel sections "
            f"({p['sections_with_both_bodies']} with both bodies, "
            f"{p['sections_with_figures']} with figures), orders {p['orders']}: every kernel "
            f"in each {p['every_kernel_in_every_order']}, sorted {p['orders_sorted']}; "
            f"scripts {p['scripts']}, fetched {p['fetched']}; table {p['table_lines']} lines"
        )
    off = result["remarks_off"]
    print(
        f"remarks off: the same output as {off['compared_with']}: {off['same_output']} "
        f"({off['stderr_lines']} stderr lines)"
    )
    for line in off["lines_that_differ"]:
        print(f"    {line}")


if __name__ == "__main__":
    sys.exit(main())
