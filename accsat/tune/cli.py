"""``accsat tune``: build and time every configuration, choose per kernel, check the choice.

1. every configuration (``--variants``, orig always) is built once through the
   sweep engine (suite.py) with the timers in, in a copy of the project
   (``--root``, default the git top level of ``--dir``), and run in rounds,
   each round one run of every configuration, back to back. The first round
   fails fast: a configuration whose build or run fails is not run again, and
   orig failing stops the tuner with the last lines of its log;
2. per construct, from the paired per-round ratios of its shortest launch (its
   mean launch where launches differ in size; choose.py): a variant whose whole
   interval is faster than orig by more than the floor, else orig. ``--runs`` rounds first; then one round more at a time
   while a construct is still open, up to ``--max-runs``; one still open then takes the
   uniform configuration faster than orig for the whole program (_settle;
   choose.program_verdict);
3. the check: ``tuned`` (built with that database) and every verified
   configuration again, in rounds of their own (the rounds a verdict needs, then
   one more at a time up to ``--max-runs`` while one may still prove faster, or
   tuned faster than _pays's pick, below: _confirm); where a
   uniform configuration (orig included) was faster than tuned for the whole program
   (the kernels' time at their fastest launches, or as they came, or the program's wall
   time without kernel times, paired per round: choose.program_verdict), every kernel
   gets that configuration; where none was, but tuned was not shown faster than the
   uniform configuration fastest against orig, every kernel gets that one (_pays, the
   first check only). The check is then done again (in the rounds a verdict needs);
   beaten again, every kernel gets orig, or the per-kernel choice again after a
   fallback of _pays (_check);
4. the database goes to ``--db`` (only once tuned verified), the tables and
   the plot to ``--out``: programs from the check, kernels from step 1.
"""

from __future__ import annotations

import math
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import click

from .. import ccconfig
from ..cliparams import CONTEXT_SETTINGS
from ..options import BUDGETED, CONFIGS, ORIG, TUNED
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
from ..toolchain import process
from ..toolchain.records import write_csv
from . import outputs, profile, static
from .choose import (
    NOT_REWRITTEN,
    PROGRAM_PAIRS,
    UNDECIDED,
    UNIFORM,
    Choice,
    Ratios,
    choose,
    common_totals,
    every_round,
    median,
    program_verdict,
    summarise,
)
from .db import Database, Entry
from .plot import tune_png
from .static import STATIC_ROUND
from .suite import BUILD_LOG, NO_FIGURES, OUT_MARKER, TuneSuite, tree_fingerprint

DB_NAME = "accsat-tune.json"
# checks at most: the choice; the uniform configuration that beat it; orig for every
# kernel if that was beaten too (the code as written: accepted as it is)
CHECKS = 3
OUT_NAME = "accsat-tune"
# what a whole program's comparison measured (Ratios.by, in its reasons: _margins)
KERNELS_AT_FASTEST = "its kernels, each at its shortest launch where its launches are alike"
KERNELS_AS_CAME = "its kernels, every launch as it came"
PROGRAM_WALL = "the program's wall time"


