"""The ``accsat`` command."""

from __future__ import annotations

import contextlib
import difflib
import functools
import gc
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import click

from . import __version__
from .cliparams import CONTEXT_SETTINGS
from .cliparams import options as setting_options
from .errors import AccsatError
from .fileio import append_lines, readable, write_output
from .frontend.preprocess import PreprocessOptions
from .options import VARIANTS, Options
from .settings import build, declared

# Whether this process ends once its command returns (``entry``; not a CliRunner's call)
_ends_after_command = False

# Checked by click before the pipeline (a second of imports) is loaded: a missing file
# answers at once.
INPUT = click.Path(exists=True, dir_okay=False, readable=True)
MANY_KERNELS = 4  # a progress bar at once from this many kernels on, else after a second


def fail(message: str) -> None:
    click.echo(f"accsat: {message}", err=True)
    sys.exit(2)


def emit(text: str) -> None:
    """``text`` on stdout now, bytes as they came (undecodable ones carried by
    surrogateescape). A reader gone (EPIPE) ends quietly, as click does; any other
    failure (a full disk) in one line."""
    if sys.stdout is None:  # started with stdout closed (>&-)
        fail("cannot write to stdout: it is closed")
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        # what is still buffered would fail again, with a traceback, when Python exits
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
        fail(f"cannot write to stdout: {exc.strerror or exc}")


def append(path: str, text: str) -> None:
    """Append whole lines (reports from concurrent runs never interleave)."""
    try:
        append_lines(path, text)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """Kernels done / total on stderr for a person at a terminal (tqdm, imported only
    then); None when stderr is not one."""
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    bars: list = []  # the tqdm bar, once there is a total

    def update(done: int, total: int) -> None:
        if not total:
            return
        if not bars:
            from tqdm import tqdm

            bars.append(
                tqdm(
                    total=total,
                    desc=label,
                    unit="kernel",
                    leave=False,
                    file=sys.stderr,
                    delay=0 if total >= MANY_KERNELS else 1.0,
                )
            )
        bars[0].update(done - bars[0].n)

    try:
        yield update
    finally:
        for bar in bars:
            bar.close()


def no_kernels(file: str) -> str:
    return f"{file}: no OpenACC/OpenMP compute constructs"


# every rewrite setting is an option (accsat.settings; declared in accsat.options)
SETTINGS = tuple(s for s in declared(Options) if s.option)


def rewrite_options(*, without: tuple[str, ...] = (), stages_without: tuple[str, ...] = ()):
    """The options of the rewrite's settings, less those named in ``without`` and those
    read by a stage in ``stages_without`` (a command that never verifies takes neither
    ``--verify`` nor ``--trials``)."""
    return setting_options(
        s for s in SETTINGS if s.name not in without and s.stage not in stages_without
    )


