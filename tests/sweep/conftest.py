"""The one-node Slurm cluster the Slurm executor's tests run on (slurm_cluster.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from .slurm_cluster import Cluster, unavailable

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def slurm_cluster():
    """A private cluster for this test session; its daemons are stopped (by pid) at the end.

    Jobs inherit the environment: SLURM_CONF names the cluster, PYTHONPATH lets a
    job's worker import the test suites (as ``tests.sweep...`` or ``sweep...``).
    """
    why = unavailable()
    if why:
        pytest.skip(f"no Slurm cluster here: {why}")
    # not under pytest's 0700 tmp folders: munged (user munge) must reach its socket
    folder = Path(tempfile.mkdtemp(prefix="accsat-slurm-"))
    cluster = Cluster(folder)
    cluster.start()
    saved = {k: os.environ.get(k) for k in ("SLURM_CONF", "PYTHONPATH")}
    os.environ["SLURM_CONF"] = str(cluster.conf)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(TESTS.parent), str(TESTS), saved["PYTHONPATH"]) if p
    )
    try:
        yield cluster
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
