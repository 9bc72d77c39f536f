"""Suites for the Slurm executor's tests: built and run in a job's worker, so they are
dataclasses of plain values (jobspec.py sends them) in a module a job can import."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from accsat.sweep.results import NO_GPU, OK, Result


@dataclass
class MarkerSuite:
    """Builds nothing; a cell's run kills its process (as a node crash or the OOM killer
    would) while ``markers/die-<benchmark>`` exists. Benchmark ``GPU`` needs a GPU that
    no machine here has."""

    markers: Path
    name: str = "marker"

    def precheck(self, cell):
        return Result(cell, NO_GPU, "no GPU here") if cell.benchmark == "GPU" else None

    def build_key(self, cell):
        return {"cell": cell.key}

    def run_key(self, cell):
        return {}

    def build(self, cell, folder):
        return {"ok": True, "seconds": 0.0}

    def run(self, cell, build, folder):
        if (self.markers / f"die-{cell.benchmark}").exists():
            os._exit(3)
        return Result(cell, OK, verified=True, seconds=0.01)
