"""tune.png: per kernel, each variant's speedup over orig, the chosen one marked.

The paper's Fig. 5.3 layout: one group of bars per kernel (the constructs that
took the most time under orig first), one bar per variant, 1 = as fast as
orig; a star over the chosen variant, a ring on the 1 line where orig was kept.
A second panel gives the whole programs: each configuration, tuned included.
"""

from __future__ import annotations

from pathlib import Path

from ..fileio import save_figure
from ..options import ORIG, TUNED
from ..sweep.plot import _COLOURS, _pyplot
from ..sweep.results import Result
from .choose import Choice, median, times

MAX_KERNELS = 24  # more would not be readable; the rest are counted in the title
_TUNED_COLOUR = "#222222"


def speedups(results: list[Result]) -> tuple[dict[str, dict[str, float]], set[tuple[str, str]]]:
    """kernel -> variant -> orig's median seconds over the variant's; and the (kernel,
    variant) pairs where the variant rewrote none of the kernel's loops (orig's code)."""
    per: dict[str, dict[str, float]] = {}
    same: set[tuple[str, str]] = set()
    for r in results:
        for k in r.extra.get("kernels", []) if r.ok else []:
            m = median(times(k))
            if m:
                per.setdefault(k["kernel"], {})[r.cell.variant] = m
            if k.get("rewritten") is False:
                same.add((k["kernel"], r.cell.variant))
    sp = {
        kernel: {c: by[ORIG] / m for c, m in by.items() if c != ORIG}
        for kernel, by in per.items()
        if by.get(ORIG)
    }
    return sp, same


def orig_seconds(results: list[Result]) -> dict[str, float]:
    for r in results:
        if r.cell.variant == ORIG and r.ok:
            return {k["kernel"]: median(times(k)) or 0.0 for k in r.extra.get("kernels", [])}
    return {}


def tune_png(
    results: list[Result], programs: list[Result], choices: list[Choice], path: Path, title: str
) -> bool:
    """Write the plot (kernels from ``results``, whole programs from ``programs``); False
    when there is nothing to compare (no variant timed)."""
    sp, same = speedups(results)
    variants = [r.cell.variant for r in results if r.cell.variant not in (ORIG, TUNED) and r.ok]
    if not sp or not variants:
        return False
    weight = orig_seconds(results)
    kernels = sorted(sp, key=lambda k: -weight.get(k, 0.0))
    shown = kernels[:MAX_KERNELS]
    chosen = {c.kernel: c.config for c in choices}
    plt = _pyplot()
    fig, (ax, ax2) = plt.subplots(
        2,
        1,
        figsize=(min(16.0, max(7.0, 0.2 * len(shown) * len(variants) + 2.5)), 7.5),
        gridspec_kw={"height_ratios": [3, 1.3]},
    )
    width = 0.8 / len(variants)
    top = 1.0
    for i, v in enumerate(variants):
        xs = [j + (i - (len(variants) - 1) / 2) * width for j in range(len(shown))]
        hs = [sp[k].get(v, 0.0) for k in shown]
        hatches = ["////" if (k, v) in same else "" for k in shown]
        ax.bar(
            xs,
            hs,
            width,
            label=v,
            color=_COLOURS.get(v),
            hatch=hatches,
            edgecolor="white",
            linewidth=0,
        )
        for x, h, k in zip(xs, hs, shown, strict=True):
            if chosen.get(k) == v:
                ax.plot([x], [h + 0.03], marker="*", markersize=11, color="black", linestyle="none")
        top = max([top, *hs])
    kept = [j for j, k in enumerate(shown) if chosen.get(k) == ORIG]
    ax.plot(
        kept,
        [1.0] * len(kept),
        marker="o",
        markersize=9,
        markerfacecolor="none",
        markeredgecolor="black",
        linestyle="none",
    )
    ax.axhline(1.0, color="black", linewidth=0.8)
    labels = [
        f"{k}\n{100 * weight.get(k, 0) / max(sum(weight.values()), 1e-12):.0f} %" for k in shown
    ]
    ax.set_xticks(
        range(len(shown)),
        labels,
        rotation=45 if len(shown) > 8 else 0,
        ha="right" if len(shown) > 8 else "center",
        fontsize=7,
    )
    ax.set_ylim(0, top * 1.3 + 0.05)  # room for the legend
    ax.set_ylabel("kernel speedup over orig")
    more = f" (the {len(shown)} longest of {len(kernels)})" if len(kernels) > len(shown) else ""
    ax.set_title(
        f"{title}: per kernel{more}; under each, its share of orig's kernel time", fontsize=9
    )
    ax.legend(handles=_legend(variants, bool(same)), ncol=4, fontsize=7, loc="upper left")
    ax.grid(axis="y", linewidth=0.3)
    _programs(ax2, programs)
    fig.tight_layout()
    save_figure(fig, path, dpi=130)
    plt.close(fig)
    return True


def _legend(variants: list[str], hatched: bool) -> list:
    """Built by hand: a handle taken from the bars would copy the first bar's hatch."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Patch | Line2D] = [Patch(color=_COLOURS.get(v), label=v) for v in variants]
    if hatched:
        handles.append(
            Patch(
                facecolor="#BBBBBB",
                hatch="////",
                edgecolor="white",
                label="rewrote nothing: orig's code",
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            marker="*",
            markersize=11,
            color="black",
            linestyle="none",
            label="chosen variant",
        )
    )
    handles.append(
        Line2D(
            [],
            [],
            marker="o",
            markersize=9,
            markerfacecolor="none",
            markeredgecolor="black",
            linestyle="none",
            label="orig kept",
        )
    )
    return handles


def _programs(ax, results: list[Result]) -> None:
    base = next((median(r.times) for r in results if r.cell.variant == ORIG and r.ok), None)
    names, values, colours = [], [], []
    for r in results:
        m = median(r.times) if r.ok else None
        if base and m:
            names.append(r.cell.variant)
            values.append(base / m)
            colours.append(
                _TUNED_COLOUR
                if r.cell.variant == TUNED
                else _COLOURS.get(r.cell.variant, "#8C8C8C")
            )
    bars = ax.bar(names, values, color=colours)
    ax.bar_label(bars, fmt="%.3f", fontsize=7, padding=1)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylim(0, max([1.0, *values]) * 1.2)
    ax.set_ylabel("program speedup")
    ax.set_title(
        "whole program, in the check's rounds: orig's median wall time over each one's",
        fontsize=9,
    )
    ax.grid(axis="y", linewidth=0.3)
