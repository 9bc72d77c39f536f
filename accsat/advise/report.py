"""What ``accsat advise`` prints: a table per kernel, or the JSON document.

JSON (docs/advise.md): ``{"accesses": [...], "neighbours": [...], "kernels": [...],
"notes": [...]}``; each access and group carries ``stage``: "written" (the code
as the user wrote it) or "rewritten" (as accsat prints it).
"""

from __future__ import annotations

from collections import Counter

from .analyse import AccessRecord, KernelAdvice
from .files import FileAdvice
from .neighbours import Group
from .strides import CLASSES

STAGES = ("written", "rewritten")


def access_dict(rec: AccessRecord, stage: str, kernel: KernelAdvice) -> dict:
    return {
        "file": rec.file,
        "line": rec.line,
        "kernel_line": rec.kernel_line,
        "array": rec.array,
        "access": rec.kind,
        "index": rec.index,
        "thread_stride": rec.thread_stride,
        "class": rec.cls,
        "lines_per_warp": rec.lines_per_warp,
        "stage": stage,
        "thread_index": kernel.thread.var,
        "element_bytes": rec.size,
        "loop": rec.loop,
        "hint": rec.hint,
    }


def group_dict(g: Group, stage: str, kernel: KernelAdvice) -> dict:
    first = g.members[0]
    return {
        "file": first.file,
        "kernel_line": kernel.line,
        "array": first.array,
        "offsets": g.offsets,
        "loads": g.loads,
        "loads_shared": g.loads_shared,
        "along": g.along,
        "index": g.var,
        "halo": g.halo,
        "stage": stage,
        "line": first.line,
        "stored": g.stored,
    }


def kernel_dict(k: KernelAdvice) -> dict:
    return {
        "file": k.file,
        "line": k.line,
        "function": k.function,
        "construct": k.construct,
        "thread_index": k.thread.as_dict(),
        "not_analysed": {s: st.reason for s, st in k.stages.items() if st.reason},
        "pressure": k.pressure,
    }


def notes(files: list[FileAdvice]) -> list[str]:
    """Every file's notes, each said once (register pressure skipped, ...)."""
    return list(dict.fromkeys(n for f in files for n in f.notes))


def document(files: list[FileAdvice]) -> dict:
    accesses, neighbours, kernels = [], [], []
    for f in files:
        for k in f.kernels:
            kernels.append(kernel_dict(k))
            for stage, st in k.stages.items():
                accesses += [access_dict(r, stage, k) for r in st.accesses]
                neighbours += [group_dict(g, stage, k) for g in st.groups]
    return {
        "accesses": accesses,
        "neighbours": neighbours,
        "kernels": kernels,
        "notes": notes(files),
    }


def counts(files: list[FileAdvice], stage: str = "written") -> dict[str, int]:
    """Accesses by class, neighbour groups by direction, kernels analysed or not."""
    keys = ("kernels", "not_analysed", *CLASSES, "groups_thread", "groups_loop")
    c: Counter = Counter({name: 0 for name in keys})
    for f in files:
        for k in f.kernels:
            st = k.stages.get(stage)
            c["kernels"] += 1
            if st is None or st.reason:
                c["not_analysed"] += 1
                continue
            c.update(r.cls for r in st.accesses)
            c.update(f"groups_{g.along}" for g in st.groups)
    return dict(c)


# -- the table -----------------------------------------------------------------------


def table(files: list[FileAdvice]) -> str:
    out: list[str] = []
    for f in files:
        for k in f.kernels:
            out += _kernel_lines(k)
        if not f.kernels:
            out.append(f"{f.path}: no OpenACC/OpenMP compute constructs")
    out += [f"note: {n}" for n in notes(files)]
    return "\n".join(out) + ("\n" if out else "")


