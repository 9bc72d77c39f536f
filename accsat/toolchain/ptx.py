"""Static GPU view without a GPU: PTX instruction counts and ptxas resource usage.

gcc's nvptx offload compiler (Debian's gcc-12-offload-nvptx) leaves the linked
device code in ``<binary>.xnvptx-none.mkoffload`` under ``-save-temps``: PTX
modules, each NUL-terminated: the program's own (all its entries), then one
per function taken from the device libraries (newlib's libm when a kernel
calls ``sqrt``, built for an older target). ``ptxas -arch=sm_80 -v`` then
reports registers and spills per entry function of the program's module.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import process

PTXAS_TIMEOUT = 600.0  # seconds for ``ptxas -v`` on one module

_ENTRY = re.compile(r"^\.entry\s+(?P<name>[^\s(]+)")
# a device function's header (its return parameters, if any, before the name)
_FUNC = re.compile(r"^(?:\.(?:visible|extern|weak)\s+)*\.func\s+(?:\([^)]*\)\s*)?(?P<name>[^\s(]+)")
_INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?(?P<op>[a-z][a-z0-9_]*)(?P<suffix>\.[\w.]+)?\b")
_PTXAS_ENTRY = re.compile(r"Compiling entry function '(?P<name>[^']+)'")
_PTXAS_SPILL = re.compile(r"(?P<stores>\d+) bytes spill stores, (?P<loads>\d+) bytes spill loads")
_PTXAS_REGS = re.compile(r"Used (?P<regs>\d+) registers")


@dataclass
class EntryStats:
    """One device entry function (a compute construct)."""

    name: str
    loads: int = 0  # ld.* (global, generic, local...; not ld.param)
    stores: int = 0
    fma: int = 0
    instructions: int = 0
    registers: int | None = None
    spill_stores: int | None = None
    spill_loads: int | None = None
    ops: Counter = field(default_factory=Counter)


def find_ptx(build_dir: Path) -> Path | None:
    """The linked device code gcc left in ``build_dir``, if any."""
    found = sorted(build_dir.glob("*.xnvptx-none.mkoffload"))
    return found[0] if found else None


def modules(raw: Path) -> list[str]:
    """The PTX modules of mkoffload's file, in order."""
    data = raw.read_bytes()
    return [m.decode(errors="replace") for m in data.split(b"\0") if m.strip()]


def entry_modules(raw: Path) -> list[str]:
    """The modules that hold entries (the program's; the libraries' have none)."""
    return [m for m in modules(raw) if _ENTRY_LINE.search(m)]


_ENTRY_LINE = re.compile(r"^\.entry\s", re.M)


def clean_ptx(raw: Path, out: Path) -> Path:
    """A copy ptxas accepts: the first module holding entries (the concatenation of
    every module does not parse: each has its own .version and .target)."""
    found = entry_modules(raw) or modules(raw)[:1]
    out.write_text(found[0] if found else "")
    return out


def count_instructions(ptx: str) -> dict[str, EntryStats]:
    """Instruction counts per ``.entry`` (helper ``.func`` bodies are not counted)."""
    entries: dict[str, EntryStats] = {}
    current: EntryStats | None = None
    depth = 0
    for line in ptx.splitlines():
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        m = _ENTRY.match(text)
        if m and not text.endswith(";"):
            current = entries.setdefault(m.group("name"), EntryStats(m.group("name")))
            depth = 0
            continue
        if _FUNC.match(text) and not text.endswith(";"):
            current, depth = None, 0
            continue
        depth += text.count("{") - text.count("}")
        if current is None or depth <= 0 and text == "}":
            continue
        if text.endswith(":") or text.startswith(".") or text in ("{", "}"):
            continue
        m = _INSTR.match(text)
        if not m:
            continue
        op, suffix = m.group("op"), m.group("suffix") or ""
        current.instructions += 1
        current.ops[op] += 1
        if op == "ld" and not suffix.startswith(".param"):
            current.loads += 1
        elif op == "st" and not suffix.startswith(".param"):
            current.stores += 1
        elif op == "fma":
            current.fma += 1
    return entries


