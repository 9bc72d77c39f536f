"""Content-addressed store of rewrites, so that an unchanged file costs a lookup.

The key covers everything the output depends on: the file after accsat's own
preprocessing (so every header it includes), the file's text (splicing works on
it), the name ``#line`` directives use, the options, and accsat itself (its
version, the sources of the package and the rule and cost-model files, the
versions of Python and of the libraries a rewrite runs on).  An entry is one
JSON file holding the rewritten text and the kernel reports, or the one-line
reason accsat could not rewrite the file, and how long that took.  Entries are
written to a temporary file and renamed into place, so concurrent builds never
see half of one; any problem with the cache only costs a rewrite (the caller is
told once, through :attr:`Cache.problem`).

File names do not split the cache (ccache's ``base_dir``, with the current
folder as base): ``./f.c``, ``f.c``, ``sub/../f.c`` and the absolute name of a
file under the current folder make one key (:func:`same_name`, in the options'
file name and in the preprocessor's line markers); an entry remembers the name
it was made for and is handed out under the caller's (its ``#line`` directives,
its reports and error renamed).

Beside the entries: ``stats.json`` (counters for ``accsat-cc --stats`` and the
cache's size), changed only under an exclusive ``flock`` on ``stats.lock``, so
``make -j`` loses no count; past ``cache_max`` bytes the least recently used
entries go (a hit renews an entry's modification time: atime is often off).

A cache that cannot be written is said once per build, not once per call
(``once.first_to_say``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..fileio import readable, write_atomically
from ..frontend.preprocess import c_string

FORMAT = "rewrite-v1"
FINGERPRINTS = "fingerprints"
STATS = "stats.json"
_LOCK = "stats.lock"
# a line marker of cpp (``# 12 "name" 1``) or a #line directive, and its file name
_MARKER = re.compile(r'^(#(?:line)?[ \t]*\d+[ \t]+)"((?:[^"\\\n]|\\.)*)"', re.M)
_CODE_SUFFIXES = (".py", ".egg", ".toml", ".h")
# the libraries whose behaviour a rewrite depends on: their versions are in every key
DEPENDENCIES = ("pycparser", "egglog", "pulp", "highspy")
# (name in stats.json, what --stats calls it); times in seconds
COUNTERS = (
    ("hits", "cache hits"),
    ("misses", "cache misses"),
    ("fallbacks", "files compiled as written after a failure"),
    ("no_kernel", "files with no kernel"),
    ("kernels_rewritten", "kernels rewritten"),
    ("rewrite_seconds", "time spent rewriting"),
    ("saved_seconds", "time saved by cache hits"),
    ("evicted", "entries evicted"),
)


def _files() -> list[tuple[str, Path]]:
    """(name in the fingerprint, path) of every file whose contents the output depends on."""
    from ..resources import data_dir

    # the wrapper and the sweep harness never change what a rewrite produces
    roots = [
        ("accsat", Path(__file__).resolve().parent.parent, ("wrapper", "sweep")),
        ("rules", data_dir("rules"), ()),
        ("cost_models", data_dir("cost_models"), ()),
    ]
    out = []
    for label, root, skip in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and d not in skip)
            for name in sorted(filenames):
                if name.endswith(_CODE_SUFFIXES):
                    path = Path(dirpath) / name
                    out.append((f"{label}/{path.relative_to(root)}", path))
    return out


def _dependency_stamp() -> str:
    """Where each dependency lives and when it, or its folder of packages, last changed:
    an install or upgrade changes this (reading the versions costs 15 ms, this far less)."""
    from importlib.util import find_spec

    parts = [sys.version]
    for name in DEPENDENCIES:
        try:
            origin = getattr(find_spec(name), "origin", None)
        except (ImportError, ValueError):
            origin = None
        places = (origin, os.path.dirname(os.path.dirname(origin))) if origin else ()
        for place in places:
            try:
                st = os.stat(place)
                parts.append(f"{place}\0{st.st_size}\0{st.st_mtime_ns}")
            except OSError:
                parts.append(f"{place}\0-")
        parts.append(f"{name}\0{len(places)}")
    return "\0".join(parts)


def dependency_versions() -> dict[str, str]:
    """The installed version of each of DEPENDENCIES ("none" when missing)."""
    from importlib import metadata

    out = {}
    for name in DEPENDENCIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "none"
    return out


_FINGERPRINT: str | None = None


def fingerprint(store: Path | None = None) -> str:
    """accsat's version and the contents of its code, rules and cost models, and the
    versions of Python and of DEPENDENCIES.

    Reading them all costs more than the rest of a cached call, so with ``store``
    (the cache folder) the result is kept there under a hash of the files' names,
    sizes and modification times (and of where the dependencies are installed), and
    read back while none of them changes.
    """
    global _FINGERPRINT
    if _FINGERPRINT is not None:
        return _FINGERPRINT
    files = _files()
    memo = None
    if store is not None:
        stamp = hashlib.sha256(__version__.encode() + b"\0" + _dependency_stamp().encode())
        for name, path in files:
            st = path.stat()
            stamp.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        memo = store / FINGERPRINTS / stamp.hexdigest()
        try:
            value = memo.read_text().strip()
            if len(value) == 64:
                _FINGERPRINT = value
                return value
        except OSError:
            pass
    h = hashlib.sha256(f"accsat {__version__}\0python {sys.version}\0".encode())
    for name, version in sorted(dependency_versions().items()):
        h.update(f"{name} {version}\0".encode())
    for name, path in files:
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    _FINGERPRINT = h.hexdigest()
    if memo is not None:
        with contextlib.suppress(OSError):  # a cache we cannot write is said by put()
            _write(memo, _FINGERPRINT)
    return _FINGERPRINT


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, text, mode=0o600)  # entries hold the user's source


def key(preprocessed: str, text: bytes, options: str, store: Path | None = None) -> str:
    """The cache key of one rewrite: accsat itself, the whole ``Options.key()`` (see
    :func:`options_key`), the file's bytes and what the preprocessor made of them (its
    line markers' file names as :func:`same_name` spells them)."""
    h = hashlib.sha256(FORMAT.encode() + b"\0" + fingerprint(store).encode() + b"\0")
    h.update(options.encode() + b"\0")
    h.update(hashlib.sha256(text).digest())
    markers = _MARKER.sub(lambda m: f'{m[1]}"{same_name(m[2])}"', preprocessed)
    h.update(hashlib.sha256(markers.encode("utf-8", "surrogateescape")).digest())
    return h.hexdigest()