def common_options(f):
    """Options shared by every command that rewrites, the settings apart: preprocessing
    and the report."""
    decorators = [
        click.option("-I", "includes", multiple=True, metavar="DIR", help="include directory"),
        click.option("-D", "defines", multiple=True, metavar="NAME[=VAL]", help="define a macro"),
        click.option("-U", "undefines", multiple=True, metavar="NAME", help="undefine a macro"),
        click.option(
            "-f",
            "fflags",
            multiple=True,
            metavar="FLAG",
            help="a compiler flag that changes C's types or semantics, as the compiler "
            "takes it (-funsigned-char, -fshort-enums, -fwrapv)",
        ),
        click.option(
            "-m",
            "mflags",
            multiple=True,
            metavar="FLAG",
            help="a target flag, as the compiler takes it (-mfpmath=387, -m32)",
        ),
        click.option("-std", "std", default=None, metavar="=STD", help="the C standard (-std=c11)"),
        click.option(
            "--openacc/--no-openacc",
            default=True,
            show_default=True,
            help="define _OPENACC while preprocessing",
        ),
        click.option(
            "--openmp/--no-openmp",
            default=True,
            show_default=True,
            help="define _OPENMP while preprocessing",
        ),
        click.option(
            "--report",
            "report_path",
            type=click.Path(dir_okay=False),
            default=None,
            help="append one JSON object per kernel (JSON Lines)",
        ),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def make_options(kw: dict) -> Options:
    """The Options of a command's keywords: its settings (by name), its preprocessing."""
    flags: list[str] = []
    flags += [f"-I{d}" for d in kw["includes"]]
    flags += [f"-D{d}" for d in kw["defines"]]
    flags += [f"-U{u}" for u in kw["undefines"]]
    flags += [f"-f{f}" for f in kw["fflags"]] + [f"-m{m}" for m in kw["mflags"]]
    flags += [f"-std={kw['std'].lstrip('=')}"] if kw["std"] else []
    return build(
        Options,
        {s.name: kw[s.name] for s in SETTINGS if s.name in kw},
        preprocess=PreprocessOptions(tuple(flags), kw["openacc"], kw["openmp"]),
    )


class _OneLineUsageError(click.UsageError):
    """``accsat rewrite: Invalid value for ...`` instead of click's usage, hint and error."""

    def show(self, file=None) -> None:
        path = self.ctx.command_path if self.ctx is not None else "accsat"
        click.echo(f"{path}: {' '.join(self.message.split())} (see {path} -h)", err=True)


def _one_line(exc: click.UsageError) -> click.UsageError:
    """click's usage, hint and error in one line; errors that show help stay as they are."""
    if type(exc).show is not click.UsageError.show:
        return exc
    return _OneLineUsageError(exc.format_message(), exc.ctx)


@dataclass(frozen=True)
class Lazy:
    """A subcommand whose code (and its imports: the sweep engine, tqdm, matplotlib,
    jinja2) loads only when it is used; ``help`` is the line ``--help`` lists for it
    (tests/cli/test_lazy.py checks it against the command's own)."""

    module: str
    attr: str
    help: str


class _LazyCommands(click.Group):
    """A group some of whose commands are :class:`Lazy`: listing them imports nothing."""

    lazy: dict[str, Lazy] = {}

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx, name):
        if name in self.commands or name not in self.lazy:
            return super().get_command(ctx, name)
        entry = self.lazy[name]
        try:
            module = importlib.import_module(entry.module)
        except ModuleNotFoundError as exc:
            if exc.name != entry.module.split(".")[0]:
                raise  # a package that is there but broken says why
            return None  # not installed (a harness): no such command
        command = getattr(module, entry.attr)
        command.short_help = entry.help  # listed the same, loaded or not
        return command

    def format_commands(self, ctx, formatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names), default=0)  # as click does
        rows = []
        for name in names:
            if name in self.lazy and name not in self.commands:
                rows.append((name, self.lazy[name].help))
                continue
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class _Main(_LazyCommands):
    """``accsat``: usage errors in one line (every subcommand's too), Ctrl-C exits 130
    with no traceback (click would say "Aborted!" and exit 1)."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except KeyboardInterrupt:
            click.echo("accsat: interrupted", err=True)
            ctx.exit(130)

    lazy = {
        "report": Lazy(
            "accsat.records.cli",
            "report",
            "Summarize a build's optimization records: a table, and a page with --html.",
        ),
        "tune": Lazy(
            "accsat.tune.cli",
            "tune",
            "Find, per kernel, the fastest variant on this machine (never slower "
            "than the code as written).",
        ),
    }


@click.group(cls=_Main, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="accsat")
def main() -> None:
    """accsat: optimize the innermost parallel loops of OpenACC/OpenMP C by equality saturation."""


@main.command()
@click.argument("file", type=INPUT)
@click.option(
    "-o",
    "output",
    type=click.Path(dir_okay=False),
    default=None,
    help="write the result here (the input itself only when named explicitly; -: standard output)",
)
@click.option("--diff", is_flag=True, help="print a unified diff against the input")
@click.option(
    "--header",
    "header",
    default=None,
    metavar="NAME",
    help="print (or diff, or write) the rewrite of NAME, a header FILE includes whose "
    "kernels are rewritten for FILE's compile, instead of FILE's",
)
@click.option(
    "--tune",
    "tune_db",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="DB",
    help="a tuning database (accsat tune): each kernel the config "
    "chosen for it (orig: as written), the others --variant",
)
@click.option("-v", "--verbose", is_flag=True, help="a remark per kernel on stderr (--remarks all)")
@rewrite_options()
@common_options
def rewrite(
    file: str,
    output: str | None,
    diff: bool,
    header: str | None,
    tune_db: str | None,
    verbose: bool,
    **kw,
) -> None:
    """Rewrite FILE's kernels (and those of the headers it includes); print the result
    (or a diff, or write it with -o)."""
    from .remarks import ALL, MISSED, kinds
    from .report import jsonl

    path = readable(file)  # ./-dash.c stays a file name for the preprocessor
    try:
        options = make_options(kw)
        if tune_db is not None:
            options = _tune_choices(options, file, tune_db)
        if _ends_after_command:  # the collector stays off to the end (pipeline.paused_gc)
            gc.disable()
        with progress_bar(file) as progress, helped(path, options) as share:
            from .pipeline import rewrite_file  # (after the fork: egglog's threads)

            result = rewrite_file(path, options, progress=progress, share=share)
    except AccsatError as exc:
        fail(str(exc))
        return
    if not result.kernels:
        click.echo(f"accsat: {no_kernels(file)}", err=True)
    wanted = kinds([level for level in (options.remarks, ALL if verbose else None) if level])
    _say_remarks(result.kernels, wanted)
    for r in result.kernels:
        if r.worth_a_warning and MISSED not in wanted:  # else its remark said it
            click.echo(f"accsat: {r.file}:{r.line}: kernel unchanged: {r.reason}", err=True)
        elif r.verification and r.verification["verdict"] == "unsupported":
            click.echo(
                f"accsat: {r.file}:{r.line}: rewrite not verified: {r.verification['message']}",
                err=True,
            )
    if kw["report_path"]:
        append(kw["report_path"], jsonl(result.kernels))
    if options.record:
        _write_records(options.record, result.kernels)
    original, text = None, result.text
    if header is not None:
        found = header_rewrite(file, header, result)
        if found is None:
            fail(f"{file} includes no header {header} with kernels")
            return
        file, original, text = found
    if output is not None and output != "-":
        try:
            write_output(output, text)  # as a compiler's -o: /dev/null, links
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    elif diff:
        if original is None:
            original = path.read_bytes().decode("utf-8", "surrogateescape")
        emit(
            "".join(
                difflib.unified_diff(
                    original.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=file,
                    tofile=f"{file} (accsat {options.variant})",
                )
            )
        )
    else:
        emit(text)


def helped(path: Path, options: Options) -> contextlib.AbstractContextManager:
    """A helper process for ``path``'s kernels (toolchain/share.py) when
    ``options.helper`` and two cores are idle: its share, or None."""
    from .toolchain.share import forked_helper

    if not options.helper:
        return contextlib.nullcontext()
    return forked_helper(functools.partial(_help, path, options))


def _help(path: Path, options: Options, share) -> None:
    from .pipeline import help_rewrite

    help_rewrite(path, options, share)


def header_rewrite(file: str, header: str, result) -> tuple[str, str, str] | None:
    """(name, text as written, text as rewritten) of the header of ``file`` named
    ``header`` (as the preprocessor names it, as the file includes it, or the same file)."""
    from .frontend.headers import read_header
    from .frontend.includes import same_file

    for h in result.headers:
        if header in (h.name, h.spelling) or same_file(h.name, header):
            return h.name, read_header(h.name), h.text
    for name in sorted({k.file for k in result.kernels if k.compiled}):
        if same_file(name, header):
            try:
                text = read_header(name)  # none of its kernels was rewritten
            except OSError:
                continue
            return name, text, text
    return None


@main.command()
@click.argument("files", nargs=-1, required=True, type=INPUT)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(list(VARIANTS)),
    help="variant to check (repeatable; default: every variant)",
)
@click.option("--seed", default=None, type=int, help="seed of the random states")
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="append one JSON object per kernel and variant (JSON Lines)",
)
# its own --variant; it always verifies; its table says what remarks would
@rewrite_options(without=("variant", "verify", "remarks", "record"))
@common_options
def check(
    files: tuple[str, ...], variants: tuple[str, ...], seed: int | None, json_path: str | None, **kw
) -> None:
    """Rewrite each FILE and translation-validate every kernel: a table per file and
    variant (states tried, skipped, max error, verdict); exit 1 if any kernel fails."""
    import json

    from .check import check_file
    from .verify import DEFAULT_SEED, format_table

    failed = 0
    for file in files:
        for variant in variants or tuple(VARIANTS):
            try:
                options = make_options({**kw, "variant": variant})
                with progress_bar(f"{file} {variant}") as progress:
                    result, ver = check_file(
                        readable(file),
                        options,
                        trials=options.verify_trials,
                        seed=DEFAULT_SEED if seed is None else seed,
                        progress=progress,
                    )
            except AccsatError as exc:
                fail(str(exc))
                return
            if not result.kernels:  # the same for every variant: said once
                emit(no_kernels(file) + "\n")
                break
            emit(format_table(ver.verdicts, f"== {file} --variant {variant}") + "\n\n")
            failed += len(ver.failed)
            if json_path:
                append(
                    json_path,
                    "".join(
                        json.dumps({"variant": variant, **v.as_dict()}) + "\n" for v in ver.verdicts
                    ),
                )
    if failed:
        click.echo(f"accsat: {failed} kernel rewrite(s) failed verification", err=True)
        sys.exit(1)


def _say_remarks(kernels: list, wanted: frozenset[str]) -> None:
    """The remarks of the kinds ``wanted`` on stderr (accsat/remarks.py)."""
    if not wanted:
        return
    from dataclasses import asdict

    from .remarks import lines

    for line in lines((asdict(k) for k in kernels), wanted):
        click.echo(line, err=True)


def _write_records(path: str, kernels: list) -> None:
    from dataclasses import asdict

    from .records import write

    try:
        write(path, [asdict(k) for k in kernels])
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def _tune_choices(options: Options, file: str, db: str) -> Options:
    """``--tune DB``: the database's choice for each kernel of ``file``; notes on stderr."""
    from .frontend.load import read_source
    from .tune.db import DatabaseError, apply

    try:
        options, notes = apply(options, file, read_source(Path(file)), db)
    except DatabaseError as exc:
        fail(str(exc))
    for note in notes:
        click.echo(f"accsat: {note}", err=True)
    return options


