"""Writing files so that no reader ever sees half of one.

The one home of atomic writes (the CLI's ``-o``, the wrapper's cache, kept
files and dependency files, the harnesses' records) and of appending whole lines
(JSON Lines reports of the CLI and the wrapper).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
from pathlib import Path


def write_atomically(path: str | os.PathLike, data: str | bytes, *,
                     mode: int | None = None) -> None:
    """Write ``data`` (bytes as they are; text in UTF-8, undecodable input bytes carried
    through by surrogateescape) to a temporary file beside ``path`` and rename it over
    ``path``.

    An existing file keeps its permission bits; a new one gets ``mode`` less the
    umask (default 0o666, what ``open()`` gives). Only regular files are replaced:
    anything else at ``path`` (a device, a FIFO, a folder) raises OSError(EINVAL)
    before anything is written. A failure removes the temporary file and re-raises.
    """
    path = Path(path)
    payload = data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")
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
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o666 if mode is None else mode)
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
        payload = memoryview(text.encode("utf-8", "surrogateescape"))
        while payload:
            payload = payload[os.write(fd, payload):]
    finally:
        os.close(fd)


def save_figure(fig, path: str | os.PathLike, **savefig) -> None:
    """A matplotlib figure written atomically (a Ctrl-C never leaves half a PNG)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format=Path(path).suffix.lstrip(".") or "png", **savefig)
    write_atomically(path, buffer.getvalue())
