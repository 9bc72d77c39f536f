"""The private folder a call writes its rewritten sources to.

``$TMPDIR/accsat-cc-<uid>/<key>-<slot>/``: the key is a hash of what the call
writes (and where it runs), the slot the first one no running call holds.
A call holds its slot's lock file (an exclusive ``flock``) from before it
creates the folder until after it has removed it, so the folder is private to
the call however many compilers ``make -j`` runs.  The same compile therefore
gets the same paths each time (slot 0 unless the same file is being compiled
at that moment), which keeps builds reproducible and lets ``ccache`` in front
of the compiler find its earlier result (it hashes the source's path).  The
folder goes on every way out; one left by a killed call is removed by the next
call that takes its slot.  Where the shared parent is not ours to use (not a
folder we own, mode 700), a fresh ``mkdtemp`` folder is used instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat

SLOTS = 64


class Workdir:
    def __init__(self, path: str, lock: str | None = None, fd: int | None = None):
        self.path = path
        self.lock = lock
        self.fd = fd

    @property
    def marker(self) -> str:
        """A name that appears in no other file: the folder's own."""
        return os.path.basename(self.path)

    def release(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if self.fd is None:
            return
        if self.lock is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.lock)  # while still holding the lock
        os.close(self.fd)
        self.fd = None
        with contextlib.suppress(OSError):  # fails while other calls use it
            os.rmdir(os.path.dirname(self.path))


def _tmp_root() -> str:
    """tempfile.gettempdir()'s choice, without importing tempfile (a cached build's time)."""
    for name in ("TMPDIR", "TEMP", "TMP"):
        folder = os.environ.get(name)
        if folder and os.path.isdir(folder):
            return os.path.abspath(folder)
    return "/tmp"


def _parent() -> str | None:
    parent = os.path.join(_tmp_root(), f"accsat-cc-{os.getuid()}")
    try:
        os.mkdir(parent, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(parent)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return parent


def _take(parent: str, name: str) -> Workdir | None | bool:
    """The slot ``name``: a Workdir, False when another call holds it, None to retry."""
    lock = os.path.join(parent, name + ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except FileNotFoundError:  # the parent was just removed by a call that finished
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    try:
        same = os.stat(lock).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        same = False
    if not same:  # we locked a lock file its holder had just removed
        os.close(fd)
        return None
    path = os.path.join(parent, name)
    shutil.rmtree(path, ignore_errors=True)  # left by a killed call
    try:
        os.mkdir(path, 0o700)
    except OSError:
        os.close(fd)
        return False
    return Workdir(path, lock, fd)


def acquire(key: str) -> Workdir:
    for _attempt in range(20):
        parent = _parent()
        if parent is None:
            break
        retry = False
        for slot in range(SLOTS):
            taken = _take(parent, f"{key[:20]}-{slot}")
            if isinstance(taken, Workdir):
                return taken
            if taken is None:
                retry = True
                break
        if not retry:
            break
    import tempfile

    return Workdir(tempfile.mkdtemp(prefix="accsat-cc-"))
