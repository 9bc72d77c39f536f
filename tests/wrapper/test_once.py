"""accsat/wrapper/once.py: a cache that cannot be written is said once per build (a
process group), not once per call."""

from __future__ import annotations

import os
import subprocess

from .conftest import ACC, WRAPPER, lines, needs_gcc, wrap


@needs_gcc
def test_an_unwritable_cache_is_said_once_per_build(project, env, tmp_path):
    blocked = project / "k.c" / "cache"  # under a file: no one can create it
    run = tmp_path / "run"
    run.mkdir()
    env = dict(env, ACCSAT_CACHE_DIR=str(blocked), XDG_RUNTIME_DIR=str(run), ACCSAT_SERVER="0")
    args = ["gcc", "-c", *ACC, "k.c"]
    first = wrap(project, env, *args)
    second = wrap(project, env, *args)  # the same process group: the same build
    assert first.returncode == second.returncode == 0
    assert len(lines(first.stderr)) == 1 and "cannot write the cache" in first.stderr
    assert lines(second.stderr) == []
    other = subprocess.run(  # another build: its own process group
        [*WRAPPER, *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        start_new_session=True,
    )
    assert other.returncode == 0 and len(lines(other.stderr)) == 1
    assert os.listdir(run / "accsat")  # the markers