@main.command()
@click.argument("files", nargs=-1, required=True, type=INPUT)
@click.option("--json", "as_json", is_flag=True, help="print the JSON document (docs/advise.md)")
@click.option(
    "--compiler",
    "convention",
    type=click.Choice(["nvc", "gcc"]),
    default="nvc",
    show_default=True,
    help="whose rules pick the thread index where compilers differ",
)
@click.option("--no-rewrite", is_flag=True, help="only the code as written (no rewritten stage)")
@click.option(
    "--pressure/--no-pressure",
    default=True,
    show_default=True,
    help="registers and sm_80 occupancy per variant (gcc nvptx offload + ptxas)",
)
@rewrite_options(without=("remarks", "record"), stages_without=("verify",))
@common_options
def advise(
    files: tuple[str, ...], as_json: bool, convention: str, no_rewrite: bool, pressure: bool, **kw
) -> None:
    """Per kernel of each FILE: the thread index, every global access's stride and class
    (uniform, coalesced, strided, uncoalesced, unknown), neighbour loads, hints."""
    import json

    from .advise.files import AdviseOptions, advise_file
    from .advise.report import document, table
    from .report import jsonl

    try:
        options = AdviseOptions(make_options(kw), convention, not no_rewrite, pressure)
        found = [advise_file(readable(f), options) for f in files]
    except AccsatError as exc:
        fail(str(exc))
        return
    if kw["report_path"]:
        append(kw["report_path"], jsonl([r for f in found for r in f.reports]))
    emit(json.dumps(document(found), indent=1) + "\n" if as_json else table(found))


class _Bench(_LazyCommands):
    """Harnesses live in their own packages (npb_harness, spec_harness)."""

    lazy = {
        "npb": Lazy(
            "npb_harness.cli", "npb", "Sweep NPB-ACC: build through accsat-cc, run, verify, time."
        ),
        "spec": Lazy(
            "spec_harness.cli",
            "spec",
            "Sweep SPEC ACCEL's C benchmarks: build, run, validate, time.",
        ),
    }


@main.group(cls=_Bench)
def bench() -> None:
    """Benchmark sweeps: NPB-ACC (npb) and SPEC ACCEL (spec)."""


def entry() -> None:
    """The ``accsat`` command: :func:`main`, the process then ended without Python's
    teardown (toolchain/process.end)."""
    from .toolchain.process import end

    global _ends_after_command
    _ends_after_command = True
    try:
        main()
    except SystemExit as exc:  # (click ends every command so)
        end(exc.code)
    end(0)


if __name__ == "__main__":
    entry()
