"""Writing files so that no reader ever sees half of one.

The one home of atomic writes (the CLI's ``-o``, the wrapper's cache, kept
files and dependency files, the harnesses' records), of a command's output file
(``-o``: what a compiler's ``-o`` accepts), of appending whole lines (JSON Lines
reports of the CLI and the wrapper), and of spelling a file name for a program.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
from pathlib import Path


def write_atomically(
    path: str | os.PathLike, data: str | bytes, *, mode: int | None = None
) -> None:
    """Write ``data`` (bytes as they are; text in UTF-8, undecodable input bytes carried
    through by surrogateescape) to a temporary file beside ``path`` and rename it over
    ``path``. A symbolic link is followed: its target is replaced, the link stays.

    An existing file keeps its permission bits; a new one gets ``mode`` less the
    umask (default 0o666, what ``open()`` gives). Only regular files are replaced:
    anything else at ``path`` (a device, a FIFO, a folder) raises OSError(EINVAL)
    before anything is written. A failure removes the temporary file and re-raises.
    """
    path = Path(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))  # a dangling link: its target is created
    payload = _payload(data)
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    folder = path.parent if str(path.parent) else Path(".")
    # os.open with a mode: the kernel applies the umask (never changed here: threads fork)
    while True:
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(
                tmp,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                0o666 if mode is None else mode,
            )
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(payload)
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_output(path: str | os.PathLike, data: str | bytes) -> None:
    """A command's output file, written where a compiler's ``-o`` would write it: a
    regular file (or a new one) atomically (:func:`write_atomically`, through a
    symbolic link to its target); a device, a FIFO, or a file named by what a process
    has open (``/dev/stdout``, ``/dev/fd/1``) in place; a file we may write in a
    folder we may not (no temporary beside it) in place too, as a compiler would. A
    folder raises OSError (EISDIR), a FIFO no process reads OSError (ENXIO), at once:
    nothing hangs."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, "is a directory", str(path))
    if st is None or (stat.S_ISREG(st.st_mode) and not _open_file_name(path)):
        try:
            write_atomically(path, data)
            return
        except PermissionError:
            if st is None or not os.access(path, os.W_OK):
                raise
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC
    if stat.S_ISREG(st.st_mode):
        flags |= os.O_TRUNC  # /dev/stdout redirected to a file: rewritten from its start
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO and stat.S_ISFIFO(st.st_mode):
            raise OSError(errno.ENXIO, "a FIFO no process reads", str(path)) from None
        raise
    try:
        os.set_blocking(fd, True)
        payload = memoryview(_payload(data))
        while payload:
            payload = payload[os.write(fd, payload) :]
    finally:
        os.close(fd)


def _open_file_name(path: str | os.PathLike) -> bool:
    """``path`` names a file through ``/proc`` (``/dev/stdout`` links to
    ``/proc/self/fd/1``): a file a process has open, perhaps deleted, not a name to
    replace."""
    p = os.path.abspath(path)
    for _ in range(40):  # the kernel's limit of links followed
        if os.path.realpath(os.path.dirname(p)).startswith("/proc/"):
            return True
        if not os.path.islink(p):
            return False
        p = os.path.join(os.path.dirname(p), os.readlink(p))
    return False


def readable(path: str | os.PathLike) -> Path:
    """``path`` to hand a program (the preprocessor, the compiler): pathlib drops the
    ``./`` of ``./-dash.c`` and the program would take the rest for an option, so such
    a name goes absolute."""
    p = Path(path)
    return p if not str(p).startswith("-") else Path(os.path.abspath(path))


def _payload(data: str | bytes) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")


def append_lines(path: str | os.PathLike, text: str) -> None:
    """Append ``text`` (whole lines) to ``path`` in one write under an exclusive lock,
    so lines from processes appending at once (``make -j``, concurrent runs) never mix.

    Opened non-blocking: a FIFO nobody reads raises OSError (ENXIO) instead of hanging
    the caller. Raises OSError when the file cannot be written.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
    fd = os.open(path, flags, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        payload = memoryview(_payload(text))
        while payload:
            payload = payload[os.write(fd, payload) :]
    finally:
        os.close(fd)


def save_figure(fig, path: str | os.PathLike, **savefig) -> None:
    """A matplotlib figure written atomically (a Ctrl-C never leaves half a PNG)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format=Path(path).suffix.lstrip(".") or "png", **savefig)
    write_atomically(path, buffer.getvalue())
