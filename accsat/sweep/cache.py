"""Per-cell state on disk, so that a sweep resumes where it stopped.

``OUT/cells/<key>/`` holds the cell's private build tree, its logs, and two
records written atomically once their stage is complete:

* ``build.json``: the build succeeded (or failed) under this fingerprint;
  a resumed sweep with the same fingerprint does not build again;
* ``result.json``: the runs are done; the cell is finished.

A fingerprint is everything the stage depends on (flags, compiler, variant,
paths, number of runs): if it changed, the stage is redone.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
from pathlib import Path
from typing import IO

from ..toolchain.records import read_json, write_json
from .cells import Cell
from .results import Result


def fingerprint(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


class Busy(Exception):
    """Another sweep is using the same output folder."""


class CellStore:
    def __init__(self, out: Path):
        self.out = out
        self.root = out / "cells"
        self._lock_file: IO[str] | None = None

    def lock(self) -> None:
        """Hold ``OUT/.lock`` for the sweep: two sweeps in one folder would share trees."""
        self.out.mkdir(parents=True, exist_ok=True)
        f = open(self.out / ".lock", "a+")  # noqa: SIM115 (held until release)
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise Busy(f"another sweep is using {self.out}") from None
        self._lock_file = f

    def release(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()  # closing drops the lock
            self._lock_file = None

    def folder(self, cell: Cell) -> Path:
        return self.root / cell.key

    # -- build stage ------------------------------------------------------
    def build_record(self, cell: Cell, fp: str) -> dict | None:
        rec = read_json(self.folder(cell) / "build.json")
        return rec if isinstance(rec, dict) and rec.get("fingerprint") == fp else None

    def save_build(self, cell: Cell, record: dict) -> None:
        write_json(self.folder(cell) / "build.json", record)

    # -- finished cells ---------------------------------------------------
    def result(self, cell: Cell, fp: str) -> Result | None:
        rec = read_json(self.folder(cell) / "result.json")
        if not isinstance(rec, dict) or rec.get("fingerprint") != fp:
            return None
        try:
            result = Result.from_dict(rec["result"])
        except (KeyError, TypeError):
            return None
        result.cached = True
        return result

    def save_result(self, cell: Cell, fp: str, result: Result) -> None:
        write_json(
            self.folder(cell) / "result.json", {"fingerprint": fp, "result": result.to_dict()}
        )

    def forget(self, cell: Cell) -> None:
        """Start the cell afresh (``--force``): its records, logs and tree go."""
        shutil.rmtree(self.folder(cell), ignore_errors=True)

    def prepare(self, cell: Cell) -> Path:
        folder = self.folder(cell)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
