"""``--mode direct``: build and run a SPEC ACCEL benchmark without runspec.

What researchers do when runspec is in the way: copy ``src/`` to a private
folder, compile each source of ``@sources`` with ``-DSPEC``, the table's
flags and the benchmark's ``$bench_flags`` (through accsat-cc for a variant),
link; run invoke()'s command lines in a fresh run folder holding the input
set (``data/all/input`` + ``data/SIZE/input``); validate every file of
``data/SIZE/output`` with the tolerances object.pm declares (specdiff.py).
The time of a run is the wall clock of all its command lines.
"""

from __future__ import annotations

import shlex
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from accsat import __version__ as accsat_version
from accsat.options import ORIG
from accsat.sweep import __version__ as sweep_version
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.sweep.results import BUILD_FAILED, OK, RUN_FAILED, TIMEOUT, VERIFICATION_FAILED, Result
from accsat.toolchain import events, process
from accsat.toolchain.compilers import Flags

from . import objectpm
from .common import SpecSuiteBase
from .flags import LIBS, SPEC_DEFINES
from .specdiff import Tolerance, validate_file


@dataclass
class DirectSuite(SpecSuiteBase):
    name: str = "spec-direct"

    def build_key(self, cell: Cell) -> dict:
        return {
            **self.base_key(cell),
            "mode": "direct",
            "harness": sweep_version,
            "accsat": accsat_version,
        }

    def run_key(self, cell: Cell) -> dict:
        return {"runs": self.runs, "timeout": self.timeout}

    def build(self, cell: Cell, folder: Path) -> dict:
        compiler, flags = self.compilers[cell.compiler], self.flags(cell)
        assert isinstance(flags, Flags)
        bench = self.tree.bench_dir(cell.benchmark)
        build = folder / "build"
        if build.exists():
            shutil.rmtree(build)
        shutil.copytree(bench / "src", build, symlinks=False)
        log, report, event_log = (
            folder / "build.log",
            folder / "kernels.jsonl",
            folder / "events.jsonl",
        )
        for stale in (log, report, event_log):
            stale.unlink(missing_ok=True)
        record = {"ok": False, "log": str(log), "seconds": 0.0}
        try:
            info = objectpm.load(
                bench, "", cell.size, self.tree.input_dirs(cell.benchmark, cell.size)
            )
        except objectpm.ObjectPmError as exc:
            return {**record, "status": BUILD_FAILED, "message": f"object.pm: {exc}"}
        env = accsat_cc.environment(cell.variant, report, self.accsat_cache, event_log=event_log)
        cc = shlex.split(accsat_cc.cc_command(cell.variant, compiler.command))
        cmds = [
            [*cc, *flags.compile, *SPEC_DEFINES, *info.bench_flags, "-c", src, "-o", _object(src)]
            for src in info.sources
        ]
        cmds.append(
            [
                *shlex.split(compiler.command),
                *flags.link,
                *(_object(s) for s in info.sources),
                "-o",
                info.exename,
                *LIBS,
            ]
        )
        (folder / "build.sh").write_text(
            f"cd {shlex.quote(str(build))}\n"
            + "".join(" ".join(shlex.quote(w) for w in c) + "\n" for c in cmds)
        )
        start = time.perf_counter()
        for cmd in cmds:
            with open(log, "a") as f:
                f.write("$ " + " ".join(shlex.quote(w) for w in cmd) + "\n")
            left = self.build_timeout - (time.perf_counter() - start)
            done = process.run(cmd, cwd=build, env=env, timeout=left, stdout=log, append=True)
            if done.timed_out or done.returncode != 0:
                break
        text = log.read_text(errors="replace")
        record.update(
            seconds=round(time.perf_counter() - start, 3),
            kernels=accsat_cc.kernel_summary(report),
            fallbacks=events.fallbacks(event_log),
        )
        if done.timed_out:
            return {
                **record,
                "status": TIMEOUT,
                "message": f"build passed {self.build_timeout:g} s",
            }
        exe = build / info.exename
        if done.returncode != 0 or not exe.is_file():
            last = text.strip().splitlines()[-1:] or ["no output"]
            return {
                **record,
                "status": BUILD_FAILED,
                "message": f"{cmd[0]}: exit status {done.returncode}; {last[0][:300]} (see {log})",
            }
        return {**record, "ok": True, "artifact": str(exe), "message": ""}

    def run(self, cell: Cell, build: dict, folder: Path) -> Result:
        exe = Path(build["artifact"])
        flags = self.flags(cell)
        assert isinstance(flags, Flags)
        env = accsat_cc.environment(ORIG, None, None, dict(flags.run_env))
        times: list[float] = []
        cpus: list[float] = []
        for i in range(1, self.runs + 1):
            outcome = self._one_run(cell, exe, folder / "run", env, i)
            if isinstance(outcome, Result):
                outcome.times = times
                return outcome
            times.append(round(outcome[0], 6))
            cpus.append(round(outcome[1], 4))
        return Result(
            cell,
            OK,
            verified=True,
            seconds=min(times),
            times=times,
            wall_seconds=min(times),
            cpu_seconds=min(cpus),
        )

    def _one_run(
        self, cell: Cell, exe: Path, run: Path, env: dict, i: int
    ) -> tuple[float, float] | Result:
        """The run's (wall, cpu) seconds, or the failed Result."""
        if run.exists():
            shutil.rmtree(run)
        run.mkdir(parents=True)
        inputs = self.tree.input_dirs(cell.benchmark, cell.size)
        for d in inputs:
            shutil.copytree(d, run, dirs_exist_ok=True)
        try:
            info = objectpm.load(self.tree.bench_dir(cell.benchmark), str(exe), cell.size, inputs)
        except objectpm.ObjectPmError as exc:
            return Result(cell, RUN_FAILED, f"object.pm: {exc}")
        if not info.runs:
            return Result(cell, RUN_FAILED, "object.pm's invoke() returned no command line")
        seconds = cpu = 0.0
        for n, inv in enumerate(info.runs):
            out = run / (inv.output or f"{info.exename}.{n}.out")
            err = run / (inv.error or f"{info.exename}.{n}.err")
            stdin = run / inv.input if inv.input else None
            done = process.run(
                [inv.command, *inv.args],
                cwd=run,
                env=env,
                timeout=self.timeout - seconds,
                stdout=out,
                stderr=err,
                stdin=stdin,
                big_stack=True,
            )
            seconds += done.seconds
            cpu += done.cpu_seconds or 0.0
            if done.timed_out:
                return Result(cell, TIMEOUT, f"run {i} passed {self.timeout:g} s")
            if done.returncode != 0:
                return Result(
                    cell,
                    RUN_FAILED,
                    f"run {i}: {inv.command} exit status "
                    f"{done.returncode}: {process.tail(err, 300).strip()}",
                )
        expected_dir = self.tree.output_dir(cell.benchmark, cell.size)
        expected = (
            sorted(p for p in expected_dir.iterdir() if p.is_file())
            if expected_dir.is_dir()
            else []
        )
        if not expected:
            return Result(
                cell, VERIFICATION_FAILED, f"no expected outputs in {expected_dir}", verified=False
            )
        for want in expected:
            abstol, reltol = info.tolerance_for(want.name)
            tol = Tolerance(
                abstol, reltol, info.compwhite, info.floatcompare, info.ignorecase, info.skiptol
            )
            bad = validate_file(want, run / want.name, tol)
            if bad:
                return Result(
                    cell,
                    VERIFICATION_FAILED,
                    f"run {i}: {want.name}: {len(bad)} line(s) differ; {bad[0]}",
                    verified=False,
                )
        return seconds, cpu


def _object(source: str) -> str:
    return source.replace("/", "_").rsplit(".", 1)[0] + ".o"
