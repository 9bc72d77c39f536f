"""Numeric options refuse nonsense (-5, nan, inf) with a one-line usage error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from accsat.cli import main

from .conftest import KERNEL

REWRITE = [
    "--max-nodes",
    "--max-iterations",
    "--saturation-seconds",
    "--saturation-memory",
    "--extract-seconds",
    "--extract-stall",
    "--extract-gap",
    "--trials",
]
SECONDS = ["--saturation-seconds", "--extract-seconds", "--extract-stall"]
SWEEP = ["--runs", "--jobs", "--timeout", "--build-timeout", "--make-jobs"]


def cases():
    for command in (["rewrite"], ["check"]):
        for option in REWRITE:
            for value in ("-5", "nan") + (
                ("inf", "1e300")
                if option in SECONDS
                else ("2",)
                if option == "--extract-gap"
                else ("0",)
            ):
                yield command, option, value
    for command in (["bench", "npb"], ["bench", "spec"]):
        for option in SWEEP:
            for value in ("-5", "nan", "0") + (("inf",) if "timeout" in option else ()):
                yield command, option, value


@pytest.mark.parametrize(
    ("command", "option", "value"),
    list(cases()),
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_nonsense_is_a_one_line_usage_error(command, option, value, cfile):
    path = cfile(KERNEL)
    args = [*command, *([str(path)] if command[0] != "bench" else []), f"{option}={value}"]
    res = CliRunner().invoke(main, args, prog_name="accsat")
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in res.output, res.stderr
    assert lines[0].startswith(f"accsat {' '.join(command)}: ")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--extract-seconds", "0"),
        ("--extract-stall", "0"),
        ("--saturation-seconds", "0.5"),
        ("--extract-gap", "0"),
        ("--extract-gap", "0.05"),
    ],
)
def test_sensible_values_still_pass(option, value, cfile):
    res = CliRunner().invoke(
        main, ["rewrite", str(cfile(KERNEL)), "--variant", "cse", option, value]
    )
    assert res.exit_code == 0, res.output
