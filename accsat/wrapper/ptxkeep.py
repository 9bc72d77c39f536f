"""``keep`` checked by ptxas, for a gcc compile with nvptx offloading (issue 26).

The register model (codegen/registers.py) is a lower bound of what ptxas allocates,
and its misses lose occupancy steps: on NPB class S the model alone kept the step in
all but 5 (cse) / 10 (accsat) device entries. Where the compile asks for nvptx device
code by name (``-foffload=nvptx-none``) and ``ptxas`` is on the PATH, accsat-cc asks
ptxas instead:

1. the file as written is built alone with offloading into a scratch shared object
   (toolchain/ptx.probe, the user's own flags) and ptxas gives each device entry's
   registers: ``keep``'s limit becomes the occupancy step of that count, not the model's;
2. the rewrite is built the same way; an entry whose occupancy is lower than as written
   (at 128 threads a block and at the block size gcc fixed) or that spills more makes
   each rewritten kernel inside it hold half as many values at a time (none: kept as
   written), and the file is rewritten again, up to ``ROUNDS`` times;
3. kernels still over after the last round are kept as written.

Each probe is one gcc offload build of the file (about as long as compiling it for the
GPU); the outcome is cached like any other (the cache key says it was checked).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..occupancy import lost
from ..options import ORIG, Options, split_config
from ..report import LOOP_BODY
from ..settings import KEEP
from ..toolchain.compilers import gpu_target
from ..toolchain.ptx import Entry, probe, ptxas_version
from .rewrite import Outcome

ROUNDS = 4
KEY = "ptxas-checked"  # added to the cache key of a checked outcome
FIRST_CAP = 16  # values held at most after a first loss, where the plan had no cap


def wanted(family: str, args: list[str], options: Options, command: str = "") -> bool:
    """The setting is ``keep`` (for the file, or for a kernel a tuning database gives
    ``VARIANT@keep``), the compile is gcc's with nvptx device code (``command``: the
    gcc, for one that offloads by default), ptxas is here."""
    return (
        _keeps(options)
        and family == "gcc"
        and gpu_target(family, args, command)
        and shutil.which("ptxas") is not None
    )


def _keeps(options: Options) -> bool:
    return options.registers == KEEP or any(
        config != ORIG and split_config(config)[1] == KEEP
        for _, _, config in options.kernel_configs
    )


Facts = dict[tuple[int, int], list[int | None]]  # (first, last) -> [registers, most held]


def checked(
    command: list[str],
    source: Path,
    options: Options,
    rewrite: Callable[[Options], Outcome],
) -> Outcome:
    """``rewrite(options)`` with ptxas's counts and checks (module docstring);
    ``command``: the user's compile as a probe (toolchain.ptx.probe_command)."""
    with tempfile.TemporaryDirectory(prefix="accsat-ptx-") as tmp:
        work = Path(tmp)
        alone = _probe(command, source, work / "written")
        if alone is None:  # it does not build alone: the model alone, and nothing cached
            return _unchecked(rewrite(options))
        written = ours(alone, source)
        facts: Facts = {
            (e.location.first, e.location.last): [e.registers, None]
            for e in written
            if e.location is not None and e.registers
        }
        if not facts:  # no device code of its own (a host-only file): the model alone
            return rewrite(options)
        by_name = {e.name: e for e in written}
        outcome = rewrite(_with(options, facts))
        for n in range(ROUNDS + 1):
            if outcome.error is not None or not outcome.rewritten:
                return outcome
            now = probe_text(command, source, outcome.text or "", work / f"round{n}")
            if now is None:  # the rewrite did not build alone: no verdict, and none cached
                return _unchecked(outcome)
            lost = [e for e in ours(now, source) if _worse(e, by_name.get(e.name))]
            if not lost:
                return outcome
            if not _tighten(facts, lost, outcome.kernels, last=n == ROUNDS):
                return outcome  # nothing of ours in those entries
            outcome = rewrite(_with(options, facts))
        return outcome


def _probe(command: list[str], source: Path, work: Path) -> list[Entry] | None:
    work.mkdir(parents=True, exist_ok=True)
    return probe(command, source, work)


def probe_text(command: list[str], source: Path, text: str, work: Path) -> list[Entry] | None:
    """The device entries of ``text`` built in ``source``'s place (in ``work``, a new
    folder, under the source's name; its ``"..."`` includes found beside the source, as
    the real compile finds them): toolchain.ptx.probe."""
    printed = work / source.name
    work.mkdir(parents=True)
    printed.write_text(text, encoding="utf-8", errors="surrogateescape")
    return probe([*command, "-iquote", str(source.resolve().parent)], printed, work)


def ours(entries: list[Entry], source: Path) -> list[Entry]:
    """The entries compiled from ``source`` itself (not from a header's lines)."""
    return [
        e
        for e in entries
        if e.location is not None and os.path.basename(e.location.file) == source.name
    ]


def _unchecked(outcome: Outcome) -> Outcome:
    """An outcome ptxas could not check: used, but not cached (the next build asks again)."""
    outcome.cacheable = False
    return outcome


def _with(options: Options, facts: Facts) -> Options:
    return replace(
        options,
        kernel_registers=tuple(
            (first, last, regs, most) for (first, last), (regs, most) in sorted(facts.items())
        ),
    )


def _worse(now: Entry, before: Entry | None) -> bool:
    """Lower occupancy than as written (at 128 threads and at the entry's own block
    size), or more spilled bytes."""
    if before is None or not now.registers or not before.registers:
        return False
    return now.spill > before.spill or lost(now.registers, before.registers, now.block)


def _tighten(facts: Facts, lost: list[Entry], kernels: list[dict], last: bool) -> bool:
    """Halve the values held by every rewritten kernel under ``keep`` in a lost entry
    (``last``: keep them as written); whether any kernel changed."""
    changed = False
    for e in lost:
        for k in kernels:
            line = k.get("line")
            if k.get("status") != "rewritten" or not isinstance(line, int) or k.get("compiled"):
                continue  # (a kernel of a header, or of a #line file: not the source's lines)
            if (k.get("registers") or {}).get("setting") != KEEP:
                continue  # a kernel a tuning database gives no budget: as it was chosen
            if not _answers_for(e, k, line):
                continue
            held = (k.get("registers") or {}).get("held")
            cap = -1 if last or held == 0 else (FIRST_CAP if held is None else held // 2)
            facts[(line, line)] = [None, cap]
            changed = True
    return changed


def _answers_for(entry: Entry, kernel: dict, line: int) -> bool:
    """Whether ``entry``'s registers count the rewritten ``kernel`` (on ``line``): a loop
    body inside its construct's lines; a function (a routine, a callee) that has a line
    among the entry's and its called functions' (inlined or called, its registers are
    the entry's: ptxas counts none for a ``.func``)."""
    loc = entry.location
    if loc is None:
        return False
    if kernel.get("kind", LOOP_BODY) == LOOP_BODY:
        return loc.first <= line <= loc.last
    written = (kernel.get("bodies") or {}).get("original")
    last = line + written.count("\n") if isinstance(written, str) else line
    return any(line <= reached <= last for reached in entry.reached)


def cache_marker(
    family: str, args: list[str], options: Options, probe: list[str], command: str = ""
) -> str:
    """What the cache key adds for a checked outcome ('' when not checked): the probe's
    command (the user's flags, -O and -foffload-options among them) and ptxas's version."""
    if not wanted(family, args, options, command):
        return ""
    return f"{KEY}:{ptxas_version()}:{' '.join(probe)}"
