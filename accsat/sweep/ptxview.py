"""The static GPU view (``--ptx``): per device entry and variant, what ptxas and the PTX say.

A ptx cell's build is gcc with nvptx offloading, ``-g -save-temps``; its
"run" reads the linked PTX gcc left behind (see ptx.py): registers and spill
bytes from ``ptxas -arch=sm_80 -v``, ld/st/fma/total instruction counts, the
source file:line of the compute construct from the PTX ``.loc`` lines, and
how many of accsat's kernels (its report) lie inside that construct. Occupancy
(sm_80, from registers: ``accsat.occupancy``) at 128 threads a block and at the
entry's own block size (workers x vector length, when gcc fixed them); the
register budget its kernels were rewritten under, and whether it bound.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

from ..occupancy import occupancy
from ..options import BUDGET_MARK, ORIG
from ..toolchain import records
from ..toolchain.ptx import (
    analyse,
    block_threads,
    entry_locations,
    entry_modules,
    find_ptx,
    launch_dims,
    source_function,
)
from . import accsat_cc
from .cells import Cell
from .results import OK, RUN_FAILED, Result

PTX_COLUMNS = (
    "benchmark",
    "size",
    "variant",
    "entry",
    "function",
    "file",
    "line",
    "first",
    "last",
    "kernels",
    "rewritten",
    "registers",
    "spill_stores",
    "spill_loads",
    "loads",
    "stores",
    "fma",
    "instructions",
    "block",
    "occupancy",
    "occupancy_128",
    "budget",
    "bound",
    "model_before",
    "model_after",
)
SUMMED = ("registers", "spill_bytes", "loads", "stores", "fma", "instructions")


def analyse_cell(cell: Cell, src: Path, folder: Path) -> Result:
    raw = find_ptx(src)
    if raw is None:
        return Result(
            cell,
            RUN_FAILED,
            f"no *.xnvptx-none.mkoffload in {src}: was gcc's nvptx offload compiler used?",
        )
    stats = analyse(raw, folder)
    dims = launch_dims(raw)
    locations = {}
    for module in entry_modules(raw):  # .file numbers are per module
        locations.update(entry_locations(module))
    kernels = accsat_cc.kernel_lines(folder / "kernels.jsonl")
    entries = []
    for name, e in sorted(stats.items()):
        loc = locations.get(name)
        inside = [
            k
            for k in kernels
            if loc is not None
            and os.path.basename(str(k.get("file", ""))) == os.path.basename(loc.file)
            and loc.first <= int(k.get("line", 0)) <= loc.last
        ]
        entries.append(
            {
                "entry": name,
                "function": source_function(name),
                "file": loc.file if loc else None,
                "line": loc.line if loc else None,
                "first": loc.first if loc else None,
                "last": loc.last if loc else None,
                "kernels": len(inside),
                "rewritten": sum(k.get("status") == "rewritten" for k in inside),
                "registers": e.registers,
                "spill_stores": e.spill_stores,
                "spill_loads": e.spill_loads,
                "loads": e.loads,
                "stores": e.stores,
                "fma": e.fma,
                "instructions": e.instructions,
                **_occupancies(e.registers, block_threads(dims.get(name))),
                **_budget(inside),
            }
        )
    message = "" if shutil.which("ptxas") else "ptxas not found: no registers or spills"
    return Result(cell, OK, message, extra={"entries": entries})


def _occupancies(registers: int | None, block: int | None) -> dict:
    return {
        "block": block,
        "occupancy": occupancy(registers, block) if registers and block else None,
        "occupancy_128": occupancy(registers, 128) if registers else None,
    }


def _budget(kernels: list[dict]) -> dict:
    """The register budget of the kernels inside an entry (their report's ``registers``:
    codegen/budget.py), whether it bound, and the model's registers before and after."""
    budgets = [k["registers"] for k in kernels if isinstance(k.get("registers"), dict)]
    if not budgets:
        return {"budget": None, "bound": None, "model_before": None, "model_after": None}
    return {
        "budget": budgets[0].get("setting"),
        "bound": any(b.get("bound") for b in budgets),
        "model_before": max((b.get("before") or 0 for b in budgets), default=None),
        "model_after": max((b.get("after") or 0 for b in budgets), default=None),
    }


