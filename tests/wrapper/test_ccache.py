"""ccache in front of accsat-cc (CC="ccache accsat-cc gcc") serves objects made with other
ACCSAT_* settings: accsat-cc says so, once per call, with the working order."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from accsat.wrapper.args import classify
from accsat.wrapper.ccache import run_by_cache, warning

from .conftest import ACC, WRAPPER, lines, needs_gcc, wrap

# a stand-in for ccache: a process called ccache that runs its arguments (and stays
# their parent, as ccache does)
FAKE = '#!/bin/sh\n"$@"\nexit $?\n'
WARNING = (
    "accsat-cc: ccache runs accsat-cc, so its cache ignores the ACCSAT_* settings "
    "(objects made with another ACCSAT_VARIANT or ACCSAT_DISABLE come back); put "
    'accsat-cc first: CC="accsat-cc ccache gcc"'
)


@pytest.fixture
def fake_ccache(tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "ccache").write_text(FAKE)
    (folder / "ccache").chmod(0o755)
    return folder / "ccache"


def test_a_cache_is_known_by_its_name(project, monkeypatch):
    assert run_by_cache("ccache") == "ccache" and run_by_cache("sccache") == "sccache"
    assert run_by_cache("make") is None and run_by_cache("") is None
    monkeypatch.chdir(project)
    assert warning("ccache", classify(["gcc", "-c", "k.c"])) == WARNING


@needs_gcc
@pytest.mark.parametrize("disable", ["0", "1"])
def test_run_by_ccache_says_so_once(project, env, fake_ccache, disable):
    r = subprocess.run(
        [str(fake_ccache), *WRAPPER, "gcc", "-c", *ACC, "k.c"],
        cwd=project,
        env=dict(env, ACCSAT_DISABLE=disable),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert r.returncode == 0 and (project / "k.o").exists()
    assert lines(r.stderr) == [WARNING]


@needs_gcc
def test_no_word_when_it_only_preprocesses_or_runs_ccache_itself(project, env, fake_ccache):
    r = subprocess.run(
        [str(fake_ccache), *WRAPPER, "gcc", "-E", *ACC, "k.c"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert r.returncode == 0 and lines(r.stderr) == []  # ccache's preprocessor run
    path = f"{fake_ccache.parent}:{env['PATH']}"
    r = wrap(project, dict(env, PATH=path), "ccache", "gcc", "-c", *ACC, "k.c")
    assert r.returncode == 0 and lines(r.stderr) == []  # the working order


@needs_gcc
@pytest.mark.skipif(shutil.which("ccache") is None, reason="ccache is not installed")
def test_real_ccache_in_front_is_stale_and_said(project, env, tmp_path):
    """What the warning is about, with the real ccache: the object of ACCSAT_DISABLE=1 is
    the rewritten one, and the warning comes back with it."""
    env = dict(env, CCACHE_DIR=str(tmp_path / "ccache"))
    compile_ = ["ccache", *WRAPPER, "gcc", "-c", *ACC, "k.c", "-o"]
    first = subprocess.run(
        [*compile_, "on.o"], cwd=project, env=env, capture_output=True, text=True, timeout=240
    )
    second = subprocess.run(
        [*compile_, "off.o"],
        cwd=project,
        env=dict(env, ACCSAT_DISABLE="1"),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert first.returncode == second.returncode == 0
    assert lines(first.stderr) == lines(second.stderr) == [WARNING]
    assert (project / "on.o").read_bytes() == (project / "off.o").read_bytes()  # stale
