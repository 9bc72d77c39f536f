"""``ACCSAT_LOG=PATH``: a debug log, one line per event, appended by every call.

A line is ``TIME accsat-cc[PID] EVENT DETAILS`` (cache hit or miss with its key,
each file's rewrite and its time, fallbacks and why, pass-throughs, evictions).
Each line is one ``write`` to a file opened for appending, so lines from the
compilers ``make -j`` runs at once never mix.  A log that cannot be written is
said once and then left alone: it never changes what the build does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable


class EventLog:
    def __init__(self, path: str | None, warn: Callable[[str], None]):
        self.path = path
        self.warn = warn  # how to say, once, that the log cannot be written
        self.fd: int | None = None

    def __call__(self, event: str, details: str = "") -> None:
        if self.path is None:
            return
        now = time.time()
        stamp = (
            time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(now)) + f".{int(now % 1 * 1000):03d}"
        )
        line = f"{stamp} accsat-cc[{os.getpid()}] {event} {details}".rstrip() + "\n"
        try:
            if self.fd is None:
                # O_NONBLOCK: a FIFO nobody reads is an error, not a build that hangs
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
                self.fd = os.open(self.path, flags, 0o644)
            os.write(self.fd, line.encode("utf-8", "surrogateescape"))
        except OSError as exc:
            self.warn(f"cannot write the log {self.path}: {exc.strerror}")
            self.close()
            self.path = None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