def drops(results: list[Result]) -> dict[tuple[str, str, str], tuple[int, int]]:
    """Per (benchmark, size, variant): entries with lower occupancy than the same entry
    of orig, at 128 threads a block and at the entry's own block size."""
    base = {
        (r.cell.benchmark, r.cell.size): {e["entry"]: e for e in r.extra.get("entries", [])}
        for r in results
        if r.ok and r.cell.variant == ORIG
    }
    out = {}
    for r in results:
        orig = base.get((r.cell.benchmark, r.cell.size))
        if not r.ok or orig is None or r.cell.variant == ORIG:
            continue
        at128 = at_block = 0
        for e in r.extra.get("entries", []):
            o = orig.get(e["entry"])
            if o is None or not e.get("registers") or not o.get("registers"):
                continue
            at128 += occupancy(e["registers"], 128) < occupancy(o["registers"], 128)
            block = e.get("block") or o.get("block")
            at_block += bool(block) and (
                occupancy(e["registers"], block) < occupancy(o["registers"], block)
            )
        out[(r.cell.benchmark, r.cell.size, r.cell.variant)] = (at128, at_block)
    return out


def ptx_rows(results: list[Result]) -> list[dict]:
    out = []
    for r in results:
        for e in r.extra.get("entries", []):
            out.append(
                {"benchmark": r.cell.benchmark, "size": r.cell.size, "variant": r.cell.variant, **e}
            )
    return out


def write_ptx_csv(results: list[Result], path: Path) -> None:
    records.write_csv(path, PTX_COLUMNS, ptx_rows(results), extra="ignore")


def totals(results: list[Result]) -> dict[tuple[str, str, str], dict[str, float]]:
    """Per (benchmark, size, variant): sums over the entries (registers: sum and max)."""
    out: dict[tuple[str, str, str], dict[str, float]] = {}
    for r in results:
        entries = r.extra.get("entries")
        if not r.ok or entries is None:
            continue
        t: dict[str, float] = {"entries": len(entries), "max_registers": 0}
        for k in SUMMED:
            t[k] = 0
        for e in entries:
            t["registers"] += e["registers"] or 0
            t["max_registers"] = max(t["max_registers"], e["registers"] or 0)
            t["spill_bytes"] += (e["spill_stores"] or 0) + (e["spill_loads"] or 0)
            for k in ("loads", "stores", "fma", "instructions"):
                t[k] += e[k] or 0
        out[(r.cell.benchmark, r.cell.size, r.cell.variant)] = t
    return out


def registers_label(results: list[Result]) -> str:
    """The register budget the run's variants were rewritten under (``any``: none said;
    ``as named`` where the configurations name their own: ``cse@keep``)."""
    if any(BUDGET_MARK in r.cell.variant for r in results):
        return "as named"
    seen = [
        e["budget"]
        for r in results
        if r.ok and r.cell.variant != ORIG
        for e in r.extra.get("entries") or []
        if e.get("budget")
    ]
    return str(Counter(seen).most_common(1)[0][0]) if seen else "any"


def ptx_table(results: list[Result]) -> str:
    """The terminal table: one line per benchmark and variant."""
    t = totals(results)
    lower = drops(results)
    w = max([9, *(len(v) for _, _, v in t), *(len(r.cell.variant) for r in results)])
    head = (
        f"{'bench':6} {'class':5} {'variant':{w}} {'entries':>7} {'regs':>6} {'maxreg':>6} "
        f"{'spill B':>8} {'ld':>7} {'st':>7} {'fma':>7} {'instr':>8} {'occ<orig':>8} "
        f"{'@block':>6}"
    )
    lines = [head, "-" * len(head)]
    for (b, s, v), x in t.items():
        at128, at_block = lower.get((b, s, v), ("-", "-"))
        lines.append(
            f"{b:6} {s:5} {v:{w}} {x['entries']:7d} {x['registers']:6d} "
            f"{x['max_registers']:6d} {x['spill_bytes']:8d} {x['loads']:7d} "
            f"{x['stores']:7d} {x['fma']:7d} {x['instructions']:8d} {at128:>8} "
            f"{at_block:>6}"
        )
    lines.append(
        "occ<orig: entries with lower occupancy than orig at 128 threads a block; "
        "@block: at the entry's own block size"
    )
    failed = [r for r in results if not r.ok]
    for r in failed:
        lines.append(
            f"{r.cell.benchmark:6} {r.cell.size:5} {r.cell.variant:{w}} {r.status}: {r.message}"
        )
    return "\n".join(lines)
