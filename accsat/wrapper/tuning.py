"""What accsat-cc does for ``accsat tune``: ACCSAT_TUNE's choices, ACCSAT_PROFILE's timers.

Imported only when one of the two is set; the work is in accsat.tune (db,
profile), this is where it meets a compile.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ..ccconfig import PROG, Config
from ..options import Options
from .args import Source
from .rewrite import Outcome


def tuned_options(
    cfg: Config, options: Options, path: str, text: bytes
) -> tuple[Options, list[str]]:
    """``options`` with the database's choice for each construct of the file; the notes
    (a changed kernel, a database that cannot be read) as warning lines."""
    from ..tune.db import DatabaseError, apply, database_folder

    assert cfg.tune is not None
    base = cfg.build_dir or database_folder(cfg.tune)
    try:
        options, notes = apply(
            options, path, text.decode("utf-8", "surrogateescape"), cfg.tune, base
        )
    except DatabaseError as exc:
        return options, [f"{PROG}: {exc}; using the default variant"]
    return options, [f"{PROG}: {note}" for note in notes]


def with_timers(
    cfg: Config, sources: list[Source], chosen: list[tuple[int, Source, Outcome]]
) -> tuple[list[tuple[int, Source, Outcome]], list[str]]:
    """``chosen`` (the sources compiled from a copy) with a timer around each construct
    of every source, rewritten or not; and warning lines."""
    from ..codegen.splice import line_directive
    from ..tune.constructs import relative_file
    from ..tune.profile import instrument

    assert cfg.profile is not None
    rewritten = {n: outcome for n, _, outcome in chosen}
    out: list[tuple[int, Source, Outcome]] = []
    warnings: list[str] = []
    profile = os.path.abspath(cfg.profile)
    base = cfg.build_dir or os.getcwd()
    for n, src in enumerate(sources):
        outcome = rewritten.get(n)
        try:
            original = (
                Path(os.path.abspath(src.path)).read_bytes().decode("utf-8", "surrogateescape")
            )
        except OSError:  # said by the compiler, or already by the rewrite
            original = ""
        if outcome is not None:
            text = outcome.text or ""
        else:
            text = line_directive(1, src.path) + original
        kernel_lines = frozenset(
            k.get("line", 0)
            for k in (outcome.kernels if outcome else ())
            if k.get("status") == "rewritten"
        )
        timed, warning = instrument(
            text, original, relative_file(src.path, base), src.path, profile, kernel_lines
        )
        if warning:
            warnings.append(f"{PROG}: {warning}")
        if timed is not text:
            outcome = replace(outcome or Outcome(kernels=[]), text=timed)
        if outcome is not None:
            out.append((n, src, outcome))
    return out, warnings
