"""Building one NPB cell: the suite's own Makefile in the cell's private tree.

    make CC="accsat-cc gcc" CLINK=gcc CLASS=S CFLAGS="..." CLINKFLAGS="... -lm"

with ``ACCSAT_VARIANT``, ``ACCSAT_REPORT`` (the cell's kernels.jsonl) and a
per-sweep ``ACCSAT_CACHE_DIR`` in the environment. ``orig`` is the same line
with the plain compiler. Linking never needs accsat: CLINK is the compiler.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from accsat.options import DEFAULT_VARIANT, TUNED
from accsat.sweep import accsat_cc
from accsat.sweep.cells import Cell
from accsat.sweep.results import BUILD_FAILED, TIMEOUT
from accsat.toolchain import events, process
from accsat.toolchain.compilers import Compiler, Flags

from .tree import private_copy

# what NPB-ACC needs beyond the table's flags: its C89-style inline functions
# would otherwise be undefined at link time under gcc's and clang's C99 rules
NPB_EXTRA_CFLAGS = {"gcc": ("-fgnu89-inline",), "clang": ("-fgnu89-inline",)}


def make_commands(cell: Cell, compiler: Compiler, flags: Flags, make_jobs: int) -> list[list[str]]:
    """``make config`` alone first (setparams, npbparams.h), then the build with -j.

    In one ``make -j`` the Makefile's npbparams.h rule races the building of
    setparams (both follow from a fresh make.def).
    """
    extra = NPB_EXTRA_CFLAGS.get(compiler.family, ())
    cflags = " ".join((*flags.compile, *extra))
    clinkflags = " ".join((*flags.link, *extra, "-lm"))
    # utilities (setparams) are built with the host's C compiler, never accsat
    ucc = "gcc" if shutil.which("gcc") else "cc"
    variables = [
        f"CC={accsat_cc.cc_command(cell.variant, compiler.command)}",
        f"CLINK={compiler.command}",
        f"CLASS={cell.size}",
        f"CFLAGS={cflags}",
        f"CLINKFLAGS={clinkflags}",
        f"UCC={ucc}",
    ]
    return [["make", "config", *variables], ["make", f"-j{max(1, make_jobs)}", *variables]]


def build_cell(
    cell: Cell,
    npb_root: Path,
    compiler: Compiler,
    flags: Flags,
    folder: Path,
    accsat_cache: Path,
    make_jobs: int,
    timeout: float,
    extra_env: dict[str, str] | None = None,
) -> dict:
    """Copy, make, find the binary: the build record the engine stores (``extra_env``:
    the tuned cell's ACCSAT_TUNE)."""
    src = private_copy(npb_root, cell.benchmark, folder / "tree")
    report, event_log, log = folder / "kernels.jsonl", folder / "events.jsonl", folder / "build.log"
    for stale in (report, event_log, log):
        stale.unlink(missing_ok=True)
    cmds = make_commands(cell, compiler, flags, make_jobs)
    # a tuned cell's kernels outside its database get the default variant
    variant = DEFAULT_VARIANT if cell.variant == TUNED else cell.variant
    env = accsat_cc.environment(variant, report, accsat_cache, extra_env, event_log)
    # the build, replayable by hand (without the environment: see build.json)
    (folder / "build.sh").write_text(
        f"cd {shlex.quote(str(src))}\n"
        + "".join(" ".join(shlex.quote(w) for w in cmd) + "\n" for cmd in cmds)
    )
    seconds = 0.0
    for cmd in cmds:
        done = process.run(
            cmd, cwd=src, env=env, timeout=timeout - seconds, stdout=log, append=True
        )
        seconds += done.seconds
        if done.returncode != 0:
            break
    text = log.read_text(errors="replace")
    record = {
        "ok": False,
        "seconds": round(seconds, 3),
        "source_dir": str(src),
        "kernels": accsat_cc.kernel_summary(report),
        "fallbacks": events.fallbacks(event_log),
        "log": str(log),
    }
    if done.timed_out:
        return {**record, "status": TIMEOUT, "message": f"build passed {timeout:g} s"}
    exe = find_binary(src, cell.size)
    if done.returncode != 0 or exe is None:
        why = f"make: exit status {done.returncode}" if done.returncode else "no binary"
        return {
            **record,
            "status": BUILD_FAILED,
            "message": f"{why}; {_last_error(text)} (see {log})",
        }
    return {**record, "ok": True, "artifact": str(exe), "message": ""}


def find_binary(src: Path, cls: str) -> Path | None:
    """``bt.S.x`` in the source folder (BINDIR=.) or in ``../bin`` (NPB's default)."""
    for folder in (src, src.parent / "bin"):
        found = sorted(folder.glob(f"*.{cls}.x"))
        if found and os.access(found[0], os.X_OK):
            return found[0]
    return None


def _last_error(log: str) -> str:
    lines = [ln.strip() for ln in log.splitlines() if "error" in ln.lower()]
    return lines[-1][:300] if lines else (log.strip().splitlines() or ["no output"])[-1][:300]
