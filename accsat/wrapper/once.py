"""What accsat-cc says once per build, not once per call (``make`` runs it per file).

A build is a process group (``make`` and the compilers it runs share one; an
interactive shell gives each command line its own) within SAY_AGAIN seconds. A
marker in the compile server's private folder (``client.folder``) says the build
was told; where there is no such folder, every call says it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path

from .client import folder as private

_SAID = "said-"  # prefix of the markers
SAY_AGAIN = 3600.0  # seconds after which a build told of something is told again


def first_to_say(folder: Path, problem: str) -> bool:
    """Whether this call is the first of its build to meet ``problem`` with the cache
    in ``folder`` (True when no marker can be kept)."""
    where = private()
    if where is None:
        return True
    stamp = f"{os.path.abspath(folder)}\0{problem}\0{os.getpgrp()}".encode()
    marker = where / f"{_SAID}{hashlib.sha256(stamp).hexdigest()[:32]}"
    now = time.time()
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        try:
            if now - marker.stat().st_mtime < SAY_AGAIN:
                return False
            os.utime(marker)  # an old marker (a reused process group): said again
        except OSError:
            pass
        return True
    except OSError:
        return True
    os.close(fd)
    _forget_old_markers(where, now)
    return True


def _forget_old_markers(where: Path, now: float) -> None:
    with contextlib.suppress(OSError), os.scandir(where) as it:
        for e in it:
            if e.name.startswith(_SAID):
                with contextlib.suppress(OSError):
                    if now - e.stat(follow_symlinks=False).st_mtime > SAY_AGAIN:
                        os.unlink(e.path)
