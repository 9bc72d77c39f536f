"""stdout that cannot be written: a reader gone ends quietly, a full disk in one line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import KERNEL, one_line

COMMANDS = [["rewrite"], ["rewrite", "--diff"], ["check", "--variant", "cse"]]
# stdout buffered, as it is for users: the error may come only at the interpreter's last flush
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_reader_gone_is_quiet(command, cfile):
    """As `accsat rewrite f.c | head -1` once head has exited: no traceback, no
    "Exception ignored" from the interpreter's last flush."""
    path = cfile(KERNEL)
    proc = subprocess.Popen(
        [sys.executable, "-m", "accsat.cli", command[0], str(path), *command[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    proc.stdout.close()  # nobody reads: the first write gets EPIPE
    err = proc.stderr.read().decode()
    proc.wait()
    assert proc.returncode != 0  # its output did not arrive
    assert "Traceback" not in err and "Exception ignored" not in err and "Broken" not in err, err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_full_disk_is_one_line(command, cfile):
    path = cfile(KERNEL)
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "accsat.cli", command[0], str(path), *command[1:]],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
    assert proc.returncode != 0
    assert "No space left on device" in one_line(proc.stderr)


def test_closed_stdout_is_one_line(cfile):
    """As `accsat rewrite f.c >&-`."""
    path = cfile(KERNEL)
    proc = subprocess.run(
        [sys.executable, "-m", "accsat.cli", "rewrite", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
    )
    assert proc.returncode == 2 and "stdout" in one_line(proc.stderr)


def test_the_whole_output_arrives_and_the_status(cfile):
    """accsat ends without Python's teardown (toolchain/process.end): what stdout
    buffered is written, and the exit status is the command's."""
    from click.testing import CliRunner

    from accsat.cli import main

    path = cfile(KERNEL)
    command = [sys.executable, "-m", "accsat.cli", "rewrite", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, env=ENV)
    assert done.returncode == 0 and "_v" in done.stdout
    assert done.stdout == CliRunner().invoke(main, ["rewrite", str(path)]).stdout
    gone = [*command[:-1], str(path) + ".gone"]
    missing = subprocess.run(gone, capture_output=True, text=True, env=ENV)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
