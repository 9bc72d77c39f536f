"""The ``tuned`` cell: ``accsat tune`` on one benchmark and class, then a build with its database.

Its build step runs the tuner on the benchmark (the sweep's other variants,
orig included, ``--runs`` runs each, NPB's own verification as ``--check``),
in ``OUT/cells/<key>/tune``, then builds the cell's tree like any other cell
with ``ACCSAT_TUNE`` set, without timers; the run step is every cell's. The
tuner's timing runs happen inside the build step: with ``--jobs`` above 1
they may share the machine with other builds.

``tune_command`` is also what ``benchmarks/tune_npb.py`` runs.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from accsat import ccconfig
from accsat.options import DEFAULT_VARIANT, TUNED
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.sweep.results import BUILD_FAILED, TIMEOUT
from accsat.toolchain import process
from accsat.toolchain.compilers import Compiler, Flags

from .build import make_commands
from .tree import source_dir

CHECK = r"Verification\s*=\s*SUCCESSFUL"  # NPB's own verification against its references


def tune_command(
    root: Path,
    benchmark: str,
    cls: str,
    compiler: Compiler,
    flags: Flags,
    make_jobs: int,
    variants: list[str],
    runs: int,
    out: Path,
    db: Path,
    timeout: float,
    build_timeout: float,
) -> list[str]:
    """``accsat tune`` for ``root/benchmark`` at class ``cls``: the harness's own make line
    (every configuration through accsat-cc), NPB's binary, NPB's verification."""
    src = shlex.quote(source_dir(root / benchmark).name)
    cell = Cell("npb", benchmark, cls, compiler.name, "host", TUNED)
    make = " && ".join(shlex.join(c) for c in make_commands(cell, compiler, flags, make_jobs))
    return [
        sys.executable,
        "-m",
        "accsat.cli",
        "tune",
        "--dir",
        str(root / benchmark),
        # the benchmark's folder holds all its build reaches (config, sys, common)
        "--root",
        str(root / benchmark),
        "--clean",
        f"cd {src} && make clean >/dev/null && rm -f ../sys/setparams",
        "--build",
        f"cd {src} && {make}",
        # BT class W needs more than 8 MiB of stack even unmodified
        "--run",
        f"cd {src} && ulimit -s unlimited 2>/dev/null; ./*.{cls}.x",
        "--check",
        CHECK,
        "--variants",
        ",".join(variants),
        "--runs",
        str(runs),
        "--out",
        str(out),
        "--db",
        str(db),
        "--timeout",
        str(timeout),
        "--build-timeout",
        str(build_timeout),
        "--no-progress",
    ]


def build_tuned(
    cell: Cell,
    root: Path,
    compiler: Compiler,
    flags: Flags,
    folder: Path,
    accsat_cache: Path,
    make_jobs: int,
    variants: list[str],
    runs: int,
    timeout: float,
    build_timeout: float,
) -> dict:
    """Tune, then build with the database: the cell's build record."""
    from .build import build_cell

    db = folder / "accsat-tune.json"
    db.unlink(missing_ok=True)
    log = folder / "tune.log"
    cmd = tune_command(
        root,
        cell.benchmark,
        cell.size,
        compiler,
        flags,
        make_jobs,
        variants,
        runs,
        folder / "tune",
        db,
        timeout,
        build_timeout,
    )
    # the sweep's accsat cache: the tuner's variants are the other cells' rewrites
    env = accsat_cc.environment(DEFAULT_VARIANT, None, accsat_cache)
    done = process.run(cmd, cwd=folder, env=env, timeout=build_timeout, stdout=log)
    if done.timed_out or done.returncode != 0 or not db.is_file():
        last = [ln for ln in process.tail(log).splitlines() if ln.strip()][-1:] or ["no output"]
        return {
            "ok": False,
            "seconds": round(done.seconds, 3),
            "log": str(log),
            "status": TIMEOUT if done.timed_out else BUILD_FAILED,
            "message": f"accsat tune: {last[0][:300]} (see {log})",
        }
    record = build_cell(
        cell,
        root,
        compiler,
        flags,
        folder,
        accsat_cache,
        make_jobs,
        build_timeout,
        ccconfig.environment(tune=str(db), build_dir=str(folder / "tree")),
    )
    record["seconds"] = round(record.get("seconds", 0.0) + done.seconds, 3)
    record["tune"] = str(folder / "tune")
    return record
