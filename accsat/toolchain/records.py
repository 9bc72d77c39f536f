"""Records on disk (JSON, CSV tables, JSON Lines), never seen half written.

The one home of the formats the tools write for programs to read back: a
sweep's ``build.json``/``result.json`` per cell and its ``results.csv``, the
tuner's tables, the PTX view's table, accsat-cc's event log. Whole files are
written atomically (:func:`accsat.fileio.write_atomically`: a killed sweep
leaves the old file or the new one); JSON Lines are appended whole, under a lock
(:func:`accsat.fileio.append_lines`: ``make -j`` appends from many processes).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from ..fileio import append_lines, write_atomically


def write_json(path: Path, data: Any, indent: int | None = 1) -> None:
    """``data`` as JSON (anything else as its ``str``), replacing ``path`` atomically."""
    write_atomically(path, json.dumps(data, indent=indent, default=str) + "\n")


def read_json(path: Path) -> Any:
    """What :func:`write_json` wrote; None when the file is missing or not JSON."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def write_csv(
    path: Path,
    columns: Iterable[str],
    rows: Iterable[Mapping[str, Any]],
    extra: Literal["raise", "ignore"] = "raise",
) -> None:
    """A header of ``columns`` and one line per row, replacing ``path`` atomically;
    ``extra``: what a key of a row that is not a column does (``ignore``: left out)."""
    buffer = io.StringIO()
    w = csv.DictWriter(buffer, fieldnames=list(columns), extrasaction=extra, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    write_atomically(path, buffer.getvalue())


def append_jsonl(path: str | Path, records: Iterable[Mapping[str, Any]]) -> None:
    """One JSON object per line, appended in one locked write (OSError when it cannot)."""
    text = "".join(json.dumps(r, default=str) + "\n" for r in records)
    if text:
        append_lines(path, text)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The objects of a JSON Lines file, skipping lines that are not one (a missing file:
    none)."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value
