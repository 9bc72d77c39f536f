"""What every ``accsat`` command line shares: its help options, its value types, and
the options made from the declared settings (accsat.settings).

Cheap to import (click only): ``accsat --help`` must answer at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click

from .settings import Choice, Setting

# -h as well as --help, inherited by every subcommand (``accsat bench npb -h`` too)
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


class Parsed(click.ParamType):
    """A value read by one of accsat.settings' parsers: the same words and the same
    reasons as in accsat-cc's environment and config file (``-5``, ``nan`` and ``inf``
    are usage errors where they make no sense)."""

    def __init__(self, parse: Callable[[object], Any], metavar: str | None = None) -> None:
        self.parse = parse
        self.name = metavar or str(getattr(parse, "metavar", "value"))

    def convert(self, value, param, ctx):
        if not isinstance(value, str):  # a default: a value already
            return value
        try:
            return self.parse(value)
        except ValueError as why:
            self.fail(f"'{value}' {why}", param, ctx)


def _flatten(ctx, param, value):
    """A repeatable list option (``--disable-rule a --disable-rule b,c``): one tuple."""
    return tuple(name for names in value for name in names)


def option(s: Setting) -> Callable:
    """The ``accsat`` option of a setting: ``--name VALUE``, a flag for a yes/no setting
    (``--name/--no-name`` when it is on by default)."""
    if s.is_flag:
        if s.default:
            return click.option(
                f"{s.flag}/--no-{s.flag[2:]}", s.name, default=True, show_default=True, help=s.help
            )
        return click.option(s.flag, s.name, is_flag=True, help=s.help)
    repeatable = isinstance(s.default, tuple)
    kind: click.ParamType
    if isinstance(s.parse, Choice):
        kind, metavar = click.Choice(list(s.parse.choices)), None
    else:
        kind, metavar = Parsed(s.parse, s.metavar), s.metavar
    text = s.help + (f" (default: {s.default_text})" if s.default_text else "")
    return click.option(
        s.flag,
        s.name,
        type=kind,
        default=s.default,
        metavar=metavar,
        help=text,
        show_default=not (repeatable or s.default_text),
        multiple=repeatable,
        callback=_flatten if repeatable else None,
    )


def options(settings: Iterable[Setting]) -> Callable:
    """A decorator adding the options of ``settings``, in their order."""
    chosen = list(settings)

    def decorate(f):
        for s in reversed(chosen):
            f = option(s)(f)
        return f

    return decorate
