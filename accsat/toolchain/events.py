"""What accsat-cc tells the tools that build through it (its setting ``events=PATH``).

Every call of accsat-cc appends one JSON object per event to the file (whole
lines, safe with ``make -j``): ``{"time", "pid", "event", "details", ...}``,
the events of its debug log (``log``). A ``fallback`` says that a file
was compiled as written (``file``; None: every file of the call, after an
internal error or a bad setting) and why (``reason``). The sweep and the tuner
pass a file per build and count from it, never from the build's output text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .records import read_jsonl

FALLBACK = "fallback"


def events(path: Path, kind: str | None = None) -> Iterator[dict[str, Any]]:
    """The events in ``path`` (of one ``kind``), in order; none when there is no file."""
    return (e for e in read_jsonl(path) if kind is None or e.get("event") == kind)


def fallbacks(path: Path) -> int:
    """How many times a build compiled a file (or a whole call) as written."""
    return sum(1 for _ in events(path, FALLBACK))