@click.command("tune", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--build",
    "build_cmd",
    required=True,
    metavar="CMD",
    help='builds the program through accsat-cc (e.g. make CC="accsat-cc gcc"); '
    "run by /bin/sh in the copy of --dir inside a copy of --root",
)
@click.option(
    "--run",
    "run_cmd",
    default="",
    metavar="CMD",
    help="runs the program once (e.g. ./app input); with --static, optional: the tuned "
    "build is run once and checked",
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
    default=None,
    metavar="LIST",
    help=f"configurations to compare; orig is always included; VARIANT@BUDGET is a "
    f"variant within a register budget (any, keep, N) [default: {','.join(CONFIGS)}; "
    f"with --static: orig,{','.join(BUDGETED)}]",
)
@click.option(
    "--static",
    "static_only",
    is_flag=True,
    help="choose from the device code alone, for machines that cannot time the GPU: "
    "loads, registers, occupancy and spills (gcc's nvptx offload compiler and ptxas "
    "needed; docs/accsat-cc.md); builds each configuration once and runs tuned once "
    "with --run (--runs and --max-runs do not apply)",
)
@click.option(
    "--runs",
    default=3,
    show_default=True,
    type=click.IntRange(1),
    help="rounds of runs at least (each round: one run of every configuration)",
)
@click.option(
    "--max-runs",
    default=10,
    show_default=True,
    type=click.IntRange(1),
    help="rounds at most: more are added one at a time while a kernel's choice is open "
    "(and in the check, while a configuration may prove faster than the choice)",
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
    help="the build directory (the commands run there)",
)
@click.option(
    "--root",
    "root_dir",
    default=None,
    type=click.Path(exists=True, file_okay=False),
    help="the project copied for each build (what the Makefile reaches) "
    "[default: the git top level of --dir, else --dir]",
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
    max_runs,
    db,
    out,
    directory,
    root_dir,
    timeout,
    build_timeout,
    jobs,
    force,
    progress,
    executor,
    static_only,
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
    if not run_cmd and not static_only:
        raise click.UsageError("Missing option '--run' (needed unless --static).")
    root = Path(directory).resolve()
    project = _project(root, root_dir)
    out_dir = Path(out).resolve() if out else root / OUT_NAME
    db_path = Path(db).resolve() if db else root / DB_NAME
    given = (
        variants
        if variants is not None
        else ",".join((ORIG, *BUDGETED) if static_only else CONFIGS)
    )
    configs = [ORIG, *(v for v in parse_variants(given) if v != ORIG)]
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
        tree=tree_fingerprint(project, exclude),
        exclude=exclude,
        root=project,
        static=static_only,
    )

    def sweep(cells: list[Cell]) -> list[Result]:
        """One sweep per call, so that each says what it built. A failure cached by an
        earlier tuning is tried again (a busy machine's timeout); in this one, a
        configuration that failed is not asked for again."""
        engine = Sweep(
            suite,
            out_dir,
            executor(out_dir, jobs),
            force=force,
            progress=progress,
            retry_failed=True,
        )
        return _run(engine, cells)

    def measure(tag: str, names: list[str], first: int, last: int) -> list[Result]:
        """Rounds ``first..last``, each one run of every configuration in ``names``, back
        to back, in an order turned by one place a round (``turned``): a drift of the
        machine hits them all alike."""
        return sweep(
            [
                Cell("tune", label, f"{tag}{i}", "cc", "host", c)
                for i in range(first, last + 1)
                for c in turned(names, i)
            ]
        )

    if force:
        shutil.rmtree(out_dir / "builds", ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / OUT_MARKER).touch()
    label = root.name or "program"
    hint = (
        f"each build copies {project} only: where the build reaches outside it (../), "
        "give --root the folder that holds all it needs"
        if project == root and not root_dir
        else ""
    )
    if static_only:
        built = lambda names: sweep(  # noqa: E731
            [Cell("tune", label, STATIC_ROUND, "cc", "host", c) for c in names]
        )
        _tune_static(suite, built, measure, configs, out_dir, db_path, candidate, hint)
        return
    cap = max(runs, max_runs)
    measured, choices = _rounds(measure, configs, runs, cap, hint)
    verified = [r.cell.variant for r in measured if r.ok]

    def database_of(chosen: list[Choice]) -> Database:
        database = _database(suite, chosen, measured)
        database.save(candidate)
        return database

    choices, database, again = _check(choices, verified, runs, cap, measure, database_of, measured)
    tuned = again[-1]
    confirmed = {r.cell.variant: r for r in again}
    programs = [confirmed.get(r.cell.variant, r) for r in measured] + [tuned]
    written = outputs.write_all(out_dir, programs, [*measured, tuned], choices)
    if tune_png(measured, programs, choices, out_dir / "tune.png", label):
        written.append(out_dir / "tune.png")
    click.echo(outputs.table(programs, choices))
    _stop_unless_passed(tuned)
    database.info["programs"] = {r.cell.variant: _median(r) for r in programs if r.ok}
    database.save(db_path)
    _wrote(db_path, written, root)


