"""ACCSAT_STATIC: each compute construct's device code figures, for ``accsat tune --static``.

For every C source of the call that holds a compute construct, the text the compiler
gets (the rewrite where there is one, else the file as written; without the tuner's
timers) is built alone with gcc's nvptx offloading (toolchain/ptx.probe: the user's
flags, ``-g`` for the lines) and ptxas reads each device entry. An entry belongs to the
construct whose lines hold its directive: a row per construct and entry, named as the
profiler names constructs (tune/constructs.py), goes to the JSON Lines file. A construct
without an entry (a host construct; a source that does not build this way; no ptxas)
gets one row that says why, and the tuner keeps it as written; the last two also give
a warning line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..ccconfig import PROG, Config
from ..fileio import append_lines
from ..toolchain.ptx import Entry, probe, probe_command, ptxas_version
from .args import Invocation, Source
from .ptxkeep import ours, probe_text
from .rewrite import Outcome


def record(cfg: Config, inv: Invocation, chosen: list[tuple[int, Source, Outcome]]) -> list[str]:
    """Append the rows of every source of ``inv`` to ``cfg.static``; warning lines. A
    construct without figures gets a row too, with ``entry`` null and ``why``: the
    tuner then keeps it as written."""
    from ..tune.constructs import find, relative_file

    assert cfg.static is not None
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
        entries, why = _entries(command, Path(src.path), outcome.text if outcome else None)
        if why:
            warnings.append(f"{PROG}: {src.path}: {why}: no device code figures")
        name = relative_file(src.path, base)
        for c in constructs:
            mine = [e for e in entries if _inside(e, c.line, c.last_line)]
            ident = {"file": name, "line": c.line, "hash": c.hash, "construct": c.name}
            rows += [{**ident, **_figures(e)} for e in mine] or [
                {**ident, "entry": None, "why": why or "no device code (a host construct)"}
            ]
    try:
        append_lines(cfg.static, "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    except OSError as exc:
        warnings.append(f"{PROG}: cannot write {cfg.static}: {exc.strerror}")
    return warnings


def _entries(command: list[str], source: Path, text: str | None) -> tuple[list[Entry], str]:
    """The device entries compiled from ``source`` as written (``text`` None) or from
    ``text`` in its place; or none and why."""
    if not ptxas_version():
        return [], "no ptxas on the PATH"
    with tempfile.TemporaryDirectory(prefix="accsat-static-") as tmp:
        work = Path(tmp) / "probe"
        if text is None:
            work.mkdir()
            found = probe(command, source, work)
        else:
            found = probe_text(command, source, text, work)
    if found is None:
        return [], "does not build alone with gcc's nvptx offloading"
    return ours(found, source), ""


def _inside(e: Entry, first: int, last: int) -> bool:
    """Whether entry ``e`` was compiled from the construct on lines ``first..last`` (its
    directive's line, else its first line, there)."""
    loc = e.location
    return loc is not None and (first <= loc.line <= last or first <= loc.first <= last)


def _figures(e: Entry) -> dict:
    return {
        "entry": e.name,
        "registers": e.registers,
        "spill": e.spill,
        "block": e.block,
        "loads": e.loads,
        "instructions": e.instructions,
    }
