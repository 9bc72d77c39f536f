"""Saturation and extraction per kernel family (issue 36), and accsat against gcc.

    python benchmarks/extract_families.py [--per-family 10] [--seed 1] [--proof]
        [--gcc] [--runs 3] [--variant accsat] [--json out.json] [--out DIR]

Writes the file of ``benchmarks/families.py`` (ten families, ``--per-family`` kernels
each) and rewrites it in this process with accsat's settings, recording per kernel:
the e-graph's e-nodes, the saturate and extract stages' seconds, the extracted cost
and how the ILP ended. ``--proof`` extracts each kernel's e-graph once more with the
ILP run to a proof (gap 0, no stall, ``--proof-seconds``) and compares the costs.
Printed per family: kernels, e-nodes (mean, max), saturation and extraction seconds
(sum, slowest kernel), in wall and CPU seconds, and against the proof: the total's
excess and the worst kernel's. ``--gcc`` also times, interleaved, ``gcc -O3 -fopenacc -foffload=disable
-c`` and ``accsat rewrite`` on the file, as a user types it (its helper process joins
when two cores are idle) and with ``--no-helper`` (one process), the medians of
``--runs``, and prints the ratios: of wall time, of CPU time (the helper's included). Timings are of a busy machine unless it is quiet: the load
average is printed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import families  # noqa: E402
from many_kernels import timed  # noqa: E402

from accsat import pipeline  # noqa: E402
from accsat.extract import ExtractConfig  # noqa: E402
from accsat.options import Options  # noqa: E402
from accsat.wrapper.server import PRELOAD  # noqa: E402


def measure(path: Path, options: Options, proof_seconds: float | None) -> list[dict]:
    """One record per kernel of ``path``, rewritten with ``options``; the saturate and
    extract stages' seconds of CPU too (what a busy machine disturbs least)."""
    real, real_saturate = pipeline.extract, pipeline.saturate
    proven: list[tuple[float, str]] = []
    cpu = {"saturate": 0.0, "extract": 0.0}

    def extract(egraph, roots, cost, config=None):
        config = config or ExtractConfig()
        start = time.process_time()
        out = real(egraph, roots, cost, config)
        cpu["extract"] += time.process_time() - start
        if proof_seconds and config.use_ilp:  # the same e-graph, the ILP run to a proof
            full = ExtractConfig(time_limit=proof_seconds, stall=None, gap=0.0)
            best = real(egraph, roots, cost, full)
            proven.append((best.cost, best.status))
        return out

    def saturate(*args, **kw):
        start = time.process_time()
        try:
            return real_saturate(*args, **kw)
        finally:
            cpu["saturate"] += time.process_time() - start

    # the solver's modules loaded before the first kernel's clock starts, as a compile
    # server's children have them (wrapper/server.py's PRELOAD): the first ILP kernel's
    # extraction is then its own (the whole file's time with --gcc still pays them)
    for name in PRELOAD:
        importlib.import_module(name)
    # the pipeline's own calls, so the e-graph is the same
    pipeline.extract, pipeline.saturate = extract, saturate
    try:
        loaded, rewrite = pipeline.prepare(path, options)
        records = []
        for i, kernel in enumerate(loaded.kernels):
            proven.clear()
            cpu.update(saturate=0.0, extract=0.0)
            report = rewrite(i)[0]
            record = {
                "kernel": kernel.function,
                "family": families.family_of(kernel.function),
                "status": report.status,
                "nodes": (report.egraph or {}).get("nodes", 0),
                "saturate_s": report.seconds.get("saturate", 0.0),
                "extract_s": report.seconds.get("extract", 0.0),
                "saturate_cpu_s": cpu["saturate"],
                "extract_cpu_s": cpu["extract"],
                "cost": report.cost.get("extracted"),
                "ilp": report.ilp,
            }
            if proven:
                record["proof_cost"], record["proof_status"] = proven[0]
            records.append(record)
        return records
    finally:
        pipeline.extract, pipeline.saturate = real, real_saturate


def by_family(records: list[dict]) -> dict[str, dict]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        groups[r["family"]].append(r)
    out = {}
    for name, rs in groups.items():
        row = {
            "kernels": len(rs),
            "nodes_mean": round(statistics.mean(r["nodes"] for r in rs)),
            "nodes_max": max(r["nodes"] for r in rs),
            "saturate_s": round(sum(r["saturate_s"] for r in rs), 3),
            "saturate_max_s": round(max(r["saturate_s"] for r in rs), 3),
            "extract_s": round(sum(r["extract_s"] for r in rs), 3),
            "extract_max_s": round(max(r["extract_s"] for r in rs), 3),
            "saturate_cpu_s": round(sum(r["saturate_cpu_s"] for r in rs), 3),
            "extract_cpu_s": round(sum(r["extract_cpu_s"] for r in rs), 3),
            "extract_cpu_max_s": round(max(r["extract_cpu_s"] for r in rs), 3),
        }
        with_proof = [r for r in rs if r.get("proof_cost") and r.get("cost") is not None]
        if with_proof:
            cost = sum(r["cost"] for r in with_proof)
            best = sum(r["proof_cost"] for r in with_proof)
            row["cost"] = round(cost, 1)
            row["excess_pct"] = round(100 * (cost - best) / best, 3)
            row["worst_excess_pct"] = round(
                max(100 * (r["cost"] - r["proof_cost"]) / r["proof_cost"] for r in with_proof), 3
            )
            row["proven"] = sum(r["proof_status"] == "optimal" for r in with_proof)
        out[name] = row
    return out


