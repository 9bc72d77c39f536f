"""Writing a sweep's outputs into ``--out``; shared by every harness."""

from __future__ import annotations

from pathlib import Path

import click

from .plot import loads_registers_png, ptx_png, speedup_png
from .ptxview import drops, ptx_table, registers_label, totals, write_ptx_csv
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
    """ptx.csv (one row per entry), ptx.json, ptx.png, loads_registers.png; the summary table
    on the terminal."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "ptx.csv", out / "ptx.json"]
    write_ptx_csv(results, written[0])
    write_json(results, written[1])
    if ptx_png(totals(results), out / "ptx.png"):
        written.append(out / "ptx.png")
    series = {registers_label(results): (totals(results), drops(results))}
    if loads_registers_png(series, out / "loads_registers.png"):
        written.append(out / "loads_registers.png")
    click.echo(ptx_table(results))
    return written
