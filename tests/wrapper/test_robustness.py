"""What the wrapper's environment can throw at it: no home folder, a bug of ours,
a report file nobody can write to. The build must go on as gcc's would."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from accsat import ccconfig as config

from .conftest import ACC, needs_gcc, wrap


def test_no_home_folder_means_no_cache_and_no_config_file(monkeypatch):
    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    assert config.default_cache_dir() is None
    assert config.config_file() is None
    cfg = config.Config.from_env({})
    assert cfg.cache_dir is None and cfg.problems == ()


BOOM = """
import sys
from accsat.wrapper import driver, main

def boom(self):
    raise ValueError("a bug of ours")

driver.Build.run = boom
sys.argv[0] = "accsat-cc"
main()
"""


@needs_gcc
def test_an_internal_error_is_one_line_and_the_original_compiles(project, env):
    import subprocess

    got = subprocess.run(
        [sys.executable, "-c", BOOM, "gcc", *ACC, "-c", "k.c", "-o", "k.o"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert got.returncode == 0, got.stderr
    assert (project / "k.o").is_file()
    assert got.stderr.splitlines() == [
        "accsat-cc: internal error (ValueError: a bug of ours); compiling the original"
    ]


@needs_gcc
def test_a_report_nobody_reads_does_not_hang_the_build(project, env):
    fifo = project / "report.fifo"
    os.mkfifo(fifo)
    got = wrap(project, env, "gcc", *ACC, "-c", "k.c", "-o", "k.o", ACCSAT_REPORT=str(fifo))
    assert got.returncode == 0, got.stderr
    assert (project / "k.o").is_file()
    assert "cannot write the report" in got.stderr


@pytest.mark.parametrize("where", ["fifo", "folder"])
def test_cli_report_that_cannot_be_written_is_one_line(tmp_path, where):
    import subprocess

    src = tmp_path / "k.c"
    src.write_text(
        "void f(int n, double *a)\n{\n#pragma acc parallel loop\n"
        "  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 2.0;\n}\n"
    )
    target = tmp_path / "r"
    if where == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "accsat.cli",
            "rewrite",
            str(src),
            "--report",
            str(target),
            "--variant",
            "cse",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode != 0
    assert "Traceback" not in got.stderr
    about_it = [line for line in got.stderr.splitlines() if str(target) in line]
    assert len(about_it) == 1, got.stderr


def test_a_forked_child_runs_without_the_cyclic_collector():
    """quiet_child (accsat-cc's rewrite, the compile server's children): the child ends
    with its one file, so no collection walks what the file made (the pipeline's own
    collections bound its memory, pipeline.paused_gc)."""
    import gc
    import os

    from accsat.wrapper.rewrite import quiet_child

    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            quiet_child()
            os.write(wfd, b"on" if gc.isenabled() else b"off")
        finally:
            os._exit(0)
    os.close(wfd)
    said = os.read(rfd, 8)
    os.close(rfd)
    os.waitpid(pid, 0)
    assert said == b"off" and gc.isenabled()