def options_key(options: Any) -> str:
    """``options.key()`` with the file name its ``#line`` directives use as
    :func:`same_name` spells it (``./f.c`` and ``f.c`` share entries)."""
    name = options.line_directives
    return (replace(options, line_directives=same_name(name)) if name else options).key()


def same_name(name: str) -> str:
    """``name`` as cache keys spell it: normalised (``./f.c``, ``sub/../f.c``: ``f.c``),
    relative to the current folder when it is under it (ccache's ``base_dir``). The
    names in an entry are only labels (the key holds every byte read), so two names
    of one file, or of two files alike, may share it."""
    if os.path.isabs(name):
        with contextlib.suppress(ValueError, OSError):
            relative = os.path.relpath(name, os.getcwd())
            if relative != ".." and not relative.startswith("../"):
                name = relative
    return os.path.normpath(name) if name else name


def renamed(entry: dict, old: str, new: str) -> dict:
    """An entry made for the file called ``old``, for the same file called ``new``:
    the ``#line`` directives that name it, its kernels' reports and its error."""
    if old == new:
        return entry
    out = dict(entry)
    quoted_old, quoted_new = c_string(old), c_string(new)
    if isinstance(out.get("text"), str):
        out["text"] = _MARKER.sub(
            lambda m: m[1] + quoted_new if f'"{m[2]}"' == quoted_old else m[0], out["text"]
        )
    file_old, file_new = str(readable(old)), str(readable(new))
    if isinstance(out.get("kernels"), list):
        out["kernels"] = [
            {**k, "file": file_new} if isinstance(k, dict) and k.get("file") == file_old else k
            for k in out["kernels"]
        ]
    error = out.get("error")
    if isinstance(error, str) and error.startswith(file_old + ":"):
        out["error"] = file_new + error[len(file_old) :]
    return out


