"""One file's kernels in two processes: a lead, which answers the request, and a helper.

A ``make -j1`` build leaves a core idle while accsat-cc rewrites a file, and a file's
kernels are rewritten independently of each other (``pipeline.prepare``).  So the
compile server may give a request to two of its waiting children (``server.py``):
both load the file; each takes the next kernel from one queue, a pipe filled before
either starts with the positions 0, 1, 2, ... (a read of 4 bytes from a pipe is
atomic: each position is taken once); the helper sends each result to the lead.  The
lead puts them in kernel order, so its file is the one a serial rewrite gives; what
the helper took but has not answered once the queue is empty, the lead waits for
while the helper works, and otherwise (a helper slowed by other work, or dead)
rewrites itself: a helper can make a file faster and never much slower.

The messages, tagged, in order: the helper's HELLO (its pid and the digest of what it
loaded: a file edited between the two loads gives the lead's alone), a KERNEL per
kernel it took, DONE once the queue is empty; then the lead's BODIES (the kernels the
helper rewrote, as the compiler reads them) and a VERDICT of the re-read check of
each.  The lead sends only after DONE: from then on the helper only reads until it
has the bodies, so neither waits on a full pipe the other is not reading.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from . import process

POSITIONS = 4096  # queued positions (16 KiB); those a pipe cannot hold are the lead's
_POSITION = struct.Struct("<I")
_LENGTH = struct.Struct("<Q")
MEASURE = 0.1  # seconds over which a helper's use of its core is judged

HELLO, KERNEL, DONE, BODIES, VERDICT = "hello", "kernel", "done", "bodies", "verdict"


def task_queue() -> int:
    """The read end of a pipe holding the positions 0, 1, ... (as many of the first
    POSITIONS as it takes without blocking), its write end closed."""
    read, write = os.pipe()
    try:
        os.set_blocking(write, False)
        data = b"".join(_POSITION.pack(p) for p in range(POSITIONS))
        with contextlib.suppress(BlockingIOError):
            while data:
                data = data[os.write(write, data) :]
    finally:
        os.close(write)
    return read


def pipes() -> tuple[list[int], list[int]]:
    """The fds of a new share: the lead's (tasks, inbox, outbox) and the helper's."""
    tasks = task_queue()
    lead_in, helper_out = os.pipe()
    helper_in, lead_out = os.pipe()
    for fd in (lead_in, helper_in):  # (a kernel's result is tens of KiB)
        process.widen_pipe(fd)
    return [tasks, lead_in, lead_out], [os.dup(tasks), helper_in, helper_out]


def idle_cores() -> int:
    """Cores this process may use that run nothing now (Linux's count of running tasks,
    this one included); 0 where that cannot be read."""
    try:
        with open("/proc/stat", "rb") as f:
            running = next(int(line.split()[1]) for line in f if line.startswith(b"procs_running"))
        return max(0, len(os.sched_getaffinity(0)) - running + 1)
    except (OSError, StopIteration, ValueError, AttributeError):
        return 0


@dataclass
class Share:
    """One side's ends: ``tasks`` (the queue, both read it), ``inbox`` (what the other
    side sends) and ``outbox`` (what this side sends); on the lead's side, what the
    helper has said so far (``collect``)."""

    tasks: int
    inbox: int
    outbox: int
    peer: int | None = None  # the helper's pid once it said hello; -1: it loaded another text
    finished: bool = False  # the helper said DONE: it takes no more kernels
    kernels: dict[int, object] = field(default_factory=dict)  # the helper's results
    verdicts: dict[int, str] = field(default_factory=dict)  # its re-read verdicts
    _buffer: bytearray = field(default_factory=bytearray)
    _open: bool = True  # the other side has not hung up

    def claim(self) -> int | None:
        """The next position of the queue; None once it is empty."""
        data = os.read(self.tasks, _POSITION.size)
        return _POSITION.unpack(data)[0] if len(data) == _POSITION.size else None

    def send(self, *message: object) -> bool:
        """One message to the other side; False if it is gone."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_LENGTH.pack(len(data)) + data)
        try:
            while view:
                view = view[os.write(self.outbox, view) :]
        except OSError:
            self._open = False
            return False
        return True

    def received(self) -> Iterator[tuple]:
        """The other side's messages that have arrived (waiting for none)."""
        if self._open:
            os.set_blocking(self.inbox, False)
            while True:
                try:
                    chunk = os.read(self.inbox, process.PIPE_SIZE)
                except BlockingIOError:
                    break
                if not chunk:
                    self._open = False
                    break
                self._buffer += chunk
        while len(self._buffer) >= _LENGTH.size:
            (n,) = _LENGTH.unpack_from(self._buffer)
            if len(self._buffer) < _LENGTH.size + n:
                break
            data = bytes(self._buffer[_LENGTH.size : _LENGTH.size + n])
            del self._buffer[: _LENGTH.size + n]
            try:
                message = pickle.loads(data)
            except Exception:  # a side that died mid-message: nothing more from it is used
                self._open = False
                self._buffer.clear()
                return
            if isinstance(message, tuple) and message:
                yield message

    def next_message(self) -> tuple | None:
        """The other side's next message, waiting for it; None once it hung up."""
        while True:
            for message in self.received():
                return message
            if not self._open:
                return None
            select.select([self.inbox], [], [])

    # -- the lead's side ------------------------------------------------------------------
    def collect(self, digest: bytes) -> None:
        """What the helper sent since the last call (``digest``: of what the lead loaded)."""
        for tag, *rest in self.received():
            if tag == HELLO and self.peer is None:
                pid, theirs = rest
                self.peer = pid if theirs == digest else -1
            elif self.peer is None or self.peer < 0:
                continue
            elif tag == KERNEL:
                self.kernels.setdefault(rest[0], rest[1])
            elif tag == DONE:
                self.finished = True
            elif tag == VERDICT:
                self.verdicts.setdefault(rest[0], rest[1])

    def wait_for(self, answered: Callable[[], bool], digest: bytes) -> None:
        """Collect until ``answered()``, while the helper works: not once it is gone or
        ran under half the time over the last MEASURE seconds (other work has its core)."""
        self.collect(digest)
        base = self._cpu()
        while not answered() and base is not None:
            if self._open:
                select.select([self.inbox], [], [], MEASURE)
            self.collect(digest)
            now = self._cpu()
            if now is None or answered():
                return
            if now[0] - base[0] >= MEASURE:
                if now[1] - base[1] < 0.5 * (now[0] - base[0]):
                    return
                base = now

    def _cpu(self) -> tuple[float, float] | None:
        """(now, the helper's CPU seconds); None when it is gone or not known."""
        if not self._open or self.peer is None or self.peer <= 0:
            return None
        try:
            with open(f"/proc/{self.peer}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            return None
        ticks = int(fields[11]) + int(fields[12])
        return time.monotonic(), ticks / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        for fd in (self.tasks, self.inbox, self.outbox):
            with contextlib.suppress(OSError):
                os.close(fd)


GRACE = 0.2  # seconds a helper told to stop is waited for (inside egglog, it ends later:
# with its lead at the latest, PR_SET_PDEATHSIG)


@contextlib.contextmanager
def forked_helper(work: Callable[[Share], None]) -> Iterator[Share | None]:
    """The lead's share of a helper forked now to run ``work(its share)``, when two
    cores are idle and this process runs one thread (None otherwise: the caller works
    alone): ``accsat rewrite``'s second process, as the compile server's waiting
    children are accsat-cc's.  A fork copies only the calling thread: egglog's,
    HiGHS's or OpenBLAS's threads started before it would be missing in the helper,
    whose work then waits for them forever (one forked after egglog's import hung in
    a futex); so the helper is forked before the pipeline is imported, as the server's
    children import it after their fork.  Once the ``with`` ends the lead has what it
    used of the helper, which is told to stop."""
    if idle_cores() < 2 or threads() != 1:
        yield None
        return
    try:
        lead, helping = pipes()
    except OSError:  # (out of descriptors: alone)
        yield None
        return
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:  # (out of processes or memory: alone)
        for fd in (*lead, *helping):
            os.close(fd)
        yield None
        return
    if pid == 0:  # the helper: never returns
        with contextlib.suppress(BaseException):
            _become_helper(parent, helping)
            work(Share(helping[0], helping[1], helping[2]))
        os._exit(0)  # (not the lead's exit handlers or buffered output)
    for fd in helping:
        os.close(fd)
    share = Share(lead[0], lead[1], lead[2])
    try:
        yield share
    finally:
        share.close()  # a helper waiting for bodies reads the end of its inbox
        _stop(pid)


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends


def _become_helper(parent: int, keep: list[int]) -> None:
    """In a forked helper: SIGTERM (which unwinds it) when the lead ends, however it ends
    (killed, it stops no helper itself); none of the lead's descriptors but ``keep``
    (its output: a reader of it, ``accsat rewrite f.c | ...``, would wait for the
    helper's end too; a make jobserver's pipe); a lower priority."""
    signal.signal(signal.SIGTERM, leave)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the lead ended before the prctl
        raise SystemExit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    top = max(keep) + 1
    os.closerange(3, min(keep))
    for fd in range(min(keep) + 1, top):
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)
    os.closerange(top, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
    os.nice(5)  # a core found idle may not stay so: others' work first


def threads() -> int:
    """Threads of this process, native ones included (0 where /proc does not say)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def _stop(pid: int) -> None:
    """Tell a helper to stop, and reap it if it does within GRACE seconds (else it
    ends by itself, once egglog returns)."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + GRACE
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(pid, os.WNOHANG) == (0, 0) and time.monotonic() < end:
            time.sleep(0.005)


def leave(_signum, _frame) -> None:
    """A helper's SIGTERM: unwind (temporary folders removed) and end."""
    raise SystemExit(0)
