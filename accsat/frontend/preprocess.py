"""Run the system C preprocessor against accsat's own libc headers.

pycparser cannot read glibc's headers (GNU extensions everywhere), so system
includes resolve to ``fakelibc/``: plain C declarations with the same types
(LP64) and the macros programs use. ``fakelibc/_accsat_prelude.h`` is
force-included to turn the GNU keywords pycparser does not know into nothing or
into their standard spelling.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import AccsatError
from ..resources import data_dir

PRELUDE = "_accsat_prelude.h"


@dataclass(frozen=True)
class PreprocessOptions:
    """The preprocessing flags of one compilation, in command-line order."""

    flags: tuple[str, ...] = ()  # -I/-D/-U/-include/-isystem/-iquote/-std=... as given
    openacc: bool = True  # define _OPENACC as `-fopenacc` does
    openmp: bool = True  # define _OPENMP as `-fopenmp` does
    cpp: str = field(default_factory=lambda: shutil.which("gcc") or "cc")


def command(path: Path, opts: PreprocessOptions) -> list[str]:
    libc = data_dir("fakelibc")
    cmd = [opts.cpp, "-E", "-nostdinc", "-isystem", str(libc), "-include", str(libc / PRELUDE)]
    if opts.openacc:
        cmd.append("-fopenacc")
    if opts.openmp:
        cmd.append("-fopenmp")
    cmd += list(opts.flags)
    cmd.append(str(path))
    return cmd


def preprocess(path: Path, opts: PreprocessOptions | None = None) -> str:
    """Return the preprocessed text of ``path`` (with line markers)."""
    opts = opts or PreprocessOptions()
    try:
        proc = subprocess.run(command(path, opts), capture_output=True, text=True, check=False)
    except OSError as exc:
        raise AccsatError(f"cannot run the C preprocessor {opts.cpp!r}: {exc}", str(path)) from None
    if proc.returncode != 0:
        raise _cpp_error(proc.stderr, path)
    return proc.stdout


def _cpp_error(stderr: str, path: Path) -> AccsatError:
    """The first diagnostic of cpp, as file:line: message."""
    for line in stderr.splitlines():
        parts = line.split(":", 3)
        if len(parts) >= 4 and parts[1].strip().isdigit() and "error" in parts[3]:
            msg = parts[3].split("error:", 1)[-1].strip()
            return AccsatError(f"preprocessor: {msg}", parts[0], int(parts[1]))
    first = stderr.strip().splitlines()[0] if stderr.strip() else "the preprocessor failed"
    return AccsatError(f"preprocessor: {first}", str(path))
