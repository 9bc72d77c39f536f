"""tune.png: per kernel, each variant's speedup over orig, the chosen one marked.

The paper's Fig. 5.3 layout: one group of bars per kernel (the constructs that
took the most time under orig first), one bar per variant, 1 = as fast as
orig. A bar is the median of the paired per-round speedups (choose.py), its
whisker the interval the decision used; a star over the chosen variant, a ring
on the 1 line where orig was kept, with the reason written under it. A second
panel gives the whole programs: each configuration, tuned included.
"""

from __future__ import annotations

import math
from pathlib import Path

from ..fileio import save_figure
from ..options import ORIG, TUNED
from ..sweep.plot import _pyplot, colour
from ..sweep.results import Result
from .choose import Choice, kernel_seconds, median, times

MAX_KERNELS = 24  # more would not be readable; the rest are counted in the title
_TUNED_COLOUR = "#222222"


Speedup = tuple[float, float, float]  # low, median, high


def speedups(
    results: list[Result], choices: list[Choice]
) -> tuple[dict[str, dict[str, Speedup]], set[tuple[str, str]]]:
    """kernel -> variant -> its speedup over orig (the inverse of the paired ratios'
    interval); and the (kernel, variant) pairs where the variant rewrote none of the
    kernel's loops (orig's code)."""
    same: set[tuple[str, str]] = set()
    for r in results:
        for k in r.extra.get("kernels", []) if r.ok else []:
            if k.get("rewritten") is False and r.cell.variant not in (ORIG, TUNED):
                same.add((k["kernel"], r.cell.variant))
    sp = {
        c.kernel: {v: (1 / q.high, 1 / q.median, 1 / q.low) for v, q in c.ratios.items()}
        for c in choices
        if c.ratios
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
    when there is nothing to show (no kernel, or no variant built). A kernel no variant
    could be compared on still has its ring and the reason."""
    sp, same = speedups(results, choices)
    variants = [r.cell.variant for r in results if r.cell.variant not in (ORIG, TUNED) and r.ok]
    if not choices or not variants:
        return False
    weight = orig_seconds(results)
    kernels = sorted({c.kernel for c in choices}, key=lambda k: (-weight.get(k, 0.0), k))
    shown = kernels[:MAX_KERNELS]
    chosen = {c.kernel: c.config for c in choices}
    kept = {c.kernel: c.kept for c in choices if c.config == ORIG}
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
        # no bar and no whisker where the variant could not be compared (nan: not drawn)
        missing = (math.nan, 0.0, math.nan)
        low, hs, high = ([sp.get(k, {}).get(v, missing)[n] for k in shown] for n in range(3))
        hatches = ["////" if (k, v) in same else "" for k in shown]
        ax.bar(
            xs,
            hs,
            width,
            label=v,
            color=colour(v, None),
            hatch=hatches,
            edgecolor="white",
            linewidth=0,
            yerr=[
                [h - lo for h, lo in zip(hs, low, strict=True)],
                [hi - h for h, hi in zip(hs, high, strict=True)],
            ],
            error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
        )
        for x, h, k in zip(xs, high, shown, strict=True):
            if chosen.get(k) == v and not math.isnan(h):
                ax.plot([x], [h + 0.05], marker="*", markersize=11, color="black", linestyle="none")
        top = max([top, *(h for h in high if not math.isnan(h))])
    rings = [j for j, k in enumerate(shown) if k in kept]
    for j in rings:  # why orig was kept, under the ring
        ax.annotate(
            kept[shown[j]],
            (j, 1.0),
            xytext=(0, -14),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=6,
            rotation=90 if len(shown) > 8 else 0,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
        )
    ax.plot(
        rings,
        [1.0] * len(rings),
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
    ax.set_ylabel("kernel speedup over orig\n(median of rounds, interval)")
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

    handles: list[Patch | Line2D] = [Patch(color=colour(v, None), label=v) for v in variants]
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
    """Per configuration: orig's kernel time (at the fastest launches, what the guard
    compares) over its own, with the wall-time ratio written on the bar."""

    def kernels(r: Result) -> float | None:
        return median([k for k in kernel_seconds(r.extra.get("kernels", [])) if k is not None])

    ok = [r for r in results if r.ok]
    orig = next((r for r in ok if r.cell.variant == ORIG), None)
    if orig is None:
        return
    by_kernels = kernels(orig) is not None and all(kernels(r) for r in ok)
    base, wall = (kernels(orig) if by_kernels else median(orig.times)), median(orig.times)
    names, values, labels, colours = [], [], [], []
    for r in ok:
        m, w = (kernels(r) if by_kernels else median(r.times)), median(r.times)
        if base and m and wall and w:
            names.append(r.cell.variant)
            values.append(base / m)
            labels.append(f"{base / m:.3f}" + (f" (wall {wall / w:.3f})" if by_kernels else ""))
            colours.append(_TUNED_COLOUR if r.cell.variant == TUNED else colour(r.cell.variant))
    bars = ax.bar(names, values, color=colours)
    ax.bar_label(bars, labels=labels, fontsize=7, padding=1)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylim(0, max([1.0, *values]) * 1.2)
    ax.set_ylabel("program speedup")
    what = "kernel time (fastest launches)" if by_kernels else "wall time"
    ax.set_title(f"whole program, the check's rounds: speedup in median {what}", fontsize=9)
    ax.grid(axis="y", linewidth=0.3)
