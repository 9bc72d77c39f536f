"""The SPEC ACCEL config file of one cell, from templates/accel.cfg.j2."""

from __future__ import annotations

import re
import shlex
from importlib import resources
from pathlib import Path

import jinja2

from accsat import ccconfig
from accsat.options import ORIG
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.toolchain.compilers import Compiler, Flags

from .flags import LIBS
from .layout import model


def extension(cell: Cell) -> str:
    """runspec's ``ext``: letters, digits, dots, dashes only."""
    variant = re.sub(r"[^A-Za-z0-9.-]", "-", cell.variant)
    return f"accsat-{cell.compiler}-{cell.target}-{variant}"


def cc_line(cell: Cell, compiler: Compiler, report: Path, event_log: Path, cache: Path) -> str:
    """CC with the accsat environment in front: runspec's make runs it through /bin/sh."""
    cc = accsat_cc.cc_command(cell.variant, compiler.command)
    if cell.variant == ORIG:
        return cc
    env = {
        **accsat_cc.config_environment(cell.variant),
        **ccconfig.environment(report=str(report), events=str(event_log), cache_dir=str(cache)),
    }
    return "env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + cc


def render(
    cell: Cell,
    compiler: Compiler,
    flags: Flags,
    output_root: Path,
    iterations: int,
    make_jobs: int,
    report: Path,
    event_log: Path,
    cache: Path,
) -> str:
    template = jinja2.Template(
        resources.files("spec_harness").joinpath("templates/accel.cfg.j2").read_text(),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    return template.render(
        benchmark=cell.benchmark,
        model=model(cell.benchmark),
        size=cell.size,
        compiler=compiler.command,
        target=cell.target,
        variant=cell.variant,
        orig=ORIG,
        ext=extension(cell),
        output_root=str(output_root),
        iterations=iterations,
        make_jobs=make_jobs,
        run_env=list(flags.run_env),
        cc=cc_line(cell, compiler, report, event_log, cache),
        optimize=" ".join(flags.compile),
        # OPTIMIZE is on the link line too: only what linking adds goes here
        ldflags=" ".join(f for f in flags.link if f not in flags.compile),
        libs=" ".join(LIBS),
    )
