"""The tuning database: which config each construct gets (``ACCSAT_TUNE``, ``--tune``).

A JSON file, written atomically by ``accsat tune``::

    {"schema": "accsat-tune/1", "root": "/abs/build/dir", "default": "accsat",
     "kernels": [{"kernel": "bt.c:120", "file": "bt.c", "line": 120,
                  "hash": "0a76...", "construct": "acc parallel loop",
                  "config": "cse", "gain": 1.12, "noise": 0.02}, ...], ...}

``file`` is relative to the build directory: accsat-cc's ``build_dir`` when set
(``accsat tune`` sets it for its builds, so that recursive makes agree), else
the folder holding the database. A construct of a compiled file gets the
entry with its file, line and hash; one that only moved (same file and hash,
another line) keeps its entry; one whose text changed gets the default
variant, with a one-line note; one not listed gets the default.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..fileio import write_atomically
from ..options import Options, check_config
from . import constructs

SCHEMA = "accsat-tune/1"


class DatabaseError(Exception):
    """A database that cannot be used (one line: what and where)."""


@dataclass(frozen=True)
class Entry:
    file: str
    line: int
    hash: str
    construct: str
    config: str  # "orig" or a variant
    gain: float | None = None  # orig's median over the chosen one's (1.0: kept orig)
    noise: float | None = None  # the relative spread the gain had to beat

    @property
    def kernel(self) -> str:
        return constructs.kernel_id(self.file, self.line)


@dataclass
class Database:
    kernels: list[Entry]
    root: str = ""  # the build directory it was tuned in (informative)
    info: dict = field(default_factory=dict)  # how it was tuned: commands, runs, programs

    def to_json(self) -> str:
        entries = [{"kernel": e.kernel, **asdict(e)} for e in self.kernels]
        return (
            json.dumps(
                {"schema": SCHEMA, "root": self.root, **self.info, "kernels": entries}, indent=1
            )
            + "\n"
        )

    def save(self, path: Path) -> None:
        write_atomically(path, self.to_json())

    def digest(self) -> str:
        """What a build with this database depends on: the choices, not the notes."""
        import hashlib

        rows = sorted((e.file, e.line, e.hash, e.config) for e in self.kernels)
        return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def load(path: str | os.PathLike) -> Database:
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot read the tuning database: {exc.strerror}") from None
    except ValueError as exc:
        raise DatabaseError(f"{path}: not a tuning database (bad JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise DatabaseError(f"{path}: not a tuning database of schema {SCHEMA} (found {found!r})")
    kernels = []
    for n, raw in enumerate(data.get("kernels") or []):
        try:
            e = Entry(
                str(raw["file"]),
                int(raw["line"]),
                str(raw["hash"]),
                str(raw.get("construct", "")),
                str(raw["config"]),
                raw.get("gain"),
                raw.get("noise"),
            )
        except (KeyError, TypeError, ValueError):
            raise DatabaseError(
                f"{path}: kernel entry {n + 1} lacks file, line, hash or config"
            ) from None
        try:
            check_config(e.config)
        except ValueError as exc:
            raise DatabaseError(f"{path}: {e.kernel}: {exc}") from None
        kernels.append(e)
    info = {k: v for k, v in data.items() if k not in ("schema", "root", "kernels")}
    return Database(kernels, str(data.get("root", "")), info)


def build_dir(db_path: str | os.PathLike) -> str:
    """Where files are named from: accsat-cc's setting ``build_dir`` (its config file or
    environment), else the database's folder."""
    from ..ccconfig import read_settings

    return read_settings().values["build_dir"] or database_folder(db_path)


def database_folder(db_path: str | os.PathLike) -> str:
    return os.path.dirname(os.path.abspath(db_path))


def choices(
    db: Database, file_id: str, text: str
) -> tuple[tuple[tuple[int, int, str], ...], list[str]]:
    """For the constructs of ``text`` (the file ``file_id``): the line ranges and config
    of each one the database has (``Options.kernel_configs``), and one note per
    construct whose text changed since it was tuned."""
    mine = [e for e in db.kernels if e.file == file_id]
    if not mine:
        return (), []
    exact = {(e.line, e.hash): e for e in mine}
    by_hash: dict[str, list[Entry]] = {}
    for e in mine:
        by_hash.setdefault(e.hash, []).append(e)
    lines = {e.line for e in mine}
    ranges: list[tuple[int, int, str]] = []
    notes: list[str] = []
    for c in constructs.find(text):
        found = exact.get((c.line, c.hash))
        if found is None and len(by_hash.get(c.hash, ())) == 1:
            found = by_hash[c.hash][0]  # moved, not changed
        if found is not None:
            ranges.append((c.line, c.last_line, found.config))
        elif c.line in lines:
            notes.append(
                f"{constructs.kernel_id(file_id, c.line)}: changed since it was tuned "
                "(hash differs); the default variant is used"
            )
    return tuple(ranges), notes


def apply(
    options: Options, path: str, text: str, db_path: str, base: str | None = None
) -> tuple[Options, list[str]]:
    """``options`` with the database's choices for the file at ``path`` (its text: ``text``;
    named relative to ``base``, default ``build_dir``), and the notes to show;
    DatabaseError when the database cannot be used."""
    db = _loaded.get(db_path) or _loaded.setdefault(db_path, load(db_path))
    file_id = constructs.relative_file(path, base or build_dir(db_path))
    ranges, notes = choices(db, file_id, text)
    return replace(options, kernel_configs=ranges), notes


_loaded: dict[str, Database] = {}  # one compile may have several sources
