"""Kernels in the headers a file includes (issue 37): a compute construct or routine in a
``static inline`` function of ``sweep.h`` is the file's to rewrite for its compile.

The user's header is never touched. Its rewrite is a copy found first on the include
path: the compiler reads the file from a folder of its own (accsat-cc's private folder)
and a quoted ``#include "S"`` searches the including file's folder first, so a copy
written there at ``S`` is what the compile reads. The header's own quoted includes search
its copy's folder, then the file's own folder and the header's (``-iquote``, first, in
that order: ``search``), then the compile's. Only a header the file itself includes with
quotes is rewritten so, and only when the file preprocessed with a copy of the header's
own text in place says what it says without (``substituted``, ``content``); otherwise
its kernels stay as written.

User headers are the files the preprocessor enters that are not system headers (line
marker flag 3) nor accsat's own libc; only those whose text holds an OpenACC or OpenMP
directive are read.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import AccsatError
from ..resources import data_dir
from .includes import same_file, search
from .linemap import line_map
from .preprocess import PreprocessOptions, c_string, marker_file, preprocess
from .source_map import SourceMap

# a line marker: # LINE "FILE" FLAGS (1: entering FILE, 2: back in it, 3: a system header)
_MARKER = re.compile(r'^# [0-9]+ "((?:[^"\\\n]|\\.)*)"((?: [0-9])*)$', re.M)
# a directive a kernel may hang off, in a header's text
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(?:acc|omp)\b|\b_Pragma\b", re.M)
_QUOTED = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


@dataclass(frozen=True)
class Header:
    """A header of the user's that may hold kernels."""

    name: str  # as the preprocessor names it: what diagnostics and reports say
    text: str
    source: SourceMap
    # how the file's own quoted include spells it ("sweep.h", "inc/sweep.h"): where its
    # rewritten copy goes beside the file's; None: not included so (kept as written)
    spelling: str | None


def user_headers(pre: str, main: str) -> list[str]:
    """The headers of ``pre`` that are the user's: entered, not system headers, not
    accsat's libc, not the file itself; each once."""
    libc = str(data_dir("fakelibc").resolve())
    out: dict[str, None] = {}
    for m in _MARKER.finditer(pre):
        flags = m.group(2).split()
        if "1" not in flags or "3" in flags:
            continue
        name = marker_file(m.group(1))
        if name != main and not os.path.realpath(name).startswith(libc + os.sep):
            out[name] = None
    return list(out)


def read_header(name: str) -> str:
    """A header's text, as its bytes are (``load.read_source``'s way)."""
    return Path(name).read_bytes().decode("utf-8", "surrogateescape")


def with_directives(
    pre: str, main: str, main_text: str, flags: tuple[str, ...] = ()
) -> dict[str, Header]:
    """The user's headers of ``pre`` whose text holds an OpenACC or OpenMP directive
    (``flags``: the compile's preprocessing flags, which say where includes are found)."""
    found = {}
    for name in user_headers(pre, main):
        try:
            text = read_header(name)
        except OSError:
            continue
        # (a header with #line directives of its own would name other lines: not read)
        if _DIRECTIVE.search(text) and line_map(text, name) is None:
            found[name] = Header(
                name, text, SourceMap(text), spelling(main, main_text, name, flags)
            )
    return found


def spelling(main: str, main_text: str, header: str, flags: tuple[str, ...] = ()) -> str | None:
    """The quoted include of ``main`` that finds ``header`` (a relative path that stays
    inside the folder its copy goes to), searched as gcc searches: ``main``'s folder, then
    the ``-iquote`` and ``-I`` folders of ``flags``."""
    folders = [os.path.dirname(main) or ".", *_search_folders(flags)]
    for s in _QUOTED.findall(main_text):
        if os.path.isabs(s) or ".." in Path(s).parts:
            continue
        found = next((p for f in folders if os.path.isfile(p := os.path.join(f, s))), None)
        if found is not None and same_file(found, header):
            return s
    return None


def _search_folders(flags: tuple[str, ...]) -> list[str]:
    """The ``-iquote`` folders of ``flags``, then the ``-I`` ones, in order."""
    quote: list[str] = []
    plain: list[str] = []
    for k, flag in enumerate(flags):
        for opt, into in (("-iquote", quote), ("-I", plain)):
            if flag == opt and k + 1 < len(flags):
                into.append(flags[k + 1])
            elif flag.startswith(opt) and flag != opt:
                into.append(flag[len(opt) :])
    return quote + plain


def substituted(
    main: Path,
    main_text: str,
    options: PreprocessOptions,
    copies: dict[str, tuple[str, str]],
    expect: bytes | None = None,
) -> str:
    """``main_text`` preprocessed as ``main``, with each header that its quoted includes
    spell S (the keys of ``copies``, each the header's name and the text to read instead)
    read from that text, from a temporary folder laid out as accsat-cc's private one: the
    file's copy, each header's copy at S beside it (each naming itself as the original,
    ``#line 1``), and the file's own folder and the headers' searched right after
    (``search``). ``expect``: the ``content`` of the file's own preprocessing, which the
    result must have (the copies hold the headers' own texts: the compile reads the same
    program), or AccsatError."""
    with tempfile.TemporaryDirectory(prefix="accsat-headers-") as tmp:
        folder = Path(tmp)
        _write(folder / main.name, str(main), main_text)
        for s, (name, text) in copies.items():
            (folder / s).parent.mkdir(parents=True, exist_ok=True)
            _write(folder / s, name, text)
        # the folders as accsat-cc spells them (as given): files found through them are
        # named as in the file's own compile (__FILE__ says the same)
        first = search(str(main), [n for n, _ in copies.values()])
        why = ""
        try:
            pre = preprocess(folder / main.name, replace(options, flags=(*first, *options.flags)))
        except AccsatError as exc:
            pre, why = "", f": {exc.message}"
    if expect is not None and (not pre or content(pre) != expect):
        raise AccsatError(
            "its header's rewritten copy would not be read in its place (the header's own "
            f"includes would find other files{why})",
            str(main),
        )
    if not pre:
        raise AccsatError(f"a header's rewritten copy does not preprocess{why}", str(main))
    return pre


def content(pre: str) -> bytes:
    """A digest of what preprocessed text ``pre`` says, its line markers and empty lines
    aside (the same program read through other paths: a guarded header entered again
    under another name adds a marker and nothing else)."""
    lines = (line for line in pre.split("\n") if line.strip() and not _MARKER.match(line))
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).digest()


def _write(path: Path, name: str, text: str) -> None:
    """``text`` at ``path``, its lines named as those of ``name`` (as accsat-cc's copies)."""
    path.write_bytes((f"#line 1 {c_string(name)}\n" + text).encode("utf-8", "surrogateescape"))
