"""``accsat tune`` as a suite of the sweep engine: one cell per configuration and round.

A configuration is the user's program built one way: ``orig`` (accsat-cc with
``ACCSAT_DISABLE=1``: nothing rewritten, timers in), a variant
(``ACCSAT_VARIANT``), or ``tuned`` (``ACCSAT_TUNE``: the database). Its build is
made once, in a private copy of the project (``OUT/builds/<config>-<fingerprint>/
tree``: the user's tree is only read, and configurations can build side by side
or on other nodes). The project is ``root``, a folder holding the build
directory: its git top level or ``--root``, so that a Makefile that reaches
``../`` finds what it reaches; ``.git`` folders are not copied. The commands run
in the copy of the build directory (the same relative folder): ``--clean`` then
``--build`` with ``ACCSAT_PROFILE`` and ``ACCSAT_BUILD_DIR`` set. A cell is one
run of it (``cell.size`` names the round): ``--run`` there, with a profile of its
own, the output checked against ``--check``. The tuner orders
the cells round by round, every configuration once per round, so that a drift
of the machine falls on all of them alike. The engine caches every cell, so
re-running reuses what finished.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import __version__ as accsat_version
from .. import ccconfig
from ..options import ORIG, TUNED, Options
from ..settings import declared
from ..sweep import BUILD_TIMEOUT, RUN_TIMEOUT, accsat_cc
from ..sweep import __version__ as sweep_version
from ..sweep.cache import fingerprint
from ..sweep.cells import Cell
from ..sweep.results import BUILD_FAILED, OK, RUN_FAILED, TIMEOUT, VERIFICATION_FAILED, Result
from ..toolchain import events, process
from ..toolchain.records import read_json, read_jsonl, write_json
from . import profile
from .static import STATIC_ROUND

TUNE_VERSION = "2"  # of this suite's builds and runs: part of every fingerprint
BUILD_LOG = "build.log"  # a configuration's --clean and --build output
STATIC_FILE = "static.jsonl"  # a build's device code figures (ACCSAT_STATIC)
NO_FIGURES = "no device code figures"  # how a static build without them fails
# the user's settings that would change what a configuration is; ours replace them
_OURS = tuple(
    ccconfig.env(name)
    for name in (
        "variant", "disable", "profile", "tune", "build_dir", "report", "events", "keep",
        "static",
    )
)  # fmt: skip


@dataclass
class TuneSuite:
    dir: Path  # the user's build directory (only read)
    build_cmd: str
    run_cmd: str
    clean_cmd: str = ""
    check: str = ""  # a regular expression the output of every run must match
    runs: int = 3
    timeout: float = RUN_TIMEOUT  # per run
    build_timeout: float = BUILD_TIMEOUT
    db: Path | None = None  # the database the tuned cell builds with
    tree: str = ""  # fingerprint of the directory's contents (tree_fingerprint)
    exclude: tuple[Path, ...] = ()  # inside ``root``, not copied (the outputs, the database)
    name: str = "tune"
    root: Path | None = None  # the folder copied (holds ``dir``); None: ``dir`` itself
    static: bool = False  # builds record device code figures (ACCSAT_STATIC; --static)

    @property
    def project(self) -> Path:
        return self.root or self.dir

    @property
    def relative(self) -> Path:
        """The build directory inside the project."""
        return self.dir.relative_to(self.project)

    # -- the engine's Suite protocol --------------------------------------------------
    def precheck(self, cell: Cell) -> Result | None:
        return None

    def build_key(self, cell: Cell) -> dict:
        key: dict[str, object] = {
            "dir": str(self.dir),
            "root": str(self.project),
            "tree": self.tree,
            "build": self.build_cmd,
            "clean": self.clean_cmd,
            "config": cell.variant,
            "tune": TUNE_VERSION,
            "harness": sweep_version,
            "accsat": accsat_version,
            # the timers are accsat's code too, orig included
            "accsat_code": accsat_cc.accsat_code(),
        }
        # the user's rewrite settings reach every configuration's build (ACCSAT_FP_EXACT...)
        settings = {
            s.env: os.environ[s.env]
            for s in declared(Options)
            if os.environ.get(s.env, "").strip() and s.env not in _OURS
        }
        if settings:
            key["settings"] = settings
        if self.static:  # the figures come from ptxas: another one, other figures
            from ..toolchain.ptx import ptxas_version

            key["static"] = ptxas_version() or "no ptxas"
        if cell.variant == TUNED:
            from .db import load

            key["db"] = load(self.db).digest() if self.db is not None else None
        return key

    def run_key(self, cell: Cell) -> dict:
        return {"run": self.run_cmd, "check": self.check, "timeout": self.timeout}

    def build(self, cell: Cell, folder: Path) -> dict:
        """The configuration's build, shared by its cells (one per round of runs):
        ``OUT/builds/<config>-<fingerprint>``, made by the first of them."""
        fp = fingerprint(self.build_key(cell))
        shared = folder.parent.parent / "builds" / f"{_safe(cell.variant)}-{fp}"
        shared.mkdir(parents=True, exist_ok=True)
        with open(shared / ".lock", "a") as lock:  # cells of one config may build at once
            fcntl.flock(lock, fcntl.LOCK_EX)
            record = read_json(shared / "build.json")
            if isinstance(record, dict) and Path(record.get("artifact") or shared).exists():
                return record
            record = self._build(cell.variant, shared)
            write_json(shared / "build.json", record)
            return record

    def _build(self, config: str, folder: Path) -> dict:
        tree = folder / "tree"
        copy_tree(self.project, tree, self.exclude)
        work = tree / self.relative
        log = folder / BUILD_LOG
        report, event_log = folder / "kernels.jsonl", folder / "events.jsonl"
        figures = folder / STATIC_FILE
        for stale in (log, report, event_log, figures):
            stale.unlink(missing_ok=True)
        env = self.environment(config, folder, work)
        record = {"ok": False, "source_dir": str(work), "log": str(log)}
        if self.static:
            env.update(ccconfig.environment(static=str(figures)))
            record["static"] = str(figures)
        seconds = 0.0
        for what, cmd in (("clean", self.clean_cmd), ("build", self.build_cmd)):
            if not cmd:
                continue
            done = process.run(
                ["/bin/sh", "-c", cmd],
                cwd=work,
                env=env,
                timeout=self.build_timeout - seconds,
                stdout=log,
                append=True,
            )
            seconds += done.seconds
            record.update(
                seconds=round(seconds, 3),
                kernels=accsat_cc.kernel_summary(report),
                fallbacks=events.fallbacks(event_log),
            )
            if done.timed_out:
                return {
                    **record,
                    "status": TIMEOUT,
                    "message": f"{what} passed {self.build_timeout:g} s",
                }
            if done.returncode != 0:
                return {
                    **record,
                    "status": BUILD_FAILED,
                    "message": f"--{what} exit status {done.returncode} "
                    f"({_last_line(log)}; see {log})",
                }
        if self.static:
            lacking = _no_figures(figures)
            if lacking:
                return {**record, "status": BUILD_FAILED, "message": lacking}
        return {**record, "ok": True, "artifact": str(work), "message": ""}

    def run(self, cell: Cell, build: dict, folder: Path) -> Result:
        """One run of the built configuration (one round of the tuner: ``cell.size``);
        in a static tuning's round, the build's device code figures instead."""
        if cell.size == STATIC_ROUND:
            return self._figures(cell, build)
        tree = Path(build["artifact"])
        out = folder / "run.out"
        prof = folder / "profile.jsonl"
        prof.unlink(missing_ok=True)
        env = {
            **self.environment(cell.variant, folder, tree),
            **ccconfig.environment(profile=str(prof)),
        }
        done = process.run(
            ["/bin/sh", "-c", self.run_cmd],
            cwd=tree,
            env=env,
            timeout=self.timeout,
            stdout=out,
            timed=True,
        )
        failed = self._failure(done, out)
        if failed is not None:
            status, message = failed
            verified = False if status == VERIFICATION_FAILED else None
            return Result(cell, status, message, verified=verified, extra={"log": str(out)})
        found, bad = profile.read(prof)
        seconds = round(done.seconds, 6)
        return Result(
            cell,
            OK,
            verified=True,
            seconds=seconds,
            times=[seconds],
            wall_seconds=seconds,
            cpu_seconds=done.cpu_seconds,
            extra={"kernels": profile.rows(found), "bad_profile_lines": bad},
        )

    def _figures(self, cell: Cell, build: dict) -> Result:
        found = list(read_jsonl(Path(build["static"])))
        return Result(cell, OK, verified=None, extra={"static": found})

    def _failure(self, done: process.Finished, out: Path) -> tuple[str, str] | None:
        if done.timed_out:
            return TIMEOUT, f"the run passed {self.timeout:g} s"
        if done.returncode != 0:
            return RUN_FAILED, f"exit status {done.returncode} ({_last_line(out)})"
        if self.check and not re.search(self.check, out.read_text(errors="replace"), re.M):
            return VERIFICATION_FAILED, f"the output does not match --check {self.check!r}"
        return None

    # -- the configuration's environment --------------------------------------------------
    def environment(self, config: str, folder: Path, tree: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in _OURS}
        env.update(
            ccconfig.environment(
                profile=str(folder / "profile-build.jsonl"),
                build_dir=str(tree),
                report=str(folder / "kernels.jsonl"),
                disable="1" if config == ORIG else "0",
                events=str(folder / "events.jsonl"),
            )
        )
        if config == TUNED:
            env.update(ccconfig.environment(tune=str(self.db)))
        elif config != ORIG:
            env.update(accsat_cc.config_environment(config))
        return env


NOT_COPIED = ".git"  # a project's history: large, and no build of ours needs it
# in every --out folder: another tuning's outputs (its builds hold whole copies) are
# never copied or fingerprinted, wherever in the project they lie
OUT_MARKER = ".accsat-tune-out"


def copy_tree(src: Path, dest: Path, exclude: tuple[Path, ...] = ()) -> None:
    """A fresh copy of ``src`` at ``dest`` (links kept as links), without ``exclude`` and
    ``.git`` folders."""
    if dest.exists():
        shutil.rmtree(dest)
    skip = {p.resolve() for p in exclude}

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if _skipped(Path(folder) / n, skip)}

    shutil.copytree(src, dest, symlinks=True, ignore=ignore)


def tree_fingerprint(src: Path, exclude: tuple[Path, ...] = ()) -> str:
    """Names, sizes and modification times below ``src``: an edit means new builds."""
    skip = {p.resolve() for p in exclude}
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if not _skipped(Path(folder) / d, skip))
        for name in sorted(files):
            path = Path(folder) / name
            if path.resolve() in skip:
                continue
            try:
                st = path.lstat()
            except OSError:
                continue
            h.update(f"{path.relative_to(src)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:16]


def _skipped(path: Path, skip: set[Path]) -> bool:
    return (
        path.name == NOT_COPIED
        or path.resolve() in skip
        or (path.is_dir() and not path.is_symlink() and (path / OUT_MARKER).exists())
    )


def _no_figures(path: Path) -> str:
    """Why a static build's rows (ACCSAT_STATIC) hold no device entry at all; '' when
    some do."""
    rows = list(read_jsonl(path))
    if any(r.get("entry") is not None and r.get("registers") for r in rows):
        return ""
    whys = sorted({str(r.get("why")) for r in rows if r.get("why")})
    if not rows:
        return (
            f"{NO_FIGURES}: accsat-cc recorded none (does --build compile "
            'through accsat-cc, CC="accsat-cc gcc"?)'
        )
    return (
        f"{NO_FIGURES} ({'; '.join(whys) or 'ptxas gave no register count'}): "
        "--static needs gcc's nvptx offload compiler and ptxas on the PATH"
    )


def _safe(name: str) -> str:
    """A config's name as a file name (``cse+sat`` stays as it is)."""
    return re.sub(r"[^A-Za-z0-9.+_-]", "_", name)


def _last_line(log: Path) -> str:
    lines = [ln.strip() for ln in process.tail(log, 4000).splitlines() if ln.strip()]
    return lines[-1][:200] if lines else "no output"
