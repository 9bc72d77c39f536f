"""One call of ``accsat-cc COMPILER ARGS...``: rewrite the C sources, run the compiler.

The rules that keep a build working whatever accsat does:

* a call that compiles no C source (or only preprocesses, prints versions...)
  becomes the compiler itself (``exec``), untouched;
* a file accsat cannot rewrite is compiled as written, after one warning line;
* the compiler's output is held back until it exits: if the rewritten sources
  compile, it is shown (after accsat's warnings); if they do not, the original
  command runs as if accsat were not there, so a user's error reads exactly as
  it does without accsat and a mistake of accsat's never fails a build;
* the exit status is the compiler's (a compiler killed by a signal, or a wrapper
  interrupted by one, ends by the same signal); the private folder is removed
  on every way out.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..fileio import write_atomically
from . import deps, workdir
from .args import Invocation, Source
from .cache import Cache, key
from .config import Config
from .rewrite import Outcome, rewrite

PROG = "accsat-cc"
# every kernel hangs off an OpenACC or OpenMP directive; cpp turns _Pragma into #pragma
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+(acc|omp)\b", re.MULTILINE)
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _interrupt(signum, _frame):
    raise Interrupted(signum)


def say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def exec_compiler(cmd: list[str]) -> int:
    """Become the compiler (pass-through): no return unless it cannot be run."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(cmd[0], cmd)
    except OSError as exc:
        say(f"{PROG}: cannot run '{cmd[0]}': {exc.strerror}")
    return 127


def run_compiler(cmd: list[str], capture: bool) -> tuple[int, bytes, bytes]:
    try:
        proc = subprocess.run(cmd, capture_output=capture)
    except OSError as exc:
        return 127, b"", f"{PROG}: cannot run '{cmd[0]}': {exc.strerror}\n".encode()
    return proc.returncode, proc.stdout or b"", proc.stderr or b""


def replay(out: bytes, err: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.buffer.flush()


def append_report(path: str, kernels: list[dict]) -> None:
    """Whole JSON lines, under an exclusive lock: many compilers may append at once."""
    from ..report import KernelReport, write_jsonl

    reports = []
    for k in kernels:
        try:
            reports.append(KernelReport(**k))
        except TypeError:
            continue
    if not reports:
        return
    try:
        with open(path, "a", encoding="utf-8") as stream:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
            write_jsonl(reports, stream)
    except OSError as exc:
        say(f"{PROG}: cannot write the report {path}: {exc.strerror}")


def keep(folder: str, original: str, text: str) -> None:
    """ACCSAT_KEEP: the rewritten file under FOLDER at the original's absolute path."""
    target = Path(folder) / Path(os.path.abspath(original)).relative_to("/")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, text)
    except OSError as exc:
        say(f"{PROG}: cannot keep {original} in {folder}: {exc.strerror}")


