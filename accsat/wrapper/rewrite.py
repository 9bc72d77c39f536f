"""Rewrite one file in a child process, within a time budget.

The child is this user's compile server's (``server.py``: the pipeline already
imported there) or, when no server can be reached or ``server = false``, forked
from the wrapper; either imports the pipeline itself, so a cached build never
pays for that import.  It sends back one JSON object: the rewritten text and
the kernel reports, or a one-line reason.  On timeout the child is killed; a
crash (a signal, no answer) is reported too.  Nothing the child prints reaches
the user: a build log shows only the wrapper's one warning line, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..options import Options

if TYPE_CHECKING:
    from ..ccconfig import Config


@dataclass
class Outcome:
    text: str | None = None  # the rewritten file (None: accsat failed)
    kernels: list[dict] = field(default_factory=list)  # KernelReport fields
    error: str | None = None  # "file[:line]: reason"
    cacheable: bool = True  # the same input gives the same outcome
    # headers whose kernels were rewritten for this compile (pipeline.HeaderResult fields:
    # name, spelling, text): each read from a copy beside the rewritten source
    headers: list[dict] = field(default_factory=list)

    @property
    def rewritten(self) -> int:
        return sum(1 for k in self.kernels if k.get("status") == "rewritten")

    def entry(self) -> dict:
        if self.error is not None:
            return {"error": self.error}
        return {"text": self.text, "kernels": self.kernels, "headers": self.headers}

    @classmethod
    def from_entry(cls, entry: dict) -> Outcome | None:
        if isinstance(entry.get("error"), str):
            return cls(error=entry["error"])
        headers = entry.get("headers", [])
        if (
            isinstance(entry.get("text"), str)
            and isinstance(entry.get("kernels"), list)
            and isinstance(headers, list)
            and all(_a_header(h) for h in headers)
        ):
            return cls(text=entry["text"], kernels=entry["kernels"], headers=headers)
        return None


def _a_header(h: object) -> bool:
    return isinstance(h, dict) and all(isinstance(h.get(k), str) for k in _HEADER_FIELDS)


_HEADER_FIELDS = ("name", "spelling", "text")


def _first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit] + "..."


# the share of a file's time budget its kernels may start in: past it, the kernels not
# started are kept as written and the finished ones kept (the rest of the budget is for
# the kernels in flight, the re-read check and the splice); the whole budget is the kill
STARTS = 0.75


def deadline_for(timeout: float) -> float:
    """The ``time.monotonic()`` after which a rewrite starting now starts no kernel."""
    return time.monotonic() + STARTS * timeout


def _child(path: str, options, deadline: float | None = None, share=None) -> dict:
    from dataclasses import asdict

    from ..errors import AccsatError

    try:
        from ..pipeline import rewrite_file

        result = rewrite_file(Path(path), options, deadline=deadline, share=share)
        return {
            "text": result.text,
            "kernels": [asdict(k) for k in result.kernels],
            "headers": [asdict(h) for h in result.headers],
        }
    except AccsatError as exc:
        return {"error": _first_line(str(exc)), "cacheable": True}
    except MemoryError:
        return {"error": f"{path}: out of memory", "cacheable": False}
    except Exception as exc:  # an internal error: report it in one line, never a traceback
        detail = _first_line(str(exc))
        what = type(exc).__name__ + (f": {detail}" if detail else "")
        return {"error": f"{path}: internal error: {what}", "cacheable": True}


def timed_out(path: str, timeout: float) -> dict:
    from ..ccconfig import env

    return {
        "error": f"{path}: timed out after {timeout:g} s ({env('timeout')})",
        "cacheable": False,
    }


def read_answer(data: bytes, status: int, path: str) -> dict:
    """The child's answer from what it wrote and how it ended."""
    try:
        answer = json.loads(data)
        if isinstance(answer, dict):
            return answer
    except ValueError:
        pass
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    how = f"signal {sig}" if sig else f"exit status {os.waitstatus_to_exitcode(status)}"
    return {"error": f"{path}: internal error: the rewrite died ({how})", "cacheable": False}


def outcome_of(answer: dict, path: str) -> Outcome:
    found = Outcome.from_entry(answer)
    if found is None:
        return Outcome(error=f"{path}: internal error: the rewrite gave no answer", cacheable=False)
    if found.error is not None:
        found.cacheable = bool(answer.get("cacheable"))
    return found


def quiet_child() -> None:
    """In a forked child: signals as by default, stdio on /dev/null, no fault handler
    (a crash is reported by the parent, in one line), and no cyclic garbage collector
    but the pipeline's own collections while a file is rewritten (pipeline.paused_gc):
    the child ends with its one file, and the first collection after a file walks every
    object the file made."""
    import faulthandler
    import gc

    gc.disable()
    faulthandler.disable()
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def rewrite(path: str, options: Options, timeout: float, cfg: Config | None = None) -> Outcome:
    """accsat's rewrite of ``path`` with ``options`` (whose ``line_directives`` names the
    user's file), in a child process killed after ``timeout`` seconds: the compile
    server's when ``cfg.server`` and it can be reached, else one forked here."""
    if cfg is not None and cfg.server:
        from .client import ask

        try:
            answer = ask(path, options, timeout, cfg.server_idle, cfg.cache_dir)
        except Exception:  # the server is a speed-up: never a reason for a failed build
            answer = None
        if answer is not None:
            return outcome_of(timed_out(path, timeout) if answer.get("timed_out") else answer, path)
    return outcome_of(_forked(path, options, timeout), path)


def _forked(path: str, options: Options, timeout: float) -> dict:
    start = deadline_for(timeout)
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            os.close(rfd)
            quiet_child()
            write_all(wfd, json.dumps(_child(path, options, deadline=start)).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(wfd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    late = done = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                late = True
                break
            ready, _, _ = select.select([rfd], [], [], left)
            if ready:
                chunk = os.read(rfd, 1 << 20)
                if not chunk:
                    done = True
                    break
                chunks.append(chunk)
    finally:
        os.close(rfd)
        if not done:  # timed out, or interrupted: the child must not outlive us
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if late:
        return timed_out(path, timeout)
    return read_answer(b"".join(chunks), status, path)
