"""``ACCSAT_PROFILE=PATH``: per-construct launches and seconds, measured by the program.

accsat-cc puts a timer around each compute construct of the text it hands
the compiler (rewritten or not, OpenACC or OpenMP)::

    { double __accsat_t0 = __accsat_now();
    #line 41 "file.c"
    #pragma acc parallel loop ...
    for (...) { ... } __accsat_record(3, __accsat_t0); }

The directive stays right before its statement and every line keeps its
number (the one line added is followed by a ``#line``). A small runtime is
declared at the top of the translation unit and defined at its end, without
including any header (declarations under asm labels, so that a user's own
declarations and feature-test macros are not disturbed): ``clock_gettime
(CLOCK_MONOTONIC)``, relaxed atomic counters (constructs may be reached from
several threads), and a destructor that appends one JSON line per construct
to ``$ACCSAT_PROFILE`` when the program runs with it set, else to the PATH the
build had: all the lines of a translation unit in one ``write`` to a file
opened with ``O_APPEND``, under ``flock``, so processes and repeated runs
append whole lines. Linux (the constants of open and flock, the symbol names).

Per construct and run it writes the launches, their seconds summed, and the
shortest launch's seconds (``fastest``): the tuner compares kernels by that
one, since a busy machine lengthens some launches and never shortens one.

A construct with ``async`` or ``nowait`` returns before its work is done:
its launches are counted, its time is ``null``. One that no timer can be put
around (see ``constructs.Construct.skip``) is listed with ``null`` launches.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import ccconfig
from . import constructs
from .constructs import Construct, LineMap, kernel_id

TIMED, UNTIMED, NOT_INSTRUMENTED = 0, 1, 2


def _line_directive(line: int, name: str) -> str:
    from ..codegen.splice import line_directive  # the one spelling of #line

    return line_directive(line, name)


def instrument(
    text: str,
    original: str,
    file_id: str,
    line_name: str,
    profile_path: str,
    rewritten: frozenset[int] = frozenset(),
) -> tuple[str, str | None]:
    """``text`` (what would be compiled: the original or accsat's rewrite of it, starting
    with ``#line 1``) with a timer around each construct of ``original``, and a warning
    when the two disagree on the constructs (then none is timed, all are listed).
    ``rewritten``: the lines of the kernels accsat rewrote; a construct with none of them
    is orig's code in this build too, and its lines say so."""
    ours = constructs.find(original)
    if not ours:
        return text, None
    theirs = constructs.find(text)
    warning = None
    if [c.name for c in theirs] != [c.name for c in ours]:
        theirs = []
        warning = (
            f"{line_name}: the constructs of the rewritten text differ from the "
            "original's; listed in the profile, not timed"
        )
    states = [_state(c, theirs[n] if theirs else None) for n, c in enumerate(ours)]
    lines = LineMap(text, line_name)
    inserts: list[tuple[int, str]] = []
    for n, c in enumerate(theirs):
        if states[n] == NOT_INSTRUMENTED:
            continue
        line_start = text.rfind("\n", 0, c.start) + 1
        logical, name = lines.at(c.start)
        inserts.append(
            (
                line_start,
                "{ double __accsat_t0 = __accsat_now();\n" + _line_directive(logical, name),
            )
        )
        inserts.append((c.end, f" __accsat_record({n}, __accsat_t0); }}"))
    out, pos = [DECLARATIONS], 0
    for at, piece in sorted(inserts, key=lambda p: p[0]):
        out += [text[pos:at], piece]
        pos = at
    changed = [any(c.line <= n <= c.last_line for n in rewritten) for c in ours]
    out += [text[pos:], "\n", runtime(ours, states, changed, file_id, profile_path)]
    return "".join(out), warning


def _state(ours: Construct, theirs: Construct | None) -> int:
    if theirs is None or ours.skip or theirs.skip:
        return NOT_INSTRUMENTED
    return UNTIMED if ours.untimed else TIMED


DECLARATIONS = """\
static double __accsat_now(void) __attribute__((unused));
static void __accsat_record(int, double) __attribute__((unused));
"""

_RUNTIME = r"""
#line 1 "<accsat profile runtime>"
#ifndef __USER_LABEL_PREFIX__
#define __USER_LABEL_PREFIX__
#endif
#define __ACCSAT_S2(x) #x
#define __ACCSAT_S(x) __ACCSAT_S2(x)
#define __ACCSAT_SYM(name) __asm__(__ACCSAT_S(__USER_LABEL_PREFIX__) #name)
struct __accsat_ts { long s; long ns; };
extern int __accsat_clock_gettime(int, struct __accsat_ts *) __ACCSAT_SYM(clock_gettime);
extern char *__accsat_getenv(const char *) __ACCSAT_SYM(getenv);
extern int __accsat_open(const char *, int, ...) __ACCSAT_SYM(open);
extern int __accsat_flock(int, int) __ACCSAT_SYM(flock);
extern long __accsat_write(int, const void *, unsigned long) __ACCSAT_SYM(write);
extern int __accsat_close(int) __ACCSAT_SYM(close);
extern int __accsat_getpid(void) __ACCSAT_SYM(getpid);
extern int __accsat_snprintf(char *, unsigned long, const char *, ...) __ACCSAT_SYM(snprintf);
static const char *const __accsat_ids[@N@] = {
@IDS@
};
static const unsigned char __accsat_state[@N@] = { @STATES@ };
static unsigned long long __accsat_launches[@N@];
static unsigned long long __accsat_nanoseconds[@N@];
static unsigned long long __accsat_fastest[@N@]; /* 1 + the shortest launch's ns; 0: none */
static char __accsat_buffer[@BUFFER@];

static double __accsat_now(void)
{
  struct __accsat_ts t;
  __accsat_clock_gettime(1 /* CLOCK_MONOTONIC */, &t);
  return (double)t.s + 1e-9 * (double)t.ns;
}

static void __accsat_record(int k, double t0)
{
  double dt = __accsat_now() - t0;
  unsigned long long ns = (unsigned long long)(dt * 1e9 + 0.5);
  unsigned long long seen = __atomic_load_n(&__accsat_fastest[k], __ATOMIC_RELAXED);
  __atomic_fetch_add(&__accsat_launches[k], 1ULL, __ATOMIC_RELAXED);
  __atomic_fetch_add(&__accsat_nanoseconds[k], ns, __ATOMIC_RELAXED);
  while ((seen == 0 || ns + 1 < seen)
         && !__atomic_compare_exchange_n(&__accsat_fastest[k], &seen, ns + 1, 1,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

__attribute__((destructor)) static void __accsat_write_profile(void)
{
  const char *path = __accsat_getenv(@VARIABLE@);
  unsigned long used = 0;
  int k, n, fd, pid = __accsat_getpid();
  if (path == 0 || *path == 0)
    path = @PATH@;
  for (k = 0; k < @N@; k++) {
    char launches[24] = "null", seconds[32] = "null", fastest[32] = "null";
    if (__accsat_state[k] != 2)
      __accsat_snprintf(launches, sizeof launches, "%llu", __accsat_launches[k]);
    if (__accsat_state[k] == 0)
      __accsat_snprintf(seconds, sizeof seconds, "%.9f", 1e-9 * __accsat_nanoseconds[k]);
    if (__accsat_state[k] == 0 && __accsat_fastest[k] != 0)
      __accsat_snprintf(fastest, sizeof fastest, "%.9f", 1e-9 * (__accsat_fastest[k] - 1));
    n = __accsat_snprintf(__accsat_buffer + used, sizeof __accsat_buffer - used,
                          "%s,\"launches\":%s,\"seconds\":%s,\"fastest\":%s,\"pid\":%d}\n",
                          __accsat_ids[k], launches, seconds, fastest, pid);
    if (n < 0 || used + n >= sizeof __accsat_buffer)
      break; /* never half a line */
    used += n;
  }
  fd = __accsat_open(path, 02101 /* O_WRONLY | O_CREAT | O_APPEND */, 0666);
  if (fd < 0)
    return;
  __accsat_flock(fd, 2 /* LOCK_EX */);
  __accsat_write(fd, __accsat_buffer, used);
  __accsat_close(fd);
}
"""


def runtime(
    found: list[Construct], states: list[int], changed: list[bool], file_id: str, path: str
) -> str:
    """The runtime's definitions for one translation unit (its table of constructs)."""
    ids = [_id_prefix(c, s, ch, file_id) for c, s, ch in zip(found, states, changed, strict=True)]
    # each line: the prefix, three numbers, a pid and punctuation
    buffer = sum(len(i) + 128 for i in ids) + 1
    return (
        _RUNTIME.replace("@N@", str(len(found)))
        .replace("@IDS@", ",\n".join(f"  {_c_string(i)}" for i in ids))
        .replace("@STATES@", ", ".join(map(str, states)))
        .replace("@BUFFER@", str(buffer))
        .replace("@PATH@", _c_string(path))
        .replace("@VARIABLE@", _c_string(ccconfig.env("profile")))
    )


def _id_prefix(c: Construct, state: int, changed: bool, file_id: str) -> str:
    fields = {
        "kernel": kernel_id(file_id, c.line),
        "file": file_id,
        "line": c.line,
        "hash": c.hash,
        "construct": c.name,
        "rewritten": changed,
        "timed": state == TIMED,
    }
    why = c.skip or c.untimed
    if state != TIMED and why:
        fields["why"] = why
    return json.dumps(fields, separators=(",", ":"))[:-1]  # the runtime closes the object


def _c_string(text: str) -> str:
    """A C string literal of ``text`` (octal escapes for everything but plain ASCII)."""
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        ch = chr(b)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= b < 127 and ch != "?":  # "?" never starts a trigraph here
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


# -- reading what the runs wrote -------------------------------------------------------


PER_RUN = ("launches", "seconds", "fastest")  # a row's numbers, one entry per run


@dataclass
class KernelTime:
    """One construct in one run: launches and seconds summed over the processes."""

    kernel: str
    file: str
    line: int
    hash: str
    construct: str
    timed: bool
    why: str = ""
    rewritten: bool = True  # whether accsat rewrote a kernel of it in this build
    launches: int | float | None = 0
    seconds: float | None = 0.0
    fastest: float | None = None  # the shortest launch's seconds (of every process)


def read(path: Path) -> tuple[dict[tuple[str, int, str], KernelTime], int]:
    """What one run wrote, per construct (file, line, hash), summed over its processes
    (and over copies of one file linked twice); and how many lines were not understood."""
    found: dict[tuple[str, int, str], KernelTime] = {}
    bad = 0
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return found, 0
    for raw in text.splitlines():
        try:
            rec = json.loads(raw)
            key = (str(rec["file"]), int(rec["line"]), str(rec["hash"]))
        except (ValueError, KeyError, TypeError):
            bad += 1
            continue
        k = found.get(key)
        if k is None:
            k = found[key] = KernelTime(
                str(rec.get("kernel", kernel_id(key[0], key[1]))),
                *key,
                str(rec.get("construct", "")),
                bool(rec.get("timed")),
                str(rec.get("why", "")),
                rec.get("rewritten") is not False,
            )
        k.launches = _add(k.launches, rec.get("launches"))
        k.seconds = _add(k.seconds, rec.get("seconds") if k.timed else None)
        k.fastest = _least(k.fastest, rec.get("fastest") if k.timed else None)
    return found, bad


def _add(total, value) -> int | float | None:
    if total is None or not _number(value):
        return None
    return total + value


def _least(best: float | None, value) -> float | None:
    if not _number(value):
        return best
    return value if best is None else min(best, value)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def rows(found: dict[tuple[str, int, str], KernelTime]) -> list[dict]:
    """One run's constructs, the shape results keep: the numbers (``PER_RUN``) as
    one-entry lists, so that the rows of several runs concatenate (``concat``)."""
    out = []
    for k in found.values():
        row = asdict(k)
        row.update({name: [row[name]] for name in PER_RUN})
        out.append(row)
    return sorted(out, key=lambda r: (r["file"], r["line"]))


def concat(runs: list[list[dict]], rounds: list[int] | None = None) -> list[dict]:
    """The rows of several runs as one row per construct: each of ``PER_RUN`` one entry
    per run (None where a run has no line for it). ``rounds``: how many entries each
    run's rows hold (tables already concatenated: rounds of their own, kept in order);
    one each by default."""
    sizes = rounds if rounds is not None else [1] * len(runs)
    starts = [sum(sizes[:n]) for n in range(len(sizes))]
    table: dict[tuple, dict] = {}
    for run, start, size in zip(runs, starts, sizes, strict=True):
        for r in run:
            row = table.setdefault(
                (r["file"], r["line"], r["hash"]),
                {**r, **{name: [None] * sum(sizes) for name in PER_RUN}},
            )
            for name in PER_RUN:
                mine = list(r.get(name) or [None] * size)
                if len(mine) != size:
                    raise ValueError(f"{r['file']}:{r['line']}: {len(mine)} {name}, {size} rounds")
                row[name][start : start + size] = mine
    return sorted(table.values(), key=lambda r: (r["file"], r["line"]))
