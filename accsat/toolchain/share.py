"""One file's kernels in two processes: a lead, which answers the request, and a helper.

A ``make -j1`` build leaves a core idle while accsat-cc rewrites a file, and a file's
kernels are rewritten independently of each other (``pipeline.prepare``).  So the
compile server may give a request to two of its waiting children (``server.py``):
both load the file; each takes the next kernel from one queue, a pipe filled before
either starts with the positions 0, 1, 2, ... (a read of 4 bytes from a pipe is
atomic: each position is taken once); the helper sends each result to the lead
through a second pipe.  The lead puts them in kernel order, so its file is the one a
serial rewrite gives; what the helper took but has not answered once the queue is
empty (a helper slowed by other work, or dead) the lead rewrites itself, so a helper
can make a file faster and never slower.  The helper's first message is its pid and
the digest of what it loaded: a file edited between the two loads gives the lead's
alone.  Then, through a third pipe, the lead sends the helper the bodies (as the
compiler reads them) of the kernels it rewrote, for their re-read checks, and takes
the verdicts back the same way.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import select
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

POSITIONS = 4096  # queued positions (16 KiB: well within a pipe's buffer); past them: the lead's
_POSITION = struct.Struct("<I")
_LENGTH = struct.Struct("<Q")
MEASURE = 0.1  # seconds over which a helper's use of its core is judged


def task_queue() -> int:
    """The read end of a pipe holding the positions 0 .. POSITIONS-1 (its write end closed)."""
    read, write = os.pipe()
    try:
        data = b"".join(_POSITION.pack(p) for p in range(POSITIONS))
        while data:
            data = data[os.write(write, data) :]
    finally:
        os.close(write)
    return read


def idle_cores() -> int:
    """Cores this process may use that run nothing now (Linux's count of running tasks,
    this one included); 0 where that cannot be read."""
    try:
        with open("/proc/stat", "rb") as f:
            running = next(int(line.split()[1]) for line in f if line.startswith(b"procs_running"))
        return len(os.sched_getaffinity(0)) - running + 1
    except (OSError, StopIteration, ValueError, AttributeError):
        return 0


@dataclass
class Share:
    """One side's ends: ``tasks`` (the queue, both read it), ``inbox`` (what the other
    side sends) and ``outbox`` (what this side sends)."""

    tasks: int
    inbox: int
    outbox: int
    peer: int | None = None  # the helper's pid, once it said it loaded the lead's text
    _buffer: bytearray = field(default_factory=bytearray)
    _open: bool = True  # the other side has not hung up
    _seen: tuple[float, float] | None = None  # (when, the helper's CPU seconds) last looked at

    def claim(self) -> int | None:
        """The next position of the queue; None once it is empty."""
        data = os.read(self.tasks, _POSITION.size)
        return _POSITION.unpack(data)[0] if len(data) == _POSITION.size else None

    def send(self, message: object) -> None:
        """One message to the other side."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_LENGTH.pack(len(data)) + data)
        while view:
            view = view[os.write(self.outbox, view) :]

    def received(self) -> Iterator[object]:
        """The other side's messages that have arrived (waiting for none)."""
        if self._open:
            flags = fcntl.fcntl(self.inbox, fcntl.F_GETFL)
            fcntl.fcntl(self.inbox, fcntl.F_SETFL, flags | os.O_NONBLOCK)
            while True:
                try:
                    chunk = os.read(self.inbox, 1 << 20)
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
                yield pickle.loads(data)
            except Exception:  # a side that died mid-message: what it sent is not used
                self._open = False
                self._buffer.clear()
                return

    def next_message(self) -> object | None:
        """The other side's next message, waiting for it; None once it hung up."""
        while True:
            for message in self.received():
                return message
            if not self._open:
                return None
            select.select([self.inbox], [], [])

    def wait(self, seconds: float) -> None:
        """Until the other side sends something, or ``seconds``."""
        if self._open:
            select.select([self.inbox], [], [], seconds)

    def working(self) -> bool:
        """Whether the helper is still there and ran at least half the time since the last
        call (a helper that other work keeps from a core is not waited for)."""
        if not self._open or self.peer is None or self.peer <= 0:
            return False
        try:
            with open(f"/proc/{self.peer}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return False
        now, last = time.monotonic(), self._seen
        if last is None:
            self._seen = (now, cpu)
            return True
        if now - last[0] < MEASURE:
            return True
        self._seen = (now, cpu)
        return (cpu - last[1]) / (now - last[0]) >= 0.5

    def close(self) -> None:
        for fd in (self.tasks, self.inbox, self.outbox):
            with contextlib.suppress(OSError):
                os.close(fd)


def pipes() -> tuple[list[int], list[int]]:
    """The fds of a new share: the lead's (tasks, inbox, outbox) and the helper's."""
    tasks = task_queue()
    lead_in, helper_out = os.pipe()
    helper_in, lead_out = os.pipe()
    return [tasks, lead_in, lead_out], [os.dup(tasks), helper_in, helper_out]
