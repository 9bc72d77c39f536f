"""``accsat bench spec`` (also ``python -m spec_harness``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from accsat.cliparams import CONTEXT_SETTINGS
from accsat.sweep.cells import grid, split_list
from accsat.sweep.cli import (
    common_sweep_options,
    executor_options,
    finish,
    parse_compilers,
    parse_variants,
)
from accsat.sweep.engine import Sweep
from accsat.sweep.outputs import write_sweep

from .direct import DirectSuite
from .flags import flags_listing
from .layout import PAPER_BENCHMARKS, SIZES, SpecTree
from .runspec import RunspecSuite


@click.command("spec", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--spec-root",
    type=click.Path(exists=True, file_okay=False),
    default=lambda: os.environ.get("SPEC_ROOT") or os.environ.get("SPEC"),
    help="the SPEC ACCEL installation (holding shrc, benchspec/ACCEL); "
    "default $SPEC_ROOT, else $SPEC",
)
@click.option(
    "--benchmarks",
    default=",".join(b.split(".")[0] for b in PAPER_BENCHMARKS),
    show_default=True,
    metavar="LIST",
    help="numbers or names (303, ostencil, 303.ostencil)",
)
@click.option(
    "--size",
    "sizes",
    default="test",
    show_default=True,
    metavar="LIST",
    help="input set(s): test, train, ref",
)
@click.option(
    "--target",
    "targets",
    default="host",
    show_default=True,
    metavar="LIST",
    help="host and/or nvptx (offloaded; runs only where nvidia-smi finds a GPU)",
)
@click.option(
    "--mode",
    type=click.Choice(["runspec", "direct"]),
    default="runspec",
    show_default=True,
    help="runspec: SPEC's harness with a generated config; direct: compile src/ and validate here",
)
@click.option(
    "--make-jobs",
    default=None,
    type=click.IntRange(1),
    help="make -j inside one runspec build [default: cores / --jobs]",
)
@click.option(
    "--show-flags", is_flag=True, help="print the flags each benchmark gets per compiler and stop"
)
@common_sweep_options
@executor_options
def spec(
    spec_root,
    benchmarks,
    sizes,
    targets,
    mode,
    make_jobs,
    show_flags,
    compilers,
    variants,
    runs,
    jobs,
    out,
    timeout,
    build_timeout,
    force,
    retry_failed,
    rerun,
    progress,
    executor,
) -> None:
    """Sweep SPEC ACCEL's C benchmarks: every benchmark x size x compiler x variant,
    built through accsat-cc, run, validated, timed; results.csv, results.json,
    speedup.png and a table.

    Each cell has its own folder under OUT/cells and is cached there: running
    the same command again resumes.
    """
    comp = parse_compilers(compilers)
    target_list = split_list(targets)
    bad = [t for t in target_list if t not in ("host", "nvptx")]
    if bad:
        raise click.BadParameter(", ".join(bad), param_hint="--target")
    if show_flags:
        for t in target_list:
            click.echo(flags_listing(list(comp.values()), t))
        return
    if not spec_root:
        raise click.UsageError("give --spec-root or set SPEC_ROOT")
    tree = SpecTree(Path(spec_root).resolve())
    names = []
    for b in split_list(benchmarks):
        found = tree.resolve(b)
        if found is None:
            raise click.BadParameter(
                f"{b} is not in {tree.benchspec} (found {', '.join(tree.benchmarks()) or 'none'})",
                param_hint="--benchmarks",
            )
        names.append(found)
    size_list = split_list(sizes)
    if any(s not in SIZES for s in size_list):
        raise click.BadParameter(f"{sizes} (test, train, ref)", param_hint="--size")
    out_dir = Path(out or "spec-results").resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    cls = RunspecSuite if mode == "runspec" else DirectSuite
    suite = cls(
        tree,
        out_dir,
        comp,
        runs=runs,
        timeout=timeout,
        build_timeout=build_timeout,
        make_jobs=make_jobs or max(1, (os.cpu_count() or 1) // jobs),
    )
    cells = grid("spec", names, size_list, list(comp), target_list, parse_variants(variants))
    sweep = Sweep(
        suite,
        out_dir,
        executor(out_dir, jobs),
        force=force,
        retry_failed=retry_failed,
        rerun=rerun,
        progress=progress,
    )
    finish(sweep, cells, lambda rs: write_sweep(rs, out_dir, "size"))
