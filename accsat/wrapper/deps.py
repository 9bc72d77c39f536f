"""Make the dependency files the compiler wrote (-MD/-MMD) name the user's sources.

The compiler saw ``TMP/<n>/foo.c`` instead of ``dir/foo.c``.  Everything else in
the file is already what the plain compile writes: the rewritten copy keeps the
source's base name (so the default target ``foo.o`` and the default ``foo.d``
are the same), and headers are found through ``-iquote dir``, which the
compiler spells as it would have.  So the only change is the temporary folder
prefix, in whichever dependency files this call wrote: the ``-MF`` file, or
``*.d`` next to the output or in the working folder (gcc and clang name them
from ``-o`` or from the source), recognised by holding the private folder's
name, which no other file can.
"""

from __future__ import annotations

import glob
import os
import tempfile


def make_escape(path: str) -> str:
    """A path as gcc and clang write it in a dependency rule."""
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def candidates(dep_file: str | None, output: str | None) -> list[str]:
    found: list[str] = []
    if dep_file:
        found.append(dep_file)
    folders = {"."}
    if output:
        folders.add(os.path.dirname(output) or ".")
    if dep_file:
        folders.add(os.path.dirname(dep_file) or ".")
    for folder in sorted(folders):
        found += glob.glob(os.path.join(glob.escape(folder), "*.d"))
    return list(dict.fromkeys(found))


def fix(files: list[str], marker: str, prefixes: list[tuple[str, str]], since: float) -> None:
    """In each of ``files`` changed since ``since`` that mentions ``marker`` (the
    private folder), replace each (temporary, original) folder prefix."""
    for path in files:
        try:
            if os.stat(path).st_mtime < since:
                continue
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            continue
        if marker not in text:
            continue
        for tmp, orig in prefixes:
            text = text.replace(make_escape(tmp), make_escape(orig))
            text = text.replace(tmp, orig)
        folder = os.path.dirname(path) or "."
        try:
            fd, tmp_path = tempfile.mkstemp(prefix=".accsat-dep-", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            os.chmod(tmp_path, os.stat(path).st_mode & 0o7777)
            os.replace(tmp_path, path)
        except OSError:
            pass
