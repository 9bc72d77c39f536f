"""-h everywhere --help works; help and errors answer before anything heavy is imported."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from accsat.cli import main

from .conftest import one_line

COMMANDS = [[], ["rewrite"], ["check"], ["bench"], ["bench", "npb"], ["bench", "spec"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "accsat")
def test_h_is_help(command):
    runner = CliRunner()
    long = runner.invoke(main, [*command, "--help"])
    short = runner.invoke(main, [*command, "-h"])
    assert long.exit_code == 0 and "Usage:" in long.output
    assert short.exit_code == 0 and short.output == long.output


# What `accsat` may import only once it has real work (seconds of start-up between them).
HEAVY = (
    "egglog",
    "pulp",
    "highspy",
    "pycparser",
    "numpy",
    "matplotlib",
    "tqdm",
    "jinja2",
    "accsat.pipeline",
)

PROBE = """
import json, sys
from accsat.cli import main
try:
    main(sys.argv[1:], prog_name="accsat")
except SystemExit as exc:
    code = exc.code
print(json.dumps([code, [m for m in {heavy!r} if m in sys.modules]]))
"""


def imports_of(*args: str, cwd) -> tuple[int, list[str], str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    code, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
    return code, heavy, proc.stderr


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["rewrite", "-h"], ["check", "--help"]])
def test_help_imports_nothing_heavy(args, tmp_path):
    code, heavy, _ = imports_of(*args, cwd=tmp_path)
    assert code == 0 and heavy == []


@pytest.mark.parametrize(
    "args",
    [
        ["rewrite", "missing.c"],
        ["check", "missing.c"],
        ["rewrite", "k.c", "--max-nodes", "-5"],
        ["rewrite", "k.c", "--bogus"],
        ["rewrite", "k.c", "--variant", "nosuch"],
        ["check", "k.c", "--extract-seconds", "nan"],
    ],
)
def test_errors_answer_before_the_pipeline_is_imported(args, cfile, tmp_path):
    cfile()
    code, heavy, stderr = imports_of(*args, cwd=tmp_path)
    assert code == 2 and heavy == []
    one_line(stderr)


def test_missing_file_names_it(tmp_path):
    code, _, stderr = imports_of("rewrite", "nope.c", cwd=tmp_path)
    assert "nope.c" in one_line(stderr) and "accsat rewrite" in stderr
