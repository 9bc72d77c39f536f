"""ACCSAT_STATIC: each compute construct's device code figures, for ``accsat tune --static``.

For every C source of the call that holds a compute construct, the text the compiler
gets (the rewrite where there is one, else the file as written; without the tuner's
timers) is built alone with gcc's nvptx offloading (toolchain/ptx.probe: the user's
flags, ``-g`` for the lines) and ptxas reads each device entry. An entry belongs to the
construct whose lines hold its directive: a row per construct and entry, named as the
profiler names constructs (tune/constructs.py), goes to the JSON Lines file. A source
that does not build this way, or a machine without ptxas, gives a warning line and no
rows: the tuner says what is missing.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..fileio import append_lines
from ..toolchain.ptx import Entry, probe, probe_command, ptxas_version
from .args import Invocation, Source
from .config import PROG, Config
from .rewrite import Outcome


def record(cfg: Config, inv: Invocation, chosen: list[tuple[int, Source, Outcome]]) -> list[str]:
    """Append the rows of every source of ``inv`` to ``cfg.static``; warning lines."""
    from ..tune.constructs import find, relative_file

    assert cfg.static is not None
    if not ptxas_version():
        return [f"{PROG}: no ptxas on the PATH: no device code figures for {cfg.static}"]
    command = probe_command([inv.compiler], inv.args, {s.index for s in inv.sources})
    rewritten = {n: outcome for n, _, outcome in chosen}
    base = cfg.build_dir or os.getcwd()
    rows: list[dict] = []
    warnings: list[str] = []
    for n, src in enumerate(inv.sources):
        try:
            original = Path(src.path).read_bytes().decode("utf-8", "surrogateescape")
        except OSError:
            continue  # the compiler says so
        constructs = find(original)
        if not constructs:
            continue
        outcome = rewritten.get(n)
        entries = _entries(command, Path(src.path), outcome.text if outcome else None)
        if entries is None:
            warnings.append(
                f"{PROG}: {src.path}: does not build alone with gcc's nvptx offloading: "
                "no device code figures"
            )
            continue
        name = relative_file(src.path, base)
        for c in constructs:
            for e in entries:
                if _inside(e, c.line, c.last_line, os.path.basename(src.path)):
                    rows.append(_row(name, c.line, c.hash, c.name, e))
    if rows:
        try:
            append_lines(cfg.static, "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        except OSError as exc:
            warnings.append(f"{PROG}: cannot write {cfg.static}: {exc.strerror}")
    return warnings


def _entries(command: list[str], source: Path, text: str | None) -> list[Entry] | None:
    """The device entries of ``source`` as written (``text`` None) or of ``text`` in its
    place (its includes found beside the source, as the real compile finds them)."""
    with tempfile.TemporaryDirectory(prefix="accsat-static-") as tmp:
        work = Path(tmp)
        if text is None:
            return probe(command, source, work)
        printed = work / "src" / source.name
        printed.parent.mkdir()
        printed.write_text(text, encoding="utf-8", errors="surrogateescape")
        include = ["-iquote", str(source.resolve().parent)]
        return probe([*command, *include], printed, work)


def _inside(e: Entry, first: int, last: int, basename: str) -> bool:
    """Whether entry ``e`` was compiled from the construct on lines ``first..last`` of
    the file called ``basename`` (its directive's line, else its first line, there)."""
    loc = e.location
    if loc is None or os.path.basename(loc.file) != basename:
        return False
    return first <= loc.line <= last or first <= loc.first <= last


def _row(file: str, line: int, hash: str, construct: str, e: Entry) -> dict:
    return {
        "file": file,
        "line": line,
        "hash": hash,
        "construct": construct,
        "entry": e.name,
        "registers": e.registers,
        "spill": e.spill,
        "block": e.block,
        "loads": e.loads,
        "instructions": e.instructions,
    }
