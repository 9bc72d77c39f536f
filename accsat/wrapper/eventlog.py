"""What one call did, event by event: a debug log for people, JSON Lines for programs.

``ACCSAT_LOG=PATH``: a line ``TIME accsat-cc[PID] EVENT DETAILS`` per event
(cache hit or miss with its key, each file's rewrite and its time, fallbacks and
why, pass-throughs, evictions). ``ACCSAT_EVENTS=PATH``: the same events as JSON
objects, one per line, for programs (:mod:`accsat.toolchain.events`: the
sweep counts from it the files compiled as written, never from the build's
output).

Each line is one ``write`` to a file opened for appending, so lines from the
compilers ``make -j`` runs at once never mix.  A log that cannot be written is
said once and then left alone: it never changes what the build does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from ..toolchain.events import FALLBACK
from ..toolchain.records import append_jsonl


class EventLog:
    def __init__(self, path: str | None, warn: Callable[[str], None], events: str | None = None):
        self.path = path  # the text log
        self.events = events  # the JSON Lines log
        self.warn = warn  # how to say, once, that a log cannot be written
        self.fd: int | None = None

    def __call__(self, event: str, details: str = "", **fields: Any) -> None:
        """One event; ``fields`` (JSON values) go to the JSON log only."""
        if self.path is None and self.events is None:
            return
        now = time.time()
        stamp = (
            time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(now)) + f".{int(now % 1 * 1000):03d}"
        )
        if self.path is not None:
            self._text(f"{stamp} accsat-cc[{os.getpid()}] {event} {details}".rstrip() + "\n")
        if self.events is not None:
            record = {
                "time": stamp,
                "pid": os.getpid(),
                "event": event,
                "details": details,
                **fields,
            }
            try:
                append_jsonl(self.events, [record])
            except OSError as exc:
                self.warn(f"cannot write the event log {self.events}: {exc.strerror}")
                self.events = None

    def fallback(self, file: str | None, reason: str) -> None:
        """``file`` (None: every file of the call) is compiled as written, for ``reason``."""
        self(
            FALLBACK, f"{file}: {reason}" if file is not None else reason, file=file, reason=reason
        )

    def _text(self, line: str) -> None:
        try:
            if self.fd is None:
                # O_NONBLOCK: a FIFO nobody reads is an error, not a build that hangs
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
                self.fd = os.open(self.path, flags, 0o644)  # type: ignore[arg-type]
            os.write(self.fd, line.encode("utf-8", "surrogateescape"))
        except OSError as exc:
            self.warn(f"cannot write the log {self.path}: {exc.strerror}")
            self.close()
            self.path = None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
