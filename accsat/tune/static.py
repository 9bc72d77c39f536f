"""``accsat tune --static``: per kernel, a choice from the device code alone (no GPU run).

For machines that build GPU code but cannot time it. Every configuration is built
with ``ACCSAT_STATIC`` (wrapper/static.py): per compute construct and device entry,
ptxas's registers and spill bytes, gcc's block size, and the PTX's load and
instruction counts. The model, per construct:

1. **Occupancy and spills first.** A configuration is out where one of the
   construct's entries has lower occupancy than the same entry as written (sm_80's
   register rule, accsat.occupancy: at 128 threads a block and at the block size gcc
   fixed), or where the construct spills more bytes. Occupancy is what hides a GPU's
   memory latency; the paper's slowdowns came from kernels that lost it.
2. **Then loads.** Of the rest, the fewest PTX loads wins (the loads accsat saves are
   the method's gain); ties go to fewer instructions, then fewer registers, then the
   order of ``--variants``.
3. **A change must pay.** The winner is used only when it has fewer loads than the
   code as written, or as many and fewer instructions; else the construct keeps orig.

Static counts weigh a load in a loop of the kernel like one outside it, and say
nothing of caches: where the GPU can be timed, the timed ``accsat tune`` decides better.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..occupancy import BLOCK_THREADS, lost, occupancy
from ..options import ORIG
from . import constructs
from .choose import NOT_REWRITTEN, Choice, Key

STATIC_ROUND = "static"  # the cells of a static tuning: a build and its figures, no run
# why orig was kept (the table's and choice.csv's codes)
LOSES, NO_SAVING, NO_FIGURES = "loses occupancy", "no load saved", "no figures"


@dataclass(frozen=True)
class View:
    """One construct's device code in one configuration: its entries summed (loads,
    instructions, spill bytes) or at their worst (registers, occupancy)."""

    construct: str
    entries: dict[str, tuple[int, int | None]]  # name -> (registers, block)
    loads: int
    instructions: int
    spill: int

    @property
    def registers(self) -> int:
        return max((r for r, _ in self.entries.values()), default=0)

    def occupancy(self, block: int | None = BLOCK_THREADS) -> float:
        """The lowest of its entries' occupancy (``block`` None: each at its own block
        size, 128 threads where gcc chose it at run time)."""
        return min(
            (occupancy(r, block or b or BLOCK_THREADS) for r, b in self.entries.values()),
            default=1.0,
        )

    def loses_to(self, orig: View) -> bool:
        """Lower occupancy than ``orig`` in one of its entries, or more spill bytes; an
        entry orig does not have cannot be judged, and counts as lost."""
        for name, (regs, block) in self.entries.items():
            before = orig.entries.get(name)
            if before is None or lost(regs, before[0], block):
                return True
        return self.spill > orig.spill

    @property
    def key(self) -> tuple[int, int, int]:
        return self.loads, self.instructions, self.registers


def views(rows: list[dict]) -> dict[Key, View]:
    """Per construct (file, line, hash), its view from one build's ACCSAT_STATIC rows
    (a row per construct and entry; an entry listed twice, by a file compiled twice,
    counts once)."""
    seen: dict[Key, dict[str, dict]] = {}
    for r in rows:
        try:
            key = (str(r["file"]), int(r["line"]), str(r["hash"]))
            seen.setdefault(key, {})[str(r["entry"])] = r
        except (KeyError, TypeError, ValueError):
            continue
    out: dict[Key, View] = {}
    for key, entries in seen.items():
        if any(not e.get("registers") for e in entries.values()):
            continue  # ptxas gave no count: no verdict for this construct
        first = next(iter(entries.values()))
        out[key] = View(
            str(first.get("construct", "")),
            {n: (int(e["registers"]), e.get("block")) for n, e in entries.items()},
            sum(int(e.get("loads") or 0) for e in entries.values()),
            sum(int(e.get("instructions") or 0) for e in entries.values()),
            sum(int(e.get("spill") or 0) for e in entries.values()),
        )
    return out


def listed(rows: list[dict]) -> dict[Key, tuple[str, str]]:
    """Every construct of one build's rows, with its kind and why it has no view ('' when
    it has one: see ``views``)."""
    out: dict[Key, tuple[str, str]] = {}
    for r in rows:
        try:
            key = (str(r["file"]), int(r["line"]), str(r["hash"]))
        except (KeyError, TypeError, ValueError):
            continue
        why = str(r.get("why") or "") if r.get("entry") is None else ""
        if r.get("entry") is not None and not r.get("registers"):
            why = "ptxas gave no register count"
        kind, before = out.get(key, (str(r.get("construct", "")), ""))
        out[key] = (kind, before or why)
    return out


def choose_static(key: Key, by_config: dict[str, View]) -> Choice:
    """The configuration for one construct (``by_config``: its view in every build that
    has one, orig's among them, in the order of ``--variants``), by the module's model."""
    file, line, hash_ = key
    orig = by_config[ORIG]
    ident = (constructs.kernel_id(file, line), file, line, hash_, orig.construct)

    def keep(code: str, why: str) -> Choice:
        return Choice(*ident, ORIG, None, None, why, kept=code)

    others = {c: v for c, v in by_config.items() if c != ORIG}
    changed = {c: v for c, v in others.items() if v.key != orig.key or v.spill != orig.spill}
    if not changed:
        return keep(NOT_REWRITTEN, "every configuration compiles to the same figures")
    fits = {c: v for c, v in changed.items() if not v.loses_to(orig)}
    order = list(by_config)
    if fits:
        win = min(fits, key=lambda c: (*fits[c].key, order.index(c)))
        w = fits[win]
        if (w.loads, w.instructions) < (orig.loads, orig.instructions):
            return Choice(*ident, win, None, None, _saving(orig, w))
    fewer = {c: v for c, v in changed.items() if v.loads < orig.loads}
    if fewer and not any(c in fits for c in fewer):
        best = min(fewer, key=lambda c: (fewer[c].loads, order.index(c)))
        b = fewer[best]
        return keep(
            LOSES,
            f"every configuration that saves loads loses occupancy or spills "
            f"(best {best}: {_saving(orig, b)})",
        )
    return keep(
        NO_SAVING,
        f"no configuration within orig's occupancy saves a load "
        f"(orig: {orig.loads} loads, {orig.instructions} instructions)",
    )


def _saving(orig: View, v: View) -> str:
    return (
        f"loads {orig.loads} -> {v.loads}, instructions {orig.instructions} -> "
        f"{v.instructions}, registers {orig.registers} -> {v.registers}, occupancy "
        f"{orig.occupancy(None):.0%} -> {v.occupancy(None):.0%}"
        + (f", spill {orig.spill} -> {v.spill} B" if v.spill or orig.spill else "")
    )


def choices(
    by_config: dict[str, dict[Key, View]], every: dict[Key, tuple[str, str]]
) -> list[Choice]:
    """Per construct of orig's build (``every``: ``listed``), the choice (``by_config``
    in ``--variants`` order, orig first); one without orig's figures keeps orig, so that
    the database leaves no construct to the default variant."""
    out = []
    orig = by_config.get(ORIG, {})
    for key in sorted(set(every) | set(orig)):
        if key not in orig:
            kind, why = every[key]
            file, line, hash_ = key
            ident = (constructs.kernel_id(file, line), file, line, hash_, kind)
            out.append(Choice(*ident, ORIG, None, None, why or "no figures", kept=NO_FIGURES))
            continue
        here = {c: v[key] for c, v in by_config.items() if key in v}
        out.append(choose_static(key, here))
    return out


STATIC_COLUMNS = (
    "kernel",
    "file",
    "line",
    "config",
    "entries",
    "loads",
    "instructions",
    "registers",
    "spill",
    "occupancy",
    "occupancy_128",
    "lost",
    "chosen",
)


def static_rows(by_config: dict[str, dict[Key, View]], chosen: list[Choice]) -> list[dict]:
    """static.csv: one row per construct and configuration."""
    picked = {(c.file, c.line, c.hash): c.config for c in chosen}
    orig = by_config.get(ORIG, {})
    out = []
    for key in sorted(orig):
        for config, found in by_config.items():
            v = found.get(key)
            if v is None:
                continue
            out.append(
                {
                    "kernel": constructs.kernel_id(key[0], key[1]),
                    "file": key[0],
                    "line": key[1],
                    "config": config,
                    "entries": len(v.entries),
                    "loads": v.loads,
                    "instructions": v.instructions,
                    "registers": v.registers,
                    "spill": v.spill,
                    "occupancy": round(v.occupancy(None), 4),
                    "occupancy_128": round(v.occupancy(), 4),
                    "lost": v.loses_to(orig[key]),
                    "chosen": picked.get(key) == config,
                }
            )
    return out


def totals(by_config: dict[str, dict[Key, View]]) -> list[dict]:
    """Per configuration, over the constructs orig has: loads, registers summed over
    entries, spill bytes, and the constructs that lose occupancy against orig."""
    orig = by_config.get(ORIG, {})
    out = []
    for config, found in by_config.items():
        common = [k for k in orig if k in found]
        out.append(
            {
                "config": config,
                "kernels": len(common),
                "loads": sum(found[k].loads for k in common),
                "registers": sum(r for k in common for r, _ in found[k].entries.values()),
                "spill": sum(found[k].spill for k in common),
                "lost": sum(found[k].loses_to(orig[k]) for k in common),
            }
        )
    return out


def table(rows: list[dict], chosen: list[Choice]) -> str:
    """The terminal summary of a static tuning."""
    lines = [f"{'config':<16} {'kernels':>7} {'loads':>8} {'registers':>9} {'spill B':>8}  lost"]
    for r in rows:
        lines.append(
            f"{r['config']:<16} {r['kernels']:>7} {r['loads']:>8} {r['registers']:>9} "
            f"{r['spill']:>8}  {r['lost']}"
        )
    counts: dict[str, int] = {}
    why: dict[str, int] = {}
    for c in chosen:
        counts[c.config] = counts.get(c.config, 0) + 1
        if c.kept:
            why[c.kept] = why.get(c.kept, 0) + 1
    lines.append(f"{len(chosen)} kernels: " + ", ".join(f"{n} {c}" for c, n in counts.items()))
    if why:
        lines.append("orig kept: " + ", ".join(f"{n} {code}" for code, n in why.items()))
    return "\n".join(lines)