def _stop_unless_passed(tuned: Result) -> None:
    """Exit 1, no database written, when the tuned build did not pass."""
    if not tuned.ok:
        click.echo(
            f"accsat tune: the tuned build did not pass: {tuned.status} "
            f"({tuned.message}); no database written",
            err=True,
        )
        sys.exit(1)


def _wrote(db_path: Path, written: list[Path], root: Path) -> None:
    click.echo(f"wrote {db_path}; {', '.join(str(p) for p in written)}", err=True)
    settings = {"tune": str(db_path)}
    if db_path.parent != root:
        settings["build_dir"] = str(root)
    words = (f"{k}={v}" for k, v in ccconfig.environment(**settings).items())
    click.echo(f"build with it: {' '.join(words)}", err=True)


def _tune_static(
    suite: TuneSuite,
    built: Callable[[list[str]], list[Result]],
    measure: Measure,
    configs: list[str],
    out_dir: Path,
    db_path: Path,
    candidate: Path,
    hint: str,
) -> None:
    """``--static``: every configuration built once with its device code figures; per
    kernel the choice of tune/static.py's model; tuned built (and run once, with
    ``--run``) to check it; the database, static.csv and choice.csv."""
    orig = built([ORIG])[0]  # alone first: if it fails, nothing else is built
    if not orig.ok:
        raise click.ClickException(_failed(orig, hint))
    results = [orig, *built(configs[1:])]
    for r in results:
        if not r.ok:
            click.echo(f"accsat tune: {r.cell.variant} left out: {r.message}", err=True)
    by_config = {r.cell.variant: static.views(r.extra["static"]) for r in results if r.ok}
    chosen = static.choices(by_config, static.listed(orig.extra["static"]))
    database = _database(suite, chosen, [])
    database.info["static"] = "loads within orig's occupancy (accsat tune --static)"
    database.save(candidate)
    tuned = built([TUNED])[0]
    if tuned.ok:
        by_config[TUNED] = static.views(tuned.extra["static"])
        if suite.run_cmd:
            tuned = _combine(measure("c", [TUNED], 1, 1), [TUNED])[0]
    totals = static.totals(by_config)
    written = [out_dir / "static.csv", out_dir / "choice.csv"]
    write_csv(written[0], static.STATIC_COLUMNS, static.static_rows(by_config, chosen))
    write_csv(written[1], outputs.CHOICE_COLUMNS, outputs.choice_rows(chosen))
    click.echo(static.table(totals, chosen))
    _stop_unless_passed(tuned)
    database.save(db_path)
    _wrote(db_path, written, suite.dir)


