"""``accsat tune``: build and time every configuration, choose per kernel, check the choice.

1. every configuration (``--variants``, orig always) is built once through the
   sweep engine (suite.py) with the timers in, and run in ``--runs`` rounds,
   each round one run of every configuration; one that fails a run or misses
   ``--check`` is rejected;
2. per construct, the fastest verified configuration if it beats orig by more
   than the noise, else orig (choose.py);
3. the check: ``tuned`` (built with that database) and every verified
   configuration again, in ``--runs`` rounds of their own; if a uniform
   configuration beat tuned by more than the noise, every kernel gets that
   configuration and the check is done again;
4. the database goes to ``--db`` (only once tuned verified), the tables and
   the plot to ``--out``: programs from the check, kernels from step 1.
"""

from __future__ import annotations

import re
import shutil
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import click

from ..cliparams import CONTEXT_SETTINGS
from ..options import CONFIGS, ORIG, TUNED
from ..sweep.cells import Cell
from ..sweep.cli import (
    build_timeout_option,
    executor_options,
    finish,
    parse_variants,
    timeout_option,
)
from ..sweep.engine import Sweep
from ..sweep.results import OK, Result
from . import outputs, profile
from .choose import NOISE_FLOOR, Choice, choose, median, spread
from .db import Database, Entry
from .plot import tune_png
from .suite import TuneSuite, tree_fingerprint

DB_NAME = "accsat-tune.json"
OUT_NAME = "accsat-tune"


@click.command("tune", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--build",
    "build_cmd",
    required=True,
    metavar="CMD",
    help='builds the program through accsat-cc (e.g. make CC="accsat-cc gcc"); '
    "run by /bin/sh in a copy of --dir",
)
@click.option(
    "--run",
    "run_cmd",
    required=True,
    metavar="CMD",
    help="runs the program once (e.g. ./app input)",
)
@click.option(
    "--clean",
    "clean_cmd",
    default="",
    metavar="CMD",
    help="run before each build (e.g. make clean)",
)
@click.option(
    "--check",
    default="",
    metavar="REGEX",
    help="the output (stdout and stderr) of every run must match it",
)
@click.option(
    "--variants",
    default=",".join(CONFIGS),
    show_default=True,
    metavar="LIST",
    help="configurations to compare; orig is always included",
)
@click.option(
    "--runs",
    default=3,
    show_default=True,
    type=click.IntRange(1),
    help="runs per configuration (their spread is the noise a variant must beat)",
)
@click.option(
    "--db",
    default=None,
    type=click.Path(dir_okay=False),
    help=f"the tuning database to write [default: DIR/{DB_NAME}]",
)
@click.option(
    "--out",
    default=None,
    type=click.Path(file_okay=False),
    help=f"tables, plot, cells [default: DIR/{OUT_NAME}]",
)
@click.option(
    "--dir",
    "directory",
    default=".",
    show_default=True,
    type=click.Path(exists=True, file_okay=False),
    help="the build directory",
)
@timeout_option
@build_timeout_option
@click.option(
    "--jobs",
    default=1,
    show_default=True,
    type=click.IntRange(1),
    help="configurations built at once (runs are always one at a time)",
)
@click.option("--force", is_flag=True, help="build and run every configuration again")
@click.option("--progress/--no-progress", default=True, show_default=True)
@executor_options
def tune(
    build_cmd,
    run_cmd,
    clean_cmd,
    check,
    variants,
    runs,
    db,
    out,
    directory,
    timeout,
    build_timeout,
    jobs,
    force,
    progress,
    executor,
) -> None:
    """Find, per kernel, the accsat variant that is fastest on this machine, never
    slower than the code as written; write the tuning database for ACCSAT_TUNE.

    Run it where you build. Then build with ACCSAT_TUNE=DIR/accsat-tune.json.
    """
    if check:
        try:
            re.compile(check)
        except re.error as exc:
            raise click.BadParameter(
                f"not a regular expression: {exc}", param_hint="--check"
            ) from None
    root = Path(directory).resolve()
    out_dir = Path(out).resolve() if out else root / OUT_NAME
    db_path = Path(db).resolve() if db else root / DB_NAME
    configs = [ORIG, *(v for v in parse_variants(variants) if v != ORIG)]
    exclude = (out_dir, db_path)
    candidate = out_dir / "tuned-db.json"  # the database the check builds with
    suite = TuneSuite(
        root,
        build_cmd,
        run_cmd,
        clean_cmd,
        check,
        runs,
        timeout,
        build_timeout,
        db=candidate,
        tree=tree_fingerprint(root, exclude),
        exclude=exclude,
    )

    def sweep() -> Sweep:  # one per step, so that each says what it built
        return Sweep(suite, out_dir, executor(out_dir, jobs), force=force, progress=progress)

    def rounds(tag: str, names: list[str]) -> list[Cell]:
        """``runs`` rounds, each one run of every configuration: a drift of the machine
        hits them all alike, and the spread of the runs shows it."""
        return [
            Cell("tune", label, f"{tag}{i}", "cc", "host", c)
            for i in range(1, runs + 1)
            for c in names
        ]

    if force:
        shutil.rmtree(out_dir / "builds", ignore_errors=True)
    label = root.name or "program"
    measured = _combine(_run(sweep(), rounds("r", configs)), configs)
    choices = _choices(measured, out_dir / "cells")
    verified = [r.cell.variant for r in measured if r.ok]
    for fallback in (False, True):
        database = _database(suite, choices, measured)
        database.save(candidate)
        # the check: tuned beside every verified configuration again, in rounds of
        # their own (named by the database: another choice, another confirmation)
        names = [*verified, TUNED]
        again = _combine(_run(sweep(), rounds(f"c{database.digest()[:8]}-", names)), names)
        tuned, best = again[-1], _best_uniform(again[:-1])
        if fallback or not (tuned.ok and best is not None and _slower(tuned, best)):
            break
        if all(c.config == best.cell.variant for c in choices):
            break  # tuned already is that configuration: the difference is the machine's
        click.echo(
            f"accsat tune: the per-kernel choice ({median(tuned.times):.4g} s) is slower "
            f"than {best.cell.variant} everywhere ({median(best.times):.4g} s): every "
            f"kernel gets {best.cell.variant}",
            err=True,
        )
        choices = [_uniform(c, best.cell.variant) for c in choices]
    confirmed = {r.cell.variant: r for r in again}
    programs = [confirmed.get(r.cell.variant, r) for r in measured] + [tuned]
    written = outputs.write_all(out_dir, programs, [*measured, tuned], choices)
    if tune_png(measured, programs, choices, out_dir / "tune.png", label):
        written.append(out_dir / "tune.png")
    click.echo(outputs.table(programs, choices))
    if not tuned.ok:
        click.echo(
            f"accsat tune: the tuned build did not pass: {tuned.status} "
            f"({tuned.message}); no database written",
            err=True,
        )
        sys.exit(1)
    database.info["programs"] = {r.cell.variant: _median(r) for r in programs if r.ok}
    database.save(db_path)
    click.echo(f"wrote {db_path}; {', '.join(str(p) for p in written)}", err=True)
    click.echo(
        f"build with it: ACCSAT_TUNE={db_path}"
        + ("" if db_path.parent == root else f" ACCSAT_BUILD_DIR={root}"),
        err=True,
    )


