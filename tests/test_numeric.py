"""accsat.numeric: numpy with one OpenBLAS thread, the caller's environment kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TASKS = Path("/proc/self/task")
PROBE = """
import json, os, sys
{load}
print(json.dumps([len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS")]))
"""


def _probe(load: str, **env: str) -> tuple[int, str | None]:
    """(threads, OPENBLAS_NUM_THREADS) of a fresh process after ``load``."""
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(load=load)],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    threads, blas = json.loads(out.stdout.splitlines()[-1])
    return threads, blas


@pytest.mark.skipif(not TASKS.is_dir(), reason="counts threads in /proc")
def test_numpy_loads_without_blas_workers_and_the_environment_is_the_callers():
    plain, _ = _probe("import numpy")
    if plain == 1:
        pytest.skip("this numpy's BLAS starts no worker thread here")
    assert _probe("import accsat.numeric") == (1, None)  # the variable not left behind
    theirs = _probe("import numpy", OPENBLAS_NUM_THREADS="2")
    assert _probe("import accsat.numeric", OPENBLAS_NUM_THREADS="2") == theirs


def test_the_solver_loads_numpy_through_it_and_the_server_preloads_it_first():
    from accsat.wrapper.server import PRELOAD

    assert PRELOAD.index("accsat.numeric") < PRELOAD.index("highspy")
    threads, blas = _probe(
        "from accsat.extract import ilp\nilp.HighsEngine(ilp.Formulation({}, [], lambda n: 1.0))"
    )
    assert blas is None and (threads == 1 or not TASKS.is_dir())


@pytest.mark.skipif(not TASKS.is_dir(), reason="counts threads in /proc")
def test_the_verifiers_callers_load_it_first():
    # egglog has a thread of its own: as many threads as with the variable set by hand
    load = "import accsat.check\nfrom accsat.verify import validate"
    assert _probe(load) == (_probe(load, OPENBLAS_NUM_THREADS="1")[0], None)