def run_ptxas(ptx: Path, arch: str = "sm_80") -> dict[str, dict[str, int]]:
    """Registers and spill bytes per entry, from ``ptxas -v`` (empty without ptxas).

    A module that calls functions of another (``.extern .func sqrt``, in libm's
    module) is compiled as relocatable code (``-c``): whole-program compilation
    would stop at the unresolved call.
    """
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return {}
    relocatable = ["-c"] if ".extern .func" in ptx.read_text(errors="replace") else []
    done = process.capture(
        [ptxas, f"-arch={arch}", "-v", *relocatable, str(ptx), "-o", "/dev/null"],
        timeout=PTXAS_TIMEOUT,
    )
    out: dict[str, dict[str, int]] = {}
    name = None
    for line in (done.out + done.err).splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            name = m.group("name")
            out[name] = {}
            continue
        if name is None:
            continue
        m = _PTXAS_SPILL.search(line)
        if m:
            out[name]["spill_stores"] = int(m.group("stores"))
            out[name]["spill_loads"] = int(m.group("loads"))
        m = _PTXAS_REGS.search(line)
        if m:
            out[name]["registers"] = int(m.group("regs"))
    return out


def analyse(raw: Path, work: Path) -> dict[str, EntryStats]:
    """Counts and ptxas figures for every entry of one linked device image.

    Each module with entries is written to ``work`` (``<raw>.ptx``, then
    ``<raw>.1.ptx``...) and analysed on its own.
    """
    entries: dict[str, EntryStats] = {}
    for n, text in enumerate(entry_modules(raw)):
        ptx = work / (raw.name + (f".{n}" if n else "") + ".ptx")
        ptx.write_text(text)
        found = count_instructions(text)
        for name, figures in run_ptxas(ptx).items():
            stats = found.setdefault(name, EntryStats(name))
            stats.registers = figures.get("registers")
            stats.spill_stores = figures.get("spill_stores")
            stats.spill_loads = figures.get("spill_loads")
        entries.update(found)
    return entries


# gcc writes each offloaded function's launch dimensions (gang, worker, vector; 0: chosen
# at run time) as ``//:FUNC_MAP "name", g, w, v`` in the PTX it hands mkoffload
# (``<binary>.xnvptx-none.mkoffload.s`` under -save-temps)
_FUNC_MAP = re.compile(
    r'^//:FUNC_MAP "(?P<name>[^"]+)"(?P<dims>(?:,\s*(?:0x)?[0-9a-fA-F]+)*)', re.M
)


def launch_dims(raw: Path) -> dict[str, tuple[int, ...]]:
    """Per entry, its launch dimensions as gcc fixed them (gang, worker, vector)."""
    texts = modules(raw)
    assembly = raw.with_name(raw.name + ".s")
    if assembly.is_file():
        texts.append(assembly.read_text(errors="replace"))
    out: dict[str, tuple[int, ...]] = {}
    for text in texts:
        for m in _FUNC_MAP.finditer(text):
            dims = tuple(int(d.strip(), 0) for d in m.group("dims").split(",") if d.strip())
            out.setdefault(m.group("name"), dims)
    return out


def block_threads(dims: tuple[int, ...] | None) -> int | None:
    """Threads per block of an OpenACC entry: workers x vector length (None when
    either is chosen at run time)."""
    if dims is None or len(dims) < 3 or not dims[1] or not dims[2]:
        return None
    return dims[1] * dims[2]


def source_function(entry: str) -> str:
    """``x_solve$_omp_fn$3`` -> ``x_solve``."""
    return entry.split("$", 1)[0]


