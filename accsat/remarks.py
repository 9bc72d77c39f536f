"""Remarks: one line per kernel, in the format of a compiler's diagnostics.

    x_solve.c:421:9: remark: accsat: rewritten (cse+sat): loads 396 -> 66, ops 812 -> 530, 41 FMA
    x_solve.c:530:9: remark: accsat: left as written: 'goto' statement in the loop body (line 541)

``file:line:column: remark: message`` is what gcc and clang print for their own
diagnostics (clang calls an optimization remark ``remark``, as here), so editors
(Emacs's compilation mode, Vim's quickfix) and CI log parsers find the kernel from the
line. The column is the loop's ``for`` counted as gcc counts columns (a tab to the
next multiple of 8). They come from the kernel reports (``report.KernelReport``, or
its fields as a dict), so whatever the pipeline reports, of any kind of kernel, a
remark says.

Two kinds, as compilers have: ``applied`` (a kernel rewritten) and ``missed`` (a
kernel left as written, with why); ``all`` is both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .options import REMARKS, VARIANTS, Options, split_config
from .settings import by_name

ALL, MISSED, APPLIED = REMARKS  # what the remarks setting may say (Options.remarks)
SEVERITY = "remark"  # the diagnostic kind printed (clang's word for optimization remarks)
PREFIX = "accsat"  # who speaks, after the kind (as gcc's "-Wname" or clang's "[-Rpass=name]")


def _named(name: str) -> str:
    """A rewrite setting as both programs spell it: ``--max-nodes, ACCSAT_MAX_NODES``."""
    s = by_name(Options)[name]
    return f"{s.flag}, {s.env}"


def kinds(levels: Iterable[str]) -> frozenset[str]:
    """The kinds of remark ``levels`` ask for (``all``: applied and missed)."""
    out: set[str] = set()
    for level in levels:
        out |= {APPLIED, MISSED} if level == ALL else {level}
    return frozenset(out)


def kind(kernel: Mapping[str, Any]) -> str:
    return APPLIED if kernel.get("status") == "rewritten" else MISSED


def where(kernel: Mapping[str, Any]) -> str:
    """``file:line:column`` (``file:line`` where the column is not known)."""
    column = kernel.get("column") or 0
    place = f"{kernel.get('file', '')}:{kernel.get('line', 0)}"
    return f"{place}:{column}" if column > 0 else place


def message(kernel: Mapping[str, Any], fp_note: str = "") -> str:
    """What accsat did to the kernel and why, in one line (``fp_note``: the compile's
    flag that turned the floating-point rules off, said of a variant that has them)."""
    if kind(kernel) == MISSED:
        return f"left as written: {_why(kernel)}"
    variant = kernel.get("variant", "")
    loads, ops = kernel.get("loads") or {}, kernel.get("ops") or {}
    parts = [
        f"loads {loads.get('before', 0)} -> {loads.get('after', 0)}",
        f"ops {ops.get('before', 0)} -> {ops.get('after', 0)}",
    ]
    if kernel.get("fma"):
        parts.append(f"{kernel['fma']} FMA")
    if kernel.get("hoisted"):
        parts.append(f"{kernel['hoisted']} loads above stores they do not alias")
    if kernel.get("promoted"):
        parts.append(f"{kernel['promoted']} locations carried across an inner loop")
    registers = kernel.get("registers")
    if registers:
        parts.append(_registers(registers))
    text = f"rewritten ({variant}): " + ", ".join(parts)
    notes = _budgets(kernel)
    if fp_note and _has_fp_rules(variant):
        notes.append(f"floating-point rules (FMA, reassociation) off for {fp_note}")
    return text + "".join(f"; {n}" for n in notes)


def _why(kernel: Mapping[str, Any]) -> str:
    from .report import NO_GAIN  # (the wrapper imports this module on every call)

    reason = kernel.get("reason") or "no reason recorded"
    if reason == NO_GAIN and kernel.get("no_gain"):
        return f"{NO_GAIN}: {kernel['no_gain']}"
    notes = _budgets(kernel) if reason == NO_GAIN else []
    return reason + "".join(f"; {n}" for n in notes)


def _registers(budget: Mapping[str, Any]) -> str:
    """The register budget's decision (codegen/budget.py's figures, by accsat's model)."""
    allowed = f"{budget.get('setting')}: at most {budget.get('limit')}"
    if budget.get("ptxas_written") is not None:
        allowed += f", ptxas {budget['ptxas_written']} as written"
    if budget.get("bound"):
        allowed += (
            f"; {budget.get('before')} unbudgeted, so at most {budget.get('held')} "
            "shared values held at a time"
        )
    return f"registers {budget.get('written')} -> {budget.get('after')} ({allowed})"


def _budgets(kernel: Mapping[str, Any]) -> list[str]:
    """The time and size limits the kernel's rewrite reached."""
    out = []
    stop = (kernel.get("egraph") or {}).get("stop_reason", "")
    if stop == "node-limit":  # egraph/saturate.py's stop reasons
        out.append(f"saturation stopped at the e-graph's node limit ({_named('max_nodes')})")
    elif stop == "time-limit":
        out.append(f"saturation stopped at its time limit ({_named('saturation_seconds')})")
    if kernel.get("ilp") == "time-limit":  # how the ILP ended (extract.Extraction.ilp)
        out.append(f"the extraction stopped at its time limit ({_named('extract_seconds')})")
    return out


def _has_fp_rules(variant: str) -> bool:
    spec = VARIANTS.get(split_config(variant)[0]) if variant else None
    return spec is not None and spec.fp_changing


def line(kernel: Mapping[str, Any], fp_note: str = "") -> str:
    """The remark of one kernel: ``file:line:column: remark: accsat: message``."""
    return f"{where(kernel)}: {SEVERITY}: {PREFIX}: {message(kernel, fp_note)}"


def lines(
    kernels: Iterable[Mapping[str, Any]], wanted: frozenset[str], fp_note: str = ""
) -> list[str]:
    """The remarks of the kernels of the kinds ``wanted`` (kinds()), in the order given."""
    return [line(k, fp_note) for k in kernels if kind(k) in wanted]
