"""The register model (accsat/codegen/registers.py) and budget against ptxas, on NPB-ACC.

    python benchmarks/register_model.py build --npb-root DIR [--benchmarks BT,LU,SP]
        [--variants cse,accsat] [--registers any,keep,keep-ptxas] [--out out/regmodel]
    python benchmarks/register_model.py fit [--out out/regmodel] [--hoist f8] [-v]
    python benchmarks/register_model.py table|plot [--out out/regmodel]

The rewrite runs in this process with the pipeline's ``make_plan`` replaced by
``codegen.budget.budget_plan`` under the given register setting (``keep-ptxas``:
``keep`` told ptxas's count of the original entry), recording the model per kernel.

``build``: per benchmark (class S), the original tree and, per variant and register
setting, a tree rewritten by accsat in this process; each built by gcc with nvptx
offloading (-g -save-temps) and its PTX read by ``ptxas -arch=sm_80 -v``
(accsat/toolchain/ptx.py). While rewriting, each kernel's plan is modelled: the kernel
as written, and the rewrite. Writes entries.json (one row per device entry and
tree) and kernels.json (one row per kernel and tree).

``fit``: matches kernels with the entry whose source lines hold them (an entry's
modelled peak is its kernels' largest), fits registers ~ BASE + SLOPE * peak by
least squares and prints, per tree kind and over all: entries, Spearman's rank
correlation between the model and ptxas, mean and mean absolute error per entry
(ptxas minus the estimate with the module's BASE and SLOPE, and with the fitted ones).

``table``: per benchmark and tree, loads, registers, spills and occupancy drops
against orig (at 128 threads and at each entry's block size); ``plot``: the loads
against registers of each tree, per benchmark (loads_registers.png).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from npb_variants import configure  # benchmarks/ is on sys.path when run as a script

import accsat.pipeline as pipeline
from accsat.codegen import budget, registers
from accsat.frontend.preprocess import PreprocessOptions
from accsat.options import ORIG, Options
from accsat.toolchain.compilers import OFFLOAD_FLAGS, OFFLOAD_LINK_FLAGS
from accsat.toolchain.ptx import (
    analyse,
    block_threads,
    entry_locations,
    entry_modules,
    find_ptx,
    launch_dims,
)

_current: dict[str, object] = {}
_kernels: list[dict] = []


@contextlib.contextmanager
def recording(setting: str, written: list[dict], caps: dict | None = None):
    """Model every plan the pipeline makes (and the kernel as written) while rewriting.

    ``setting`` is a register setting, or ``keep-ptxas``: ``keep`` with ptxas's count of
    the kernel as written (the entry of ``written``, the original tree's, that holds it),
    or ``keep-verified``: that, and each kernel holds at most ``caps[(file, line)]``
    values where given."""
    # the pipeline plans through budget_plan (make_plan before the budget was wired)
    hook = "budget_plan" if hasattr(pipeline, "budget_plan") else "make_plan"
    make_plan, rewrite_kernel = getattr(pipeline, hook), pipeline.rewrite_kernel

    def record_kernel(kernel, ctx, options):
        _current.update(file=Path(str(ctx.path)).name, line=kernel.line)
        result = rewrite_kernel(kernel, ctx, options)
        row = _current.pop("row", None)
        if row is not None:
            row["status"] = result[0].status
            _kernels.append(row)
        return result

    def record_plan(program, choice, class_of, bulk, *args, **kw):
        ptxas = None
        where = (_current.get("file"), _current.get("line", -1))
        if setting in ("keep-ptxas", "keep-verified"):
            ptxas = max(
                (
                    e["registers"]
                    for e in written
                    if e["file"] == where[0]
                    and e["registers"] is not None
                    and e["first"] <= where[1] <= e["last"]
                ),
                default=None,
            )
        held = (caps or {}).get(where)
        if held is not None and held < 0:  # ptxas lost occupancy even with none held
            raise budget.OverBudget("kept as written: ptxas")
        margin = int(setting.split("-m")[1]) if "-m" in setting else 0  # keep-m4: 4 free
        plan = budget.budget_plan(
            program,
            choice,
            class_of,
            bulk,
            setting.split("-")[0],
            ptxas_written=ptxas,
            most_held=held,
            margin=margin,
        )
        row = {
            "file": _current.get("file"),
            "line": _current.get("line"),
            "model": _figures(program, plan),
            "budget": plan.budget,
        }
        with contextlib.suppress(Exception):
            row["written"] = _figures(program, budget.written_plan(program))
        _current["row"] = row
        return plan

    setattr(pipeline, hook, record_plan)
    pipeline.rewrite_kernel = record_kernel
    try:
        yield
    finally:
        setattr(pipeline, hook, make_plan)
        pipeline.rewrite_kernel = rewrite_kernel


HOISTS = (0, 2, 4, 8, 16, 32, 1000)  # load-issue windows tried by ``fit --hoist``
FLIGHTS = (4, 8, 12, 16, 24, 32, 48)  # caps of loads in flight tried by ``fit --hoist fN``


def _figures(program, plan) -> dict:
    """The model's figures, with the peak for each window of HOISTS."""
    out = registers.model(program, plan).as_dict()
    out["peaks"] = {str(h): registers.model(program, plan, h).peak for h in HOISTS}
    out["peaks"].update({f"f{f}": registers.model(program, plan, 1000, f).peak for f in FLIGHTS})

    return out


def tree_for(npb_root: Path, bench: str, work: Path, name: str) -> Path:
    tree = work / f"{bench}-{name}"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(npb_root / bench, tree, symlinks=True)
    for f in list(tree.rglob("*.o")) + list(tree.rglob("*.x")):
        f.unlink()
    return configure(tree, bench, "S")


def build_ptx(src: Path) -> Path:
    flags = " ".join(("-O3", "-fopenacc", *OFFLOAD_FLAGS, "-fgnu89-inline", "-g", "-save-temps"))
    link = " ".join(("-O3", "-fopenacc", *OFFLOAD_LINK_FLAGS, "-save-temps", "-lm"))
    proc = subprocess.run(
        ["make", "CC=gcc", "CLINK=gcc", "CLASS=S", f"CFLAGS={flags}", f"CLINKFLAGS={link}"],
        cwd=src,
        capture_output=True,
        text=True,
    )
    raw = find_ptx(src)
    if proc.returncode != 0 or raw is None:
        raise RuntimeError(f"build failed in {src}:\n{proc.stdout[-1500:]}{proc.stderr[-1500:]}")
    return raw


def entries_of(raw: Path, work: Path) -> list[dict]:
    stats = analyse(raw, work)
    dims = launch_dims(raw)
    where = {}
    for module in entry_modules(raw):
        where.update(entry_locations(module))
    out = []
    for name, e in stats.items():
        loc = where.get(name)
        out.append(
            {
                "entry": name,
                "file": Path(loc.file).name if loc else None,
                "first": loc.first if loc else None,
                "last": loc.last if loc else None,
                "registers": e.registers,
                "loads": e.loads,
                "block": block_threads(dims.get(name)),
                "spill": (e.spill_stores or 0) + (e.spill_loads or 0),
            }
        )
    return out


def build(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    entries_path, kernels_path = out / "entries.json", out / "kernels.json"
    entries = json.loads(entries_path.read_text()) if entries_path.exists() else []
    kernels = json.loads(kernels_path.read_text()) if kernels_path.exists() else []
    root = Path(args.npb_root)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for bench in args.benchmarks.split(","):
            trees = [(ORIG, "any")] + [
                (v, r) for v in args.variants.split(",") for r in args.registers.split(",")
            ]
            for variant, setting in trees:
                tag = variant if variant == ORIG else f"{variant}/{setting}"
                built = any(e["bench"] == bench and e["tree"] == tag for e in entries)
                if built and not (args.remodel and variant != ORIG):
                    continue  # resumed
                src = tree_for(root, bench, work, tag.replace("/", "-").replace("+", "_"))
                orig = [e for e in entries if e["bench"] == bench and e["tree"] == ORIG]
                if setting == "keep-verified" and not built:
                    found = verified(src, variant, orig, work)
                else:
                    _kernels.clear()
                    if variant != ORIG:
                        rewrite_tree(src, variant, setting, orig, {}, None)
                    found = None if built else entries_of(build_ptx(src), work)
                kernels = [k for k in kernels if (k["bench"], k["tree"]) != (bench, tag)]
                for e in found or []:  # else --remodel: the kernels' figures again
                    entries.append({"bench": bench, "tree": tag, **e})
                for k in _kernels:
                    kernels.append({"bench": bench, "tree": tag, **k})
                entries_path.write_text(json.dumps(entries, indent=0))
                kernels_path.write_text(json.dumps(kernels, indent=0))
                print(f"  {bench} {tag}: built", file=sys.stderr)
                shutil.rmtree(src.parent)
    return 0


def rewrite_tree(
    src: Path, variant: str, setting: str, orig: list[dict], caps: dict, files: set[str] | None
) -> None:
    """Rewrite the tree's sources in place (``files``: only those; the others as they
    are), recording each kernel's model in ``_kernels``."""
    flags = (f"-I{src.parent / 'common'}", f"-I{src}")
    opts = Options(variant=variant, preprocess=PreprocessOptions(flags))
    kept = src / "as-written"  # the sources as written, rewritten again in later rounds
    kept.mkdir(exist_ok=True)
    with recording(setting, orig, caps):
        for f in sorted(src.glob("*.c")):  # #line: the PTX names f's lines
            if files is not None and f.name not in files:
                continue
            original = kept / f.name
            if not original.exists():
                shutil.copy(f, original)
            f.write_text(
                pipeline.rewrite_file(original, replace(opts, line_directives=str(f))).text
            )


def verified(src: Path, variant: str, orig: list[dict], work: Path, rounds: int = 8) -> list:
    """``keep`` told ptxas's counts of the original, then checked by ptxas: a kernel
    whose entry lost occupancy (at 128 threads or at its own block size) is rewritten
    with half the values held, down to none, then kept as written, and the tree built
    again."""
    from accsat.occupancy import occupancy

    base = {e["entry"]: e for e in orig}
    caps: dict[tuple, int] = {}
    rows: dict[tuple, dict] = {}
    files = None
    for _ in range(rounds):
        _kernels.clear()
        rewrite_tree(src, variant, "keep-verified", orig, caps, files)
        rows.update({(k["file"], k["line"]): k for k in _kernels})
        found = entries_of(build_ptx(src), work)
        lost = []
        for e in found:
            o = base.get(e["entry"])
            if o is None or not e["registers"] or not o["registers"]:
                continue
            block = e.get("block") or 128
            if any(
                occupancy(e["registers"], b) < occupancy(o["registers"], b) for b in {128, block}
            ):
                lost.append(e)
        again = set()
        for e in lost:
            for (f, line), k in rows.items():
                if (
                    f == e["file"]
                    and e["first"] <= line <= e["last"]
                    and k.get("status") == "rewritten"
                ):
                    held = k["budget"].get("held")
                    caps[(f, line)] = -1 if held == 0 else (held if held is not None else 16) // 2
                    again.add(f)
        print(
            f"    round: {len(lost)} entries lost occupancy, {len(again)} files again",
            file=sys.stderr,
        )
        if not again:
            break
        files = again
    _kernels[:] = list(rows.values())
    return found


# -- the fit ----------------------------------------------------------------------------
def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx and sy else float("nan")


def pairs(entries: list[dict], kernels: list[dict], hoist: str | None = None) -> list[dict]:
    """Entries with a modelled peak: orig trees use the kernels' model as written (from
    any rewritten tree of the same benchmark), the others the rewrite's."""
    written: dict[tuple, dict] = {}
    for k in kernels:
        if "written" in k:
            written.setdefault((k["bench"], k["file"], k["line"]), k["written"])
    out = []
    for e in entries:
        if e["registers"] is None or e["file"] is None:
            continue
        if e["tree"] == ORIG:
            inside = [
                w
                for (b, f, ln), w in written.items()
                if b == e["bench"] and f == e["file"] and e["first"] <= ln <= e["last"]
            ]
        else:
            inside = [
                k["model"] if k.get("status") == "rewritten" else k.get("written")
                for k in kernels
                if k["bench"] == e["bench"]
                and k["tree"] == e["tree"]
                and k["file"] == e["file"]
                and e["first"] <= k["line"] <= e["last"]
            ]
            inside = [m for m in inside if m]
        if inside:
            peak = (lambda m: m["peaks"][hoist]) if hoist else (lambda m: m["peak"])
            out.append({**e, "peak": max(peak(m) for m in inside), "kind": e["tree"].split("/")[0]})
    return out


def report(rows: list[dict], base: float, slope: float, label: str) -> None:
    if not rows:
        return
    peaks = [r["peak"] for r in rows]
    regs = [r["registers"] for r in rows]
    est = [min(255, max(1, round(base + slope * p))) for p in peaks]
    err = [r - e for r, e in zip(regs, est, strict=True)]
    below = sum(e <= 0 for e in err)
    print(
        f"{label:16} {len(rows):5d} {spearman(peaks, regs):9.3f} "
        f"{sum(err) / len(err):+9.1f} {sum(map(abs, err)) / len(err):9.1f} "
        f"{100 * (len(err) - below) / len(err):8.0f}%"
    )


def deltas(rows: list[dict]) -> None:
    """What the budget relies on: a rewrite's registers predicted from the kernel as
    written (ptxas) and the rewrite's model, max(ptxas as written, estimate), against
    ptxas; and whether that calls the occupancy step at 128 threads right."""
    from accsat.occupancy import occupancy

    orig = {(r["bench"], r["entry"]): r for r in rows if r["tree"] == ORIG}
    print(
        f"\nrewrite from orig: {'tree':16} {'entries':>7} {'mean |err|':>10} "
        f"{'step right':>10} {'missed drop':>11} {'false drop':>10}"
    )
    for tree in sorted({r["tree"] for r in rows} - {ORIG}):
        got = [
            (orig[(r["bench"], r["entry"])], r)
            for r in rows
            if r["tree"] == tree and (r["bench"], r["entry"]) in orig
        ]
        if not got:
            continue
        err = right = missed = false = 0
        for o, r in got:
            pred = max(o["registers"], registers.estimate(r["peak"]))
            err += abs(pred - r["registers"])
            real = occupancy(r["registers"], 128) < occupancy(o["registers"], 128)
            said = occupancy(pred, 128) < occupancy(o["registers"], 128)
            right += real == said
            missed += real and not said
            false += said and not real
        print(
            f"{'':19}{tree:16} {len(got):7d} {err / len(got):10.1f} {right:10d} {missed:11d} "
            f"{false:10d}"
        )


def fit(args) -> int:
    out = Path(args.out)
    entries = json.loads((out / "entries.json").read_text())
    kernels = json.loads((out / "kernels.json").read_text())
    rows = pairs(entries, kernels, args.hoist)
    n = len(rows)
    if n < 2:
        print("fit: fewer than two entries with a model", file=sys.stderr)
        return 1
    mx = sum(r["peak"] for r in rows) / n
    my = sum(r["registers"] for r in rows) / n
    sxx = sum((r["peak"] - mx) ** 2 for r in rows)
    slope = sum((r["peak"] - mx) * (r["registers"] - my) for r in rows) / sxx if sxx else 0.0
    base = my - slope * mx
    print(
        f"fit: registers ~ {base:.1f} + {slope:.2f} * peak   "
        f"(module: {registers.BASE} + {registers.SLOPE} * peak)"
    )
    for b, s, what in ((registers.BASE, registers.SLOPE, "module"), (base, slope, "fitted")):
        print(
            f"\n{what}: {'tree':16} {'entries':>5} {'spearman':>9} {'mean err':>9} "
            f"{'mean |err|':>9} {'above est':>9}"
        )
        for kind in sorted({r["kind"] for r in rows}):
            report([r for r in rows if r["kind"] == kind], b, s, kind)
        report(rows, b, s, "all")
    deltas(rows)
    if args.verbose:
        for r in sorted(rows, key=lambda r: (r["bench"], r["tree"], r["first"])):
            print(
                f"{r['bench']} {r['tree']:12} {r['file']}:{r['first']}-{r['last']} "
                f"ptxas {r['registers']:3d} peak {r['peak']:3d} "
                f"est {registers.estimate(r['peak']):3d}"
            )
    return 0


def table(args) -> int:
    """Per benchmark and tree: loads, registers, spills, occupancy drops against orig (at 128
    threads a block and at the entry's own block size), and the loads saved as a share of
    what ``cse`` with ``any`` saves."""
    from accsat.occupancy import occupancy

    entries = json.loads((Path(args.out) / "entries.json").read_text())
    head = (
        f"{'bench':5} {'tree':18} {'entries':>7} {'loads':>7} {'saved':>6} {'of cse':>6} "
        f"{'regs':>6} {'spill B':>7} {'drops@128':>9} {'drops@block':>11}"
    )
    print(head)
    print("-" * len(head))
    for bench in sorted({e["bench"] for e in entries}):
        rows = [e for e in entries if e["bench"] == bench]
        orig = {e["entry"]: e for e in rows if e["tree"] == ORIG}
        trees = sorted({e["tree"] for e in rows}, key=lambda t: (t != ORIG, t))
        loads = {t: sum(e["loads"] for e in rows if e["tree"] == t) for t in trees}
        cse = loads.get("cse/any")
        for t in trees:
            sel = [e for e in rows if e["tree"] == t]
            d128 = dblk = 0
            for e in sel:
                o = orig.get(e["entry"])
                if o is None or e["registers"] is None or o["registers"] is None:
                    continue
                d128 += occupancy(e["registers"], 128) < occupancy(o["registers"], 128)
                block = e.get("block") or o.get("block")
                dblk += block is not None and (
                    occupancy(e["registers"], block) < occupancy(o["registers"], block)
                )
            saved = loads[ORIG] - loads[t] if ORIG in loads else 0
            share = (
                f"{100 * saved / (loads[ORIG] - cse):5.0f}%"
                if cse is not None and ORIG in loads and loads[ORIG] != cse
                else "     -"
            )
            print(
                f"{bench:5} {t:18} {len(sel):7d} {loads[t]:7d} {saved:6d} {share:>6} "
                f"{sum(e['registers'] or 0 for e in sel):6d} "
                f"{sum(e['spill'] or 0 for e in sel):7d} {d128:9d} {dblk:11d}"
            )
    return 0


def plot(args) -> int:
    """loads_registers.png: per benchmark, PTX loads against registers (sums over the
    entries) for each tree, and the entries' occupancy at 128 threads."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = json.loads((Path(args.out) / "entries.json").read_text())
    benches = sorted({e["bench"] for e in entries})
    fig, axes = plt.subplots(1, len(benches), figsize=(4.2 * len(benches), 3.8), squeeze=False)
    for ax, bench in zip(axes[0], benches, strict=True):
        rows = [e for e in entries if e["bench"] == bench]
        trees = sorted({e["tree"] for e in rows}, key=lambda t: (t != ORIG, t))
        for tree in trees:
            sel = [e for e in rows if e["tree"] == tree]
            x = sum(e["registers"] or 0 for e in sel)
            y = sum(e["loads"] for e in sel)
            ax.scatter([x], [y], s=30, label=tree, marker="s" if tree == ORIG else "o")
            ax.annotate(tree, (x, y), fontsize=6, xytext=(3, 3), textcoords="offset points")
        ax.set_title(f"NPB {bench} (class S)", fontsize=9)
        ax.set_xlabel("registers per thread, sum over entries", fontsize=8)
        ax.set_ylabel("PTX loads, sum over entries", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(linewidth=0.3)
    fig.suptitle("loads against registers: gcc 12 nvptx, ptxas -arch=sm_80", fontsize=10)
    fig.tight_layout()
    out = Path(args.out) / "loads_registers.png"
    fig.savefig(out, dpi=120)
    print(out)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--npb-root", default=os.environ.get("NPB_ROOT"))
    b.add_argument("--benchmarks", default="BT,LU,SP")
    b.add_argument("--variants", default="cse,accsat")
    b.add_argument("--registers", default="any,keep")
    b.add_argument("--out", default="out/regmodel")
    b.add_argument(
        "--remodel",
        action="store_true",
        help="trees built before: rewrite again for the model's figures, no build",
    )
    f = sub.add_parser("fit")
    f.add_argument("--out", default="out/regmodel")
    f.add_argument("-v", "--verbose", action="store_true")
    f.add_argument(
        "--hoist", help="the model's peaks with this load-issue window (default: the module's)"
    )
    for name in ("table", "plot"):
        sub.add_parser(name).add_argument("--out", default="out/regmodel")
    args = ap.parse_args()
    if args.cmd in ("table", "plot"):
        return table(args) if args.cmd == "table" else plot(args)
    if args.cmd == "build":
        if not args.npb_root:
            print("give --npb-root or set NPB_ROOT", file=sys.stderr)
            return 2
        return build(args)
    return fit(args)


if __name__ == "__main__":
    sys.exit(main())