# -- back to the source ------------------------------------------------------
#
# With -g, gcc's nvptx backend writes ``.file N "x_solve.c"`` and ``.loc N LINE
# COL`` directives. Within an entry (one compute construct, outlined), most
# .loc lines are the construct's body, and the region's exit is located at
# the directive itself: on NPB-ACC BT every entry's last .loc, and its lowest
# line in its main file, is the ``#pragma acc parallel`` line. Inlined helpers
# can add lines of other files (or far away in the same file), so the
# construct's file is the one most of the entry's .loc lines name, and the
# range is taken in that file only.

_FILE = re.compile(r'^\s*\.file\s+(?P<n>\d+)\s+"(?P<name>[^"]*)"')
_LOC = re.compile(r"^\s*\.loc\s+(?P<n>\d+)\s+(?P<line>\d+)\s+(?P<col>\d+)")


@dataclass(frozen=True)
class Location:
    file: str  # as the compiler was given it (the user's file under accsat-cc)
    line: int  # the compute construct's directive
    first: int  # lowest line of the entry's code in that file
    last: int  # highest


@dataclass
class _Function:
    """One ``.entry`` or ``.func`` of a PTX module: its .loc lines in order, (file, line),
    and the functions it calls by name."""

    entry: bool
    locs: list[tuple[str, int]] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)


# A device function (``acc routine``, ``declare target``, a static helper) is either
# inlined, its lines then among its caller's .loc lines, or a ``.func`` of its own that
# the entry calls: ptxas then counts no registers for it, its registers are the calling
# entry's.  So what an entry's registers answer for is every line of the entry and of the
# functions it calls, directly or not.
_CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?(?P<name>[A-Za-z_$.%][\w$.]*)")


def _functions(ptx: str) -> dict[str, _Function]:
    """The module's entries and functions, their .loc lines naming files by name."""
    files: dict[str, str] = {}
    found: dict[str, _Function] = {}
    current: _Function | None = None
    for line in ptx.splitlines():
        m = _FILE.match(line)
        if m:
            files[m.group("n")] = m.group("name")
            continue
        text = line.strip()
        head = _ENTRY.match(text) or _FUNC.match(text)
        if head and not text.endswith(";"):
            current = found.setdefault(head.group("name"), _Function(text.startswith(".entry")))
            continue
        if current is None:
            continue
        m = _LOC.match(line)
        if m:
            current.locs.append((m.group("n"), int(m.group("line"))))
        elif (c := _CALL.search(text)) is not None:
            current.calls.add(c.group("name"))
    for f in found.values():
        f.locs = [(files.get(n, "?"), ln) for n, ln in f.locs if ln > 0]
    return found


def entry_locations(ptx: str) -> dict[str, Location]:
    """Where each ``.entry`` comes from; entries without .loc lines (no -g) are absent."""
    out: dict[str, Location] = {}
    for name, f in _functions(ptx).items():
        if not f.entry or not f.locs:
            continue
        main = Counter(file for file, _ in f.locs).most_common(1)[0][0]
        lines = [ln for file, ln in f.locs if file == main]
        last_file, last_line = f.locs[-1]
        directive = last_line if last_file == main else min(lines)
        out[name] = Location(main, directive, min(lines), max(lines))
    return out


def reached_lines(ptx: str) -> dict[str, frozenset[tuple[str, int]]]:
    """Each ``.entry``'s source lines, (file, line), with those of every ``.func`` it
    calls, directly or through other functions."""
    found = _functions(ptx)
    out = {}
    for name in (n for n, f in found.items() if f.entry):
        seen, todo = {name}, [name]
        while todo:
            for callee in found[todo.pop()].calls:
                if callee in found and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        out[name] = frozenset(loc for f in seen for loc in found[f].locs)
    return out


# -- one translation unit's device code (accsat-cc's checked register budget) --------------


@dataclass(frozen=True)
class Entry:
    """A device entry of one build: ptxas's registers and spills, its block size where
    gcc fixed it, and the lines of the source it was compiled from."""

    name: str
    registers: int | None
    spill: int
    block: int | None
    location: Location | None
    loads: int = 0  # ld instructions, as EntryStats counts them
    instructions: int = 0
    # the lines of the location's file its code comes from, its called functions' included
    # (reached_lines: a device function's registers are its callers')
    reached: frozenset[int] = frozenset()


