"""Lazy subcommands: listed without importing their code, and the same once loaded."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from accsat.cli import _Bench, _Main, main

LAZY = [(group, name, entry) for group in (_Main, _Bench) for name, entry in group.lazy.items()]


@pytest.mark.parametrize(("group", "name", "entry"), LAZY, ids=[n for _, n, _ in LAZY])
def test_each_lazy_entry_names_a_command(group, name, entry):
    ctx = click.Context(main)
    command = group(name="g").get_command(ctx, name)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert command.get_short_help_str(1000) == entry.help


@pytest.mark.parametrize("args", [["--help"], ["bench", "--help"]])
def test_help_lists_every_lazy_command(args):
    out = CliRunner().invoke(main, args).output
    group = _Bench if args[0] == "bench" else _Main
    for name in group.lazy:
        assert f"  {name} " in out
