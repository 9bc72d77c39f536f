"""The compiler confirms the C types accsat gave what it printed.

accsat's SSA, rules, printer, re-read proof and interpreter all share one model of C's
types (``frontend/ctypes.py``). Where that model is wrong (an enum taken for ``int``,
an attribute dropped) all of them agree and the printed program is wrong. So the
types are checked by the user's own compiler, with the user's flags: every rewritten
kernel of a file is printed once more as a *probe* (the same body with one
``_Static_assert`` per expression it prints, ``codegen/probe.py``); the probes are put
in a copy of the file in place of the bodies and compiled once, ``-fsyntax-only``. A
kernel with a failed assertion is kept as written, the expression and both types in
its reason. A compile that fails for another reason than a probe's own lines (the file
itself does not compile so, an unknown compiler) leaves the file unchecked and says
why in the report: accsat then trusts its model.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..codegen.probe import MARK, Check, Probe, shown, subject
from ..codegen.splice import Replacement, splice
from ..toolchain import process
from ..toolchain.compilers import family_of

TIMEOUT = 300.0  # seconds a probe's compile may take
# the flags that make a compile check syntax and types only, per compiler family
SYNTAX_ONLY = {"gcc": ("-fsyntax-only",), "clang": ("-fsyntax-only",), "other": ("-fsyntax-only",)}
_FAILED = re.compile(r"accsat:(\d+):(\d+)\b")
_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error:\s*(?P<msg>.*)$")


@dataclass
class Outcome:
    """What the compiler said of a file's probes."""

    compiler: str
    checks: int = 0
    seconds: float = 0.0
    # kernel index -> (expression, accsat's type, the compiler's or "") of each failed check
    failed: dict[int, list[tuple[str, str, str]]] = field(default_factory=dict)
    # kernel -> what each failed assertion took the type of (codegen/probe.py subject)
    asked: dict[int, list[tuple[str, str] | None]] = field(default_factory=dict)
    broken: dict[int, str] = field(default_factory=dict)  # kernel -> an error in its probe
    unavailable: str = ""  # why nothing could be checked

    def reason(self, index: int) -> str:
        """Why kernel ``index`` is kept as written ("" when its types are confirmed)."""
        if index in self.broken:
            return (
                f"internal: the compiler cannot read the check of its types: {self.broken[index]}"
            )
        bad = self.failed.get(index)
        if not bad:
            return ""
        text, ours, theirs = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        return (
            f"internal: {self.compiler} gives '{text}' the type {theirs or 'another type'} "
            f"where accsat's model says {ours}{more}, kept as written"
        )

    def record(self, index: int, checks: int) -> dict:
        """The report's ``typecheck`` of kernel ``index`` (``checks`` assertions)."""
        if self.unavailable:
            result = f"unavailable: {self.unavailable}"
        elif index in self.broken or index in self.failed:
            result = "disagrees"
        else:
            result = "agrees"
        return {"compiler": self.compiler, "checks": checks, "result": result}


def run(
    command: Sequence[str],
    original: Path,
    text: str,
    probes: dict[int, tuple[Replacement, Probe]],
) -> Outcome:
    """Compile ``text`` (the file ``original``) with each kernel's probe in place of its
    body, with ``command`` (``toolchain.compilers.check_command``'s); what failed, by
    kernel index."""
    with checking(command, original, text, probes) as outcome:
        return outcome()


@contextlib.contextmanager
def checking(
    command: Sequence[str],
    original: Path,
    text: str,
    probes: dict[int, tuple[Replacement, Probe]],
) -> Iterator[Callable[[], Outcome]]:
    """``run``'s compile started, while the caller does other work: the context gives
    what waits for the outcome (``Outcome.seconds``: the caller's time it took)."""
    start = time.perf_counter()
    family = family_of(command[0])[0]
    outcome = Outcome(os.path.basename(command[0]))
    outcome.checks = sum(len(p.checks) for _, p in probes.values())
    if family not in SYNTAX_ONLY:
        outcome.unavailable = f"no syntax-only compile known for {command[0]}"
        yield lambda: outcome
        return
    order = sorted(probes, key=lambda i: probes[i][0].start)
    pieces = [_numbered(i, *probes[i]) for i in order]
    probe_text = splice(text, pieces)
    spans = _spans(text, pieces, order)
    with tempfile.TemporaryDirectory(prefix="accsat-types-") as tmp:
        path = Path(tmp) / original.name
        cmd = [*command, *SYNTAX_ONLY[family], "-iquote", str(original.resolve().parent), str(path)]
        with _compiling([*cmd[:-1], "-w", cmd[-1]], path, probe_text, outcome) as compiled:
            setup, within = time.perf_counter() - start, [True]

            @functools.cache  # (read once)
            def finished() -> Outcome:
                if not within[0]:  # (its files are gone, which the second compile needs)
                    raise RuntimeError("typecheck.checking: the outcome is read in its context")
                waited = time.perf_counter()
                _verdicts(compiled(), cmd, path, probe_text, spans, probes, outcome)
                # the time the caller spent on it (not the compile's, which ran beside)
                outcome.seconds = setup + time.perf_counter() - waited
                return outcome

            try:
                yield finished
            finally:
                within[0] = False


