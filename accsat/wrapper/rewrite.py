"""Rewrite one file in a child process, within a time budget.

The child is forked from the wrapper and imports the pipeline itself (a cached
build never pays for that import).  It sends back one JSON object through a
pipe: the rewritten text and the kernel reports, or a one-line reason.  On
timeout the child is killed; a crash (a signal, no answer) is reported too.
Nothing the child prints reaches the user: a build log shows only the wrapper's
one warning line, never a traceback.
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

from ..options import Options


@dataclass
class Outcome:
    text: str | None = None  # the rewritten file (None: accsat failed)
    kernels: list[dict] = field(default_factory=list)  # KernelReport fields
    error: str | None = None  # "file[:line]: reason"
    cacheable: bool = True  # the same input gives the same outcome

    @property
    def rewritten(self) -> int:
        return sum(1 for k in self.kernels if k.get("status") == "rewritten")

    def entry(self) -> dict:
        if self.error is not None:
            return {"error": self.error}
        return {"text": self.text, "kernels": self.kernels}

    @classmethod
    def from_entry(cls, entry: dict) -> Outcome | None:
        if isinstance(entry.get("error"), str):
            return cls(error=entry["error"])
        if isinstance(entry.get("text"), str) and isinstance(entry.get("kernels"), list):
            return cls(text=entry["text"], kernels=entry["kernels"])
        return None


def _first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit] + "..."


def _child(path: str, options) -> dict:
    from dataclasses import asdict

    from ..errors import AccsatError

    try:
        from ..pipeline import rewrite_file

        result = rewrite_file(Path(path), options)
        return {"text": result.text, "kernels": [asdict(k) for k in result.kernels]}
    except AccsatError as exc:
        return {"error": _first_line(str(exc)), "cacheable": True}
    except MemoryError:
        return {"error": f"{path}: out of memory", "cacheable": False}
    except Exception as exc:  # an internal error: report it in one line, never a traceback
        detail = _first_line(str(exc))
        what = type(exc).__name__ + (f": {detail}" if detail else "")
        return {"error": f"{path}: internal error: {what}", "cacheable": True}


def rewrite(path: str, options: Options, timeout: float) -> Outcome:
    """accsat's rewrite of ``path`` with ``options`` (whose ``line_directives`` names the
    user's file), in a child process killed after ``timeout`` seconds."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            os.close(rfd)
            import faulthandler

            faulthandler.disable()  # a crash is reported by the parent, in one line
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            data = json.dumps(_child(path, options)).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(wfd, view):]
            status = 0
        finally:
            os._exit(status)
    os.close(wfd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    timed_out = done = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
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
    if timed_out:
        return Outcome(error=f"{path}: timed out after {timeout:g} s (ACCSAT_TIMEOUT)",
                       cacheable=False)
    try:
        answer = json.loads(b"".join(chunks))
    except ValueError:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        how = f"signal {sig}" if sig else f"exit status {os.waitstatus_to_exitcode(status)}"
        return Outcome(error=f"{path}: internal error: the rewrite died ({how})",
                       cacheable=False)
    if "error" in answer:
        return Outcome(error=answer["error"], cacheable=bool(answer.get("cacheable")))
    return Outcome(text=answer["text"], kernels=answer["kernels"])
