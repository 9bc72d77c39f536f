"""``--mode runspec``: SPEC's own harness builds, runs and validates.

Per cell, a config file (config.py) whose ``output_root`` is the cell's
folder, so that nothing is written into the installation; then, with
``$SPEC/shrc`` sourced:

    runspec --config=CELL/accsat.cfg --action=build --tune=base BENCH
    runspec --config=CELL/accsat.cfg --action=validate --nobuild --size=SIZE
            --iterations=N --tune=base --noreportable --output_format=csv BENCH

What the harness relies on from runspec (and tests/fixtures/spec_mini's fake
runspec implements; none of it was checked against a real SPEC ACCEL here):

* the options above; a config named by an absolute path; ``output_root``;
* a build leaves ``OUTPUT_ROOT/benchspec/ACCEL/BENCH/exe/*``;
* the run prints ``format: CSV -> PATH`` for the CSV result file;
* that CSV has a ``"Full Results Table"`` section: a header line starting
  with ``Benchmark``, a column whose name contains ``Base Run Time`` and one
  containing ``Base Status``; one row per iteration; status ``S`` is a
  success (``CE``/``RE``/``VE``: compile, run, validation error).
"""

from __future__ import annotations

import csv
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from accsat import __version__ as accsat_version
from accsat.options import ORIG
from accsat.sweep import __version__ as sweep_version
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.sweep.results import (
    BUILD_FAILED,
    OK,
    RUN_FAILED,
    TIMEOUT,
    UNSUPPORTED,
    VERIFICATION_FAILED,
    Result,
)
from accsat.toolchain import events, process
from accsat.toolchain.compilers import Flags

from .common import SpecSuiteBase
from .config import render

_CSV_LINE = re.compile(r"format:\s*CSV\s*->\s*(\S+)", re.I)
_STATUS = {"S": OK, "VE": VERIFICATION_FAILED, "RE": RUN_FAILED, "CE": BUILD_FAILED}


@dataclass
class ResultRow:
    benchmark: str
    seconds: float | None
    status: str  # SPEC's code: S, VE, RE, CE, NR...


def parse_csv(text: str) -> list[ResultRow]:
    """The rows of the "Full Results Table" section of a runspec CSV result."""
    lines = text.splitlines()
    start = next(
        (i for i, ln in enumerate(lines) if ln.strip().strip('"').lower() == "full results table"),
        None,
    )
    if start is None:
        return []
    body: list[str] = []
    for ln in lines[start + 1 :]:
        if not ln.strip():
            if body:
                break
            continue
        body.append(ln)
    reader = csv.reader(io.StringIO("\n".join(body)))
    header = next(reader, [])
    col = {name: i for i, name in enumerate(header)}
    time_col = next((i for n, i in col.items() if "base run time" in n.lower()), None)
    status_col = next((i for n, i in col.items() if "base status" in n.lower()), None)
    rows = []
    for r in reader:
        if not r or not r[0].strip():
            continue
        seconds = None
        if time_col is not None and time_col < len(r):
            try:
                seconds = float(r[time_col])
            except ValueError:
                seconds = None
        status = r[status_col].strip() if status_col is not None and status_col < len(r) else "S"
        rows.append(ResultRow(r[0].strip(), seconds, status or "S"))
    return rows


