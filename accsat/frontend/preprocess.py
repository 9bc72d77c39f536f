"""Run the system C preprocessor against accsat's own libc headers.

pycparser cannot read glibc's headers (GNU extensions everywhere), so system
includes resolve to ``fakelibc/``: plain C declarations with the same types
(LP64) and the macros programs use. ``fakelibc/_accsat_prelude.h`` is
force-included to turn the GNU keywords pycparser does not know into nothing or
into their standard spelling.
"""

from __future__ import annotations

import contextlib
import functools
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import AccsatError
from ..resources import data_dir
from ..toolchain import process

PRELUDE = "_accsat_prelude.h"
# seconds cpp may take on one file (a header that is a FIFO, a hung network file system)
TIMEOUT = 600.0


@dataclass(frozen=True)
class PreprocessOptions:
    """The preprocessing flags of one compilation, in command-line order."""

    flags: tuple[str, ...] = ()  # -I/-D/-U/-include/-isystem/-iquote/-std=... as given
    openacc: bool = True  # define _OPENACC as `-fopenacc` does
    openmp: bool = True  # define _OPENMP as `-fopenmp` does
    cpp: str = field(default_factory=lambda: shutil.which("gcc") or "cc")


def compile_flags(opts: PreprocessOptions) -> list[str]:
    """The flags of a compile that reads the file as accsat's preprocessing does (its
    macros, includes, programming models), without accsat's own libc headers."""
    models = ["-fopenacc"] * opts.openacc + ["-fopenmp"] * opts.openmp
    return [*models, *opts.flags]


def command(path: Path, opts: PreprocessOptions) -> list[str]:
    libc = data_dir("fakelibc")
    cmd = [opts.cpp, "-E", "-nostdinc", "-isystem", str(libc), "-include", str(libc / PRELUDE)]
    cmd.append("-D__ACCSAT_PARSE__")  # the prelude's lines for pycparser alone
    if opts.openacc:
        cmd.append("-fopenacc")
    if opts.openmp:
        cmd.append("-fopenmp")
    cmd += list(opts.flags)
    cmd.append(str(path))
    return cmd


def preprocess(
    path: Path, opts: PreprocessOptions | None = None, meanwhile: Callable[[], object] | None = None
) -> str:
    """Return the preprocessed text of ``path`` (with line markers); ``meanwhile``, if
    given, is called while the preprocessor runs.

    Bytes that are not UTF-8 (a Latin-1 string literal, binary garbage) come through
    as surrogates (``surrogateescape``): encoded back the same way, they are the same
    bytes again. No newline translation either: offsets match the file's own bytes.
    """
    opts = opts or PreprocessOptions()
    with contextlib.ExitStack() as running:
        try:
            result = running.enter_context(process.started(command(path, opts), timeout=TIMEOUT))
        except OSError as exc:
            message = f"cannot run the C preprocessor {opts.cpp!r}: {exc}"
            raise AccsatError(message, str(path)) from None
        if meanwhile is not None:
            meanwhile()
        done = result()
    if done.timed_out:
        raise AccsatError(f"the C preprocessor ran past {TIMEOUT:g} s", str(path))
    if not done.ok:
        raise _cpp_error(done.err, path)
    return done.stdout.decode("utf-8", "surrogateescape")


def preprocess_copy(
    original: Path,
    text: str,
    opts: PreprocessOptions | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> str:
    """``text`` preprocessed as if it were the file ``original`` (a rewrite of it), from a
    temporary copy whose ``#include "..."`` still finds the original's neighbours: its
    folder is searched right after the copy's own, as the original's is first (gcc
    searches ``-iquote`` folders in order, before ``-I``; accsat-cc compiles so too)."""
    opts = opts or PreprocessOptions()
    with tempfile.TemporaryDirectory(prefix="accsat-reread-") as tmp:
        path = Path(tmp) / original.name
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        flags = ("-iquote", str(original.resolve().parent)) + tuple(opts.flags)
        return preprocess(path, replace(opts, flags=flags), meanwhile)


def _cpp_error(stderr: str, path: Path) -> AccsatError:
    """The first diagnostic of cpp, as file:line: message."""
    for line in stderr.splitlines():
        parts = line.split(":", 3)
        if len(parts) >= 4 and parts[1].strip().isdigit() and "error" in parts[3]:
            msg = parts[3].split("error:", 1)[-1].strip()
            return AccsatError(f"preprocessor: {msg}", parts[0], int(parts[1]))
    first = stderr.strip().splitlines()[0] if stderr.strip() else "the preprocessor failed"
    return AccsatError(f"preprocessor: {first}", str(path))


_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


@functools.lru_cache(maxsize=256)
def marker_file(spelled: str) -> str:
    """The file name a line marker names, as the file system spells it.

    cpp writes it as a C string: ``"``, ``\\`` and a newline escaped (gcc), other
    bytes perhaps in octal (clang); pycparser keeps the text between the quotes as it
    is. Octal escapes are bytes, read back as ``os.fsdecode`` would (surrogateescape).
    """
    if "\\" not in spelled:
        return spelled
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(spelled):
        out += spelled[pos : m.start()].encode("utf-8", "surrogateescape")
        e = m.group(1)
        if e[0] in "01234567":
            out.append(int(e, 8) & 0xFF)
        else:
            out += _SIMPLE.get(e, e).encode("utf-8", "surrogateescape")
        pos = m.end()
    out += spelled[pos:].encode("utf-8", "surrogateescape")
    return out.decode("utf-8", "surrogateescape")


def c_string(name: str) -> str:
    """``name`` as a C string literal, as cpp's own line markers spell it."""
    return f'"{_escape(name)}"'


def _escape(name: str) -> str:
    """``name`` inside a C string, as cpp's own line markers spell it."""
    return name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
