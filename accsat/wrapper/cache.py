"""Content-addressed store of rewrites, so that an unchanged file costs a lookup.

The key covers everything the output depends on: the file after accsat's own
preprocessing (so every header it includes), the file's text (splicing works on
it), the name ``#line`` directives use, the options, and accsat itself (its
version, the sources of the package and the rule and cost-model files).  An
entry is one JSON file holding the rewritten text and the kernel reports, or
the one-line reason accsat could not rewrite the file.  Entries are written to
a temporary file and renamed into place, so concurrent builds never see half of
one; any problem with the cache only costs a rewrite.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .. import __version__
from ..fileio import write_atomically

FORMAT = "rewrite-v1"
_CODE_SUFFIXES = (".py", ".egg", ".toml", ".h")


def _files() -> list[tuple[str, Path]]:
    """(name in the fingerprint, path) of every file whose contents the output depends on."""
    from ..resources import data_dir

    # the wrapper and the sweep harness never change what a rewrite produces
    roots = [("accsat", Path(__file__).resolve().parent.parent, ("wrapper", "sweep")),
             ("rules", data_dir("rules"), ()), ("cost_models", data_dir("cost_models"), ())]
    out = []
    for label, root, skip in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and d not in skip)
            for name in sorted(filenames):
                if name.endswith(_CODE_SUFFIXES):
                    path = Path(dirpath) / name
                    out.append((f"{label}/{path.relative_to(root)}", path))
    return out


_FINGERPRINT: str | None = None


def fingerprint(store: Path | None = None) -> str:
    """accsat's version and the contents of its code, rules and cost models.

    Reading them all costs more than the rest of a cached call, so with ``store``
    (the cache folder) the result is kept there under a hash of the files' names,
    sizes and modification times, and read back while none of them changes.
    """
    global _FINGERPRINT
    if _FINGERPRINT is not None:
        return _FINGERPRINT
    files = _files()
    memo = None
    if store is not None:
        stamp = hashlib.sha256(__version__.encode())
        for name, path in files:
            st = path.stat()
            stamp.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        memo = store / "fingerprints" / stamp.hexdigest()
        try:
            value = memo.read_text().strip()
            if len(value) == 64:
                _FINGERPRINT = value
                return value
        except OSError:
            pass
    h = hashlib.sha256(f"accsat {__version__}\0".encode())
    for name, path in files:
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    _FINGERPRINT = h.hexdigest()
    if memo is not None:
        _write_quietly(memo, _FINGERPRINT)
    return _FINGERPRINT


def _write_quietly(path: Path, text: str) -> None:
    """A cache that cannot be written is no cache: never an error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text, mode=0o600)  # entries hold the user's source
    except OSError:
        pass


def key(preprocessed: str, text: bytes, options: str, store: Path | None = None) -> str:
    """The cache key of one rewrite: accsat itself, the whole ``Options.key()``, the
    file's bytes and what the preprocessor made of them."""
    h = hashlib.sha256(FORMAT.encode() + b"\0" + fingerprint(store).encode() + b"\0")
    h.update(options.encode() + b"\0")
    h.update(hashlib.sha256(text).digest())
    h.update(hashlib.sha256(preprocessed.encode("utf-8", "surrogateescape")).digest())
    return h.hexdigest()


class Cache:
    def __init__(self, root: Path):
        self.root = root / FORMAT

    def _path(self, k: str) -> Path:
        return self.root / k[:2] / f"{k}.json"

    def get(self, k: str) -> dict | None:
        try:
            with open(self._path(k), encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, k: str, entry: dict) -> None:
        _write_quietly(self._path(k), json.dumps(entry))