def _verdicts(
    done: process.Captured | None,
    cmd: list[str],
    path: Path,
    probe_text: str,
    spans: list[tuple[int, int, int]],
    probes: dict[int, tuple[Replacement, Probe]],
    outcome: Outcome,
) -> None:
    """What the compile of ``probe_text`` (``done``; None: it could not run) says of each
    probe, into ``outcome``; the compiler's own types of the failed ones by a second
    compile of ``path``."""
    if done is None:
        return
    _read(done.err, path.name, spans, probes, outcome)
    if not done.ok and not (outcome.failed or outcome.broken or outcome.unavailable):
        # it failed, and said nothing we read as an error: nothing is confirmed
        first = done.err.strip().splitlines()[:1] or [f"exit status {done.returncode}"]
        outcome.unavailable = first[0]
    if outcome.failed:
        _their_types(cmd, path, probe_text, probes, outcome)


def _numbered(index: int, r: Replacement, probe: Probe) -> Replacement:
    """Kernel ``index``'s probe in place of its body, its assertions numbered index:k."""
    return Replacement(r.start, r.end, probe.body.replace(MARK, f"{MARK}{index}:"), r.last_line)


def _spans(text: str, pieces: list[Replacement], indices: list[int]) -> list[tuple[int, int, int]]:
    """(first line, last line, kernel index) of each probe body in the spliced text."""
    out, pos, line = [], 0, 1
    for piece, index in zip(pieces, indices, strict=True):
        line += text.count("\n", pos, piece.start)
        first = line
        line += piece.text.count("\n")
        out.append((first, line, index))
        pos = piece.end
    return out


def _compile(cmd: list[str], path: Path, text: str, outcome: Outcome) -> process.Captured | None:
    """``text`` written to ``path`` and compiled with ``cmd`` (None when the compiler
    could not run to the end: ``outcome.unavailable`` says why)."""
    with _compiling(cmd, path, text, outcome) as compiled:
        return compiled()


@contextlib.contextmanager
def _compiling(
    cmd: list[str], path: Path, text: str, outcome: Outcome
) -> Iterator[Callable[[], process.Captured | None]]:
    """``_compile`` started: the context gives what waits for its result."""
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with contextlib.ExitStack() as stack:
        result = None
        try:
            env = dict(os.environ, LC_ALL="C")
            result = stack.enter_context(process.started(cmd, timeout=TIMEOUT, env=env))
        except OSError as exc:
            outcome.unavailable = f"cannot run {cmd[0]}: {exc.strerror or exc}"
        if result is None:
            yield lambda: None
            return

        def compiled() -> process.Captured | None:
            done = result()
            if done.timed_out:
                outcome.unavailable = f"{cmd[0]} ran past {TIMEOUT:g} s"
                return None
            return done

        yield compiled


def _read(
    stderr: str,
    probe_name: str,
    spans: list[tuple[int, int, int]],
    probes: dict[int, tuple[Replacement, Probe]],
    outcome: Outcome,
) -> None:
    """The failed assertions and the other errors of the compile, by kernel."""
    found: dict[int, list[Check]] = {}
    for line in stderr.splitlines():
        m = _ERROR.match(line)
        if m is None:
            continue
        failed = _FAILED.search(m["msg"])
        if failed is not None and int(failed[1]) in probes:
            index, number = int(failed[1]), int(failed[2])
            found.setdefault(index, []).append(probes[index][1].checks[number])
            continue
        here = int(m["line"]) if os.path.basename(m["file"]) == probe_name else 0
        inside = next((k for first, last, k in spans if first <= here <= last), None)
        if inside is not None:
            outcome.broken.setdefault(inside, m["msg"].strip())
        elif not outcome.unavailable:
            outcome.unavailable = f"{m['file']}:{m['line']}: {m['msg'].strip()}"
    for index, checks in found.items():
        # the user's own expressions first, the smallest (the cause) first among them
        checks.sort(key=lambda c: (not c.written, len(c.text)))
        outcome.failed[index] = [(*shown(c), "") for c in checks]
        outcome.asked[index] = [subject(c.text, c.ctype) for c in checks]
    if outcome.unavailable:  # the file itself does not compile so: nothing is confirmed
        outcome.failed.clear()
        outcome.broken.clear()


# gcc: "initialization of 'T *' from incompatible pointer type 'struct __accsat_type_i_k *'";
# clang: "incompatible pointer types initializing 'T *' with an expression of type 'struct ...'"
_THEIRS = re.compile(r"'([^']*?) ?\*'[^']*'struct __accsat_type_(\d+)_(\d+) \*'")


def _their_types(
    cmd: list[str],
    path: Path,
    probe_text: str,
    probes: dict[int, tuple[Replacement, Probe]],
    outcome: Outcome,
) -> None:
    """The compiler's own type of each failed check, for the reason: asked once more, in
    a second compile, through a pointer to it initialised from an incompatible one (the
    diagnostic names both). Best effort: what is not found stays ""."""
    text = probe_text
    for index in outcome.failed:
        at = text.find(f"{MARK}{index}:")
        if at < 0:
            continue
        at = text.rfind("\n", 0, at) + 1  # the line of its first assertion: all in scope
        questions = []
        for k, asked in enumerate(outcome.asked.get(index, ())):
            if asked is not None:  # what the assertion took the type of
                questions.append(
                    f"__typeof__({asked[0]}) *__accsat_ask_{index}_{k} = "
                    f"(struct __accsat_type_{index}_{k} *)0;\n"
                )
        text = text[:at] + "".join(questions) + text[at:]
    done = _compile(cmd, path, text, Outcome(outcome.compiler))
    for m in _THEIRS.finditer(done.err if done is not None else ""):
        bad = outcome.failed.get(int(m[2]))
        k = int(m[3])
        if bad is not None and k < len(bad):
            bad[k] = (bad[k][0], bad[k][1], m[1].strip())