def _check(
    choices: list[Choice],
    verified: list[str],
    runs: int,
    cap: int,
    measure: Measure,
    database_of: Callable[[list[Choice]], Database],
    earlier: list[Result],
) -> tuple[list[Choice], Database, list[Result]]:
    """Step 3: the choices, their database and the last check's results (every verified
    configuration, then tuned). The first fallback is the uniform configuration that beat
    the choice; one beaten in turn gives way to orig for every kernel (the code as
    written: checked, never replaced), so the database written is never one that the last
    check saw beaten. At the first check, a choice no configuration beat but not shown
    faster than the uniform configuration fastest against orig gives way to that one
    (``_pays``); beaten in turn, that fallback gives the choice back, never beaten (not
    orig, which both were faster than). The choice's first check runs the rounds a
    verdict needs and adds rounds (up to ``cap``) while a configuration may still prove
    faster than the choice, or, none having, the choice faster than ``_pays``'s pick
    (``_may_pay``); a fallback's runs the rounds a verdict needs (it has beaten the
    choice already, and beaten in turn it gives way to orig, often slower than both);
    orig's, ``runs`` (kept whatever they say). ``earlier``: step 1's results, whose
    rounds count with the check's where uniform configurations meet orig (``_pooled``)."""
    needed = min(PROGRAM_PAIRS, cap)
    final = False
    per_kernel, fallback, paid = choices, "", False
    for attempt in range(CHECKS):
        database = database_of(choices)
        # the check: tuned beside every verified configuration again, in rounds of their
        # own (named by the database: another choice, another confirmation)
        names = [*verified, TUNED]
        first = runs if final else max(runs, needed)
        most = cap if attempt == 0 else first
        same = _same(choices)
        tag = f"c{database.digest()[:8]}-"
        again = _confirm(measure, tag, names, first, most, needed, same, earlier)
        best = None if final else _beats(again[-1], again[:-1], needed, same)
        beaten = "the per-kernel choice" if attempt == 0 else f"the fallback {fallback}"
        cause = f"faster for the whole program than {beaten} in the check"
        paying = _pays(again, needed, same, earlier) if best is None and attempt == 0 else None
        if paying is not None:
            best, q = paying
            paid = True  # (the choice was not beaten: it is where a beaten fallback goes)
            where = (
                "the tuning's and the check's rounds" if q.rounds > len(best.times) else "the check"
            )
            cause = (
                f"faster for the whole program than orig in {where} ({q.text()}), and "
                f"{beaten} was not shown faster than it in the check"
            )
        if best is None:
            break  # accepted
        if attempt > 0 and paid:  # the choice, never beaten, again rather than orig
            click.echo(
                f"accsat tune: {best.cell.variant} for every kernel was {cause}: the per-kernel "
                "choice again",
                err=True,
            )
            choices, final = per_kernel, True
            continue
        name = best.cell.variant if attempt == 0 else ORIG
        final = name == ORIG
        click.echo(
            f"accsat tune: {best.cell.variant} for every kernel was {cause}: every kernel "
            f"gets {name}",
            err=True,
        )
        choices = [_uniform(c, name, best.cell.variant, cause) for c in per_kernel]
        fallback = name
    return choices, database, again


def _project(build_dir: Path, given: str | None) -> Path:
    """The folder each build copies: ``--root``, else the git top level holding the
    build directory (not the home folder: a repository of dotfiles), else the build
    directory."""
    if given:
        project = Path(given).resolve()
        if not build_dir.is_relative_to(project):
            raise click.BadParameter(f"{build_dir} is not inside {project}", param_hint="--root")
        return project
    try:
        done = process.capture(["git", "rev-parse", "--show-toplevel"], timeout=30, cwd=build_dir)
    except OSError:  # no git
        return build_dir
    top = done.stdout.decode(errors="replace").strip()
    if not (done.returncode == 0 and top and build_dir.is_relative_to(Path(top).resolve())):
        return build_dir
    if Path(top).resolve() == Path.home().resolve():
        click.echo(
            f"accsat tune: the git top level is your home folder; copying {build_dir} only "
            "(give --root for more)",
            err=True,
        )
        return build_dir
    return Path(top).resolve()


Measure = Callable[[str, list[str], int, int], list[Result]]


def _rounds(
    measure: Measure, configs: list[str], runs: int, cap: int, hint: str = ""
) -> tuple[list[Result], list[Choice]]:
    """Step 1 and 2: the first round alone (fail fast), the rest of ``runs``, then one
    round at a time while a choice is open; per configuration one combined result."""
    # orig alone first, a probe outside the rounds: if it fails, nothing else is built
    probe = measure("p", [ORIG], 1, 1)[0]
    if not probe.ok:
        raise click.ClickException(_failed(probe, hint))
    results = measure("r", configs, 1, 1)  # round 1: every configuration back to back
    done = 1
    while True:
        measured = _combine(results, configs)
        live = [r.cell.variant for r in measured if r.ok]
        if not live or live[0] != ORIG:
            raise click.ClickException(_failed(measured[0], hint))
        if done < runs:
            results += measure("r", live, done + 1, runs)
            done = runs
            continue
        choices = _choices(measured, final=done >= cap)
        if done >= cap:
            return measured, _settle(measured, choices)
        if not any(c.open for c in choices):
            return measured, choices
        done += 1
        results += measure("r", live, done, done)


