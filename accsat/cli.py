"""The ``accsat`` command."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from . import __version__
from .errors import AccsatError
from .fileio import write_atomically
from .frontend.preprocess import PreprocessOptions
from .options import DEFAULT_VARIANT, VARIANTS, Limits, Options


def fail(message: str) -> None:
    click.echo(f"accsat: {message}", err=True)
    sys.exit(2)


variant_option = click.option(
    "--variant", type=click.Choice(list(VARIANTS)), default=DEFAULT_VARIANT, show_default=True,
    help="; ".join(f"{v.name}: {v.summary}" for v in VARIANTS.values()))


def common_options(f):
    """Options shared by every command that rewrites (``--variant`` apart: ``check``
    takes several)."""
    decorators = [
        click.option("-I", "includes", multiple=True, metavar="DIR", help="include directory"),
        click.option("-D", "defines", multiple=True, metavar="NAME[=VAL]", help="define a macro"),
        click.option("-U", "undefines", multiple=True, metavar="NAME", help="undefine a macro"),
        click.option("--openacc/--no-openacc", default=True, show_default=True,
                     help="define _OPENACC while preprocessing"),
        click.option("--openmp/--no-openmp", default=True, show_default=True,
                     help="define _OPENMP while preprocessing"),
        click.option("--rules", default=None, metavar="A,B",
                     help="rulesets to run (default: those rules/rules.toml enables)"),
        click.option("--disable-rule", "disabled", multiple=True, metavar="NAME",
                     help="do not run this ruleset"),
        click.option("--fp-exact", is_flag=True,
                     help="no rule that can change a floating-point result (FMA, float reassociation)"),
        click.option("--fma-call", is_flag=True,
                     help="print fused multiply-adds as C99 fma() instead of a grouped a + b * c"),
        click.option("--cost-model", default=Options.cost_model, show_default=True, metavar="NAME|PATH",
                     help="cost table from cost_models/ or a TOML file"),
        click.option("--max-nodes", default=Limits.nodes, show_default=True,
                     help="saturation stops before the e-graph exceeds this many e-nodes"),
        click.option("--max-iterations", default=Limits.iterations, show_default=True),
        click.option("--saturation-seconds", default=Limits.seconds, show_default=True),
        click.option("--extract-seconds", default=Options.extract_seconds, show_default=True,
                     help="time limit of the ILP extraction per kernel"),
        click.option("--extract-stall", default=Options.extract_stall, show_default=True,
                     help="stop the ILP once its best solution has not improved for this many "
                     "seconds (0: run to the time limit or a proof)"),
        click.option("--solver", type=click.Choice(["highs", "cbc"]), default=Options.solver,
                     show_default=True, help="MILP solver PuLP drives"),
        click.option("--no-ilp", is_flag=True, help="greedy DAG extraction only"),
        click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
                     help="append one JSON object per kernel (JSON Lines)"),
        click.option("--trials", default=Options.verify_trials, show_default=True,
                     help="random states per kernel for translation validation"),
    ]
    for d in reversed(decorators):
        f = d(f)
    return f


def make_options(kw: dict) -> Options:
    flags: list[str] = []
    flags += [f"-I{d}" for d in kw["includes"]]
    flags += [f"-D{d}" for d in kw["defines"]]
    flags += [f"-U{u}" for u in kw["undefines"]]
    rules = tuple(r for r in kw["rules"].split(",") if r) if kw["rules"] is not None else None
    return Options(
        variant=kw["variant"],
        rules=rules,
        disabled_rules=tuple(kw["disabled"]),
        fp_exact=kw["fp_exact"],
        fma_call=kw["fma_call"],
        cost_model=kw["cost_model"],
        limits=Limits(kw["max_nodes"], kw["max_iterations"], kw["saturation_seconds"]),
        extract_seconds=kw["extract_seconds"],
        extract_stall=kw["extract_stall"] or None,
        solver=kw["solver"],
        use_ilp=not kw["no_ilp"],
        preprocess=PreprocessOptions(tuple(flags), kw["openacc"], kw["openmp"]),
        verify=kw.get("verify", False),
        verify_trials=kw["trials"],
    )


@click.group()
@click.version_option(__version__, prog_name="accsat")
def main() -> None:
    """accsat: optimize the innermost parallel loops of OpenACC/OpenMP C by equality saturation."""


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "output", type=click.Path(dir_okay=False), default=None,
              help="write the result here (the input itself only when named explicitly)")
@click.option("--diff", is_flag=True, help="print a unified diff against the input")
@click.option("--verify", is_flag=True,
              help="translation-validate every rewritten kernel on random states; a kernel "
              "that fails is kept as written (with a warning)")
@variant_option
@common_options
def rewrite(file: str, output: str | None, diff: bool, **kw) -> None:
    """Rewrite FILE's kernels; print the result (or a diff, or write it with -o)."""
    from .pipeline import rewrite_file
    from .report import write_jsonl

    path = Path(file)
    try:
        options = make_options(kw)
        result = rewrite_file(path, options)
    except AccsatError as exc:
        fail(str(exc))
        return
    for r in result.kernels:
        if r.status != "rewritten":
            click.echo(f"accsat: {r.file}:{r.line}: kernel unchanged: {r.reason}", err=True)
        elif r.verification and r.verification["verdict"] == "unsupported":
            click.echo(f"accsat: {r.file}:{r.line}: rewrite not verified: "
                       f"{r.verification['message']}", err=True)
    if kw["report_path"]:
        with open(kw["report_path"], "a") as stream:
            write_jsonl(result.kernels, stream)
    if output is not None:
        try:
            write_atomically(Path(output), result.text)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    elif diff:
        original = path.read_text()
        sys.stdout.writelines(difflib.unified_diff(
            original.splitlines(keepends=True), result.text.splitlines(keepends=True),
            fromfile=file, tofile=f"{file} (accsat {options.variant})"))
    else:
        sys.stdout.write(result.text)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--variant", "variants", multiple=True, type=click.Choice(list(VARIANTS)),
              help="variant to check (repeatable; default: every variant)")
