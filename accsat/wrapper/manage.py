"""``accsat-cc --stats | --zero-stats | --clear | --show-config``: ccache's comforts.

They read the settings and the cache folder and nothing else (no pipeline
import), so they answer at once.  Output goes to stdout; a bad setting is one
line on stderr each.  ccache's spellings work too (``-s``/``--show-stats``,
``-z``, ``-C``, ``-p``), and, as with ccache, several commands run in the order
given (``accsat-cc -z -s``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..ccconfig import PROG, SETTINGS, Settings, read_settings
from . import cache

# ccache's names of the same commands
ALIASES = {
    "-s": "--stats",
    "--show-stats": "--stats",
    "-z": "--zero-stats",
    "-C": "--clear",
    "-p": "--show-config",
}
COMMANDS = ("--stats", "--zero-stats", "--clear", "--show-config", "--stop-server", *ALIASES)


def _say(line: str) -> None:
    sys.stderr.write(f"{PROG}: {line}\n")


def human(n: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"  # not reached


def show_stats(got: Settings) -> str:
    folder: Path = got.values["cache_dir"]
    stats = cache.read_stats(folder)
    size, entries = cache.usage(folder)
    limit = got.values["cache_max"]
    zeroed = stats.get("zeroed")
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(zeroed)) if zeroed else "never"
    rows = [
        ("cache folder", str(folder) + ("" if got.values["cache"] else " (off: cache)")),
        ("statistics zeroed", since),
    ]
    for name, label in cache.COUNTERS:
        n = stats.get(name, 0)
        rows.append((label, f"{n:.1f} s" if name.endswith("seconds") else f"{n:.0f}"))
        if name == "misses":
            looked = stats.get("hits", 0) + n
            rows.append(
                ("hit rate", f"{100 * stats.get('hits', 0) / looked:.1f} %" if looked else "-")
            )
    of = f" of {human(limit)}" if limit else " (no limit)"
    rows.append(("cache size", f"{human(size)}{of}, {entries} entries"))
    width = max(len(label) for label, _ in rows)
    return "".join(f"{label:<{width}}  {value}\n" for label, value in rows)


def show_config(got: Settings) -> str:
    found = "" if got.file and got.file.is_file() else " (not found)"
    rows = [("setting", "variable", "value", "from")]
    for s in SETTINGS:
        origin = got.origins[s.name]
        origin = "config file" if origin == str(got.file) else origin
        rows.append((s.name, s.env, s.show(got.values[s.name]), origin))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"config file: {got.file}{found}"]
    lines += [f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:<{widths[2]}}  {d}" for a, b, c, d in rows]
    return "\n".join(lines) + "\n"


def run(argv: list[str]) -> int:
    """Management commands (each of ``argv`` in COMMANDS), in order: the exit status of
    the last that failed (0 when none did)."""
    extra = next((a for a in argv[1:] if a not in COMMANDS), None)
    if extra is not None:
        _say(f"{argv[0]} takes no argument (got '{extra}')")
        return 2
    got = read_settings()
    for problem in got.problems:
        _say(problem)
    status = 0
    for command in argv:
        status = _one(ALIASES.get(command, command), got) or status
    return status


def _one(command: str, got: Settings) -> int:
    folder: Path = got.values["cache_dir"]
    if got.problems and command in ("--zero-stats", "--clear"):  # it may not be the folder meant
        return 1
    try:
        if command == "--show-config":
            sys.stdout.write(show_config(got))
            return 1 if got.problems else 0
        if command == "--stats":
            sys.stdout.write(show_stats(got))
        elif command == "--zero-stats":
            cache.zero_stats(folder)
            sys.stdout.write(f"statistics zeroed in {folder}\n")
        elif command == "--clear":
            removed = cache.clear(folder)
            sys.stdout.write(f"removed {removed} entries from {folder}\n")
        elif command == "--stop-server":
            from .client import stop_servers

            sys.stdout.write(f"stopped {stop_servers()} compile servers\n")
    except OSError as exc:
        _say(f"{command}: {cache.why_not(exc)}")
        return 1
    return 0