def _settle(measured: list[Result], choices: list[Choice]) -> list[Choice]:
    """Constructs still undecided at the round cap: the uniform configuration that is
    faster than orig for the whole program (its kernels' time against orig's, paired by
    round: ``program_verdict``, a sum over many kernels that busy spells hide less than one
    kernel's time) takes them, where their own rounds lean its way (the median ratio
    under 1) or where they have none (no round quiet for both), unless their mean
    launches are slower by the floor (``_leans``); else orig stays. On a slow,
    busy machine most constructs of NPB's BT stayed undecided and kept orig, 1.079x the
    best uniform configuration; LU's undecided ones, each 1-3 % faster under a variant,
    kept orig while the program was 4-5 % faster under it (when the program's interval
    had to lie wholly below the floor). Later, with the program 17 % faster under cse,
    19 of BT's 46 kernels stayed undecided, most without a round quiet for both, and
    kept orig: the tuned build, timed quietly, took 1.090x the time of uniform cse+sat."""
    undecided = [c for c in choices if c.kept == UNDECIDED]
    if not undecided or not measured[0].ok:
        return choices
    best: tuple[float, str, Ratios] | None = None
    for r in measured[1:]:
        if not r.ok:
            continue
        for q in _margins(r, measured[0], min(PROGRAM_PAIRS, len(measured[0].times))):
            if program_verdict(q) == "faster" and (best is None or q.median < best[0]):
                best = (q.median, r.cell.variant, q)
    if best is None:
        return choices
    _, config, q = best
    out = []
    for c in choices:
        mine = c.ratios.get(config)
        if c.kept != UNDECIDED or mine is None or not _leans(mine):
            out.append(c)
            continue
        out.append(
            replace(
                c,
                config=config,
                gain=1 / mine.median if mine.rounds else None,  # (its own, where known)
                kept="",
                reason=f"{config} for the whole program, faster than orig: {q.text()} "
                f"(alone undecided: {mine.text()})",
            )
        )
    return out


def _leans(mine: Ratios) -> bool:
    """Whether an undecided construct's own rounds let the program's configuration take
    it: their median under 1, or no round quiet for both; and its mean launches not
    slower by the floor (``Ratios.slower_on_average``)."""
    return not mine.slower_on_average and (not mine.rounds or mine.median < 1)


def _failed(orig: Result, hint: str = "") -> str:
    """orig's failure, with the last lines of its log (and ``hint`` after a build's)."""
    fix = "fix --build, --run or --check first"
    log = orig.extra.get("log")
    if not log:
        return f"orig did not pass ({orig.status}: {orig.message}); {fix}"
    if orig.message.startswith(NO_FIGURES):  # the build passed: what it lacks, no log
        return f"orig did not pass ({orig.status}: {orig.message}); see {log}"
    text = f"orig did not pass ({orig.status}); {fix}"
    lines = [ln for ln in process.tail(Path(log), 4000).splitlines() if ln.strip()][-10:]
    more = [hint] if hint and Path(log).name == BUILD_LOG else []
    return "\n".join([f"{text}. The end of {log}:", *("  " + ln for ln in lines), *more])


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
                    extra={k: v for k, v in failed.extra.items() if k == "log"},
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


def _choices(results: list[Result], final: bool) -> list[Choice]:
    """Per construct, from the combined results (orig first and verified)."""
    rows: dict[tuple, dict[str, dict]] = {}
    for r in results:
        for k in r.extra.get("kernels", []) if r.ok else []:
            rows.setdefault((k["file"], k["line"], k["hash"]), {})[r.cell.variant] = k
    if not rows:
        raise click.ClickException(
            "the runs wrote no kernel timings: does --build compile through accsat-cc "
            '(CC="accsat-cc gcc"), and does the program exit normally?'
        )
    return [
        choose(by, by.get(ORIG) or next(iter(by.values())), final) for _, by in sorted(rows.items())
    ]


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


