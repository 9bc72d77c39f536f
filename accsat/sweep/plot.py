"""Plots for people: speedup.png (the paper's Fig. 5.2 layout) and ptx.png.

speedup.png: one panel per compiler, target and size; per benchmark a group
of bars, one per variant, the speedup over ``orig`` (1 = as fast); the
geometric mean over the benchmarks closes each panel. A cell without a
verified time has no bar but a mark saying why.
"""

from __future__ import annotations

from pathlib import Path

from ..fileio import save_figure
from ..options import BUDGET_MARK, ORIG, VARIANTS
from ..settings import ANY
from .results import (
    BUILD_FAILED,
    COMPILER_NOT_FOUND,
    ERROR,
    NO_GPU,
    RUN_FAILED,
    TIMEOUT,
    UNSUPPORTED,
    VERIFICATION_FAILED,
    Result,
    geomean,
    speedup_basis,
    speedups,
)

# one colour per variant, in the variants' order (seaborn's "deep" palette);
# orig, drawn only in ptx.png, is grey
_PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3")
_COLOURS = dict(zip(VARIANTS, _PALETTE, strict=False))
_ORIG_COLOUR = "#8C8C8C"


def colour(config: str, default: str | None = _ORIG_COLOUR) -> str | None:
    """A configuration's colour: its variant's; lighter within a register budget other
    than any (``cse@keep``: cse's, mixed half with white); ``default`` for the rest."""
    name, mark, budget = config.partition(BUDGET_MARK)
    base = _COLOURS.get(name)
    if base is None:
        return default
    if not mark or budget == ANY:
        return base
    rgb = [int(base[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{(c + 255) // 2:02X}" for c in rgb)


_SHORT = {
    VERIFICATION_FAILED: "verif.",
    BUILD_FAILED: "build",
    RUN_FAILED: "run",
    TIMEOUT: "timeout",
    COMPILER_NOT_FOUND: "no cc",
    UNSUPPORTED: "n/a",
    NO_GPU: "no gpu",
    ERROR: "error",
}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def speedup_png(results: list[Result], path: Path, size_label: str = "class") -> bool:
    """Write the plot; False when there is nothing to plot (no variant besides orig)."""
    sp = speedups(results)
    coarse = {c for c, b in speedup_basis(results).items() if b == "coarse time"}
    groups: dict[tuple[str, str, str], list[Result]] = {}
    r: Result | None  # below: the cell of a benchmark and variant, if any
    for r in results:
        groups.setdefault((r.cell.compiler, r.cell.target, r.cell.size), []).append(r)
    variants = [v for v in dict.fromkeys(r.cell.variant for r in results) if v != ORIG]
    if not variants or not groups:
        return False
    plt = _pyplot()
    benches_max = max(len({r.cell.benchmark for r in rs}) for rs in groups.values())
    fig, axes = plt.subplots(
        len(groups),
        1,
        squeeze=False,
        figsize=(
            max(6.0, 1.1 * (benches_max + 1) * max(1, len(variants)) / 3 + 2),
            3.2 * len(groups),
        ),
    )
    width = 0.8 / len(variants)
    for ax, ((compiler, target, size), rs) in zip(axes[:, 0], groups.items(), strict=True):
        benches = list(dict.fromkeys(r.cell.benchmark for r in rs))
        at = {(r.cell.benchmark, r.cell.variant): r for r in rs}
        labels = [*benches, "geomean"]
        top = 1.0
        any_coarse = False
        for i, v in enumerate(variants):
            xs, hs, hatches = [], [], []
            for j, b in enumerate(benches):
                r = at.get((b, v))
                x = j + (i - (len(variants) - 1) / 2) * width
                if r is not None and r.cell in sp:
                    xs.append(x)
                    hs.append(sp[r.cell])
                    hatches.append("///" if r.cell in coarse else "")
                    any_coarse |= r.cell in coarse
                elif r is not None:
                    why = _SHORT.get(r.status, r.status)
                    base = at.get((b, ORIG))
                    if r.ok and base is not None and not base.ok:
                        why = "orig " + _SHORT.get(base.status, base.status)
                    ax.text(
                        x,
                        0.02,
                        "× " + why,
                        rotation=90,
                        ha="center",
                        va="bottom",
                        fontsize=7,
                        color="#444444",
                        transform=ax.get_xaxis_transform(),
                    )
            g = geomean([sp[r.cell] for r in rs if r.cell.variant == v and r.cell in sp])
            if g is not None:
                xs.append(len(benches) + (i - (len(variants) - 1) / 2) * width)
                hs.append(g)
                hatches.append("")
            bars = ax.bar(
                xs,
                hs,
                width,
                label=v,
                color=colour(v, None),
                hatch=hatches,
                edgecolor="white",
                linewidth=0,
            )
            ax.bar_label(bars, fmt="%.2f", fontsize=6, padding=1, rotation=90)
            top = max([top, *hs])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axvline(len(benches) - 0.5, color="#999999", linewidth=0.6, linestyle=":")
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_ylim(0, top * 1.28)
        if any_coarse:
            ax.text(
                0.99,
                0.97,
                "hatched: from times < 0.1 s (two decimals, no Mop/s)",
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=7,
            )
        ax.set_ylabel("speedup over orig")
        ax.set_title(f"{compiler} {target}, {size_label} {size}", fontsize=10)
        ax.grid(axis="y", linewidth=0.3)
    axes[0, 0].legend(
        ncol=len(variants), fontsize=8, loc="upper left", bbox_to_anchor=(0, 1.0), framealpha=0.9
    )
    fig.tight_layout()
    save_figure(fig, path, dpi=130)
    plt.close(fig)
    return True


def ptx_png(totals: dict[tuple[str, str, str], dict[str, float]], path: Path) -> bool:
    """Four panels: registers and PTX loads relative to orig; FMA and spill bytes as counts."""
    if not totals:
        return False
    plt = _pyplot()
    series = list(dict.fromkeys((b, s) for b, s, _ in totals))
    variants = list(dict.fromkeys(v for _, _, v in totals))
    panels = (
        ("registers", True, "registers (sum over entries) / orig"),
        ("loads", True, "PTX ld instructions / orig"),
        ("fma", False, "PTX fma instructions"),
        ("spill_bytes", False, "spill bytes (stores + loads)"),
    )
    fig, axes = plt.subplots(2, 2, figsize=(max(7.0, 1.6 * len(series) + 3), 6.4))
    width = 0.8 / len(variants)
    for ax, (key, relative, title) in zip(axes.flat, panels, strict=True):
        for i, v in enumerate(variants):
            xs, hs = [], []
            for j, (b, s) in enumerate(series):
                t = totals.get((b, s, v))
                if t is None:
                    continue
                value = t[key]
                if relative:
                    base = totals.get((b, s, ORIG), {}).get(key)
                    if not base:
                        continue
                    value = value / base
                xs.append(j + (i - (len(variants) - 1) / 2) * width)
                hs.append(value)
            bars = ax.bar(xs, hs, width, label=v, color=colour(v))
            ax.bar_label(bars, fmt="%.2f" if relative else "%d", fontsize=6, rotation=90, padding=1)
        ax.set_xticks(range(len(series)), [f"{b} {s}" for b, s in series])
        ax.set_title(title, fontsize=9)
        ax.margins(y=0.2)
        if relative:
            ax.axhline(1.0, color="black", linewidth=0.8)
        elif not any(t[key] for t in totals.values()):
            ax.set_ylim(0, 1)  # all zero: say so rather than draw an axis around nothing
            ax.text(
                0.5,
                0.5,
                f"none ({key.replace('_', ' ')} = 0 everywhere)",
                transform=ax.transAxes,
                ha="center",
                fontsize=8,
            )
        else:
            ax.set_ylim(bottom=0)
        ax.grid(axis="y", linewidth=0.3)
    axes[0, 0].legend(fontsize=7, ncol=2)
    fig.suptitle("static GPU view: gcc nvptx offload, ptxas -arch=sm_80", fontsize=10)
    fig.tight_layout()
    save_figure(fig, path, dpi=130)
    plt.close(fig)
    return True


Totals = dict[tuple[str, str, str], dict[str, float]]
Drops = dict[tuple[str, str, str], tuple[int, int]]
_BUDGET_MARKERS = ("o", "^", "s", "D", "v")


def loads_registers_png(series: dict[str, tuple[Totals, Drops]], path: Path) -> bool:
    """loads_registers.png: per benchmark and size, each variant's PTX loads against its
    registers (sums over the device entries, relative to orig), one marker per register
    budget (``series``: budget label -> totals and occupancy drops, from one or more
    ``--ptx`` runs); the legend counts each point's entries that lost occupancy (a red
    edge marks them)."""
    groups = list(dict.fromkeys((b, s) for t, _ in series.values() for b, s, _ in t))
    if not groups:
        return False
    plt = _pyplot()
    cols = min(3, len(groups))
    rows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.0 * rows), squeeze=False)
    for ax, (b, s) in zip(axes.flat, groups, strict=False):
        ax.axhline(1.0, color="#BBBBBB", linewidth=0.8)
        ax.axvline(1.0, color="#BBBBBB", linewidth=0.8)
        ax.plot([1.0], [1.0], marker="s", color=_ORIG_COLOUR, linestyle="none", label="orig")
        for n, (label, (totals, drops)) in enumerate(series.items()):
            base = totals.get((b, s, ORIG))
            if not base or not base["registers"] or not base["loads"]:
                continue
            for (bb, ss, v), t in totals.items():
                if (bb, ss) != (b, s) or v == ORIG:
                    continue
                lost = drops.get((b, s, v), (0, 0))[0]
                ax.plot(
                    [t["registers"] / base["registers"]],
                    [t["loads"] / base["loads"]],
                    marker=_BUDGET_MARKERS[n % len(_BUDGET_MARKERS)],
                    markersize=8,
                    color=colour(v),
                    markeredgecolor="#C44E52" if lost else "white",
                    linestyle="none",
                    # the legend carries the losses: points of two budgets often coincide
                    label=f"{v}, registers={label}: {lost} lose occupancy",
                )
        ax.set_title(f"{b} class {s}", fontsize=9)
        ax.set_xlabel("registers (sum over entries) / orig", fontsize=8)
        ax.set_ylabel("PTX loads / orig", fontsize=8)
        ax.margins(0.15)
        ax.grid(linewidth=0.3)
        ax.legend(fontsize=6, loc="best")
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    fig.suptitle(
        "loads saved against registers spent (lower left is better; "
        "'lose occupancy': entries with lower occupancy than orig at 128 threads)",
        fontsize=9,
    )
    fig.tight_layout()
    save_figure(fig, path, dpi=130)
    plt.close(fig)
    return True
