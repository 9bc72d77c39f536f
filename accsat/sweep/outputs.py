"""Writing a sweep's outputs into ``--out``; shared by every harness."""

from __future__ import annotations

from pathlib import Path

import click

from .plot import ptx_png, speedup_png
from .ptxview import ptx_table, totals, write_ptx_csv
from .results import Result, write_csv, write_json
from .table import speedup_table


def write_sweep(results: list[Result], out: Path, size_label: str) -> list[Path]:
    """results.csv, results.json, speedup.png; the table on the terminal."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.csv", out / "results.json"]
    write_csv(results, written[0])
    write_json(results, written[1])
    if speedup_png(results, out / "speedup.png", size_label):
        written.append(out / "speedup.png")
    click.echo(speedup_table(results, size_label))
    return written


def write_ptx(results: list[Result], out: Path) -> list[Path]:
    """ptx.csv (one row per entry), ptx.json, ptx.png; the summary table on the terminal."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "ptx.csv", out / "ptx.json"]
    write_ptx_csv(results, written[0])
    write_json(results, written[1])
    if ptx_png(totals(results), out / "ptx.png"):
        written.append(out / "ptx.png")
    click.echo(ptx_table(results))
    return written
