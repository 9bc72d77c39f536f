"""Register pressure per variant: the static PTX view of ``accsat bench --ptx``, per file.

Each variant's text (the original, and accsat's output for every variant) is
built by gcc with nvptx offloading into a shared object (no ``main`` needed),
``-g -save-temps`` leaving the linked PTX behind; ``toolchain/ptx.py`` reads it
(ptxas registers and spills per entry, the entry's source lines) and each
kernel gets the entry whose lines hold it. Without gcc's nvptx offload
compiler or ptxas this is skipped with a note.

Occupancy (sm_80, the register limit only; docs/advise.md): registers are
allocated per warp in units of 256, a multiprocessor has 65,536 registers and
64 warp slots, a block of ``b`` threads takes ``ceil(b / 32)`` warps and at
most 32 blocks fit:

    regs_per_warp = ceil(registers * 32 / 256) * 256
    warps_by_regs = floor(65536 / regs_per_warp)
    blocks        = min(32, floor(64 / wpb), floor(warps_by_regs / wpb))
    occupancy     = blocks * wpb / 64

with ``wpb`` the block's warps; when the block size is unknown (the default here:
gcc picks it at run time), ``min(64, warps_by_regs) / 64``.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from ..fileio import write_atomically
from ..frontend.load import LoadedFile
from ..occupancy import occupancy
from ..options import ORIG, VARIANTS, Options
from ..pipeline import rewrite_file
from ..toolchain import process
from ..toolchain.compilers import OFFLOAD_LINK_FLAGS, nvptx_offload
from ..toolchain.ptx import analyse, entry_locations, entry_modules, find_ptx
from .analyse import KernelAdvice


def unavailable(compiler: str = "gcc") -> str | None:
    """Why register pressure cannot be had here (None: it can)."""
    if shutil.which(compiler) is None:
        return f"'{compiler}' not found"
    if shutil.which("ptxas") is None:
        return "ptxas not found"
    if not nvptx_offload(compiler):
        return f"'{compiler}' has no nvptx offload compiler (Debian: gcc-12-offload-nvptx)"
    return None


def add_pressure(kernels: list[KernelAdvice], loaded: LoadedFile, options: Options) -> list[str]:
    """Fill each kernel's ``pressure`` (a row per variant); notes on what could not be."""
    why = unavailable()
    if why is not None:
        return [f"register pressure skipped: {why}"]
    path, notes = loaded.path, []
    rows: dict[int, list[dict]] = {k.line: [] for k in kernels}
    for variant in (ORIG, *VARIANTS):
        text = (
            loaded.text
            if variant == ORIG
            else rewrite_file(
                path, replace(options, variant=variant, line_directives=str(path))
            ).text
        )
        entries, error = build_entries(path, text, options, loaded)
        if error:
            notes.append(f"{path}: {variant}: device code not built: {error}")
            continue
        for k in kernels:
            e = entry_for(entries, path, k.line)
            if e is not None:
                rows[k.line].append({"variant": variant, **e})
    for k in kernels:
        k.pressure = flag_losses(rows[k.line])
    return notes


def entry_for(entries: list[dict], path: Path, line: int) -> dict | None:
    """The device entry whose source lines hold ``line`` (the innermost: fewest lines)."""
    inside = [
        e
        for e in entries
        if e["file"] and Path(e["file"]).name == path.name and e["first"] <= line <= e["last"]
    ]
    if not inside:
        return None
    e = min(inside, key=lambda e: e["last"] - e["first"])
    return {k: e[k] for k in ("entry", "registers", "spill_bytes", "occupancy")}


def flag_losses(rows: list[dict]) -> list[dict]:
    """Mark the variants predicted to lose occupancy (or to spill more) against orig."""
    base = next((r for r in rows if r["variant"] == ORIG), None)
    for r in rows:
        r["loses_occupancy"] = (
            base is not None
            and r is not base
            and (r["occupancy"] < base["occupancy"] or r["spill_bytes"] > base["spill_bytes"])
        )
    return rows


def build_entries(
    path: Path, text: str, options: Options, loaded: LoadedFile
) -> tuple[list[dict], str]:
    """Registers, spills and occupancy of every device entry of ``text`` built as
    ``path``; or the reason it did not build."""
    model = (
        "-fopenmp" if all(k.construct.startswith("omp") for k in loaded.kernels) else "-fopenacc"
    )
    with tempfile.TemporaryDirectory(prefix="accsat-pressure-") as tmp:
        work = Path(tmp)
        write_atomically(work / path.name, text)  # undecodable bytes too
        cmd = [
            "gcc",
            "-O3",
            model,
            *OFFLOAD_LINK_FLAGS,
            "-g",
            "-save-temps",
            "-shared",
            "-fPIC",
            *_absolute(options.preprocess.flags),
            "-iquote",
            str(path.resolve().parent),
            path.name,
            "-o",
            "device.so",
        ]
        try:
            done = process.capture(cmd, cwd=work, timeout=600)
        except OSError as exc:
            return [], str(exc)
        if done.timed_out:
            return [], "gcc ran past 600 s"
        raw = find_ptx(work)
        if not done.ok or raw is None:
            last = (done.err.strip().splitlines() or ["no PTX left behind"])[-1]
            return [], last[:300]
        stats = analyse(raw, work)
        locations = {}
        for module in entry_modules(raw):
            locations.update(entry_locations(module))
    out = []
    for name, e in stats.items():
        loc = locations.get(name)
        regs = e.registers or 0
        out.append(
            {
                "entry": name,
                "file": loc.file if loc else None,
                "first": loc.first if loc else 0,
                "last": loc.last if loc else -1,
                "registers": e.registers,
                "spill_bytes": (e.spill_stores or 0) + (e.spill_loads or 0),
                "occupancy": occupancy(regs),
            }
        )
    return out, ""


def _absolute(flags: tuple[str, ...]) -> list[str]:
    """Include folders made absolute: the build runs in a temporary folder."""
    out: list[str] = []
    take_next = False
    for f in flags:
        if take_next:
            out.append(str(Path(f).resolve()))
            take_next = False
        elif f in ("-I", "-iquote", "-isystem", "-include"):
            out.append(f)
            take_next = True
        elif f.startswith("-I") and len(f) > 2:
            out.append("-I" + str(Path(f[2:]).resolve()))
        else:
            out.append(f)
    return out