def show(rows: dict[str, dict]) -> None:
    head = f"{'family':10s} {'k':>3s} {'nodes':>11s} {'saturate s':>13s} {'extract s':>13s}"
    head += f" {'CPU: sat':>8s} {'extract':>13s}"
    print(head + f" {'excess %':>9s} {'worst %':>8s} {'proven':>6s}")
    for name, r in rows.items():
        line = (
            f"{name:10s} {r['kernels']:3d} {r['nodes_mean']:5d}/{r['nodes_max']:<5d} "
            f"{r['saturate_s']:6.2f}/{r['saturate_max_s']:<6.3f} "
            f"{r['extract_s']:6.2f}/{r['extract_max_s']:<6.3f} "
            f"{r['saturate_cpu_s']:8.2f} {r['extract_cpu_s']:6.2f}/{r['extract_cpu_max_s']:<6.3f}"
        )
        if "excess_pct" in r:
            line += f" {r['excess_pct']:9.3f} {r['worst_excess_pct']:8.3f} {r['proven']:6d}"
        print(line)


def against_gcc(work: Path, name: str, runs: int, variant: str | None) -> dict:
    """Median seconds (wall, CPU) of gcc -O3 -c and of accsat rewrite on the file,
    interleaved."""
    gcc = ["gcc", "-O3", "-fopenacc", "-foffload=disable", "-c", name, "-o", "out.o"]
    accsat = [sys.executable, "-m", "accsat.cli", "rewrite", name, "-o", "out.c"]
    accsat += ["--variant", variant] if variant else []
    g, a, one = [], [], []
    for _ in range(runs):
        g.append(timed(gcc, work))
        a.append(timed(accsat, work))
        one.append(timed([*accsat, "--no-helper"], work))
    out = {}
    for k, clock in enumerate(("s", "cpu_s")):
        gm, am = statistics.median(x[k] for x in g), statistics.median(x[k] for x in a)
        out |= {f"gcc_{clock}": round(gm, 3), f"accsat_{clock}": round(am, 3)}
        out[f"ratio{'' if k == 0 else '_cpu'}"] = round(am / gm, 2)
    alone = statistics.median(x[0] for x in one)  # one process: no helper however idle
    out |= {"accsat_one_process_s": round(alone, 3), "ratio_one_process": round(alone / gm, 2)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-family", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", default=None, help="comma-separated (default: all)")
    ap.add_argument("--variant", default=None, help="accsat's default when not given")
    ap.add_argument("--proof", action="store_true", help="compare with the ILP run to a proof")
    ap.add_argument("--proof-seconds", type=float, default=120.0)
    ap.add_argument("--gcc", action="store_true", help="time accsat rewrite against gcc -O3")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None, help="keep the file here")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    work = args.out or Path(tempfile.mkdtemp(prefix="accsat-families-"))
    work.mkdir(parents=True, exist_ok=True)
    names = args.families.split(",") if args.families else None
    src = work / "families.c"
    src.write_text(families.source(args.per_family, args.seed, names))
    print(f"{src}: load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    options = Options(variant=args.variant) if args.variant else Options()
    records = measure(src, options, args.proof_seconds if args.proof else None)
    rows = by_family(records)
    show(rows)
    summary: dict = {"families": rows, "kernels": records, "load": os.getloadavg()[0]}
    for clock, sat, ext, one in (
        ("wall", "saturate_s", "extract_s", "extract_s"),
        ("CPU", "saturate_cpu_s", "extract_cpu_s", "extract_cpu_s"),
    ):
        slowest = max(rows, key=lambda f: rows[f][ext])
        print(
            f"{clock}: slowest extraction {slowest} {rows[slowest][ext]:.2f} s against its "
            f"saturation {rows[slowest][sat]:.2f} s; slowest kernel "
            f"{max(r[one] for r in records):.3f} s"
        )
    with_proof = [r for r in records if r.get("proof_cost")]
    if with_proof:
        cost = sum(r["cost"] for r in with_proof)
        best = sum(r["proof_cost"] for r in with_proof)
        print(
            f"total cost {cost:.1f} against the proofs' {best:.1f}: {100 * (cost / best - 1):+.3f} %"
        )
    if args.gcc:
        summary["gcc"] = against_gcc(work, src.name, args.runs, args.variant)
        print(f"accsat rewrite / gcc -O3 -c: {json.dumps(summary['gcc'])}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
