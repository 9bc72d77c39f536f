"""Settings every test session shares."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

# a rewrite whose printed C does not re-read as the extracted program is a bug of
# accsat's (accsat/verify/reread.py): in the tests it fails, in every process they start
os.environ.setdefault("ACCSAT_REREAD_STRICT", "1")


@pytest.fixture(scope="session", autouse=True)
def private_compile_servers():
    """accsat-cc's compile servers of this session (one pytest-xdist worker) live in a
    folder of its own and exit soon when idle, then are stopped: tests never reach the
    developer's own server, nor leave one behind for ten minutes."""
    runtime = tempfile.mkdtemp(prefix="accsat-rt-")  # short: a socket path holds 107 bytes
    saved = {k: os.environ.get(k) for k in ("XDG_RUNTIME_DIR", "ACCSAT_SERVER_IDLE")}
    os.environ.update(XDG_RUNTIME_DIR=runtime, ACCSAT_SERVER_IDLE="60")
    yield
    subprocess.run(
        [sys.executable, "-m", "accsat.wrapper", "--stop-server"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    shutil.rmtree(runtime, ignore_errors=True)
