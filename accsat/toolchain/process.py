"""The one process runner: every child process accsat starts goes through here.

Three ways to run a command:

* :func:`run`: builds and benchmarks, output to files (``make``, a benchmark);
* :func:`capture`: a tool whose output we read (cpp, ptxas, a probe, squeue);
* :func:`foreground`: the user's own compile in ``accsat-cc``.

The first two always have a timeout, and start the command in a new session:
at the timeout (or on Ctrl-C of the sweep) the whole tree it started (make, the
compilers, accsat-cc) ends, and nothing else. Those still running are tracked so
that an interrupted sweep ends exactly those, by their group id (:func:`kill_all`).

:func:`foreground` is the exception, on purpose: the user's compiler stays in
the user's process group (a Ctrl-C at the terminal reaches it as it would
without accsat) and takes as long as it takes without accsat; it ends with the
wrapper when the wrapper is stopped.

A command that cannot be started raises OSError, for the caller to say so.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

_active: set[subprocess.Popen[bytes]] = set()
_lock = threading.Lock()
_DRAIN = 5.0  # seconds to collect what a killed command left in its pipes


def _forget_in_child() -> None:
    """A forked child (accsat-cc's rewrite, the compile server's) starts with no process
    of its own, with a lock no other thread may be holding, and opens /proc/self/statm
    itself (resident_mb)."""
    global _lock
    _lock = threading.Lock()
    _active.clear()
    if _STATM:
        with contextlib.suppress(OSError):
            os.close(_STATM[0])
        _STATM.clear()


os.register_at_fork(after_in_child=_forget_in_child)


@dataclass
class Finished:
    returncode: int | None  # None: killed at the timeout
    seconds: float  # wall clock
    timed_out: bool
    # user + system time of the process and the children it waited for; exact
    # when nothing else of ours ends meanwhile (runs: always, they run alone)
    cpu_seconds: float | None = None


@dataclass(frozen=True)
class Captured:
    """How a command ended and what it printed."""

    returncode: int | None  # None: killed at the timeout
    stdout: bytes
    stderr: bytes
    seconds: float  # wall clock

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")


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


def run(
    cmd: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    stdout: Path,
    stderr: Path | None = None,
    stdin: Path | None = None,
    big_stack: bool = False,
    append: bool = False,
    timed: bool = False,
) -> Finished:
    """Run ``cmd``; its output goes to ``stdout`` (and ``stderr``, else the same file).
    ``timed``: a run whose time is compared (fixed memory layout, :func:`fixed_layout`)."""

    def prepare() -> None:
        if big_stack:
            unlimited_stack()
        if timed:
            fixed_layout()

    start = time.perf_counter()
    before = children_cpu()
    with (
        open(stdout, "ab" if append else "wb") as out,
        open(stderr, "wb") if stderr else _same(out) as err,
        open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp,
    ):
        proc = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=env,
            stdin=inp,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=prepare if big_stack or timed else None,
        )
        with _tracked(proc):
            try:
                proc.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                _kill(proc)
                timed_out = True
    seconds = time.perf_counter() - start
    cpu = children_cpu() - before
    return Finished(None if timed_out else proc.returncode, seconds, timed_out, round(cpu, 4))


def end(code: object = 0) -> NoReturn:
    """End this process as ``sys.exit(code)`` would, without Python's teardown: exit
    handlers run and the standard streams are flushed, then ``os._exit``.  After a
    rewrite the process holds hundreds of thousands of objects and egglog's sessions,
    and freeing them one by one took 0.14-0.19 s of a 3.7 s ``accsat rewrite`` (mypy
    ends so too).  Where a thread of Python's still runs, the usual exit (which waits
    for it)."""
    if threading.active_count() > 1:
        raise SystemExit(code)
    if code is None or isinstance(code, int):
        status = code or 0
    else:  # as sys.exit prints any other object
        if sys.stderr is not None:
            print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        if stream is None or stream.closed:
            continue
        try:
            stream.flush()
        except OSError:  # (a reader gone: so Python's own exit says)
            status = 120
    os._exit(status & 0xFF)


_STATM: list[int] = []  # /proc/self/statm opened by this process: [its descriptor]


def resident_mb() -> float:
    """This process's resident memory in MB (0 where /proc does not say). The file
    stays open (read at each iteration of a kernel's saturation and before each job of
    a paused collector, pipeline._collect_now); a forked child opens its own
    (_forget_in_child forgets the parent's)."""
    try:
        if not _STATM:
            _STATM[:] = [os.open("/proc/self/statm", os.O_RDONLY)]
        pages = int(os.pread(_STATM[0], 128, 0).split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def children_cpu() -> float:
    """CPU seconds (user and system) of the children this process has waited for, and
    of theirs: what a command it ran took, read before and after."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def capture(
    cmd: Sequence[str],
    *,
    timeout: float,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> Captured:
    """Run ``cmd`` with an empty standard input and its output in memory; at ``timeout``
    seconds its whole process group is killed (``returncode`` None)."""
    with started(cmd, timeout=timeout, cwd=cwd, env=env) as result:
        return result()


@contextlib.contextmanager
def started(
    cmd: Sequence[str],
    *,
    timeout: float,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[Callable[[], Captured]]:
    """``cmd`` run as ``capture`` runs it, while the caller does other work: the context
    gives what waits for its result. It is waited for at the context's end all the same,
    and killed if the caller raises first. The timeout counts from the start; a command
    the caller asks for after it gets _DRAIN seconds more (it may have waited for us to
    read: its pipes hold what the system lets them, asked PIPE_SIZE)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(cmd),
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    for pipe in (proc.stdout, proc.stderr):
        widen_pipe(pipe.fileno() if pipe is not None else -1)
    done: list[Captured] = []

    def result() -> Captured:
        if not done:
            try:
                left = max(start + timeout - time.perf_counter(), 0.0) or _DRAIN
                out, err = proc.communicate(timeout=left)
                rc: int | None = proc.returncode
            except subprocess.TimeoutExpired:
                _kill(proc)
                out, err = _drain(proc)
                rc = None
            done.append(Captured(rc, out or b"", err or b"", time.perf_counter() - start))
        return done[0]

    with proc, _tracked(proc):
        yield result
        result()


PIPE_SIZE = 1 << 20  # bytes asked of a pipe a command writes into while we work


def widen_pipe(fd: int, size: int = PIPE_SIZE) -> None:
    """Ask Linux for a pipe of ``size`` bytes (the default holds 64 KiB: a writer past
    it waits for the reader); nothing where that cannot be done."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)


def foreground(cmd: Sequence[str], *, capture: bool) -> Captured:
    """The user's own command (``accsat-cc``'s compile): in our process group, with our
    standard input, its output captured or ours; no time limit of accsat's."""
    start = time.perf_counter()
    pipe = subprocess.PIPE if capture else None
    proc = subprocess.Popen(list(cmd), stdout=pipe, stderr=pipe)
    try:
        out, err = proc.communicate()
    except BaseException:  # the wrapper is stopped: the compile ends with it
        proc.kill()
        proc.wait()
        raise
    return Captured(proc.returncode, out or b"", err or b"", time.perf_counter() - start)


def kill_all() -> None:
    """End every process group this module started and that is still running."""
    with _lock:
        procs = list(_active)
    for proc in procs:
        _kill(proc)


@contextlib.contextmanager
def _tracked(proc: subprocess.Popen[bytes]):
    """``proc`` known to :func:`kill_all` while it runs; killed if we are interrupted."""
    with _lock:
        _active.add(proc)
    try:
        yield
    except BaseException:
        _kill(proc)
        raise
    finally:
        with _lock:
            _active.discard(proc)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.returncode is None:  # (once waited for, its number may be another's)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # the group we created: pid == pgid
    proc.wait()


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """What a killed command had written (a grandchild that left the group and holds the
    pipes open does not hold us past :data:`_DRAIN`)."""
    try:
        out, err = proc.communicate(timeout=_DRAIN)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        return b"", b""
    return out or b"", err or b""


class _same:
    """``open(...) if x else _same(out)``: the stdout file again, not closed twice."""

    def __init__(self, f: IO[bytes]):
        self.f = f

    def __enter__(self) -> IO[bytes]:
        return self.f

    def __exit__(self, *exc: object) -> None:
        return None


def tail(path: Path, chars: int = 2000) -> str:
    """The end of a log, for messages."""
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-chars:].decode(errors="replace")