class Build:
    def __init__(self, inv: Invocation, cfg: Config):
        self.inv = inv
        self.cfg = cfg
        self.workdir: workdir.Workdir | None = None
        self.cache = Cache(cfg.cache_dir) if cfg.cache_dir is not None else None
        self.start = time.time()

    # -- accsat ------------------------------------------------------------------------------
    def outcome(self, src: Source, preprocess_options) -> tuple[Outcome, bool]:
        """accsat's result for one source, and whether it came from the cache."""
        from ..errors import AccsatError
        from ..frontend.preprocess import preprocess

        try:
            text = Path(src.path).read_bytes()
            preprocessed = preprocess(Path(src.path), preprocess_options)
        except AccsatError as exc:
            return Outcome(error=str(exc), cacheable=False), False
        except OSError as exc:
            return Outcome(error=f"{src.path}: cannot read: {exc.strerror}", cacheable=False), False
        if not _DIRECTIVE.search(preprocessed.encode("utf-8", "surrogateescape")):
            return Outcome(kernels=[]), False  # no directive, no kernel: nothing to run
        options = self.cfg.options(preprocess_options, src.path)
        k = key(preprocessed, text, options.key(), self.cfg.cache_dir)
        if self.cache is not None:
            entry = self.cache.get(k)
            found = Outcome.from_entry(entry) if entry is not None else None
            if found is not None:
                return found, True
        result = rewrite(src.path, options, self.cfg.timeout)
        if self.cache is not None and result.cacheable:
            self.cache.put(k, result.entry())
        return result, False

    # -- the command ---------------------------------------------------------------------------
    def color(self) -> list[str]:
        """Output is captured: ask for the colours the compiler would have used on a terminal."""
        if (self.inv.gnu_like and not self.inv.color_given and sys.stderr.isatty()
                and os.environ.get("TERM") != "dumb"):
            return ["-fdiagnostics-color=always"]
        return []

    def substituted(self, done: list[tuple[Source, Outcome, str]]) -> list[str]:
        inv = self.inv
        args = list(inv.args)
        front: list[str] = []
        back: list[str] = []  # last: gcc lets the last matching prefix map win
        for src, _outcome, path in done:
            args[src.index] = path
            folder = os.path.dirname(src.path)
            include = folder or "."
            flag = ["-iquote", include] if inv.gnu_like else ["-I", include]
            if flag[1] not in front:
                front += flag
            if inv.debug and inv.gnu_like:
                new = folder + "/" if folder else ""
                back.append(f"-fdebug-prefix-map={os.path.dirname(path)}/={new}")
        return [*inv.launcher, inv.compiler, *front, *self.color(), *args, *back]

    def run(self) -> int:
        inv, cfg = self.inv, self.cfg
        from ..frontend.preprocess import PreprocessOptions

        pp = PreprocessOptions(tuple(inv.cpp_flags), inv.openacc, inv.openmp)
        warnings: list[str] = []
        chosen: list[tuple[int, Source, Outcome]] = []
        outcomes: list[Outcome] = []
        for n, src in enumerate(inv.sources):
            outcome, cached = self.outcome(src, pp)
            outcomes.append(outcome)
            if outcome.error is not None:
                if cfg.strict:
                    say(f"{PROG}: {outcome.error}")
                    return 1
                warnings.append(f"{PROG}: {outcome.error}; compiling the original")
                continue
            warnings += [f"{PROG}: {k['file']}:{k['line']}: {k['reason']}" for k in outcome.kernels
                         if (k.get("verification") or {}).get("verdict") == "fail"]
            if cfg.verbose:
                say(f"{PROG}: {src.path}: {outcome.rewritten} of {len(outcome.kernels)} kernels "
                    f"rewritten ({cfg.variant}{', cached' if cached else ''})")
            if outcome.rewritten:
                if cfg.keep:
                    keep(cfg.keep, src.path, outcome.text or "")
                chosen.append((n, src, outcome))

        if not chosen:
            self.report(outcomes)
            if not warnings:
                return EXEC
            rc, out, err = run_compiler([*inv.launcher, inv.compiler, *self.color(), *inv.args],
                                        capture=True)
            if rc == 0:
                for w in warnings:
                    say(w)
            replay(out, err)
            return rc

        h = hashlib.sha256(os.getcwd().encode() + b"\0")
        for n, src, outcome in chosen:
            h.update(f"{n}\0{src.path}\0".encode() + (outcome.text or "").encode(
                "utf-8", "surrogateescape") + b"\0")
        self.workdir = workdir.acquire(h.hexdigest())
        try:
            return self.compile(chosen, outcomes, warnings)
        finally:
            self.workdir.release()

    def compile(self, chosen, outcomes: list[Outcome], warnings: list[str]) -> int:
        inv, cfg = self.inv, self.cfg
        done: list[tuple[Source, Outcome, str]] = []
        for n, src, outcome in chosen:
            folder = os.path.join(self.workdir.path, str(n))
            os.mkdir(folder)
            path = os.path.join(folder, os.path.basename(src.path))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(outcome.text or "")
            done.append((src, outcome, path))

        rc, out, err = run_compiler(self.substituted(done), capture=True)
        if rc < 0 and -rc in _STOP_SIGNALS:
            return rc
        if rc == 0:
            if inv.deps:
                prefixes = [(os.path.dirname(p) + "/",
                             os.path.dirname(s.path) + "/" if os.path.dirname(s.path) else "")
                            for s, _, p in done]
                deps.fix(deps.candidates(inv.dep_file, inv.output), self.workdir.marker,
                         prefixes, self.start - 1, inv.family)
            self.report(outcomes)
            for w in warnings:
                say(w)
            replay(out, err)
            return 0
        # the rewritten sources did not compile: the original command decides
        rc0, _, _ = run_compiler(inv.command, capture=False)
        if rc0 == 0:
            names = ", ".join(s.path for s, _, _ in done)
            reason = "the rewritten source did not compile"
            for _, o, _ in done:
                for k in o.kernels:
                    if k.get("status") == "rewritten":
                        k["status"], k["reason"] = "unchanged", reason + " (the original was compiled)"
            self.report(outcomes)
            if cfg.verbose or cfg.strict:
                sys.stderr.buffer.write(err)
            for w in warnings:
                say(w)
            if cfg.strict:
                say(f"{PROG}: {names}: {reason}")
                return 1
            say(f"{PROG}: {names}: {reason}; compiled the original")
        return rc0

    def report(self, outcomes: list[Outcome]) -> None:
        if self.cfg.report:
            kernels = [k for o in outcomes for k in o.kernels]
            append_report(self.cfg.report, kernels)


EXEC = -(1 << 30)  # Build.run's answer for "run the original command as it is"


def run(inv: Invocation, cfg: Config) -> int:
    """Rewrite and compile; the compiler's exit status (negative: the signal that ended it)."""
    previous = {s: signal.getsignal(s) for s in _STOP_SIGNALS[1:]}
    try:
        for s in previous:
            signal.signal(s, _interrupt)
        rc = Build(inv, cfg).run()
    except KeyboardInterrupt:
        rc = -signal.SIGINT
    except Interrupted as stop:
        rc = -stop.signum
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if rc == EXEC:
        return exec_compiler(inv.command)
    return rc