@click.option("--seed", default=None, type=int, help="seed of the random states")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="append one JSON object per kernel and variant (JSON Lines)")
@common_options
def check(files: tuple[str, ...], variants: tuple[str, ...], seed: int | None,
          json_path: str | None, **kw) -> None:
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
                _result, ver = check_file(Path(file), options, trials=options.verify_trials,
                                          seed=DEFAULT_SEED if seed is None else seed)
            except AccsatError as exc:
                fail(str(exc))
                return
            click.echo(format_table(ver.verdicts, f"== {file} --variant {variant}") + "\n")
            failed += len(ver.failed)
            if json_path:
                with open(json_path, "a") as stream:
                    stream.write("".join(json.dumps({"variant": variant, **v.as_dict()}) + "\n"
                                         for v in ver.verdicts))
    if failed:
        click.echo(f"accsat: {failed} kernel rewrite(s) failed verification", err=True)
        sys.exit(1)


def _npb_command() -> click.Command:
    from npb_harness.cli import npb

    return npb


def _spec_command() -> click.Command:
    from spec_harness.cli import spec

    return spec


class _LazyGroup(click.Group):
    """Subcommands whose code lives in other packages, imported only when used
    (the harnesses pull in the sweep engine, tqdm, jinja2: ``accsat`` must start fast)."""

    lazy = {"npb": (_npb_command, "npb_harness"), "spec": (_spec_command, "spec_harness")}

    def list_commands(self, ctx):
        return sorted(self.lazy)

    def get_command(self, ctx, name):
        if name not in self.lazy:
            return None
        load, package = self.lazy[name]
        try:
            return load()
        except ModuleNotFoundError as exc:
            if exc.name != package:  # a harness that is there but broken says why
                raise
            return None  # not installed: no such command


@main.group(cls=_LazyGroup)
def bench() -> None:
    """Benchmark sweeps: NPB-ACC (npb) and SPEC ACCEL (spec)."""


if __name__ == "__main__":
    main()