def _confirm(
    measure: Measure,
    tag: str,
    names: list[str],
    first: int,
    most: int,
    needed: int,
    same: str | None,
    earlier: list[Result],
) -> list[Result]:
    """One check: ``first`` rounds of the configurations ``names`` (tuned last), then one
    round more at a time, up to ``most``, while a uniform configuration may still prove
    faster than tuned by more than any that has (``program_verdict`` open, its median
    under theirs: as a construct's open variant that may still beat the winner), or,
    none having beaten tuned, while tuned may still prove faster than the configuration
    ``_pays`` would give way to (``_may_pay``)."""
    results = measure(tag, names, 1, first)
    done = first
    while True:
        again = _combine(results, names)
        verdicts = _verdicts(again[-1], again[:-1], needed, same)
        faster = verdicts.get("faster", [])
        best = min((q.median for q, _ in faster), default=math.inf)
        won = {r.cell.variant for _, r in faster}  # by one measure: no rival of itself
        rivals = [
            q for q, r in verdicts.get("open", []) if q.median < best and r.cell.variant not in won
        ]
        if done >= most or not (rivals or (not faster and _may_pay(again, needed, same, earlier))):
            return again
        done += 1
        results += measure(tag, names, done, done)


def _same(choices: list[Choice]) -> str | None:
    """The configuration every construct has, if one, those no variant rewrote aside (the
    same code in every configuration): tuned is that uniform one's code."""
    configs = {c.config for c in choices if c.kept != NOT_REWRITTEN}
    return configs.pop() if len(configs) == 1 else None


def turned(names: list[str], round_: int) -> list[str]:
    """``names`` turned by one place a round: none runs first or last in every round (a
    drift over the rounds, or a load as periodic as a round, would favour a place, and
    a program's comparison counts the rounds that go its way)."""
    k = round_ % len(names) if names else 0
    return names[k:] + names[:k]


def _verdicts(
    tuned: Result, uniform: list[Result], needed: int, same: str | None = None
) -> dict[str, list[tuple[Ratios, Result]]]:
    """Per ``program_verdict`` of a uniform configuration's time over tuned's (either
    measure of ``_margins``), the (ratios, configuration) pairs that have it; the
    configuration ``same`` as tuned left out (its own code: only noise between them)."""
    out: dict[str, list[tuple[Ratios, Result]]] = {}
    for r in uniform if tuned.ok else []:
        if r.ok and r.cell.variant != same:
            for q in _margins(r, tuned, needed):
                out.setdefault(program_verdict(q), []).append((q, r))
    return out


def _beats(
    tuned: Result, uniform: list[Result], needed: int, same: str | None = None
) -> Result | None:
    """The uniform configuration faster than tuned for the whole program in the check
    (``program_verdict`` over ``needed`` rounds, every round paired, busy or not: its
    interval below 1, its median gain more than half the floor), by the kernels both
    timed: at their fastest launches, or every launch as it came (a kernel whose
    launches differ in size); by the program's wall time where neither has kernel
    times. The one with the largest median margin; None when none was. Orig among them:
    a tuned build the check sees slower than the code as written is not kept."""
    faster = _verdicts(tuned, uniform, needed, same).get("faster")
    return min(faster, key=lambda m: m[0].median)[1] if faster else None


def _pays(
    again: list[Result], needed: int, same: str | None, earlier: list[Result]
) -> tuple[Result, Ratios] | None:
    """The uniform configuration faster than orig for the whole program by the largest
    margin, as the check measured it, and that margin (``_fastest_against_orig``),
    unless the per-kernel choice
    (``again[-1]``) was shown faster than it too: a choice of configurations kernel by
    kernel must show that it pays over the best single one. Its kernels were each
    measured in builds of one configuration, beside other code than in the tuned build
    (NPB BT W on one core: a kernel as written timed up to 12 % apart in the uniform and
    the tuned build), so that their sum may miss; on a busy machine the check seldom
    shows a loss of a few % (BT's tuned build over uniform cse, timed quietly after four
    tunings: 1.026, 1.080, 1.004, 1.041)."""
    found = _fastest_against_orig(again, needed, same, earlier)
    if found is None or _verdicts(found[0], [again[-1]], needed).get("faster"):
        return None  # (that verdict is of tuned's time over best's)
    return found


