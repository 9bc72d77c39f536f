"""Running builds and benchmarks: own process group, timeout, output to files.

Each command starts a new session so that a timeout (or Ctrl-C on the sweep)
ends the whole tree it started (make, the compilers, accsat-cc) and nothing
else. The processes still running are tracked so that an interrupted sweep
ends exactly those, by their group id.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_active: set[subprocess.Popen] = set()
_lock = threading.Lock()


@dataclass
class Finished:
    returncode: int | None  # None: killed at the timeout
    seconds: float  # wall clock
    timed_out: bool
    # user + system time of the process and the children it waited for; exact
    # when nothing else of ours ends meanwhile (runs: always, they run alone)
    cpu_seconds: float | None = None


def unlimited_stack() -> None:
    """NPB BT (and others) keep large arrays on the stack: class W segfaults with 8 MiB."""
    try:
        resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):  # a hard limit we may not raise: go as high as allowed
        _, hard = resource.getrlimit(resource.RLIMIT_STACK)
        resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))


_ADDR_NO_RANDOMIZE = 0x0040000  # linux/personality.h


def fixed_layout() -> None:
    """No address-space randomisation for a timed run (Linux; elsewhere nothing): with
    it, the same NPB CG class W binary took 0.16 s or 0.21 s from one run to the next
    on our 2-core test host, as its arrays happened to land; without it, 0.16 s every
    time. Inherited by the shell's children (``setarch -R`` does the same)."""
    import ctypes

    try:
        personality = ctypes.CDLL(None, use_errno=True).personality
    except (OSError, AttributeError):
        return
    current = personality(0xFFFFFFFF)
    if current != -1:
        personality(current | _ADDR_NO_RANDOMIZE)


def run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float | None,
        stdout: Path, stderr: Path | None = None, stdin: Path | None = None,
        big_stack: bool = False, append: bool = False, timed: bool = False) -> Finished:
    """Run ``cmd``; its output goes to ``stdout`` (and ``stderr``, else the same file).
    ``timed``: a run whose time is compared (fixed memory layout, :func:`fixed_layout`)."""

    def prepare() -> None:
        if big_stack:
            unlimited_stack()
        if timed:
            fixed_layout()

    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout, "ab" if append else "wb") as out, open(stderr, "wb") if stderr else _same(out) as err, \
            open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=inp, stdout=out, stderr=err,
                                start_new_session=True,
                                preexec_fn=prepare if big_stack or timed else None)
        with _lock:
            _active.add(proc)
        try:
            proc.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            _kill(proc)
            timed_out = True
        except BaseException:
            _kill(proc)
            raise
        finally:
            with _lock:
                _active.discard(proc)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Finished(None if timed_out else proc.returncode, seconds, timed_out, round(cpu, 4))


def kill_all() -> None:
    """End every process group this module started and that is still running."""
    with _lock:
        procs = list(_active)
    for proc in procs:
        _kill(proc)


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # the group we created: pid == pgid
    proc.wait()


class _same:
    """``open(...) if x else _same(out)``: the stdout file again, not closed twice."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        return self.f

    def __exit__(self, *exc):
        return False


def tail(path: Path, chars: int = 2000) -> str:
    """The end of a log, for messages."""
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-chars:].decode(errors="replace")