def why_not(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


class Cache:
    def __init__(self, folder: Path, max_bytes: int = 0):
        self.folder = folder
        self.root = folder / FORMAT
        self.max_bytes = max_bytes  # 0: no limit
        self.problem: str | None = None  # why the cache could not be written (the first time)

    def _path(self, k: str) -> Path:
        return self.root / k[:2] / f"{k}.json"

    def get(self, k: str, name: str | None = None) -> dict | None:
        """The entry of key ``k``, for the file called ``name`` (renamed from the name
        it was made for); None when there is none."""
        path = self._path(k)
        try:
            with open(path, encoding="utf-8") as f:
                mine = os.fstat(f.fileno()).st_uid == os.getuid()
                entry = json.load(f) if mine else None  # another's: its text would be compiled
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict):
            return None
        made_for = entry.pop("name", None)
        if name is not None and not isinstance(made_for, str):
            return None  # an entry of before names were kept: its #line may spell another
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: the last to be evicted
        return renamed(entry, made_for, name) if name is not None else entry

    def put(self, k: str, entry: dict, name: str | None = None) -> int:
        """Store ``entry``, made for the file called ``name``; the bytes written (0 when
        it could not be, see ``problem``)."""
        data = json.dumps(entry if name is None else {**entry, "name": name})
        try:
            _write(self._path(k), data)
        except OSError as exc:
            self.problem = self.problem or why_not(exc)
            return 0
        return len(data.encode("utf-8", "surrogateescape"))

    def record(self, counts: dict[str, float], added: int = 0) -> int:
        """Add ``counts`` to the statistics and ``added`` bytes to the size; evict past
        ``max_bytes``.  The number of entries evicted (OSError: the folder is not ours)."""
        with locked_stats(self.folder) as stats:
            for name, n in counts.items():
                stats[name] = stats.get(name, 0) + n
            if "bytes" not in stats:
                stats["bytes"] = usage(self.folder)[0]  # first time: count what is there
            else:
                stats["bytes"] += added
            evicted = 0
            if self.max_bytes and stats["bytes"] > self.max_bytes:
                stats["bytes"], evicted = evict(self.folder, self.max_bytes * 9 // 10)
                stats["evicted"] = stats.get("evicted", 0) + evicted
            return evicted


def _entries(folder: Path) -> Iterator[os.DirEntry]:
    """Every file the size limit counts: the entries and the fingerprint memos."""
    # a link in their place is not followed: eviction would delete what it points to
    stack = [p for p in (folder / FORMAT, folder / FINGERPRINTS) if not p.is_symlink()]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(Path(e.path))
                    elif e.is_file(follow_symlinks=False):
                        yield e
        except OSError:
            continue


def usage(folder: Path) -> tuple[int, int]:
    """(bytes, entries) of the cache in ``folder``."""
    total = count = 0
    for e in _entries(folder):
        with contextlib.suppress(OSError):
            total += e.stat(follow_symlinks=False).st_size
            count += e.name.endswith(".json")
    return total, count


def evict(folder: Path, target: int) -> tuple[int, int]:
    """Remove the least recently used files until at most ``target`` bytes are left:
    (bytes left, files removed)."""
    files = []
    for e in _entries(folder):
        with contextlib.suppress(OSError):
            st = e.stat(follow_symlinks=False)
            files.append((st.st_mtime_ns, st.st_size, e.path))
    files.sort()
    total = sum(size for _, size, _ in files)
    removed = 0
    for _, size, path in files:
        if total <= target:
            break
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            removed += 1
        total -= size
    return total, removed


@contextlib.contextmanager
def locked_stats(folder: Path) -> Iterator[dict]:
    """The statistics of the cache in ``folder``, under an exclusive lock; what the
    caller leaves in the dict is written back (atomically) on leaving."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / _LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        stats = read_stats(folder)
        before = dict(stats)
        yield stats
        if stats != before:
            write_atomically(folder / STATS, json.dumps(stats, sort_keys=True) + "\n", mode=0o600)
    finally:
        os.close(fd)


def read_stats(folder: Path) -> dict:
    try:
        with open(folder / STATS, encoding="utf-8") as f:
            stats = json.load(f)
    except (OSError, ValueError):
        return {}
    ok = isinstance(stats, dict) and all(isinstance(v, (int, float)) for v in stats.values())
    return stats if ok else {}


def zero_stats(folder: Path) -> None:
    with locked_stats(folder) as stats:
        for name, _ in COUNTERS:
            stats[name] = 0
        stats["zeroed"] = time.time()


def clear(folder: Path) -> int:
    """Remove every entry (the statistics stay): the number of entries removed."""
    with locked_stats(folder) as stats:
        removed = usage(folder)[1]
        for name in (FORMAT, FINGERPRINTS):
            # renamed first: a concurrent build sees a whole cache or none
            trash = folder / f".{name}.removing.{os.getpid()}"
            try:
                os.rename(folder / name, trash)
            except FileNotFoundError:
                continue
            shutil.rmtree(trash, ignore_errors=True)
        stats["bytes"] = 0
        return removed
