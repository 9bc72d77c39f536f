"""Where a rewritten header's copy is looked for first (frontend/headers.py): the one
list of ``-iquote`` folders, shared by accsat's own check and accsat-cc's compile (light:
the wrapper imports it without the pipeline)."""

from __future__ import annotations

import os


def search(main: str, headers: list[str]) -> list[str]:
    """The ``-iquote`` flags a compile of ``main``'s copy takes first: its own folder, then
    each header's (whose copy is read instead) where that is another."""
    folders = [os.path.dirname(main) or "."]
    for name in headers:
        folder = os.path.dirname(name) or "."
        if all(not same_file(folder, f) for f in folders):
            folders.append(folder)
    return [flag for f in folders for flag in ("-iquote", f)]


def same_file(a: str, b: str) -> bool:
    """Whether the paths name the same file (or, where one is not there, are equal)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a == b