@dataclass
class RunspecSuite(SpecSuiteBase):
    name: str = "spec-runspec"

    def precheck(self, cell: Cell) -> Result | None:
        pre = super().precheck(cell)
        if pre is not None:
            return pre
        if not (self.tree.root / "shrc").is_file():
            return Result(cell, UNSUPPORTED, f"no {self.tree.root / 'shrc'}: not a SPEC tree")
        return None

    def config_text(self, cell: Cell, folder: Path) -> str:
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        return render(
            cell,
            self.compilers[cell.compiler],
            flags,
            folder / "spec",
            self.runs,
            self.make_jobs,
            folder / "kernels.jsonl",
            folder / "events.jsonl",
            self.accsat_cache,
        )

    def build_key(self, cell: Cell) -> dict:
        return {
            **self.base_key(cell),
            "mode": "runspec",
            "harness": sweep_version,
            "accsat": accsat_version,
            "cc": accsat_cc.cc_command(cell.variant, ""),
        }

    def run_key(self, cell: Cell) -> dict:
        return {"runs": self.runs, "timeout": self.timeout}

    def _runspec(
        self,
        args: list[str],
        folder: Path,
        log: Path,
        timeout: float,
        extra_env: dict[str, str] | None = None,
    ) -> process.Finished:
        script = f"cd {shlex.quote(str(self.tree.root))} && . ./shrc && runspec " + " ".join(
            shlex.quote(a) for a in args
        )
        env = accsat_cc.environment(ORIG, None, None, extra_env)
        return process.run(
            ["/bin/sh", "-c", script], cwd=folder, env=env, timeout=timeout, stdout=log
        )

    def build(self, cell: Cell, folder: Path) -> dict:
        cfg = folder / "accsat.cfg"
        cfg.write_text(self.config_text(cell, folder))
        report, event_log = folder / "kernels.jsonl", folder / "events.jsonl"
        for stale in (report, event_log):
            stale.unlink(missing_ok=True)
        log = folder / "build.log"
        done = self._runspec(
            [f"--config={cfg}", "--action=build", "--tune=base", cell.benchmark],
            folder,
            log,
            self.build_timeout,
        )
        text = log.read_text(errors="replace")
        record = {
            "ok": False,
            "seconds": round(done.seconds, 3),
            "log": str(log),
            "kernels": accsat_cc.kernel_summary(report),
            "fallbacks": events.fallbacks(event_log),
        }
        if done.timed_out:
            return {
                **record,
                "status": TIMEOUT,
                "message": f"build passed {self.build_timeout:g} s",
            }
        exes = sorted((folder / "spec" / "benchspec" / "ACCEL" / cell.benchmark / "exe").glob("*"))
        if done.returncode != 0 or not exes or re.search(r"Build errors:.*\S", text):
            return {
                **record,
                "status": BUILD_FAILED,
                "message": f"runspec --action=build: exit status {done.returncode} (see {log})",
            }
        return {**record, "ok": True, "artifact": str(exes[0]), "message": ""}

    def run(self, cell: Cell, build: dict, folder: Path) -> Result:
        cfg = folder / "accsat.cfg"
        log = folder / "run.log"
        done = self._runspec(
            [
                f"--config={cfg}",
                "--action=validate",
                "--nobuild",
                f"--size={cell.size}",
                f"--iterations={self.runs}",
                "--tune=base",
                "--noreportable",
                "--output_format=csv",
                cell.benchmark,
            ],
            folder,
            log,
            self.timeout * self.runs,
        )
        if done.timed_out:
            return Result(cell, TIMEOUT, f"runspec passed {self.timeout * self.runs:g} s")
        text = log.read_text(errors="replace")
        found = _CSV_LINE.findall(text)
        if not found:
            return Result(
                cell,
                RUN_FAILED,
                f"runspec (exit status {done.returncode}) wrote no CSV result (see {log})",
            )
        rows = [
            r
            for r in parse_csv(Path(found[-1]).read_text(errors="replace"))
            if r.benchmark == cell.benchmark
        ]
        if not rows:
            return Result(cell, RUN_FAILED, f"{cell.benchmark} is not in {found[-1]}")
        bad = [r for r in rows if r.status != "S" or r.seconds is None]
        times = [r.seconds for r in rows if r.seconds is not None and r.status == "S"]
        if bad:
            status = _STATUS.get(bad[0].status, RUN_FAILED)
            return Result(
                cell,
                status,
                f"runspec status {bad[0].status} (see {log})",
                verified=False if status == VERIFICATION_FAILED else None,
                times=times,
            )
        return Result(cell, OK, verified=True, seconds=min(times), times=times)