def _kernel_lines(k: KernelAdvice) -> list[str]:
    t = k.thread
    index = f"thread index {t.var} (step {t.step})" if t.var else "no thread index"
    out = [f"== {k.file}:{k.line} {k.function}() #pragma {k.construct}: {index}: {t.rule}"]
    if t.ambiguous:
        out.append(f"   ambiguous: {t.ambiguous}")
    written = k.stages.get("written")
    if written is None or written.reason:
        out.append(f"   not analysed: {written.reason if written else 'no body'}")
        return out + [""]
    out.append(
        f"   {'line':>5}  {'access':6} {'array':10} {'index':24} {'class':12} "
        f"{'stride':>7} {'lines':>5}"
    )
    for rec, n in _merged(written.accesses):
        stride = "?" if rec.thread_stride is None else str(rec.thread_stride)
        lines = "?" if rec.lines_per_warp is None else str(rec.lines_per_warp)
        times = f" x{n}" if n > 1 else ""
        out.append(
            f"   {rec.line:>5}  {rec.kind:6} {rec.array:10} {rec.index:24} "
            f"{rec.cls:12} {stride:>7} {lines:>5}{times}"
        )
    out += [f"   neighbours: {_group_text(g)}" for g in written.groups]
    out.append(f"   as written: {_stage_summary(written)}")
    rewritten = k.stages.get("rewritten")
    if rewritten is not None:
        out.append(f"   rewritten: {_stage_summary(rewritten)}")
    out += [f"   hint: {h}" for h in _hints(written.accesses)]
    for p in k.pressure:
        flag = "  <- predicted to lose occupancy" if p.get("loses_occupancy") else ""
        out.append(
            f"   registers {p['variant']:9} {p['registers']!s:>4} regs, "
            f"{p['spill_bytes']} B spilled, occupancy {p['occupancy']:.2f}{flag}"
        )
    return out + [""]


def _hints(records: list[AccessRecord]) -> list[str]:
    """One line per distinct hint, naming the first access and how many more share it."""
    by_hint: dict[str, list[AccessRecord]] = {}
    for r in records:
        if r.hint:
            by_hint.setdefault(r.hint, []).append(r)
    out = []
    for hint, recs in by_hint.items():
        names = list(dict.fromkeys(r.array + r.index for r in recs))
        more = f" and {len(names) - 1} more" if len(names) > 1 else ""
        lines = sorted({r.line for r in recs})
        where = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
        out.append(f"{names[0]}{more} ({where}): {hint}")
    return out


def _merged(records: list[AccessRecord]) -> list[tuple[AccessRecord, int]]:
    """Identical accesses on one line shown once, with a count; in line order."""
    seen: dict[tuple, list] = {}
    for r in sorted(records, key=lambda r: r.line):
        key = (r.line, r.kind, r.array, r.index)
        if key in seen:
            seen[key][1] += 1
        else:
            seen[key] = [r, 1]
    return [(r, n) for r, n in seen.values()]


def _group_text(g: Group) -> str:
    first = g.members[0]
    offsets = ",".join(f"{o:+d}" if o else "0" for o in g.offsets)
    where = "lanes" if g.along == "thread" else "iterations"
    if g.along == "thread":
        shared = (
            f"{g.loads_shared:g} with warp shuffles or a register cache (halo {g.halo} per warp)"
        )
    else:
        shared = (
            f"{g.loads_shared:g} if carried in {g.span} rotating registers "
            f"({g.halo} loaded before the loop)"
        )
    stored = "; the array is also stored here" if g.stored else ""
    texts = list(dict.fromkeys(m.array + m.index for m in g.members))
    named = ", ".join(texts[:4]) + (", ..." if len(texts) > 4 else "")
    return (
        f"{named} (line {first.line}): offsets {offsets} along the {where} of {g.var}: "
        f"{g.loads} loads -> {shared}{stored}"
    )


def _stage_summary(st) -> str:
    if st.reason:
        return f"not analysed: {st.reason}"
    loads = sum(r.kind == "load" for r in st.accesses)
    stores = len(st.accesses) - loads
    by = Counter(r.cls for r in st.accesses)
    classes = ", ".join(f"{c} {by[c]}" for c in CLASSES if by[c])
    return f"{loads} loads, {stores} stores ({classes}); {len(st.groups)} neighbour groups"
