"""The records of a build as a table on the terminal: a line per kernel, totals first."""

from __future__ import annotations

from collections.abc import Callable

from . import Kernel

# how the kernels may be ordered: file order, or the largest saving first
ORDERS: dict[str, Callable[[Kernel], tuple]] = {
    "file": lambda k: (),  # read() gives file order; a stable sort keeps it
    "loads": lambda k: (-k.loads_saved, -k.cost_saved),
    "cost": lambda k: (-k.cost_saved, -k.loads_saved),
    "ops": lambda k: (-k.ops_saved, -k.loads_saved),
}


def ordered(kernels: list[Kernel], order: str) -> list[Kernel]:
    return sorted(kernels, key=ORDERS[order])


def totals(kernels: list[Kernel]) -> dict[str, int]:
    done = [k for k in kernels if k.rewritten]
    return {
        "kernels": len(kernels),
        "rewritten": len(done),
        "left": len(kernels) - len(done),
        "loads_before": sum(k.loads[0] for k in kernels),
        "loads_after": sum(k.loads[1] for k in kernels),
        "ops_before": sum(k.ops[0] for k in kernels),
        "ops_after": sum(k.ops[1] for k in kernels),
        "fma": sum(k.fma for k in kernels),
    }


def _arrow(pair: tuple[int, int] | None) -> str:
    return "" if pair is None else f"{pair[0]} -> {pair[1]}"


def table(kernels: list[Kernel], order: str = "file", width: int | None = None) -> str:
    """The summary and a row per kernel; a reason longer than the room left on a line
    of ``width`` characters is cut (None: never)."""
    t = totals(kernels)
    out = [
        f"{t['kernels']} kernels: {t['rewritten']} rewritten, {t['left']} left as written; "
        f"loads {t['loads_before']} -> {t['loads_after']}, ops {t['ops_before']} -> "
        f"{t['ops_after']}, {t['fma']} FMA",
        "",
    ]
    head = ("kernel", "function", "status", "loads", "ops", "FMA", "registers", "saved", "")
    rows = [
        (
            k.where,
            str(k.fields.get("function", "")),
            "rewritten" if k.rewritten else "left",
            _arrow(k.loads if k.measured else None),
            _arrow(k.ops if k.measured else None),
            str(k.fma) if k.rewritten else "",
            _arrow(k.registers),
            f"{k.cost_saved:.0%}" if k.rewritten else "",
            str(k.fields.get("variant", "")) if k.rewritten else k.reason,
        )
        for k in ordered(kernels, order)
    ]
    sizes = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    for row in [head, *rows]:
        cells = [
            c.ljust(n) if i < 3 else c.rjust(n)
            for i, (c, n) in enumerate(zip(row[:-1], sizes, strict=True))
        ]
        line = "  ".join(cells) + "  "
        note = row[-1]
        if width is not None and len(line) + len(note) > width:
            room = max(width - len(line) - 3, 10)
            note = note[:room] + "..." if len(note) > room else note
        out.append((line + note).rstrip())
    return "\n".join(out) + "\n"
