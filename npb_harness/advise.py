"""``accsat bench npb --advise``: ``accsat advise`` over each benchmark's sources.

Each benchmark is configured in a private copy (its own ``make config`` writes
npbparams.h for the class: array sizes decide strides), then every ``*.c`` of
its source folder is analysed with ``-I../common``. Per benchmark: accesses by
class and neighbour groups, as written and as accsat rewrites them.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from accsat.advise.files import AdviseOptions, FileAdvice, advise_file
from accsat.advise.report import counts, document
from accsat.advise.strides import CLASSES
from accsat.errors import AccsatError
from accsat.frontend.preprocess import PreprocessOptions
from accsat.toolchain import process
from accsat.toolchain.records import write_json

from .tree import private_copy

CONFIG_TIMEOUT = 300.0  # seconds for ``make config`` (builds setparams, writes npbparams.h)


@dataclass
class BenchAdvice:
    benchmark: str
    files: list[FileAdvice] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # files accsat could not read
    seconds: float = 0.0  # advise alone (configuring the copy not counted)


def configure(root: Path, benchmark: str, cls: str, work: Path) -> Path:
    """A private copy of the benchmark with npbparams.h for ``cls``; its source folder."""
    src = private_copy(root, benchmark, work / benchmark)
    ucc = "gcc" if shutil.which("gcc") else "cc"
    try:
        done = process.capture(
            ["make", "config", f"CLASS={cls}", f"UCC={ucc}"], cwd=src, timeout=CONFIG_TIMEOUT
        )
    except OSError as exc:
        raise AccsatError(f"cannot run make: {exc}", str(src)) from None
    if not done.ok or not (src / "npbparams.h").exists():
        tail = (done.err or done.out).strip().splitlines()[-1:] or ["no npbparams.h"]
        if done.timed_out:
            tail = [f"it ran past {CONFIG_TIMEOUT:g} s"]
        raise AccsatError(f"make config CLASS={cls} failed: {tail[0]}", str(src))
    return src


def advise_benchmark(src: Path, benchmark: str, options: AdviseOptions) -> BenchAdvice:
    """Every source file of a configured benchmark, advised."""
    flags = PreprocessOptions((f"-I{src.parent / 'common'}",))
    opts = replace(options, rewrite=replace(options.rewrite, preprocess=flags))
    out = BenchAdvice(benchmark)
    start = time.perf_counter()
    for path in sorted(src.glob("*.c")):
        try:
            out.files.append(advise_file(path, opts))
        except AccsatError as exc:
            out.errors.append(str(exc))
    out.seconds = time.perf_counter() - start
    return out


def summary(results: list[BenchAdvice]) -> list[dict]:
    rows = []
    for r in results:
        staged = {st for f in r.files for k in f.kernels for st in k.stages}
        for stage in [st for st in ("written", "rewritten") if st in staged]:
            c = counts(r.files, stage)
            rows.append(
                {
                    "benchmark": r.benchmark,
                    "stage": stage,
                    **c,
                    "files": len(r.files),
                    "errors": len(r.errors),
                    "seconds": round(r.seconds, 2),
                }
            )
    return rows


def summary_table(rows: list[dict]) -> str:
    head = (
        f"{'bench':6} {'stage':9} {'kernels':>7} {'n/a':>4} "
        + " ".join(f"{c[:11]:>11}" for c in CLASSES)
        + f" {'grp:thread':>10} {'grp:loop':>8} {'seconds':>8}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['benchmark']:6} {r['stage']:9} {r.get('kernels', 0):7d} "
            f"{r.get('not_analysed', 0):4d} "
            + " ".join(f"{r.get(c, 0):11d}" for c in CLASSES)
            + f" {r.get('groups_thread', 0):10d} {r.get('groups_loop', 0):8d}"
            f" {r['seconds']:8.2f}"
        )
    return "\n".join(lines)


def run_advise(
    root: Path, benchmarks: list[str], cls: str, out: Path, options: AdviseOptions
) -> list[BenchAdvice]:
    """Configure, advise and write ``out/advise.json`` (the document per benchmark and the
    counts) for each benchmark."""
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for b in benchmarks:
        src = configure(root, b, cls, out / "trees")
        results.append(advise_benchmark(src, b, options))
    data = {
        "class": cls,
        "summary": summary(results),
        "benchmarks": {r.benchmark: {**document(r.files), "errors": r.errors} for r in results},
    }
    write_json(out / "advise.json", data)
    return results


def advise_command(root: Path, benchmarks: list[str], cls: str, out: Path) -> None:
    """What ``accsat bench npb --advise`` does: the counts table, advise.json under ``out``."""
    import click

    try:
        results = run_advise(root, benchmarks, cls, out.resolve(), AdviseOptions(pressure=False))
    except AccsatError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"class {cls}; accesses per class, neighbour groups (grp) and kernels not "
        "analysed (n/a), as written and as accsat rewrites them"
    )
    click.echo(summary_table(summary(results)))
    for r in results:
        for e in r.errors:
            click.echo(f"{r.benchmark}: {e}", err=True)
    click.echo(f"written {out / 'advise.json'}")
