"""Make the dependency files the compiler wrote (-MD/-MMD) name the user's sources.

The compiler saw ``TMP/<n>/foo.c`` instead of ``dir/foo.c``.  Everything else in
the file is already what the plain compile writes: the rewritten copy keeps the
source's base name (so the default target ``foo.o`` and the default ``foo.d``
are the same), and headers are found through ``-iquote dir``, which the
compiler spells as it would have.  So the only change is the temporary folder
prefix, in whichever dependency files this call wrote: the ``-MF`` file, or
``*.d`` next to the output or in the working folder (gcc and clang name them
from ``-o`` or from the source), recognised by holding the private folder's
name, which no other file can.  The first rule is then wrapped again the way
the compiler wraps it (the long temporary name had moved its line breaks), so
the file is byte for byte what the plain compile writes.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re

from ..fileio import write_atomically

_TOKEN = re.compile(r"(?:\\.|[^\s\\])+")


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


def _first_rule(text: str) -> tuple[list[str], list[str], str] | None:
    """(targets, prerequisites, the rest of the file) of a dependency file."""
    lines = text.split("\n")
    n = 0
    while n < len(lines) and lines[n].endswith("\\"):
        n += 1
    if n >= len(lines):
        return None
    joined = " ".join(line[:-1] if i < n else line for i, line in enumerate(lines[: n + 1]))
    tokens = _TOKEN.findall(joined)
    for i, tok in enumerate(tokens):
        if tok.endswith(":"):
            targets = [*tokens[:i], tok[:-1]] if tok != ":" else tokens[:i]
            return [t for t in targets if t], tokens[i + 1 :], "\n".join(lines[n + 1 :])
    return None


def _unescaped_len(name: str) -> int:
    return len(name.replace("$$", "$").replace("\\ ", " ").replace("\\#", "#"))


def gcc_rule(targets: list[str], prereqs: list[str], colmax: int = 72) -> str:
    """libcpp's make_write (gcc 10 and later)."""
    out: list[str] = []
    col = 0

    def name(n: str) -> None:
        nonlocal col
        if col:
            if col + len(n) > colmax:
                out.append(" \\\n")
                col = 0
            col += 1
            out.append(" ")
        col += len(n)
        out.append(n)

    for t in targets:
        name(t)
    out.append(":")
    col += 1
    for p in prereqs:
        name(p)
    return "".join(out)


def clang_rule(targets: list[str], prereqs: list[str], colmax: int = 75) -> str:
    """clang's DependencyFileGenerator::outputDependencyFile."""
    out: list[str] = []
    col = 0
    for t in targets:
        n = len(t)
        if col == 0:
            col += n
        elif col + n + 2 > colmax:
            col = n + 2
            out.append(" \\\n  ")
        else:
            col += n + 1
            out.append(" ")
        out.append(t)
    out.append(":")
    col += 1
    for p in prereqs:
        n = _unescaped_len(p)
        if col + (n + 1) + 2 > colmax:
            out.append(" \\\n ")
            col = 2
        out.append(" " + p)
        col += n + 1
    return "".join(out)


def rewrap(text: str, style: str) -> str:
    rule = _first_rule(text)
    if rule is None or style not in ("gcc", "clang"):
        return text
    targets, prereqs, rest = rule
    first = gcc_rule(targets, prereqs) if style == "gcc" else clang_rule(targets, prereqs)
    return first + "\n" + rest


def fix(
    files: list[str], marker: str, prefixes: list[tuple[str, str]], since: float, style: str
) -> None:
    """In each of ``files`` changed since ``since`` that mentions ``marker`` (the
    private folder), replace each (temporary, original) folder prefix; then wrap
    the first rule as the compiler (``style``: gcc, clang or other) does."""
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
        text = rewrap(text, style)
        with contextlib.suppress(OSError):
            write_atomically(path, text)  # keeps the compiler's mode