def _combine(results: list[Result], names: list[str]) -> list[Result]:
    """One result per configuration from its rounds: every run's time and kernel rows;
    the first failed run's status if one failed."""
    out = []
    for name in names:
        mine = [r for r in results if r.cell.variant == name]
        cell = replace(mine[0].cell, size="all")
        failed = next((r for r in mine if not r.ok), None)
        times = [t for r in mine if r.ok for t in r.times]
        if failed is not None:
            out.append(
                Result(
                    cell,
                    failed.status,
                    f"{failed.cell.size}: {failed.message}",
                    verified=failed.verified,
                    times=times,
                )
            )
            continue
        kernels = profile.concat([r.extra.get("kernels", []) for r in mine])
        out.append(
            Result(
                cell, OK, verified=True, seconds=min(times), times=times, extra={"kernels": kernels}
            )
        )
    return out


def _median(r: Result) -> float | None:
    m = median(r.times)
    return None if m is None else round(m, 6)


def _run(sweep: Sweep, cells: list[Cell]) -> list[Result]:
    """The cells' results; a detached Slurm sweep returns here (the same command collects)."""
    results = finish(sweep, cells, lambda _partial: None)
    if len(results) != len(cells):
        sys.exit(0)  # detached: finish() said how to collect
    return results


def _choices(results: list[Result], cells: Path) -> list[Choice]:
    orig = results[0]
    if not orig.ok:
        raise click.ClickException(
            f"orig did not pass ({orig.status}: {orig.message}); fix --build, --run or "
            f"--check first (logs in {cells})"
        )
    rows: dict[tuple, dict[str, dict]] = {}
    for r in results:
        for k in r.extra.get("kernels", []) if r.ok else []:
            rows.setdefault((k["file"], k["line"], k["hash"]), {})[r.cell.variant] = k
    if not rows:
        raise click.ClickException(
            "the runs wrote no kernel timings: does --build compile through accsat-cc "
            '(CC="accsat-cc gcc"), and does the program exit normally?'
        )
    return [choose(by, by.get(ORIG) or next(iter(by.values()))) for _, by in sorted(rows.items())]


def _database(suite: TuneSuite, choices: list[Choice], results: list[Result]) -> Database:
    entries = [
        Entry(c.file, c.line, c.hash, c.construct, c.config, c.gain, c.noise) for c in choices
    ]
    info = {
        "build": suite.build_cmd,
        "run": suite.run_cmd,
        "clean": suite.clean_cmd,
        "check": suite.check,
        "runs": suite.runs,
        "programs": {r.cell.variant: _median(r) for r in results if r.ok},
    }
    return Database(entries, str(suite.dir), info)


def _best_uniform(results: list[Result]) -> Result | None:
    ok = [r for r in results if r.ok and r.times]
    return min(ok, key=lambda r: statistics.median(r.times)) if ok else None


def _slower(tuned: Result, best: Result) -> bool:
    """Slower than ``best`` by more than the noise of either's runs."""
    noise = max(spread(tuned.times), spread(best.times), NOISE_FLOOR)
    t, b = median(tuned.times), median(best.times)
    return t is not None and b is not None and t > b * (1 + noise)


def _uniform(c: Choice, config: str) -> Choice:
    return Choice(
        c.kernel,
        c.file,
        c.line,
        c.hash,
        c.construct,
        config,
        None,
        None,
        f"{config} for every kernel: faster for the whole program than the "
        f"per-kernel choice ({c.config}: {c.reason})",
    )
