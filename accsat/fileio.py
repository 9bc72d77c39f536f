"""Writing files so that no reader ever sees half of one.

The one home of atomic writes: the CLI's ``-o``, the wrapper's cache, kept
files and dependency files, the harnesses' records all go through here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str | os.PathLike, data: str | bytes, *,
                     encoding: str = "utf-8", errors: str = "surrogateescape",
                     mode: int | None = None) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``.

    An existing file keeps its permission bits; a new one gets ``mode`` or, by
    default, what ``open()`` would give it (0o666 less the umask) rather than
    mkstemp's 0o600. Only regular files are replaced: anything else at ``path``
    (a device, a FIFO, a folder) raises ``IsADirectoryError``/``OSError`` before
    anything is written. A failure removes the temporary file and re-raises.
    """
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path} is not a regular file")
    if st is not None:
        final_mode = stat.S_IMODE(st.st_mode)
    else:
        final_mode = mode if mode is not None else 0o666 & ~_umask()
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        if isinstance(data, str):
            data = data.encode(encoding, errors)
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.chmod(tmp, final_mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
