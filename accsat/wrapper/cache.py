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

import contextlib
import hashlib
import json
import os
from pathlib import Path

from .. import __version__

FORMAT = "rewrite-v1"
_CODE_SUFFIXES = (".py", ".egg", ".toml", ".h")


def _hash_tree(h, root: Path, skip: tuple[str, ...] = ()) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and d not in skip)
        for name in sorted(filenames):
            if name.endswith(_CODE_SUFFIXES):
                path = Path(dirpath) / name
                h.update(str(path.relative_to(root)).encode() + b"\0")
                h.update(path.read_bytes() + b"\0")


_FINGERPRINT: str | None = None


def fingerprint() -> str:
    """accsat's version and the contents of its code, rules and cost models."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        from ..resources import data_dir

        h = hashlib.sha256(f"accsat {__version__}\0".encode())
        _hash_tree(h, Path(__file__).resolve().parent.parent, skip=("wrapper",))
        for folder in ("rules", "cost_models"):
            h.update(f"[{folder}]\0".encode())
            _hash_tree(h, data_dir(folder))
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def key(preprocessed: str, text: bytes, settings: dict) -> str:
    h = hashlib.sha256(FORMAT.encode() + b"\0" + fingerprint().encode() + b"\0")
    h.update(json.dumps(settings, sort_keys=True).encode() + b"\0")
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
        path = self._path(k)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            import tempfile

            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
