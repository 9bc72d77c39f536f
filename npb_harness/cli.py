"""``accsat bench npb`` (also ``python -m npb_harness``)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import click

from .cache import Busy
from .cells import VARIANTS, check_variants, grid, split_list
from .compilers import TARGETS, Compiler
from .engine import Interrupted, Sweep
from .outputs import write_ptx, write_sweep
from .suite import NPBSuite
from .tree import NPB_BENCHMARKS, available

SWEEP_TARGETS = tuple(t for t in TARGETS if t != "ptx")  # ptx is --ptx


def common_sweep_options(f):
    """Options both harnesses take, with the same meaning."""
    decorators = [
        click.option("--compilers", default="gcc", show_default=True, metavar="LIST",
                     help="gcc, clang, nvc; NAME=COMMAND for another command of a family "
                          "(gcc=gcc-13)"),
        click.option("--variants", default=",".join(VARIANTS), show_default=True,
                     metavar="LIST", help="orig (the plain compiler) and accsat variants; "
                                          "orig is always included"),
        click.option("--runs", default=3, show_default=True, type=click.IntRange(1),
                     help="runs per cell; the best time is kept"),
        click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
                     help="cells built at once (runs are always one at a time, alone)"),
        click.option("--out", "out", default=None, type=click.Path(file_okay=False),
                     help="output folder (results, plots, cells cache)"),
        click.option("--timeout", default=900.0, show_default=True,
                     help="seconds per run before it counts as a timeout"),
        click.option("--build-timeout", default=3600.0, show_default=True,
                     help="seconds per build"),
        click.option("--force", is_flag=True, help="redo every cell (ignore the cache)"),
        click.option("--retry-failed", is_flag=True,
                     help="redo cached cells that failed (build, run, verification)"),
        click.option("--rerun", is_flag=True,
                     help="run every cell again on its cached build (to re-time on a quiet "
                          "machine); builds only what is missing"),
        click.option("--progress/--no-progress", default=True, show_default=True),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def parse_compilers(text: str) -> dict[str, Compiler]:
    compilers = [Compiler.parse(s) for s in split_list(text)]
    if not compilers:
        raise click.BadParameter("no compiler given", param_hint="--compilers")
    return {c.name: c for c in compilers}


def parse_variants(text: str) -> list[str]:
    variants = split_list(text)
    try:
        check_variants(variants)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--variants") from None
    return variants


def _stop(signum, _frame):
    raise KeyboardInterrupt


def finish(sweep: Sweep, cells, write) -> list:
    """Run the sweep, write its outputs (partial ones too on Ctrl-C), say how it went.

    SIGTERM and SIGHUP (unless ignored, as under nohup) stop it as Ctrl-C does:
    the builds and runs it started (in their own process groups) are ended
    with it, never left behind.
    """
    # a signal ignored at start stays ignored (nohup's SIGHUP, a background job's SIGINT)
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)
                if signal.getsignal(s) is not signal.SIG_IGN}
    for s in previous:
        signal.signal(s, _stop)
    try:
        results = sweep.run(cells)
    except Busy as exc:
        raise click.ClickException(f"{exc}; wait for it or give another --out") from None
    except Interrupted as stop:
        write(stop.results)
        click.echo(f"interrupted: {len(stop.results)} of {len(cells)} cells done and cached; "
                   "run the same command again to resume", err=True)
        sys.exit(130)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    write(results)
    cached = sum(r.cached for r in results)
    click.echo(f"{len(results)} cells: {cached} from the cache, {len(sweep.built)} built, "
               f"{len(sweep.reused)} run on an earlier build; "
               f"{sum(r.ok for r in results)} ok", err=True)
    return results


@click.command("npb")
@click.option("--npb-root", type=click.Path(exists=True, file_okay=False),
              default=lambda: os.environ.get("NPB_ROOT"),
              help="NPB-ACC (the folder holding BT, CG, ...); default $NPB_ROOT; only read")
@click.option("--benchmarks", default=",".join(NPB_BENCHMARKS), show_default=True,
              metavar="LIST")
@click.option("--classes", default="S", show_default=True, metavar="LIST", help="S,W,A,...")
@click.option("--target", "targets", default="host", show_default=True, metavar="LIST",
              help="host and/or nvptx (offloaded; runs only where nvidia-smi finds a GPU)")
@click.option("--ptx", is_flag=True,
              help="static GPU view instead of timings: gcc nvptx offload + ptxas -v per "
                   "kernel and variant -> ptx.csv, ptx.png")
@click.option("--make-jobs", default=None, type=click.IntRange(1),
              help="make -j inside one build [default: cores / --jobs]")
@common_sweep_options
def npb(npb_root, benchmarks, classes, targets, ptx, make_jobs, compilers, variants, runs,
        jobs, out, timeout, build_timeout, force, retry_failed, rerun, progress) -> None:
    """Sweep NPB-ACC: build every benchmark x class x compiler x variant through
    accsat-cc, run, verify, time; results.csv, results.json, speedup.png and a table.

    Each cell builds in its own copy of the benchmark's tree under OUT/cells
    and is cached there: running the same command again resumes.
    """
    if not npb_root:
        raise click.UsageError("give --npb-root or set NPB_ROOT")
    root = Path(npb_root)
    benches = split_list(benchmarks)
    missing = [b for b in benches if b not in available(root)]
    if missing:
        raise click.BadParameter(f"not in {root}: {', '.join(missing)} "
                                 f"(found {', '.join(available(root)) or 'none'})",
                                 param_hint="--benchmarks")
    target_list = ["ptx"] if ptx else split_list(targets)
    bad = [t for t in target_list if t not in SWEEP_TARGETS and not ptx]
    if bad:
        raise click.BadParameter(f"{', '.join(bad)} (host or nvptx; --ptx for the PTX view)",
                                 param_hint="--target")
    comp = parse_compilers(compilers)
    out_dir = Path(out or ("npb-ptx" if ptx else "npb-results")).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    suite = NPBSuite(root, out_dir, comp, runs=runs, timeout=timeout,
                     build_timeout=build_timeout,
                     make_jobs=make_jobs or max(1, (os.cpu_count() or 1) // jobs))
    cells = grid("npb", benches, split_list(classes), list(comp), target_list,
                 parse_variants(variants))
    sweep = Sweep(suite, out_dir, jobs=jobs, force=force, retry_failed=retry_failed,
                  rerun=rerun, progress=progress)
    if ptx:
        finish(sweep, cells, lambda rs: write_ptx(rs, out_dir))
    else:
        finish(sweep, cells, lambda rs: write_sweep(rs, out_dir, "class"))
