"""Ctrl-C while accsat works: exit 130, no output file (new or replaced), no traceback.

The interrupt is sent once the ILP is inside HiGHS (a marker file appears at the
solver's first callback), where a KeyboardInterrupt used to be swallowed (exit 0,
output written) or turn into a highspy TypeError. That callback waits until the test
has sent it (the test writes SENT into the marker): the run cannot end before the
interrupt arrives, however busy the machine (the whole rewrite takes about 1 s)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from .conftest import KERNELS_DIR, one_line

# Patches the solver to touch MARKER from inside HiGHS, then runs accsat with the rest.
SENT = "sent"
DRIVER = f"""
import sys
import time
from pathlib import Path
import accsat.extract.ilp as ilp
marker = Path(sys.argv[1])
run_model = ilp.HighsEngine.run_model

def inside(event):
    if not marker.exists():  # the first time in HiGHS: until the test has sent its signal
        marker.touch()
        deadline = time.monotonic() + 120
        while marker.read_text() != "{SENT}" and time.monotonic() < deadline:
            time.sleep(0.01)

def patched(self):
    self.h.cbSimplexInterrupt.subscribe(inside)
    self.h.cbMipInterrupt.subscribe(inside)
    return run_model(self)

ilp.HighsEngine.run_model = patched
from accsat.cli import main
main(sys.argv[2:], prog_name="accsat")
"""
# Big enough that HiGHS runs for seconds (it is stopped long before).
SLOW = ["--variant", "accsat", "--extract-seconds", "60", "--extract-stall", "0"]


def interrupted(tmp_path, *args: str) -> subprocess.CompletedProcess:
    marker = tmp_path / "in-highs"
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(marker), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as in a terminal: a test run started in the background (``cmd &`` in a
        # script) ignores SIGINT, and a child would inherit that (the case below)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the ILP never ran"
        proc.send_signal(signal.SIGINT)
        marker.write_text(SENT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "lu.c"
    path.write_bytes((KERNELS_DIR / "lu_blocks_acc.c").read_bytes())
    return path


def test_rewrite_output_is_neither_written_nor_replaced(tmp_path, source):
    out, report = tmp_path / "out.c", tmp_path / "r.jsonl"
    out.write_text("old\n")
    res = interrupted(
        tmp_path, "rewrite", source.name, "-o", out.name, "--report", report.name, *SLOW
    )
    assert res.returncode == 130, res.stderr
    assert "interrupted" in one_line(res.stderr)
    assert out.read_text() == "old\n" and not report.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in-highs", "lu.c", "out.c"]


def test_rewrite_to_stdout_prints_nothing(tmp_path, source):
    res = interrupted(tmp_path, "rewrite", source.name, *SLOW)
    assert res.returncode == 130 and res.stdout == ""
    one_line(res.stderr)


def test_check_stops(tmp_path, source):
    res = interrupted(tmp_path, "check", source.name, "--json", "v.jsonl", *SLOW)
    assert res.returncode == 130 and res.stdout == ""
    one_line(res.stderr)
    assert not (tmp_path / "v.jsonl").exists()


def test_an_ignored_sigint_stays_ignored(tmp_path, source):
    """As under nohup or in a background job: the solve runs on, the rewrite completes."""
    marker = tmp_path / "in-highs"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            DRIVER,
            str(marker),
            "rewrite",
            source.name,
            "--variant",
            "accsat",
            "--extract-seconds",
            "1",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    while not marker.exists() and proc.poll() is None:
        time.sleep(0.02)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGINT)
        marker.write_text(SENT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith(source.read_text().splitlines()[0])
