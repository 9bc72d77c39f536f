"""``accsat report``: the optimization records of a build, as a table and an HTML page."""

from __future__ import annotations

import shutil
import sys

import click

from ..cliparams import CONTEXT_SETTINGS
from . import RecordError, read
from .table import ORDERS, table


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="also write one static HTML page: every kernel's figures, its lines as "
    "written beside its lines as rewritten, sortable without a server",
)
@click.option(
    "--sort",
    "order",
    type=click.Choice(list(ORDERS)),
    default="file",
    show_default=True,
    help="the table's order (the largest saving first but for file)",
)
def report(records: tuple[str, ...], html_path: str | None, order: str) -> None:
    """Summarize a build's optimization records: a table, and a page with --html.

    RECORDS are files accsat rewrite --record or accsat-cc's ACCSAT_RECORD wrote (a
    report file reads too, without the kernels' lines); the last record of a kernel
    counts."""
    from ..fileio import write_output

    try:
        kernels, bad = read(records)
    except RecordError as exc:
        click.echo(f"accsat report: {exc}", err=True)
        sys.exit(2)
    if bad:
        click.echo(f"accsat report: {bad} line(s) that are not records skipped", err=True)
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    click.echo(table(kernels, order, width), nl=False)
    if html_path is not None:
        from .page import page

        try:
            write_output(html_path, page(kernels))
        except OSError as exc:
            click.echo(f"accsat report: cannot write {html_path}: {exc.strerror or exc}", err=True)
            sys.exit(2)
