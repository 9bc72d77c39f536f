"""``accsat bench npb`` (also ``python -m npb_harness``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from accsat.cliparams import CONTEXT_SETTINGS
from accsat.options import TUNED
from accsat.sweep.cells import grid, split_list
from accsat.sweep.cli import (
    common_sweep_options,
    executor_options,
    finish,
    parse_compilers,
    parse_variants,
)
from accsat.sweep.engine import Sweep
from accsat.sweep.outputs import write_ptx, write_sweep
from accsat.toolchain.compilers import TARGETS

from .suite import NPBSuite
from .tree import NPB_BENCHMARKS, available

SWEEP_TARGETS = tuple(t for t in TARGETS if t != "ptx")  # ptx is --ptx


@click.command("npb", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--npb-root",
    type=click.Path(exists=True, file_okay=False),
    default=lambda: os.environ.get("NPB_ROOT"),
    help="NPB-ACC (the folder holding BT, CG, ...); default $NPB_ROOT; only read",
)
@click.option("--benchmarks", default=",".join(NPB_BENCHMARKS), show_default=True, metavar="LIST")
@click.option("--classes", default="S", show_default=True, metavar="LIST", help="S,W,A,...")
@click.option(
    "--target",
    "targets",
    default="host",
    show_default=True,
    metavar="LIST",
    help="host and/or nvptx (offloaded; runs only where nvidia-smi finds a GPU)",
)
@click.option(
    "--ptx",
    is_flag=True,
    help="static GPU view instead of timings: gcc nvptx offload + ptxas -v per "
    "kernel and variant -> ptx.csv, ptx.png",
)
@click.option(
    "--advise",
    is_flag=True,
    help="accsat advise over every source instead of a sweep: accesses by class "
    "and neighbour groups per benchmark (first class) -> advise.json",
)
@click.option(
    "--make-jobs",
    default=None,
    type=click.IntRange(1),
    help="make -j inside one build [default: cores / --jobs]",
)
@common_sweep_options
@executor_options
def npb(
    npb_root,
    benchmarks,
    classes,
    targets,
    ptx,
    advise,
    make_jobs,
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
    """Sweep NPB-ACC: build every benchmark x class x compiler x variant through
    accsat-cc, run, verify, time; results.csv, results.json, speedup.png and a table.

    Each cell builds in its own copy of the benchmark's tree under OUT/cells
    and is cached there: running the same command again resumes.
    """
    if not npb_root:
        raise click.UsageError("give --npb-root or set NPB_ROOT")
    root = Path(npb_root).resolve()  # jobs may start elsewhere
    benches = split_list(benchmarks)
    missing = [b for b in benches if b not in available(root)]
    if missing:
        raise click.BadParameter(
            f"not in {root}: {', '.join(missing)} (found {', '.join(available(root)) or 'none'})",
            param_hint="--benchmarks",
        )
    if advise:
        from .advise import advise_command

        advise_command(root, benches, split_list(classes)[0], Path(out or "npb-advise"))
        return
    target_list = ["ptx"] if ptx else split_list(targets)
    bad = [t for t in target_list if t not in SWEEP_TARGETS and not ptx]
    if bad:
        raise click.BadParameter(
            f"{', '.join(bad)} (host or nvptx; --ptx for the PTX view)", param_hint="--target"
        )
    comp = parse_compilers(compilers)
    out_dir = Path(out or ("npb-ptx" if ptx else "npb-results")).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    suite = NPBSuite(
        root,
        out_dir,
        comp,
        runs=runs,
        timeout=timeout,
        build_timeout=build_timeout,
        make_jobs=make_jobs or max(1, (os.cpu_count() or 1) // jobs),
    )
    # "tuned": accsat tune over the other variants, per benchmark and class (npb_harness.tuned)
    wanted = split_list(variants)
    tuned = [TUNED] if TUNED in wanted and not ptx else []
    plain = parse_variants(",".join(v for v in wanted if v != TUNED))
    suite.tune_variants = tuple(plain)
    cells = grid("npb", benches, split_list(classes), list(comp), target_list, [*plain, *tuned])
    sweep = Sweep(
        suite,
        out_dir,
        executor(out_dir, jobs),
        force=force,
        retry_failed=retry_failed,
        rerun=rerun,
        progress=progress,
    )
    if ptx:
        finish(sweep, cells, lambda rs: write_ptx(rs, out_dir))
    else:
        finish(sweep, cells, lambda rs: write_sweep(rs, out_dir, "class"))
