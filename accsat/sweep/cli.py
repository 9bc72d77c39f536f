"""What every ``accsat bench`` command shares: its sweep options, their parsing,
and running a sweep to its outputs (partial ones on Ctrl-C)."""

from __future__ import annotations

import functools
import signal
import sys
from collections.abc import Callable

import click

from ..cliparams import Parsed
from ..options import CONFIGS
from ..settings import Seconds
from ..toolchain.compilers import Compiler
from . import BUILD_TIMEOUT, RUN_TIMEOUT
from .cache import Busy
from .cells import Cell, check_variants, split_list
from .engine import Interrupted, Sweep
from .executor import Detached, ExecutorError
from .results import Result
from .slurm import SlurmOptions, executor_for

# shared with ``accsat tune``: a run and a build mean the same there
timeout_option = click.option(
    "--timeout",
    default=RUN_TIMEOUT,
    show_default=True,
    type=Parsed(Seconds(positive=True)),
    help="seconds per run before it counts as a timeout",
)
build_timeout_option = click.option(
    "--build-timeout",
    default=BUILD_TIMEOUT,
    show_default=True,
    type=Parsed(Seconds(positive=True)),
    help="seconds per build",
)


def common_sweep_options(f):
    """Options every harness takes, with the same meaning."""
    decorators = [
        click.option(
            "--compilers",
            default="gcc",
            show_default=True,
            metavar="LIST",
            help="gcc, clang, nvc; NAME=COMMAND for another command of a family (gcc=gcc-13)",
        ),
        click.option(
            "--variants",
            default=",".join(CONFIGS),
            show_default=True,
            metavar="LIST",
            help="orig (the plain compiler) and accsat variants, each optionally within a "
            "register budget (cse@keep, accsat@64); tuned: accsat tune's per-kernel choice "
            "(npb only); orig is always included",
        ),
        click.option(
            "--runs",
            default=3,
            show_default=True,
            type=click.IntRange(1),
            help="runs per cell; the best time is kept",
        ),
        click.option(
            "--jobs",
            default=1,
            show_default=True,
            type=click.IntRange(1),
            help="cells built at once (runs are always one at a time, alone)",
        ),
        click.option(
            "--out",
            "out",
            default=None,
            type=click.Path(file_okay=False),
            help="output folder (results, plots, cells cache)",
        ),
        timeout_option,
        build_timeout_option,
        click.option("--force", is_flag=True, help="redo every cell (ignore the cache)"),
        click.option(
            "--retry-failed",
            is_flag=True,
            help="redo cached cells that failed (build, run, verification)",
        ),
        click.option(
            "--rerun",
            is_flag=True,
            help="run every cell again on its cached build (to re-time on a quiet "
            "machine); builds only what is missing",
        ),
        click.option("--progress/--no-progress", default=True, show_default=True),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def executor_options(f):
    """``--executor local|slurm`` and the Slurm options (docs/harness.md). The command
    gets them as one argument, ``executor``: ``executor(out_dir, jobs)`` is its Executor."""
    decorators = [
        click.option(
            "--executor",
            "executor_kind",
            type=click.Choice(["local", "slurm"]),
            default="local",
            show_default=True,
            help="where cells run: this machine, or a Slurm job array",
        ),
        click.option("--partition", help="[slurm] partition (sbatch --partition)"),
        click.option("--account", help="[slurm] account to charge"),
        click.option(
            "--time",
            "time_limit",
            metavar="TIME",
            help="[slurm] time limit per cell (sbatch --time: MIN, H:MM:SS, D-HH)",
        ),
        click.option("--gpus-per-task", type=click.IntRange(0), help="[slurm] GPUs per cell"),
        click.option("--constraint", help="[slurm] node features (sbatch --constraint)"),
        click.option(
            "--max-jobs",
            type=click.IntRange(1),
            help="[slurm] cells running at once (the job array's %N)",
        ),
        click.option(
            "--sbatch-arg",
            "sbatch_args",
            multiple=True,
            metavar="ARG",
            help="[slurm] any other sbatch option, one word each "
            "(--sbatch-arg=--exclusive); repeatable",
        ),
        click.option(
            "--build-where",
            type=click.Choice(["job", "local"]),
            default="job",
            show_default=True,
            help="[slurm] build in each job, or here before submitting (--jobs at once)",
        ),
        click.option(
            "--detach",
            is_flag=True,
            help="[slurm] submit, print the job id and return; the same command again collects",
        ),
    ]

    @functools.wraps(f)
    def command(*args, executor_kind, **kwargs):
        names = SlurmOptions.__dataclass_fields__
        options = SlurmOptions(**{k: kwargs.pop(k) for k in names})
        if executor_kind == "local" and options.given():
            raise click.UsageError(f"{', '.join(options.given())}: only with --executor slurm")
        kwargs["executor"] = functools.partial(executor_for, executor_kind, options)
        return f(*args, **kwargs)

    for d in reversed(decorators):
        command = d(command)
    return command


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


def finish(
    sweep: Sweep, cells: list[Cell], write: Callable[[list[Result]], object]
) -> list[Result]:
    """Run the sweep, write its outputs (partial ones too on Ctrl-C), say how it went.

    SIGTERM and SIGHUP (unless ignored, as under nohup) stop it as Ctrl-C does:
    the builds and runs it started (in their own process groups) are ended
    with it, never left behind.
    """
    # a signal ignored at start stays ignored (nohup's SIGHUP, a background job's SIGINT)
    previous = {
        s: signal.getsignal(s)
        for s in (signal.SIGTERM, signal.SIGHUP)
        if signal.getsignal(s) is not signal.SIG_IGN
    }
    for s in previous:
        signal.signal(s, _stop)
    try:
        results = sweep.run(cells)
    except Busy as exc:
        raise click.ClickException(f"{exc}; wait for it or give another --out") from None
    except ExecutorError as exc:
        raise click.ClickException(str(exc)) from None
    except Detached as detached:  # stdout: the job id(s), for scripts
        click.echo(" ".join(detached.jobs))
        click.echo(
            f"detached: {detached.waiting} cells in Slurm job(s) "
            f"{', '.join(detached.jobs)}, {len(detached.results)} of {len(cells)} done; "
            "run the same command again to collect",
            err=True,
        )
        return detached.results
    except Interrupted as stop:
        write(stop.results)
        click.echo(
            f"interrupted: {len(stop.results)} of {len(cells)} cells done and cached; "
            "run the same command again to resume",
            err=True,
        )
        sys.exit(130)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    write(results)
    cached = sum(r.cached for r in results)
    click.echo(
        f"{len(results)} cell{'' if len(results) == 1 else 's'}: {cached} from the cache, "
        f"{len(sweep.built)} built, "
        f"{len(sweep.reused)} run on an earlier build; "
        f"{sum(r.ok for r in results)} ok",
        err=True,
    )
    return results