def entries(raw: Path, work: Path) -> list[Entry]:
    """Every entry of the linked device image ``raw`` (``find_ptx``)."""
    stats = analyse(raw, work)
    dims = launch_dims(raw)
    where: dict[str, Location] = {}
    reached: dict[str, frozenset[tuple[str, int]]] = {}
    for module in entry_modules(raw):
        where.update(entry_locations(module))
        reached.update(reached_lines(module))
    return [
        Entry(
            name,
            e.registers,
            (e.spill_stores or 0) + (e.spill_loads or 0),
            block_threads(dims.get(name)),
            where.get(name),
            e.loads,
            e.instructions,
            _lines_in(reached.get(name, frozenset()), where.get(name)),
        )
        for name, e in stats.items()
    ]


def _lines_in(reached: frozenset[tuple[str, int]], location: Location | None) -> frozenset[int]:
    if location is None:
        return frozenset()
    return frozenset(line for file, line in reached if file == location.file)


# the user's flags that do not belong in a probe: what it makes, and where; and a host
# build's "no device code" (the probe exists to build it: accsat tune --static)
_NO_VALUE = frozenset(
    {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-shared", "-static", "-foffload=disable"}
)
_WITH_VALUE = frozenset({"-o", "-MF", "-MT", "-MQ"})


def probe_command(compiler: list[str], args: list[str], sources: set[int]) -> list[str]:
    """The user's compile as a probe: its own flags (optimisation, defines, the model),
    without outputs, dependency files and the sources at ``sources`` (indices in
    ``args``); the caller appends the source to probe and the output."""
    out: list[str] = []
    skip = False
    for n, a in enumerate(args):
        if skip:
            skip = False
        elif n in sources or a in _NO_VALUE or a.startswith("-save-temps"):
            pass
        elif a in _WITH_VALUE:
            skip = True
        elif not any(a.startswith(w) for w in _WITH_VALUE if w != "-o"):
            out.append(a)
    return [*compiler, *out]


def check_command(compiler: list[str], args: list[str], sources: set[int]) -> tuple[str, ...]:
    """The user's compile as a check of syntax and types (verify/typecheck.py): the
    probe's command (its flags, without outputs, dependency files and the sources at
    ``sources``), less what turns a warning into an error (a type probe warns: only its
    assertions may fail). The caller adds the check's flags and the source."""
    out = probe_command(compiler, args, sources)
    return tuple(a for a in out if not a.startswith(("-Werror", "-pedantic-errors")))


PROBE_TIMEOUT = 600.0


def probe(command: list[str], source: Path, work: Path) -> list[Entry] | None:
    """Build ``source`` alone into a shared object with gcc's nvptx offloading (``-g
    -save-temps``, its files in ``work``, run in the current folder as the user's
    compile is) and read its device entries: [] when it has none, None when it does not
    build. A shared object leaves the translation unit's other symbols unresolved,
    and links it: gcc compiles the device code (mkoffload) only when it links."""
    from .compilers import OFFLOAD_LINK_FLAGS

    out = work / "probe.so"
    done = process.capture(
        [
            *command,
            *OFFLOAD_LINK_FLAGS,
            "-g",
            "-shared",
            "-fPIC",
            "-save-temps=obj",
            str(source.resolve()),
            "-o",
            str(out.resolve()),
        ],
        timeout=PROBE_TIMEOUT,  # in the caller's folder: the user's relative -I, @file
    )
    if not done.ok:
        return None
    raw = find_ptx(work)
    return [] if raw is None else entries(raw, work)


@lru_cache(maxsize=1)
def ptxas_version() -> str:
    """``ptxas --version``'s last line ('' without ptxas)."""
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return ""
    try:
        done = process.capture([ptxas, "--version"], timeout=60)
    except OSError:
        return ""
    lines = done.out.strip().splitlines()
    return lines[-1] if lines else ""