def _may_pay(again: list[Result], needed: int, same: str | None, earlier: list[Result]) -> bool:
    """Whether the per-kernel choice, not yet shown faster than ``_pays``'s pick, may
    still be (``program_verdict`` open, its median time under the pick's): more rounds
    can prove a mix that really pays, which ``_pays`` would otherwise give away."""
    found = _fastest_against_orig(again, needed, same, earlier)
    if found is None:
        return False
    verdicts = _verdicts(found[0], [again[-1]], needed)  # tuned's time over best's, per measure
    return not verdicts.get("faster") and any(q.median < 1 for q, _ in verdicts.get("open", []))


def _fastest_against_orig(
    again: list[Result], needed: int, same: str | None, earlier: list[Result]
) -> tuple[Result, Ratios] | None:
    """The uniform configuration faster than orig for the whole program by the largest
    margin (``program_verdict``, either measure of ``_margins``) in the check's rounds
    and step 1's (``_pooled``), as the check measured it, and that margin; None where
    none was, or where that one is the choice's own code (``same``)."""
    pooled = _pooled(earlier, again[:-1])
    by_name = {r.cell.variant: r for r in pooled}
    orig, tuned = by_name.get(ORIG), again[-1]
    if orig is None or not (orig.ok and tuned.ok):
        return None
    uniform = [r for r in pooled if r.cell.variant != ORIG]
    faster = _verdicts(orig, uniform, needed).get("faster")
    if not faster:
        return None
    q, fastest = min(faster, key=lambda m: m[0].median)
    name = fastest.cell.variant
    return None if name == same else (next(r for r in again if r.cell.variant == name), q)


def _pooled(earlier: list[Result], again: list[Result]) -> list[Result]:
    """``again``'s configurations, each with its rounds of ``earlier`` before the
    check's, where it passed both: the same builds, run in rounds of every
    configuration back to back in both (the tuned build aside), so that their paired
    rounds ask one question. A uniform configuration's gain over orig is the sum of
    many kernels' and a busy machine blurs each round's: on one core under busy
    loops, NPB LU's cse+sat was 4-6 % faster than orig in 7 of 10 tuning rounds and in
    8 of 10 check rounds, neither enough alone for the sign test, 15 of 20 enough."""
    before = {r.cell.variant: r for r in earlier if r.ok}
    if ORIG not in before or not all(r.cell.variant in before for r in again if r.ok):
        return again  # rounds of one phase against two: none pooled
    out = []
    for r in again:
        e = before.get(r.cell.variant)
        if e is None or not r.ok:
            out.append(r)
            continue
        parts = [e.extra.get("kernels", []), r.extra.get("kernels", [])]
        kernels = profile.concat(parts, [len(e.times), len(r.times)])
        times = [*e.times, *r.times]
        out.append(
            replace(r, times=times, seconds=min(times), extra={**r.extra, "kernels": kernels})
        )
    return out


def _margins(one: Result, other: Result, needed: int) -> list[Ratios]:
    """``one``'s time over ``other``'s, per measure (see ``_beats``), paired in every
    round (``every_round``), with the rounds a verdict ``needed``."""
    mine, theirs = one.extra.get("kernels", []), other.extra.get("kernels", [])
    out = []
    for mean, by in ((False, KERNELS_AT_FASTEST), (True, KERNELS_AS_CAME)):
        a, b = common_totals(mine, theirs, mean)
        if any(x is not None for x in a):
            out.append(summarise(every_round(b, a), needed, by))
    if not out:
        out.append(summarise(every_round(other.times, one.times), needed, PROGRAM_WALL))
    return out


def _uniform(c: Choice, config: str, faster: str, cause: str) -> Choice:
    """``c`` (the per-kernel choice) given way to ``config`` for every kernel because
    ``faster`` for every kernel was ``cause`` (_check): ``faster`` itself, or orig, where
    a fallback was beaten in turn (the code as written, not what beat it)."""
    assert config in (faster, ORIG)
    head = (
        f"{config} for every kernel: {cause}"
        if config == faster
        else f"orig for every kernel (the code as written): {faster} for every kernel was {cause}"
    )
    return Choice(
        c.kernel,
        c.file,
        c.line,
        c.hash,
        c.construct,
        config,
        None,
        None,
        f"{head} (per kernel: {c.config}: {c.reason})",
        kept=UNIFORM if config == ORIG else "",
        ratios=c.ratios,
    )
